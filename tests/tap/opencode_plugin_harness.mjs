// Calls hooktui's OpenCode plugin as OpenCode calls a plugin's hooks, without OpenCode:
// `node opencode_plugin_harness.mjs PLUGIN.js CALLS.json` prints one JSON line per
// call saying what the plugin did: whether it threw (and its message), and the
// `output` object as the hook left it.
//
// CALLS.json: {"directory": PROJECT, "calls": [{"event", "input", "output"}, ...]}.
// Each hook is called the way OpenCode 1.18.33 calls it: `(input, output)`, with
// `output.args` the very object the tool then runs with (tests/e2e checks that in
// the real binary).

import { readFileSync } from "node:fs";
import { pathToFileURL } from "node:url";

const [pluginPath, callsPath] = process.argv.slice(2);
const { directory, calls } = JSON.parse(readFileSync(callsPath, "utf8"));
const module = await import(pathToFileURL(pluginPath).href);
const plugins = Object.values(module).filter((v) => typeof v === "function");
if (plugins.length !== 1) throw new Error(`expected one plugin export, found ${plugins.length}`);
const hooks = await plugins[0]({ directory, worktree: directory, project: {}, client: {}, $: null });
for (const call of calls) {
  const hook = hooks[call.event];
  let threw = null;
  try {
    await hook(call.input, call.output);
  } catch (err) {
    threw = String((err && err.message) || err);
  }
  process.stdout.write(JSON.stringify({ threw, output: call.output }) + "\n");
}
