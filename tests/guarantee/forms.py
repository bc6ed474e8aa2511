"""The wrapped forms: every way a hook call reaches the runtime through hooktui.

FORMS is the one table the matrix runs. Each runtime `install` can edit gets
one row per kind of line `install` writes for it (test_forms.py rebuilds that
set from the registry and fails on any difference), and SPAWN says how the
runtime starts a command hook (its shell, the kind of stdin it gives, whether
the hook leads a session), so the matrix can run the line as that runtime does.
The last rows are forms no settings file holds: `hooktui tap` written by hand,
with `--wait`, a call a dashboard holds, and the line `hooktui try` runs each
configured hook through.
"""

from __future__ import annotations

from dataclasses import dataclass, field

# How each runtime starts a command hook: the matrix's stand-in for the runtime.
#   shell: "sh", "bash" or "login" (the user's login shell: a condition may make it fish)
#   stdin: "socket" (Node's child_process gives its children socketpairs) or "pipe"
#   leader: the hook starts as the leader of a session of its own
# A runtime that `install` can edit and that has no row here fails test_forms.py.


@dataclass(frozen=True)
class Spawn:
    shell: str
    stdin: str
    leader: bool = False
    note: str = ""
    env: dict[str, str] = field(default_factory=dict)  # set for its hooks, where it matters


SPAWN: dict[str, Spawn] = {
    "claude-code": Spawn("sh", "socket", note="Node child_process, `shell: bash` aside"),
    "codex": Spawn("login", "pipe", leader=True, note="`$SHELL -lc`, setsid"),
    "gemini-cli": Spawn("bash", "socket", note="after its $VARIABLE substitutions"),
    "cursor": Spawn("sh", "pipe", note="no CLI here to measure: a plain pipe"),
    "copilot": Spawn(
        "bash", "socket", note="the `bash` key", env={"COPILOT_HOOK_ALLOW_LOCALHOST": "1"}
    ),  # that variable lets its http hooks post to 127.0.0.1
    "qwen-code": Spawn("sh", "socket", note="Node child_process"),
    "continue-cli": Spawn("sh", "socket", note="Node execFile: /bin/sh -c"),
    # Measured 2026-12-07 (a hook reporting its stdin and session, in each real CLI):
    "mistral-vibe": Spawn("sh", "pipe", leader=True, note="asyncio, start_new_session"),
    # A hook file: `<its #! interpreter> <file>` (the runtime's hook_file_argv), no shell.
    "cline": Spawn("file", "socket", note="Bun child_process, the file's own interpreter"),
    "opencode": Spawn("sh", "socket", leader=True, note="hooktui's plugin: sh -c, detached"),
}

# Runtimes whose settings `install` cannot edit: their hooks are wrapped by hand
# (the `tap` forms below), with why.
NOT_INSTALLABLE: dict[str, str] = {
    "basis": "a seed runtime with no settings file: its hooks are written by hand",
    "fastpace": "a seed runtime with no settings file: its hooks are written by hand",
}

# The kinds of line `install` writes (test_forms.py classifies what it wrote):
#   command: `set -- '<original>'; ... exec <tap> ... "$0" -c "$1"` under the runtime's shell
#   bash: the same line in a hook whose settings choose bash (a `shell` key)
#   heredoc: the original in a quoted here-document (a runtime that substitutes text)
#   exec: an argv hook, `/bin/sh -c '<guard> exec <tap> -- "$@"; exec "$@"' hooktui <argv>`
#   http: an http hook made a command hook: the tap runs `<python> -m hooktui.tap.httphook`
#   file: a hook that is a file: a `#!/bin/sh` wrapper under its name, the original beside it
INSTALL_KINDS = ("command", "bash", "heredoc", "exec", "http", "file")
# Forms no settings file holds.
OTHER_KINDS = ("tap", "tap-wait", "held", "try")


@dataclass(frozen=True)
class Form:
    runtime: str
    kind: str
    what: str

    @property
    def id(self) -> str:
        return f"{self.runtime}/{self.kind}"

    @property
    def installed(self) -> bool:
        return self.kind in INSTALL_KINDS


FORMS: tuple[Form, ...] = (
    Form("claude-code", "command", "a command hook under sh"),
    Form("claude-code", "bash", "a command hook with `shell: bash`"),
    Form("claude-code", "exec", "an `args` (exec-form) hook"),
    Form("claude-code", "http", "an http hook"),
    Form("codex", "command", "a command hook under the user's login shell"),
    Form("gemini-cli", "heredoc", "a command hook naming $GEMINI_PROJECT_DIR"),
    Form("gemini-cli", "command", "a command hook under bash"),
    Form("cursor", "command", "a command hook under sh"),
    Form("copilot", "command", "a `bash` hook"),
    Form("copilot", "http", "an http hook"),
    Form("qwen-code", "command", "a command hook under sh"),
    Form("qwen-code", "http", "an http hook"),
    Form("continue-cli", "command", "a command hook under /bin/sh"),
    Form("mistral-vibe", "command", "a [[hooks]] command under sh"),
    Form("cline", "file", "a hook file (PreToolUse), wrapped by a script"),
    Form("opencode", "command", "a command hook of hooktui's plugin, under sh"),
    Form("claude-code", "tap", "`hooktui tap -- CMD` written by hand"),
    Form("claude-code", "tap-wait", "`hooktui tap --wait -- CMD`"),
    Form("claude-code", "held", "a call a dashboard holds, then lets the hook's answer go"),
    Form("claude-code", "try", "the tap line `hooktui try` runs a configured hook through"),
)

FORM_IDS = tuple(form.id for form in FORMS)
