"""Claude Code: the reference hook protocol (PreToolUse-style names, exit 2 blocks).

One runtime in five files, all `claude_*`: this one (the runtime and its facts),
claude_code/events.py (the 35 events, what each can do, reading a request),
claude_code/schema.py (when an answer is dropped whole), claude_code/answers.py (reading an
answer, by the rules of the version that ran the hook) and claude_code/encode.py
(writing one).

Rules, from the hooks reference (code.claude.com/docs/en/hooks), PROTOCOLS.md and
what the real 2.1.337, 2.1.332 and 2.1.197 did (tests/e2e/ORACLE.md; the runtime wins):
- JSON on stdout (starting with `{`) is read WHATEVER the exit code: exit 1 with a
  deny blocks, exit 1 with an allow is a plain success. It must pass Claude Code's
  output schema (decision approve|block, permissionDecision allow|deny|ask|defer,
  typed fields, hookSpecificOutput with a hookEventName) and its hookEventName
  must be this event's; otherwise the whole answer is dropped as a non-blocking
  error and the action proceeds, except on exit 2 since 2.1.214 (it blocks).
- exit 2: a blocking error with stderr as the reason, unless the JSON answer
  itself denies (then its reason). Events in events.NON_BLOCKING cannot
  block: stderr goes to the user only.
- any other non-zero exit without JSON: a non-blocking error; the action proceeds.
  A killed or timed-out hook is the same. With `onFailure: "block"` (2.1.295+,
  ignored at Stop, SubagentStop, TaskCompleted, TeammateIdle) every such failure
  blocks, and so do a JSON answer on an unexpected exit and schema-invalid JSON.
- exit 0: a `{...}` that is not JSON is not read as an answer; anything else is
  plain text: ignored, except where it becomes context (UserPromptSubmit,
  SessionStart, ...). WorktreeCreate reads the last stdout line as its folder.
- JSON: `continue: false` at a tool event does not stop the call: the answer
  decides it as usual, then the turn ends (a deny ends it too, since 2.1.332's
  time; 2.1.197 sent the reason back and went on). Elsewhere it stops Claude.
  PreToolUse, PreSkillShellCommand, PreModelSwitch: `hookSpecificOutput.
  permissionDecision` allow|deny|ask|defer (+ permissionDecisionReason,
  updatedInput = the whole new input, additionalContext); legacy top-level
  `decision: approve|block`. `defer` (headless -p) hands the call to whoever runs
  Claude: it neither runs nor is refused now (its own decision). A skill's shell
  line is never rewritten: updatedInput there blocks it.
  PostToolUse/UserPromptSubmit/Stop: top-level `decision: "block"` + reason;
  PostToolUse `hookSpecificOutput.updatedToolOutput` replaces the result of an
  MCP tool, or of a built-in tool when it fits that tool's output shape (Bash:
  stdout, stderr, interrupted); `updatedMCPToolOutput` is for MCP tools only.
  PermissionRequest: `hookSpecificOutput.decision.behavior` allow|deny
  (+ updatedInput, updatedPermissions, message, interrupt).
  What else an answer asks for (systemMessage, suppressOutput, a session title,
  watched paths, ...) is the verdict's `answer_effects`, by the canonical.ACTIONS
  names (answers.answer_effects_of).
- Interrupt (2.1.335; seen in 2.1.337): fires when an interrupt ends the main turn
  (not when Claude Code is exiting), matched against `source`; its hooks' output and
  exit code change nothing; 30 s unless the hook sets a timeout (read from the binary).
- Not in a file, so never wrapped: hooks an organization sets in the Admin Console
  (2.1.336), and async / asyncRewake hooks (their wakes capped at 8 in a row since
  2.1.333; Stop and SubagentStop blocks already were: a note on such a record).
"""

from __future__ import annotations

import os

from hooktui.tap.canonical import Call, Outcome, Verdict
from hooktui.tap.runtimes.base import is_pascal_name
from hooktui.tap.runtimes.claude_code import answers
from hooktui.tap.runtimes.claude_code.events import (
    _DETAILS,
    EVENTS,
    GUARDS,
    details_of,
    parse_pascal,
    request_pascal,
)
from hooktui.tap.runtimes.descriptor import HttpHooks, Layout, Runtime, TimeoutRule, Timeouts
from hooktui.tap.runtimes.merge import (
    HookSource,
    MergeRule,
    SettingsReading,
    handlers_of,
    is_number,
)

TYPE_CHECKING = False  # not `typing`'s: the tap's recorder loads this (see tap/base/jsonio.py)
if TYPE_CHECKING:
    from typing import Any

__all__ = ["RUNTIME", "ClaudeCode", "parse_pascal", "request_pascal"]  # Codex reads alike


class ClaudeCode(Runtime):
    def detect(self, request: Any) -> bool:
        return isinstance(request, dict) and is_pascal_name(request.get("hook_event_name"))

    def settings_problems(self, data: Any) -> list[tuple[str, str, str]]:
        """2.1.332's schema: a timeout that is not a number costs the file all its hooks
        (seen 2026-12-07, like a handler without its command)."""
        return [
            (where, "`timeout` is not a number", "file")
            for where, _, handler in handlers_of(data)
            if "timeout" in handler and not is_number(handler["timeout"])
        ]

    def parse(self, request: Any) -> Call:
        call = parse_pascal(self, request)
        call.details = details_of(request)
        return call

    def request_for(self, call: Call) -> dict[str, Any]:
        home = os.path.expanduser("~")
        transcript = f"{home}/.claude/projects/demo/{call.session_id}.jsonl"
        request = request_pascal(call, transcript_path=transcript, permission_mode="default")
        details = call.details or {}
        request.update({key: details[name] for key, name in _DETAILS if name in details})
        return request

    def judge(self, call: Call, outcome: Outcome) -> Verdict:
        return answers.judge(self, call, outcome)

    def judge_hook(self, call: Call, outcome: Outcome) -> Verdict:
        # onFailure: block changes how answers read, not only failures: judge knows it.
        return self.judge(call, outcome)

    def encode(self, call: Call, verdict: Verdict) -> tuple[bytes, bytes, int]:
        from hooktui.tap.runtimes.claude_code import encode  # the recorder never writes answers

        return encode.encode(self.name, call, verdict)

    def http_target(self, url: str):
        """The URL as Node's URL parser reads it (axios): what 2.1.332 sends for a
        space, `..` or `user@` in the URL (ORACLE.md)."""
        from hooktui.tap.base import whatwg  # the http hook command only

        return whatwg.target(url)

    def http_answer(
        self, status: int | None, body: bytes, error: str, content_type: str = "", request=b""
    ) -> tuple[bytes, bytes, int]:
        """How 2.1.332 reads an http hook's reply (its bundled code), as the command
        hook answer it reads the same way. No reply (refused, reset, a bad URL) and a
        non-2xx status: a non-blocking error (a block under `onFailure: "block"`),
        like exit 1. 2xx: an empty body is `{}`; a body that is not a JSON object is a
        non-blocking error (plain text is never context, unlike a command's stdout);
        JSON goes through the command hook's schema. A timeout is the runtime's own
        (it stops the command as it would abort the request). No redirects followed."""
        if status is None:
            return b"", (error or "the request failed").encode(), 1
        if not 200 <= status < 300:
            return b"", error.encode() or b"HTTP %d" % status, 1
        text = body.strip()
        if not text:
            return b"", b"", 0
        if not text.startswith(b"{"):
            shown = text[:200].decode("utf-8", "replace") + ("\u2026" if len(text) > 200 else "")
            msg = f"HTTP hook must return JSON, but got non-JSON response body: {shown}"
            return b"", msg.encode(), 1
        import json  # here, not at the top: the tap's recorder loads this file

        try:
            json.loads(text)
        except ValueError as exc:
            return b"", f"HTTP hook must return valid JSON, but parsing failed: {exc}".encode(), 1
        return body, b"", 0


RUNTIME = ClaudeCode(
    name="claude-code",
    title="Claude Code",
    short="claude",
    priority=90,  # anything PreToolUse-shaped that nobody else claims
    events=EVENTS,
    guards=GUARDS,
    project_dir_env="CLAUDE_PROJECT_DIR",
    env_vars=(
        "CLAUDE_PROJECT_DIR",
        "CLAUDE_PLUGIN_ROOT",
        "CLAUDE_PLUGIN_DATA",
        "CLAUDE_ENV_FILE",
        "CLAUDE_CODE_REMOTE",
        "CLAUDE_CONFIG_DIR",
    ),
    # 2.1.332 sets AI_AGENT=claude-code_2-1-332_harness for its hooks (RUNTIMES-E2E.md).
    version_env=("AI_AGENT=claude-code_",),
    # 600 s for command hooks, but less at some events (UserPromptSubmit 30 s and
    # MessageDisplay 10 s, both measured here; SessionEnd's hooks share a 1.5 s
    # budget) and for prompt (30 s) and agent (60 s) hooks.
    timeouts=Timeouts(
        default_ms=600_000,
        unit_ms=1000,
        rules=(
            TimeoutRule(event="UserPromptSubmit", handler_type="command", ms=30_000),
            TimeoutRule(event="UserPromptSubmit", handler_type="http", ms=30_000),
            TimeoutRule(event="UserPromptSubmit", handler_type="mcp_tool", ms=30_000),
            TimeoutRule(event="MessageDisplay", handler_type="command", ms=10_000),
            TimeoutRule(event="MessageDisplay", handler_type="http", ms=10_000),
            TimeoutRule(event="MessageDisplay", handler_type="mcp_tool", ms=10_000),
            TimeoutRule(event="Interrupt", ms=30_000, since="2.1.335"),
            # Raised to the largest hook's own timeout, up to 60 s.
            TimeoutRule(event="SessionEnd", ms=1_500, max_ms=60_000),
            TimeoutRule(handler_type="prompt", ms=30_000),
            TimeoutRule(handler_type="agent", ms=60_000),
        ),
    ),
    settings=Layout(
        project_files=(".claude/settings.json", ".claude/settings.local.json"),
        user_dir=".claude",
        user_dir_env="CLAUDE_CONFIG_DIR",
        user_files=("settings.json",),
        local_twins={"settings.json": "settings.local.json"},
        exec_args_key="args",
        handler_types=("command", "http", "mcp_tool", "prompt", "agent"),  # PROTOCOLS.md
        async_key="async",
        async_keys=("asyncRewake",),  # 2.1.332's schema: "Implies async."
        # 2.1.332: headers interpolate $V / ${V} of allowedEnvVars only; it drops
        # Content-Length / Transfer-Encoding, and never sends its own credentials.
        http=HttpHooks(
            ignored_headers=("content-length", "transfer-encoding"),
            withheld_env=(
                "ANTHROPIC_API_KEY",
                "ANTHROPIC_AUTH_TOKEN",
                "CLAUDE_CODE_OAUTH_TOKEN",
                "CLAUDE_CODE_OAUTH_REFRESH_TOKEN",
                "CLAUDE_CODE_SESSION_ACCESS_TOKEN",
                "AWS_BEARER_TOKEN_BEDROCK",
            ),
            policy_keys=("allowedHttpHookUrls", "httpHookAllowedEnvVars"),
            policy_files=("/etc/claude-code/managed-settings.json",),
        ),
        fail_closed=("onFailure", "block"),
        # PROTOCOLS.md: since 2.1.295; ignored at these events (and for async hooks).
        fail_closed_since="2.1.295",
        # Interrupt: nothing is left to block (its hooks' output and exits are ignored).
        fail_closed_ignored=frozenset(
            {"Stop", "SubagentStop", "TaskCompleted", "TeammateIdle", "Interrupt"}
        ),
        shell="sh",  # seen: /bin/sh -c <command>
        shell_key="shell",  # 2.1.332: "bash" (the user's $SHELL) or "powershell" (pwsh)
        posix_shells=("bash",),
    ),
    prompt_keys=("prompt",),
    output_keys=("tool_response", "last_assistant_message", "delta"),
    command_keys=("command",),
    path_keys=("file_path", "notebook_path", "path"),
    shell_tool="Bash",
    read_tool="Read",
    # Several hooks on one call (2.1.332's bundled code, and its real CLI: tests/e2e/
    # test_e2e_merge.py): all run at once; the answers fold deny > defer > ask >
    # allow in the order they finish, and an updatedInput counts when its hook's
    # decision leads at that moment: the last such to finish wins (#83353). A
    # failure blocks only with onFailure: block. Identical handlers run once.
    merge=MergeRule(
        runs="parallel",
        order="user, project, local settings, then managed and plugin hooks",
        rewrite="last_leading",
        reason="first_finished",
        dedup="command",
        basis="2.1.332: its bundled code (the PreToolUse fold) and its real CLI, two hooks "
        "answering differently on one call (2026-12-07)",
        unknown="",
    ),
    # The sources its /hooks screen names (userSettings, projectSettings,
    # localSettings, policySettings, pluginHook); the managed folder and its drop-ins
    # and the cached Admin Console settings as 2.1.332's code reads them.
    hook_sources=(
        HookSource(scope="user", base="user", path="settings.json"),
        HookSource(scope="project", path=".claude/settings.json"),
        HookSource(scope="local", path=".claude/settings.local.json"),
        HookSource(
            scope="managed",
            base="/",
            path="/etc/claude-code/managed-settings.json",
            note="with allowManagedHooksOnly, only managed hooks run",
        ),
        HookSource(scope="managed", base="/", path="/etc/claude-code/managed-settings.d/*.json"),
        HookSource(
            scope="admin",
            base="user",
            path="remote-settings.json",
            needs="2.1.336+: settings an organization sets in Anthropic's Admin Console",
            note="the CLI's cached copy; the source itself is Anthropic's server",
        ),
        HookSource(scope="plugin", base="user", path="plugins/*/hooks/hooks.json"),
    ),
    # Seen in 2.1.332 (2026-12-07): a file that is not JSON, or a handler its schema
    # refuses (no command, a timeout that is not a number, an unknown type), and no
    # hook of that file runs; an unknown event is skipped; a matcher that is not a
    # regular expression never fires.
    reading=SettingsReading(
        bad_file="ignores the file",
        bad_hook="ignores every hook of the file",
        bad_hook_file=True,
        unknown_event="skips that event",
        matcher="claude",
        bad_matcher="never fires",
        basis="2.1.332's real CLI (tests/e2e/test_e2e_inventory.py)",
    ),
)
