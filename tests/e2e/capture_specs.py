"""The capture sessions of each runtime (see capture.py): what makes each CLI fire
each event here. What no session here can make a CLI fire is listed in ORACLE.md."""

from __future__ import annotations

import json
from typing import Any

from tests.e2e.capture import Scenario, Spec, hook_for
from tests.e2e.drivers import DRIVERS
from tests.e2e.drivers_chat import COPILOT as _COPILOT
from tests.e2e.drivers_chat import QWEN as _QWEN
from tests.e2e.harness import Sandbox, cli_path

# The 34 events of 2.1.197 (the first pin; an event it does not know would void its
# settings), and 2.1.335's Interrupt beside them for the current pin.
CLAUDE_197_EVENTS = (
    "PreToolUse PostToolUse PostToolUseFailure PostToolBatch Notification UserPromptSubmit "
    "UserPromptExpansion SessionStart SessionEnd Stop StopFailure SubagentStart SubagentStop "
    "PreCompact PostCompact PreModelSwitch PostModelSwitch PermissionRequest PermissionDenied "
    "Setup TeammateIdle TaskCreated TaskCompleted Elicitation ElicitationResult ConfigChange "
    "WorktreeCreate WorktreeRemove InstructionsLoaded CwdChanged FileChanged DirectoryAdded "
    "MessageDisplay PreSkillShellCommand"
).split()
CLAUDE_EVENTS = [*CLAUDE_197_EVENTS, "Interrupt"]


def _call(tool: str, /, **tool_input: Any) -> dict[str, Any]:
    return {"text": f"calling {tool}", "calls": [{"name": tool, "input": tool_input}]}


def _text(text: str) -> dict[str, Any]:
    return {"text": text}


def _user_lines(*prompts: str) -> str:
    """stream-json input: one user message per prompt, handled in turn in one session."""
    return "".join(
        json.dumps({"type": "user", "message": {"role": "user", "content": p}}) + "\n"
        for p in prompts
    )


# --- Claude Code --------------------------------------------------------------------------

_CLAUDE = DRIVERS["claude-code"]


def _claude_hooks(sb: Sandbox, events: list[str]) -> None:
    hooks = {e: [{"hooks": [{"type": "command", "command": hook_for(sb, e)}]}] for e in events}
    path = sb.project / ".claude" / "settings.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps({"hooks": hooks}, indent=2) + "\n")


def _claude(*args: str):
    return lambda sb: [str(cli_path("claude-code")), "-p", *args]


# Changes the project's settings (ConfigChange) and a watched file (FileChanged),
# then gives the watcher time to tell.
_CHANGE_SCRIPT = """\
python3 - <<'PY'
import json
p = '.claude/settings.json'
d = json.load(open(p)); d['env'] = {'E2E_CHANGED': '1'}; json.dump(d, open(p, 'w'))
PY
echo changed >> watched.txt
sleep 3
"""
_SKILL = "---\nname: hello\ndescription: say hello\n---\nHello output: !`echo skill-ran`\n"
_COMMAND = "---\ndescription: greet\n---\nGreet the user: $ARGUMENTS\n"


# stream-json in and out: prompts (and control requests) on stdin, one session.
_STREAM_JSON = (
    "--input-format", "stream-json", "--output-format", "stream-json", "--verbose",
    "--allowedTools", "Bash",
)  # fmt: skip


def interrupt_feed(*, then: str = "") -> list[dict]:
    """stream-json input: a prompt; once its tool runs (the `started` file), an SDK
    client's interrupt request; once the Interrupt hook is called, a second prompt,
    whose tool leaves `second`; then (and once `then` exists, if given) hang up. The
    second turn keeps the session up while the hook answers."""
    interrupt = {"type": "control_request", "request_id": "e2e-interrupt"}
    interrupt["request"] = {"subtype": "interrupt"}
    feed = [
        {"text": _user_lines("run the command")},
        {"wait_for": "started", "text": json.dumps(interrupt) + "\n"},
        {"wait_for": "{root}/hooks/Interrupt.calls.jsonl", "text": _user_lines("again")},
        {"wait_for": "second", "text": ""},
    ]
    return feed + ([{"wait_for": then, "text": ""}] if then else [])


# A turn stopped by a client (2.1.335+: Interrupt fires; Ctrl-C in -p mode exits instead).
INTERRUPTED = Scenario(
    "interrupt",
    _claude(*_STREAM_JSON),
    steps=[
        _call("Bash", command="touch started && sleep 20", description="wait"),
        _call("Bash", command="touch second", description="again"),
    ],
    stdin_feed=interrupt_feed(),
    timeout=60,
)


CLAUDE = Spec(
    runtime="claude-code",
    cli="claude-code",
    folder="claude-code",
    captured_on="2026-12-07",  # 2.1.337
    events=CLAUDE_EVENTS,
    write_hooks=_claude_hooks,
    env=_CLAUDE.env,
    how="claude -p against a fake Anthropic model on 127.0.0.1; every event hooked in "
    "<project>/.claude/settings.json (command hooks)",
    volatile_env=_CLAUDE.volatile_env,
    scenarios=[
        Scenario(
            "tools",
            _claude("run the command", "--output-format", "json", "--allowedTools", "Bash"),
            steps=[
                _call("Bash", command="echo hi", description="say hi"),
                _call("Bash", command="exit 3", description="fail"),
                _call("Bash", command="cd sub && pwd", description="change directory"),
                _call("Bash", command="sh ../change.sh", description="change settings"),
                _call("Write", file_path="{root}/outside.txt", content="x"),
            ],
            files={
                "CLAUDE.md": "Project rules: be brief.\n",
                "sub/.keep": "",
                "change.sh": _CHANGE_SCRIPT.replace("'.claude", "'../.claude").replace(
                    ">> watched", ">> ../watched"
                ),
                "watched.txt": "x\n",
            },
            answers=lambda sb: {
                "SessionStart": {
                    "stdout": json.dumps(
                        {
                            "hookSpecificOutput": {
                                "hookEventName": "SessionStart",
                                "watchPaths": ["watched.txt"],
                            }
                        }
                    )
                }
            },
        ),
        Scenario(
            "subagent",
            _claude("delegate", "--output-format", "json"),
            steps=[
                _call("Agent", description="sub task", prompt="do it", subagent_type="claude"),
                _text("sub-done"),
                _text("main-done"),
            ],
        ),
        Scenario(
            "commands",
            _claude(*_STREAM_JSON),
            # The model switch first: PostModelSwitch runs after it, unawaited, and a
            # session that ends right away can end before it.
            stdin=_user_lines("/model claude-sonnet-4-5", "/hello", "/greet bob", "/compact"),
            steps=[_text("s1"), _text("s2"), _text("summary"), _text("s4")],
            files={".claude/skills/hello/SKILL.md": _SKILL, ".claude/commands/greet.md": _COMMAND},
        ),
        Scenario("setup", _claude("--init-only", "--output-format", "json")),
        Scenario(
            "worktree",
            _claude("hi", "-w", "feat1", "--output-format", "json"),
            answers=lambda sb: {"WorktreeCreate": {"stdout": f"{_worktree(sb)}\n"}},
        ),
        INTERRUPTED,
    ],
)


def _worktree(sb: Sandbox) -> str:
    """Where the WorktreeCreate hook says it made the worktree (it must exist)."""
    path = sb.root / "worktree"
    path.mkdir(exist_ok=True)
    return str(path)


SPECS: list[Spec] = [CLAUDE]

# The first pin, for telling versions apart (what 2.1.197 gives its hooks).
CLAUDE_197 = Spec(
    runtime="claude-code",
    cli="claude-code@2.1.197",
    folder="claude-code-2.1.197",
    events=CLAUDE_197_EVENTS,
    write_hooks=_claude_hooks,
    env=_CLAUDE.env,
    how=CLAUDE.how,
    volatile_env=_CLAUDE.volatile_env,
    scenarios=[
        Scenario(
            CLAUDE.scenarios[0].name,
            lambda sb: [str(cli_path("claude-code@2.1.197")), *CLAUDE.scenarios[0].argv(sb)[1:]],
            steps=CLAUDE.scenarios[0].steps,
            files=CLAUDE.scenarios[0].files,
            answers=CLAUDE.scenarios[0].answers,
        )
    ],
)

SPECS.append(CLAUDE_197)


# --- Codex ----------------------------------------------------------------------------------

_CODEX = DRIVERS["codex"]
CODEX_EVENTS = (
    "PreToolUse PermissionRequest PostToolUse PreCompact PostCompact SessionStart SessionEnd "
    "UserPromptSubmit SubagentStart SubagentStop Stop Interrupt"
).split()


def codex_config(sb: Sandbox, events: list[str], extra: str = "") -> None:
    """CODEX_HOME/config.toml: the e2e provider and switches, and a hook on every event."""
    _CODEX.write_settings(sb, "true", "true")
    path = sb.home / ".codex" / "config.toml"
    text = path.read_text()
    text = text[: text.index("[[hooks.PreToolUse]]")]
    top, _, rest = text.partition("[model_providers.fake]")
    hooks = "".join(
        f'\n[[hooks.{e}]]\n\n[[hooks.{e}.hooks]]\ntype = "command"\n'
        f"command = {json.dumps(hook_for(sb, e))}\ntimeout = 30\n"
        for e in events
    )
    path.write_text(top + extra + "[model_providers.fake]" + rest + hooks)


def _codex(*args: str):
    return lambda sb: [
        str(cli_path("codex")),
        "exec",
        "--skip-git-repo-check",
        "--dangerously-bypass-hook-trust",
        "--json",
        *args,
    ]


def _exec(cmd: str) -> dict[str, Any]:
    return _call("exec_command", cmd=cmd)


def _spawn(message: str) -> dict[str, Any]:
    return {"name": "spawn_agent", "namespace": "multi_agent_v1", "input": {"message": message}}


CODEX = Spec(
    runtime="codex",
    cli="codex",
    folder="codex",
    events=CODEX_EVENTS,
    write_hooks=codex_config,
    env=_CODEX.env,
    how="codex exec against a fake Responses model on 127.0.0.1; every event hooked in "
    "CODEX_HOME/config.toml ([[hooks.<Event>]] command hooks)",
    scenarios=[
        Scenario("tools", _codex("run the command"), steps=[_exec("echo hi"), _exec("exit 3")]),
        # A context limit below the fake model's usage: Codex compacts on its own.
        Scenario(
            "compact",
            _codex("-c", "model_auto_compact_token_limit=12", "compact please"),
            steps=[_exec("echo one"), _text("summary"), _exec("echo two"), _text("s")],
        ),
        # The sub-agent's conversation lacks the parent's prompt ("delegate"): it
        # answers at once while the parent sleeps, so it ends its turn first.
        Scenario(
            "subagent",
            _codex("delegate"),
            steps=[
                {"text": "spawn", "calls": [_spawn("do it")], "match": "delegate"},
                {"text": "sub-done", "unless": "delegate"},
                {**_exec("sleep 3"), "match": "delegate"},
                {"text": "main-done", "match": "delegate"},
            ],
        ),
        # Ctrl-C while a command runs.
        Scenario("interrupt", _codex("wait"), steps=[_exec("sleep 8")], interrupt_after=4),
    ],
)
SPECS.append(CODEX)


# --- Gemini CLI ---------------------------------------------------------------------------

_GEMINI = DRIVERS["gemini-cli"]
GEMINI_EVENTS = (
    "BeforeTool AfterTool BeforeAgent AfterAgent BeforeModel AfterModel BeforeToolSelection "
    "SessionStart SessionEnd PreCompress Notification"
).split()


def _gemini_hooks(sb: Sandbox, events: list[str]) -> None:
    _GEMINI.write_settings(sb, "true", "true")
    path = _GEMINI.settings_path(sb)
    settings = json.loads(path.read_text())
    settings["hooks"] = {
        e: [{"hooks": [{"type": "command", "command": hook_for(sb, e), "name": e}]}] for e in events
    }
    path.write_text(json.dumps(settings, indent=2) + "\n")


def _gemini(*args: str):
    return lambda sb: [str(cli_path("gemini-cli")), "-m", _GEMINI.model, "-o", "json", *args]


GEMINI = Spec(
    runtime="gemini-cli",
    cli="gemini-cli",
    folder="gemini-cli",
    events=GEMINI_EVENTS,
    write_hooks=_gemini_hooks,
    env=_GEMINI.env,
    how="gemini -p against a fake Gemini API on 127.0.0.1; every event hooked in "
    "GEMINI_CLI_HOME/.gemini/settings.json (command hooks)",
    scenarios=[
        Scenario(
            "tools",
            _gemini("--approval-mode", "yolo", "-p", "run the command"),
            steps=[
                _call("run_shell_command", command="echo hi", description="say hi"),
                _call("run_shell_command", command="exit 3", description="fail"),
            ],
        ),
        Scenario("compress", _gemini("--approval-mode", "yolo", "-p", "/compress")),
        Scenario(
            "approval",
            _gemini("-p", "write it"),
            steps=[_call("write_file", file_path="note.txt", content="x")],
        ),
    ],
)
SPECS.append(GEMINI)


# --- GitHub Copilot CLI ---------------------------------------------------------------------

COPILOT_EVENTS = (
    "sessionStart sessionEnd userPromptSubmitted userPromptTransformed preToolUse postToolUse "
    "postToolUseFailure permissionRequest agentStop subagentStart subagentStop errorOccurred "
    "preCompact notification"
).split()


def _copilot_hooks(sb: Sandbox, events: list[str]) -> None:
    hooks = {e: [{"type": "command", "bash": hook_for(sb, e), "timeoutSec": 30}] for e in events}
    path = sb.project / ".github" / "hooks" / "capture.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps({"version": 1, "hooks": hooks}, indent=2) + "\n")


def _copilot_claude_hooks(sb: Sandbox, events: list[str]) -> None:
    _claude_hooks(sb, events)


def _copilot(prompt: str, driver=_COPILOT):
    return lambda sb: driver.argv(sb, prompt)


def _task(**tool_input: Any) -> dict[str, Any]:
    return {"text": "delegating", "calls": [{"name": "task", "input": tool_input}]}


_COPILOT_SCENARIOS = [
    Scenario(
        "tools",
        _copilot("run the command"),
        steps=[
            _call("bash", command="echo hi", description="say hi"),
            # Outside the project: a permission prompt nobody can answer (-p).
            _call("view", path="/nonexistent/e2e.txt"),
        ],
    ),
    Scenario(
        "subagent",
        _copilot("delegate"),
        steps=[
            {
                **_task(description="sub task", prompt="do it", agent_type="task", name="e2e"),
                "match": "delegate",
            },
            {"text": "sub-done", "unless": "delegate"},
            {"text": "main-done", "match": "delegate"},
        ],
    ),
    # A tool call the tool refuses (`name` missing): the tool fails.
    Scenario(
        "failure",
        _copilot("fail"),
        steps=[_task(description="sub task", prompt="do it", agent_type="task")],
    ),
    # The model keeps refusing: Copilot gives up with an error.
    Scenario("error", _copilot("err"), steps=[{"error": 400, "times": 20}]),
    Scenario("compact", _copilot("/compact"), steps=[_text("summary")]),
]

COPILOT = Spec(
    runtime="copilot",
    cli="copilot",
    folder="copilot",
    events=COPILOT_EVENTS,
    write_hooks=_copilot_hooks,
    env=_COPILOT.env,
    how="copilot -p --trust-folder against a fake Chat Completions model on 127.0.0.1 "
    "(COPILOT_PROVIDER_TYPE=openai); every event hooked in <project>/.github/hooks/capture.json",
    scenarios=_COPILOT_SCENARIOS,
)
COPILOT_CLAUDE = Spec(
    runtime="copilot",
    cli="copilot",
    folder="copilot",
    suffix=".claude-settings",
    events=CLAUDE_197_EVENTS,
    write_hooks=_copilot_claude_hooks,
    env=_COPILOT.env,
    how="copilot -p --trust-folder against a fake Chat Completions model on 127.0.0.1; every "
    "Claude Code event name hooked in <project>/.claude/settings.json (Copilot runs those hooks)",
    scenarios=_COPILOT_SCENARIOS,
)
SPECS += [COPILOT, COPILOT_CLAUDE]


# --- Qwen Code ---------------------------------------------------------------------------------

QWEN_EVENTS = (
    "PreToolUse PostToolUse PostToolUseFailure PostToolBatch Notification UserPromptSubmit "
    "UserPromptExpansion SessionStart Stop MessageDisplay SubagentStart SubagentStop PreCompact "
    "PostCompact SessionEnd SessionDelete PermissionRequest PermissionDenied StopFailure "
    "TodoCreated TodoCompleted InstructionsLoaded"
).split()


def _qwen_hooks(sb: Sandbox, events: list[str]) -> None:
    _QWEN.write_settings(sb, "true", "true")  # the user settings (no telemetry, auth)
    hooks = {e: [{"hooks": [{"type": "command", "command": hook_for(sb, e)}]}] for e in events}
    path = _QWEN.settings_path(sb)
    path.write_text(json.dumps({"hooks": hooks}, indent=2) + "\n")


def _qwen(prompt: str, *args: str):
    return lambda sb: [*_QWEN.argv(sb, prompt), *args]


QWEN = Spec(
    runtime="qwen-code",
    cli="qwen-code",
    folder="qwen-code",
    events=QWEN_EVENTS,
    write_hooks=_qwen_hooks,
    env=_QWEN.env,
    how="qwen -o json against a fake Chat Completions model on 127.0.0.1; every event hooked "
    "in <project>/.qwen/settings.json (command hooks)",
    volatile_env=_QWEN.volatile_env,
    scenarios=[
        Scenario(
            "tools",
            _qwen("run the command"),
            steps=[
                _call("run_shell_command", command="echo hi", description="say hi"),
                _call("run_shell_command", command="exit 3", description="fail"),
            ],
            files={"QWEN.md": "Project rules: be brief.\n"},
        ),
        Scenario(
            "subagent",
            _qwen("delegate"),
            steps=[
                {
                    **_call(
                        "agent",
                        description="sub task",
                        prompt="do it",
                        subagent_type="general-purpose",
                    ),
                    "match": "delegate",
                },
                {"text": "sub-done", "unless": "delegate"},
                {"text": "main-done", "match": "delegate"},
            ],
        ),
        Scenario(
            "command",
            _qwen("/greet bob"),
            steps=[_text("hi bob")],
            files={".qwen/commands/greet.md": "---\ndescription: greet\n---\nGreet: {{args}}\n"},
        ),
        # Asking for permission needs the default approval mode and stream-json input
        # (plain -p refuses before any hook); the hook allows, so nothing waits.
        Scenario(
            "permission",
            lambda sb: [
                str(cli_path("qwen-code")),
                "--auth-type",
                "openai",
                "-m",
                "gpt-4.1",
                "--approval-mode",
                "default",
                "--input-format",
                "stream-json",
                "-o",
                "stream-json",
            ],
            stdin=_user_lines("write it"),
            steps=[_call("write_file", file_path="{project}/note.txt", content="x")],
            answers=lambda sb: {
                "PermissionRequest": {
                    "stdout": json.dumps(
                        {
                            "hookSpecificOutput": {
                                "hookEventName": "PermissionRequest",
                                "decision": {"behavior": "allow"},
                            }
                        }
                    )
                }
            },
        ),
    ],
)
SPECS.append(QWEN)

# Mistral Vibe, the Cline CLI and OpenCode (hooktui's plugin): capture_specs_new.py.
from tests.e2e.capture_specs_new import NEW_SPECS  # noqa: E402

SPECS.extend(NEW_SPECS)
