// Continue CLI's own hook runner, driven as its hook service drives it, without a model.
//
//   node continue_runner.mjs PACKAGE_DIR AMARO_DIR CWD HOME INPUTS.json OUT.json
//
// Continue ships its TypeScript sources beside the bundle; this loads the three hook
// modules as shipped (src/hooks/{types,hookConfig,hookRunner}.ts, types stripped by
// amaro, Node's own type stripper; only the logger import is replaced), loads the hooks
// from the settings files with its loadHooksConfig(CWD, HOME), and fires each input
// with its runHooks, the way HookService.fireEvent does (disabled or no hooks: nothing;
// a runner that throws: nothing). OUT.json: one HookEventResult per input, in order.
// The 1.5.47 CLI itself fires no hook event (ORACLE.md): this is its runner's reading.

import { createRequire } from "node:module";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";

const [pkg, amaroDir, cwd, home, inputsPath, outPath] = process.argv.slice(2);
const amaro = createRequire(path.join(amaroDir, "package.json"))("amaro");

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "continue-hooks-"));
fs.writeFileSync(
  path.join(dir, "logger.mjs"),
  "export const logger = { warn() {}, debug() {}, info() {}, error() {} };\n",
);
for (const name of ["types", "hookConfig", "hookRunner"]) {
  const source = fs.readFileSync(path.join(pkg, "src", "hooks", `${name}.ts`), "utf8");
  let code = amaro.transformSync(source, { mode: "strip-only" }).code;
  code = code.replace(/from\s+["']\.\.\/util\/logger\.js["']/g, 'from "./logger.mjs"');
  code = code.replace(/from\s+["']\.\/(\w+)\.js["']/g, 'from "./$1.mjs"');
  fs.writeFileSync(path.join(dir, `${name}.mjs`), code);
}
const { loadHooksConfig } = await import(pathToFileURL(path.join(dir, "hookConfig.mjs")));
const { runHooks } = await import(pathToFileURL(path.join(dir, "hookRunner.mjs")));

const loaded = loadHooksConfig(cwd, home);
const results = [];
for (const input of JSON.parse(fs.readFileSync(inputsPath, "utf8"))) {
  if (loaded.disabled || Object.keys(loaded.hooks).length === 0) {
    results.push({ blocked: false, results: [] });
    continue;
  }
  try {
    results.push(await runHooks(loaded.hooks, input, cwd));
  } catch (error) {
    results.push({ blocked: false, results: [], threw: String(error) });
  }
}
fs.writeFileSync(outPath, JSON.stringify(results));
fs.rmSync(dir, { recursive: true, force: true });
