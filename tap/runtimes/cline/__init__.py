"""Cline CLI: hooks are files, one per event; JSON in, `cancel` / context / `overrideInput` out.

Rules, from the runner in `@cline/core` 0.0.86 (bundled in the `cline` 3.0.65 binary)
and what the real CLI did (tests/e2e/ORACLE.md, test_e2e_cline.py):
- No settings: a file named after an event (PreToolUse, PostToolUse, TaskStart,
  TaskResume, TaskCancel, TaskComplete, TaskError, UserPromptSubmit, PreCompact,
  SessionShutdown; any case; no extension or .sh .bash .zsh .js .mjs .cjs .ts .mts
  .cts .py .ps1) directly in `~/Documents/Cline/Hooks`, `~/.cline/hooks`
  (`$CLINE_DIR/hooks` instead when CLINE_DIR is set, `DIR/hooks` with `--config
  DIR`), `<workspace>/.clinerules/hooks` or `<workspace>/.cline/hooks` is that
  event's hook. A symbolic link is not a file there: it never runs.
  Cline runs `<the file's #! interpreter> <file>` (`env` dropped, sh/bash/zsh/python
  by name), else by extension (node, bun run, python3, pwsh -File), else
  `bash <file>` (files.py); the mode bits play no part.
- Request: `hookName` (tool_call, tool_result, prompt_submit, agent_start,
  agent_resume, agent_end, agent_error, agent_abort, session_shutdown),
  `clineVersion`, `timestamp`, `taskId`, `sessionContext`, `workspaceRoots`,
  `workspaceInfo`, `userId`, `agent_id`, `parent_agent_id`; tool_call adds
  `iteration`, `tool_call {id, name, input}` and `preToolUse {toolName,
  parameters}` (each value a string); tool_result `tool_result {id, name, input,
  output, error, durationMs, ...}` and `postToolUse {..., result, success}`.
  PreCompact maps to no event: that file never runs.
- Only PreToolUse and PostToolUse hooks are waited for (120 s, then SIGKILL to the
  hook alone); the others run in the background with stdout ignored: their
  answers change nothing.
- The exit code is never read. Stdout, trimmed: empty is no answer; when lines start
  `HOOK_CONTROL<TAB>`, the last such line is the answer, else the whole text must be
  JSON. Text that is not JSON and a timeout are skipped with a warning (the tool
  runs). JSON that is not an object (an array, a number) asks nothing.
- The answer: `cancel: true` stops the whole run (the tool does not run; the
  reason is `errorMessage`, else `context`/`contextModification`); otherwise
  `context` (else `contextModification`, else `errorMessage`) is given to the model
  as a `<hook_context>` (up to 50,000 characters); `overrideInput` (PreToolUse)
  replaces the tool's input whole. Several files for one event run one after the
  other and their answers add up (any cancel cancels, the last override wins).
"""

from __future__ import annotations

from hooktui.tap.canonical import Call, Outcome, Verdict
from hooktui.tap.runtimes.base import (
    Stdout,
    as_dict,
    cannot,
    encode_generic_failure,
    failure,
    json_line,
    native_of,
    process_failure,
    s,
)
from hooktui.tap.runtimes.descriptor import HookFiles, Layout, Runtime, Timeouts
from hooktui.tap.runtimes.merge import HookSource, MergeRule, SettingsReading

TYPE_CHECKING = False  # not `typing`'s: the tap's recorder loads this (see base/jsonio.py)
if TYPE_CHECKING:
    from typing import Any

PRE, POST = "tool_call", "tool_result"
EVENTS = {
    PRE: "pre_tool_use",
    POST: "post_tool_use",
    "prompt_submit": "user_prompt",
    "agent_start": "session",
    "agent_resume": "session",
    "session_shutdown": "session",
    "agent_end": "stop",
    "agent_abort": "stop",
    "agent_error": "stop",
}
# The hook file's name (the event as users see it) -> the hookName its requests carry.
FILES = {
    "TaskStart": "agent_start",
    "TaskResume": "agent_resume",
    "TaskCancel": "agent_abort",
    "TaskComplete": "agent_end",
    "TaskError": "agent_error",
    "PreToolUse": PRE,
    "PostToolUse": POST,
    "UserPromptSubmit": "prompt_submit",
    "PreCompact": "",  # known, never run (3.0.65)
    "SessionShutdown": "session_shutdown",
}
_TITLE = "Cline"
CONTROL = "HOOK_CONTROL\t"
MAX_CONTEXT = 50_000  # what the runner keeps of a context (then a truncation note)
_GOES = {PRE: "the tool runs", POST: "the result stands"}


class Cline(Runtime):
    def detect(self, request: Any) -> bool:
        return (
            isinstance(request, dict)
            and request.get("hookName") in EVENTS
            and ("taskId" in request or "clineVersion" in request)
        )

    def could_send(self, request: Any) -> bool:
        return isinstance(request, dict) and request.get("hookName") in EVENTS

    def parse(self, request: Any) -> Call:
        r = as_dict(request)
        native = s(r, "hookName")
        tool = as_dict(r.get("tool_call") if native == PRE else r.get("tool_result"))
        roots = r.get("workspaceRoots")
        cwd = roots[0] if isinstance(roots, list) and roots and isinstance(roots[0], str) else ""
        details = {}
        error = as_dict(r.get("error")).get("message") or tool.get("error")
        if isinstance(error, str) and error:
            details["error"] = error
        turn = as_dict(r.get("turn"))
        if isinstance(turn.get("outputText"), str):
            details["last_message"] = turn["outputText"]
        prompt = as_dict(r.get("userPromptSubmit")).get("prompt")
        return Call(
            runtime=self.name,
            event=self.event_of(native),
            native_event=native,
            tool_name=s(tool, "name"),
            tool_input=tool.get("input"),
            tool_output=tool.get("output") if native == POST else None,
            is_error=bool(tool.get("error")) if native == POST else None,
            session_id=s(r, "taskId"),
            agent_id=s(r, "agent_id"),
            tool_call_id=s(tool, "id"),
            cwd=cwd,
            prompt=prompt if isinstance(prompt, str) else None,
            details=details or None,
        )

    def request_for(self, call: Call) -> dict[str, Any]:
        native = native_of(call, EVENTS, PRE)
        r: dict[str, Any] = {
            "clineVersion": "",
            "hookName": native,
            "timestamp": "2026-12-07T12:00:00.000Z",
            "taskId": call.session_id,
            "sessionContext": {"rootSessionId": call.session_id},
            "workspaceRoots": [call.cwd],
            "workspaceInfo": {"rootPath": call.cwd, "hint": "project"},
            "userId": "unknown",
            "agent_id": call.agent_id,
            "parent_agent_id": None,
        }
        params = _strings(call.tool_input)
        if native == PRE:
            r["iteration"] = 1
            r["tool_call"] = {
                "id": call.tool_call_id,
                "name": call.tool_name,
                "input": call.tool_input,
            }
            r["preToolUse"] = {"toolName": call.tool_name, "parameters": params}
        elif native == POST:
            failed = bool(call.is_error)
            output = call.tool_output
            commands = (
                call.tool_input.get("commands") if isinstance(call.tool_input, dict) else None
            )
            if isinstance(output, str) and isinstance(commands, list) and commands:
                # run_commands answers one {query, result, success} per command (seen 3.0.65)
                output = [{"query": commands[0], "result": output, "success": not failed}]
            r["iteration"] = 1
            r["tool_result"] = {
                "id": call.tool_call_id,
                "name": call.tool_name,
                "input": call.tool_input,
                "output": output,
                "durationMs": 12,
                "startedAt": "2026-12-07T12:00:00.000Z",
                "endedAt": "2026-12-07T12:00:00.012Z",
            }
            if failed:  # (absent when the tool succeeded)
                r["tool_result"]["error"] = json_line(output).decode().strip()
            r["postToolUse"] = {
                "toolName": call.tool_name,
                "parameters": params,
                "result": output if isinstance(output, str) else json_line(output).decode().strip(),
                "success": not failed,
                "executionTimeMs": 12,
            }
        elif native == "prompt_submit":
            r["userPromptSubmit"] = {"prompt": call.prompt or "", "attachments": []}
        return r

    def judge(self, call: Call, outcome: Outcome) -> Verdict:
        native = call.native_event
        if native not in (PRE, POST):
            return Verdict(
                decision="allow",
                failure_detail=f"{_TITLE} runs this hook in the background and reads no answer",
                answer_effects={"async": True},
            )
        goes = _GOES[native]
        if outcome.timed_out or outcome.spawn_error:
            return process_failure(outcome, _TITLE, "proceeds", f"skipped with a warning; {goes}")
        out = _control(outcome.stdout)
        if out.kind == "empty":
            if outcome.exit_code != 0:  # killed, or a non-zero exit, with nothing said
                how = (
                    f"exit {outcome.exit_code}"
                    if outcome.exit_code is not None
                    else f"killed by signal {outcome.signal}"
                )
                kind = "exit_code" if outcome.exit_code is not None else "signal"
                return failure(
                    kind, f"{how} and nothing on stdout: {_TITLE} reads no exit code; {goes}"
                )
            return Verdict(decision="allow")
        if out.kind != "json":
            return failure(
                "invalid_json", f"stdout is not JSON: {_TITLE} skips it with a warning; {goes}"
            )
        obj = out.obj
        if obj is None:
            return Verdict(decision="allow")  # JSON that is no object asks nothing
        return _answer(native, obj)

    def encode(self, call: Call, verdict: Verdict) -> tuple[bytes, bytes, int]:
        native = native_of(call, EVENTS, PRE)
        d = verdict.decision
        if native not in (PRE, POST):
            if d == "allow":
                return b"", b"", 0
            raise cannot(self.name, verdict, native or call.event)
        answer: dict[str, Any] = {}
        if verdict.context:
            answer["contextModification"] = verdict.context
        if d == "deny":
            answer = {"cancel": True, "errorMessage": verdict.reason}
        elif d == "modify" and native == PRE:
            answer["overrideInput"] = verdict.updated_input
        elif d == "failure":
            return encode_generic_failure(self.name, call, verdict)
        elif d != "allow":
            raise cannot(self.name, verdict, native)
        return (json_line(answer) if answer else b""), b"", 0

    def hook_file_argv(self, path: str) -> list[str]:
        from hooktui.tap.runtimes.cline.files import argv_for

        return argv_for(path)


def _control(raw: bytes) -> Stdout:
    """What the runner parses: the last `HOOK_CONTROL<TAB>` line when there is one, else
    the whole (trimmed) stdout."""
    text = raw.decode("utf-8", errors="replace").strip()
    lines = [line.strip() for line in text.split("\n")]
    marked = [line[len(CONTROL) :] for line in lines if line.startswith(CONTROL)]
    return Stdout(marked[-1].encode() if marked else text.encode())


def _answer(native: str, obj: dict) -> Verdict:
    """An answer object, as the runner reads it (core 0.0.86)."""
    context = obj.get("context")
    if not isinstance(context, str):
        context = obj.get("contextModification")
    context = context if isinstance(context, str) else None
    error = obj.get("errorMessage")
    error = error if isinstance(error, str) and error.strip() else None
    if obj.get("cancel") is True:
        reason = error if error is not None else (context or "")
        return Verdict(decision="deny", reason=reason, answer_effects={"stop": reason})
    said = context if context is not None else error
    said = said if said and said.strip() else ""
    if len(said) > MAX_CONTEXT:
        said = f"{said[:MAX_CONTEXT]}\n[hook context truncated: exceeded {MAX_CONTEXT} characters]"
    if native == PRE and "overrideInput" in obj:
        return Verdict(decision="modify", updated_input=obj["overrideInput"], context=said)
    return Verdict(decision="allow", context=said)


def _strings(tool_input: Any) -> dict[str, str]:
    """`preToolUse.parameters`: each value a string (JSON for anything else)."""
    if not isinstance(tool_input, dict):
        return {}
    return {
        k: v if isinstance(v, str) else json_line(v).decode().strip() for k, v in tool_input.items()
    }


RUNTIME = Cline(
    name="cline",
    title=_TITLE,
    priority=13,  # `hookName` is its own
    events=EVENTS,
    guards=frozenset({PRE}),
    env_vars=("CLINE_BUILD_ENV", "CLINE_CONNECTOR_CLI_LAUNCH"),
    # Set for every child of the CLI, hooks too (seen 3.0.65).
    caller_env=("CLINE_CONNECTOR_CLI_LAUNCH", "CLINE_BUILD_ENV"),
    timeouts=Timeouts(default_ms=120_000),
    settings=Layout(
        project_files=(".clinerules/hooks", ".cline/hooks"),
        user_dir="",
        user_files=("Documents/Cline/Hooks", ".cline/hooks"),
        # resolveClineDir: `--config DIR`, else $CLINE_DIR (trimmed), else ~/.cline.
        user_file_env={".cline/hooks": "CLINE_DIR/hooks"},
        formats=(),
        hook_files=HookFiles(
            names=FILES,
            extensions=(
                "",
                ".sh",
                ".bash",
                ".zsh",
                ".js",
                ".mjs",
                ".cjs",
                ".ts",
                ".mts",
                ".cts",
                ".py",
                ".ps1",
            ),
            waited=frozenset({"PreToolUse", "PostToolUse"}),
        ),
    ),
    merge=MergeRule(
        runs="sequential",
        order="its hook folders' files, sorted by path",
        precedence=("deny", "allow"),
        rewrite="last_in_order",
        reason="joined",
        quirk="every file runs, a cancel too: any cancel stops the run, their contexts are joined",
        basis="3.0.65: its bundled @cline/core 0.0.86 runner: the files of one event run one "
        "after another, each given the same request; the answers add up",
        unknown="",
    ),
    # 3.0.65 (@cline/shared's resolveHooksConfigSearchPaths): these four folders, every
    # file of all of them run in the order of their full paths.
    hook_sources=(
        HookSource(scope="user", base="home", path="Documents/Cline/Hooks"),
        # $CLINE_DIR/hooks instead when CLINE_DIR is set (Layout.user_file_env); a
        # `--config DIR` on its command line moves it to DIR/hooks, which no file says.
        HookSource(scope="user", base="home", path=".cline/hooks"),
        HookSource(scope="project", path=".clinerules/hooks"),
        HookSource(scope="project", path=".cline/hooks"),
    ),
    reading=SettingsReading(
        bad_file="",  # no settings file: a folder it cannot list is passed over
        bad_hook="never runs it",
        unknown_event="never runs it",
        matcher="none",
        basis="3.0.65: its bundled runner lists the regular files named for an event (any "
        "case) with an extension it knows; anything else in its folders is passed over",
    ),
    prompt_keys=("userPromptSubmit",),
    output_keys=("tool_result", "postToolUse", "turn"),
    command_keys=("commands", "command"),
    path_keys=("path",),
    shell_tool="run_commands",
    read_tool="read_files",
)
