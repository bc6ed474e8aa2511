// hooktui command hooks for OpenCode (plugin version 1).
//
// OpenCode has no command hooks: its plugins are JavaScript run inside it. This
// plugin runs commands as hooks, from `.opencode/command-hooks.json` and
// `~/.config/opencode/command-hooks.json` (read on every call):
//
//   {"hooks": {"tool.execute.before": [{"matcher": "bash", "hooks": [
//       {"type": "command", "command": "python3 guard.py", "timeout": 30}]}]}}
//
// Events: tool.execute.before, tool.execute.after, permission.ask. The matcher is
// a regular expression over the whole tool name ("" or "*": every tool; one that
// is not a regular expression is a settings error, as below). Each
// command runs under /bin/sh -c in the project folder, in a process group of its
// own, with one JSON request on stdin:
//
//   {"hook_event_name", "session_id", "tool_call_id", "tool_name", "tool_input",
//    "cwd", "on_failure", "plugin_version"}  (+ "tool_output", "title",
//    "metadata" after the tool; "permission", "status" for permission.ask)
//
// and answers on stdout: nothing (allow), or a JSON object: {"decision": "deny",
// "reason"} refuses (before: the tool does not run, the model reads the reason;
// after: the model reads the reason instead of the output; permission.ask:
// denied); {"tool_input": {...}} rewrites the tool's input whole (before);
// {"tool_output": "..."} replaces what the model reads (after); {"decision":
// "allow" | "ask"} answers permission.ask. Exit 2 refuses with stderr as the
// reason. Anything else is a failure: a non-zero exit, a crash, a timeout
// (default 60 s), a command that cannot start, stdout that is not a JSON object,
// a decision this event has no use for, a settings file that cannot be read.
// A failure REFUSES the call at tool.execute.before and permission.ask unless
// the hook says "onFailure": "continue" (it fails closed: a guard that is
// missing or broken never lets a call through unchecked); after the tool it
// changes nothing. Hooks of one event run in order; the first refusal stops;
// each sees the input as the ones before it left it.
//
// `hooktui install opencode` writes this file and wraps the commands in the tap
// (which records each call); `hooktui uninstall opencode` unwraps them and leaves
// this file, which keeps running your hooks.

import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";

const VERSION = 1;
const SETTINGS = "command-hooks.json";
const DEFAULT_TIMEOUT_S = 60;
const GUARDS = new Set(["tool.execute.before", "permission.ask"]);

function userDir() {
  const xdg = process.env.XDG_CONFIG_HOME;
  return join(xdg && xdg.startsWith("/") ? xdg : join(homedir(), ".config"), "opencode");
}

// Every handler for `event` whose matcher takes `tool`, project file first.
function handlers(directory, event, tool) {
  const out = [];
  for (const dir of [join(directory, ".opencode"), userDir()]) {
    let text;
    try {
      text = readFileSync(join(dir, SETTINGS), "utf8");
    } catch (err) {
      if (err && err.code === "ENOENT") continue;
      throw new Error(`${join(dir, SETTINGS)}: cannot read: ${err.message}`);
    }
    let data;
    try {
      data = JSON.parse(text);
    } catch (err) {
      throw new Error(`${join(dir, SETTINGS)}: not valid JSON: ${err.message}`);
    }
    const groups = (data && data.hooks && data.hooks[event]) || [];
    if (!Array.isArray(groups)) throw new Error(`${join(dir, SETTINGS)}: hooks.${event} is not a list`);
    for (const group of groups) {
      const matcher = group && typeof group.matcher === "string" ? group.matcher : "";
      if (!matches(matcher, tool)) continue;
      for (const hook of (group && group.hooks) || []) {
        if (hook && hook.type === "command" && typeof hook.command === "string") out.push(hook);
      }
    }
  }
  return out;
}

function matches(matcher, tool) {
  if (matcher === "" || matcher === "*") return true;
  let pattern;
  try {
    pattern = new RegExp(`^(?:${matcher})$`);
  } catch (err) {
    // A guard whose matcher cannot be read must not stop guarding: a settings error.
    throw new Error(`matcher ${JSON.stringify(matcher)} is not a regular expression`);
  }
  return pattern.test(tool || "");
}

// Run one command: {code, signal, stdout, stderr, timedOut, spawnError}.
function run(command, request, cwd, timeoutS) {
  return new Promise((resolve) => {
    let child;
    const out = [];
    const err = [];
    let timedOut = false;
    let done = false;
    const finish = (result) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      resolve(result);
    };
    try {
      child = spawn("/bin/sh", ["-c", command], {
        cwd,
        env: { ...process.env, OPENCODE_PROJECT_DIR: cwd, OPENCODE_COMMAND_HOOKS: String(VERSION) },
        stdio: ["pipe", "pipe", "pipe"],
        detached: true,
      });
    } catch (e) {
      resolve({ spawnError: String((e && e.message) || e) });
      return;
    }
    const timer = setTimeout(() => {
      timedOut = true;
      try {
        process.kill(-child.pid, "SIGKILL");
      } catch {
        child.kill("SIGKILL");
      }
    }, timeoutS * 1000);
    child.on("error", (e) => finish({ spawnError: String((e && e.message) || e) }));
    child.stdout.on("data", (d) => out.push(d));
    child.stderr.on("data", (d) => err.push(d));
    child.stdin.on("error", () => {});
    child.on("close", (code, signal) =>
      finish({
        code,
        signal,
        timedOut,
        stdout: Buffer.concat(out).toString("utf8"),
        stderr: Buffer.concat(err).toString("utf8"),
      }),
    );
    child.stdin.end(JSON.stringify(request));
  });
}

// What an answer asks, as {kind: "allow" | "deny" | "failure", reason, input, output, status}.
function read(event, result) {
  if (result.spawnError) return { kind: "failure", reason: `the hook could not be started: ${result.spawnError}` };
  if (result.timedOut) return { kind: "failure", reason: "the hook ran past its timeout" };
  if (result.code === null) return { kind: "failure", reason: `the hook was killed by ${result.signal}` };
  if (result.code === 2) return { kind: "deny", reason: result.stderr.trim() || "refused by a command hook" };
  if (result.code !== 0) return { kind: "failure", reason: `the hook exited ${result.code}: ${result.stderr.trim()}` };
  const text = result.stdout.trim();
  if (!text) return { kind: "allow" };
  let answer;
  try {
    answer = JSON.parse(text);
  } catch {
    return { kind: "failure", reason: "the hook's answer is not JSON" };
  }
  if (!answer || typeof answer !== "object" || Array.isArray(answer)) {
    return { kind: "failure", reason: "the hook's answer is not a JSON object" };
  }
  const reason = typeof answer.reason === "string" ? answer.reason : "";
  const decision = answer.decision;
  if (decision === "deny" || decision === "block") return { kind: "deny", reason: reason || "refused by a command hook" };
  const ask = event === "permission.ask" && decision === "ask";
  if (decision !== undefined && decision !== "allow" && !ask) {
    return { kind: "failure", reason: `the hook answered decision ${JSON.stringify(decision)}, which ${event} has no use for` };
  }
  const input = event === "tool.execute.before" && answer.tool_input && typeof answer.tool_input === "object" && !Array.isArray(answer.tool_input) ? answer.tool_input : undefined;
  const output = event === "tool.execute.after" && typeof answer.tool_output === "string" ? answer.tool_output : undefined;
  return { kind: "allow", input, output, status: ask ? "ask" : decision === "allow" ? "allow" : undefined };
}

function request(event, fields, directory, hook) {
  return {
    hook_event_name: event,
    ...fields,
    cwd: directory,
    on_failure: onFailure(event, hook),
    plugin_version: VERSION,
  };
}

function onFailure(event, hook) {
  if (!GUARDS.has(event)) return "continue";
  return hook.onFailure === "continue" ? "continue" : "block";
}

function timeoutOf(hook) {
  const t = hook.timeout;
  return typeof t === "number" && t > 0 ? t : DEFAULT_TIMEOUT_S;
}

// Runs the event's hooks in order; returns the refusal reason, or "" when none refused.
async function each(event, tool, directory, fields, apply) {
  let hooks;
  try {
    hooks = handlers(directory, event, tool);
  } catch (err) {
    return GUARDS.has(event) ? `command hooks: ${err.message}` : "";
  }
  for (const hook of hooks) {
    const answer = read(event, await run(hook.command, request(event, fields(), directory, hook), directory, timeoutOf(hook)));
    if (answer.kind === "deny") return answer.reason;
    if (answer.kind === "failure") {
      if (onFailure(event, hook) === "block") return `command hook failed (${answer.reason}); refused: its onFailure is "block"`;
      continue;
    }
    apply(answer);
  }
  return "";
}

export const HooktuiCommandHooks = async ({ directory }) => ({
  "tool.execute.before": async (input, output) => {
    const fields = () => ({ session_id: input.sessionID, tool_call_id: input.callID, tool_name: input.tool, tool_input: output.args });
    let refused;
    try {
      refused = await each("tool.execute.before", input.tool, directory, fields, (answer) => {
        if (!answer.input) return;
        // OpenCode runs the tool with this very object: change it in place.
        for (const key of Object.keys(output.args)) delete output.args[key];
        Object.assign(output.args, answer.input);
      });
    } catch (err) {
      refused = `command hooks: ${(err && err.message) || err}`;
    }
    if (refused) throw new Error(refused);
  },
  "tool.execute.after": async (input, output) => {
    const fields = () => ({
      session_id: input.sessionID,
      tool_call_id: input.callID,
      tool_name: input.tool,
      tool_input: input.args,
      tool_output: output.output,
      title: output.title,
      metadata: output.metadata,
    });
    try {
      const refused = await each("tool.execute.after", input.tool, directory, fields, (answer) => {
        if (answer.output !== undefined) output.output = answer.output;
      });
      if (refused) output.output = refused;
    } catch {
      // after the tool, a failure changes nothing
    }
  },
  "permission.ask": async (input, output) => {
    const tool = input && (input.type || input.permission);
    const fields = () => ({ session_id: input.sessionID, tool_call_id: input.callID, tool_name: tool, permission: input, status: output.status });
    let refused;
    try {
      refused = await each("permission.ask", tool, directory, fields, (answer) => {
        if (answer.status) output.status = answer.status;
      });
    } catch (err) {
      refused = `command hooks: ${(err && err.message) || err}`;
    }
    if (refused) output.status = "deny";
  },
});
