"""The hook inventory on real settings files of each runtime, every source, rejected ones too.

The files are written as each runtime reads them (the shapes its real CLI ran in
tests/e2e), in a HOME, a project and a stand-in for `/` of their own; what a
runtime does with a bad file is what its real CLI did (the runtime's `reading`).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hooktui.tap.inventory.read import inventory

GUARD = "python3 /opt/guards/deny.py"


def write(path: Path, data) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(data if isinstance(data, str) else json.dumps(data, indent=2))
    return path


def claude_hooks(command=GUARD, matcher="Bash", event="PreToolUse", **handler):
    return {
        "hooks": {
            event: [
                {"matcher": matcher, "hooks": [{"type": "command", "command": command, **handler}]}
            ]
        }
    }


@pytest.fixture
def box(tmp_path):
    home, project, root = tmp_path / "home", tmp_path / "project", tmp_path / "root"
    for d in (home, project, root):
        d.mkdir()
    return home, project, root


def read(box, *runtimes, **env):
    home, project, root = box
    return inventory(runtimes, project=project, environ={"HOME": str(home), **env}, root=root)


def files(inv):
    return {(f.scope, Path(f.path).name): f for f in inv.files}


def test_claude_code_reads_user_project_local_managed_admin_and_plugin_sources(box) -> None:
    home, project, root = box
    write(home / ".claude/settings.json", claude_hooks("python3 user.py", timeout=5))
    write(
        project / ".claude/settings.json",
        {
            "hooks": {
                "PreToolUse": [
                    {
                        "matcher": "Bash|Edit",
                        "hooks": [{"type": "command", "command": GUARD, "onFailure": "block"}],
                    },
                    {
                        "matcher": "Bash",
                        "hooks": [{"type": "command", "command": GUARD}],
                    },  # runs once
                    {"matcher": "Bash(", "hooks": [{"type": "command", "command": "never.py"}]},
                ],
                "PreToolUs": [{"hooks": [{"type": "command", "command": "typo.py"}]}],
                "UserPromptSubmit": [{"hooks": [{"type": "prompt", "prompt": "is it safe?"}]}],
            }
        },
    )
    write(project / ".claude/settings.local.json", claude_hooks("python3 local.py", timeout="ten"))
    write(root / "etc/claude-code/managed-settings.json", claude_hooks("python3 managed.py"))
    write(root / "etc/claude-code/managed-settings.d/10-team.json", claude_hooks("python3 team.py"))
    write(
        home / ".claude/remote-settings.json",
        claude_hooks("python3 admin.py", event="Stop", matcher=""),
    )
    write(
        home / ".claude/plugins/lint/hooks/hooks.json",
        claude_hooks("python3 plugin.py", event="PostToolUse"),
    )
    inv = read(box, "claude-code")
    by = files(inv)
    assert [f.scope for f in inv.files] == [
        "user",
        "project",
        "local",
        "managed",
        "managed",
        "admin",
        "plugin",
    ]
    assert by[("local", "settings.local.json")].state == "rejected"
    assert "not a number" in by[("local", "settings.local.json")].problems[0].why
    project_file = by[("project", "settings.json")]
    assert project_file.state == "partial"
    whys = " | ".join(p.why for p in project_file.problems)
    assert "knows no event 'PreToolUs'" in whys and "'Bash(' is not a regular expression" in whys
    hooks = {(h.scope, h.command): h for h in inv.hooks}
    guarded = [h for h in inv.hooks if h.command == GUARD]
    assert [h.matcher for h in guarded] == ["Bash|Edit", "Bash"]
    assert guarded[0].fails == "closed" and guarded[0].timeout_ms == 600_000
    assert guarded[0].timeout_source == "default"
    assert not guarded[1].shadowed_by  # other matcher: both run
    assert hooks[("user", "python3 user.py")].timeout_ms == 5000
    assert hooks[("user", "python3 user.py")].timeout_source == "configured"
    assert hooks[("project", "never.py")].ignored.startswith("matcher 'Bash(' is not")
    assert hooks[("project", "typo.py")].ignored
    prompt = hooks[("project", "is it safe?")]
    assert prompt.handler_type == "prompt" and prompt.timeout_ms == 30_000
    assert hooks[("local", "python3 local.py")].ignored.startswith("the file is ignored")
    assert hooks[("admin", "python3 admin.py")].event == "Stop"
    assert hooks[("plugin", "python3 plugin.py")].fails == "open"
    assert [h.position for h in inv.hooks] == list(range(len(inv.hooks)))


def test_claude_code_runs_an_identical_hook_once(box) -> None:
    home, project, _ = box
    write(home / ".claude/settings.json", claude_hooks())
    write(project / ".claude/settings.json", claude_hooks())
    inv = read(box, "claude-code")
    user, project_hook = inv.hooks
    assert not user.shadowed_by and project_hook.shadowed_by.endswith(
        "hooks.PreToolUse[0].hooks[0]"
    )
    assert "runs it once" in project_hook.ignored


def test_a_file_that_is_not_json_is_rejected_with_the_runtimes_reason(box) -> None:
    _, project, _ = box
    write(project / ".claude/settings.json", '{"hooks": {},}')
    inv = read(box, "claude-code")
    bad = files(inv)[("project", "settings.json")]
    assert bad.state == "rejected" and "not valid JSON" in bad.problems[0].why
    assert bad.problems[0].why.endswith("Claude Code ignores the file")


def test_codex_reads_hooks_json_and_config_toml_in_each_layer(box) -> None:
    home, project, _ = box
    write(home / ".codex/hooks.json", claude_hooks("python3 user_json.py"))
    write(
        home / ".codex/config.toml",
        '[[hooks.PreToolUse]]\nmatcher = "Bash"\n\n'
        '[[hooks.PreToolUse.hooks]]\ntype = "command"\ncommand = "python3 user_toml.py"\ntimeout = 10\n',
    )
    write(
        project / ".codex/hooks.json",
        {"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command"}]}]}},
    )
    inv = read(box, "codex", CODEX_HOME=str(home / ".codex"))
    assert [h.command for h in inv.hooks] == ["python3 user_json.py", "python3 user_toml.py"]
    assert inv.hooks[1].timeout_ms == 10_000
    bad = files(inv)[("project", "hooks.json")]
    assert bad.state == "rejected" and bad.needs == "a trusted project"


def test_gemini_cli_refuses_to_start_on_a_bad_file_and_skips_setting_keys(box) -> None:
    home, project, root = box
    write(
        home / ".gemini/settings.json",
        {
            "hooks": {
                "disabled": ["old-hook"],
                "BeforeTool": [
                    {
                        "matcher": "run_shell(",
                        "hooks": [
                            {"type": "command", "command": GUARD, "name": "g", "timeout": 5000}
                        ],
                    }
                ],
                "AfterTool": [
                    {
                        "matcher": "run_shell_command",
                        "hooks": [
                            {"type": "command", "command": "t.py", "name": "t", "timeout": "ten"}
                        ],
                    }
                ],
            }
        },
    )
    write(project / ".gemini/settings.json", "{not json")
    write(
        root / "etc/system-defaults.json",
        {"hooks": {"BeforeTool": [{"hooks": [{"type": "command", "command": "sys.py"}]}]}},
    )
    inv = read(
        box, "gemini-cli", GEMINI_CLI_SYSTEM_DEFAULTS_PATH=str(root / "etc/system-defaults.json")
    )
    scopes = [f.scope for f in inv.files]
    assert scopes == ["managed", "user", "project", "managed", "extension"]
    assert files(inv)[("project", "settings.json")].state == "fatal"
    hooks = {h.command: h for h in inv.hooks}
    assert hooks["sys.py"].position == 0 and hooks[GUARD].timeout_ms == 5000  # milliseconds
    assert not hooks[GUARD].ignored  # a matcher that cannot compile is compared literally
    assert "times out at once" in hooks["t.py"].ignored
    assert "disabled" not in {h.event for h in inv.hooks}


def test_copilot_reads_its_own_files_and_claudes_as_a_guest(box) -> None:
    home, project, root = box
    write(
        home / ".copilot/hooks/mine.json",
        {"version": 1, "hooks": {"preToolUse": [{"type": "command", "bash": "python3 u.py"}]}},
    )
    write(
        project / ".github/hooks/team.json",
        {"version": 2, "hooks": {"preToolUse": [{"type": "command", "bash": "python3 v2.py"}]}},
    )
    write(project / ".claude/settings.json", claude_hooks(timeout=7))
    inv = read(box, "copilot", COPILOT_HOME=str(home / ".copilot"))
    by = files(inv)
    assert by[("project", "team.json")].state == "rejected"
    assert "skipped silently" in by[("project", "team.json")].problems[0].why
    guest = by[("guest", "settings.json")]
    assert guest.state == "ok" and guest.layout == "claude-code"
    hooks = {h.command: h for h in inv.hooks}
    assert hooks["python3 u.py"].timeout_ms == 30_000 and hooks["python3 u.py"].fails == "closed"
    assert hooks[GUARD].scope == "guest" and hooks[GUARD].timeout_ms == 7000
    assert hooks["python3 u.py"].position < hooks[GUARD].position  # user hooks run first


def test_qwen_code_reads_project_before_user(box) -> None:
    home, project, _ = box
    write(
        project / ".qwen/settings.json", claude_hooks("python3 p.py", matcher="run_shell_command")
    )
    write(home / ".qwen/settings.json", claude_hooks("python3 u.py", matcher="run_shell_command"))
    inv = read(box, "qwen-code")
    assert [h.command for h in inv.hooks] == ["python3 p.py", "python3 u.py"]
    assert inv.hooks[0].timeout_ms == 60_000


def test_cursor_rejects_a_whole_file_for_one_unknown_event(box) -> None:
    _, project, _ = box
    write(
        project / ".cursor/hooks.json",
        {
            "version": 1,
            "hooks": {
                "beforeShellExecution": [{"command": "python3 ok.py"}],
                "beforeShellExec": [{"command": "python3 typo.py"}],
            },
        },
    )
    inv = read(box, "cursor")
    bad = files(inv)[("project", "hooks.json")]
    assert bad.state == "rejected" and all(h.ignored for h in inv.hooks)


def test_runtimes_without_settings_files_say_why(box) -> None:
    inv = read(box, "basis", "fastpace")
    assert not inv.files and len(inv.notes) == 2
    assert "registered in code" in inv.notes[0]


VIBE_HOOKS = """\
[[hooks]]
name = "guard"
type = "pre_tool"
match = "bash"
command = "python3 guard.py"
strict = true

[[hooks]]
name = "audit"
type = "post_tool"
command = "sh audit.sh"
timeout = 5
"""


def test_mistral_vibe_reads_project_then_user_and_skips_a_name_seen_before(box) -> None:
    home, project, _ = box
    write(project / ".vibe/hooks.toml", VIBE_HOOKS)
    moved = home / "vibe-home"
    write(moved / "hooks.toml", '[[hooks]]\nname = "guard"\ntype = "pre_tool"\ncommand = "x"\n')
    inv = read(box, "mistral-vibe", VIBE_HOME=str(moved))
    assert [(f.scope, f.path, f.needs) for f in inv.files] == [
        ("project", str(project / ".vibe/hooks.toml"), "a trusted folder"),
        ("user", str(moved / "hooks.toml"), ""),
    ]
    guard, audit, again = inv.hooks
    assert (guard.event, guard.matcher, guard.fails, guard.timeout_ms) == (
        "pre_tool",
        "bash",
        "closed",  # strict = true
        60_000,
    )
    assert (audit.fails, audit.timeout_ms, audit.timeout_source) == ("open", 5_000, "configured")
    assert not guard.ignored and not audit.ignored
    assert "has its name 'guard'" in again.ignored and again.shadowed_by.endswith("hooks[0]")


def test_mistral_vibe_skips_a_table_its_model_refuses(box) -> None:
    _, project, _ = box
    write(
        project / ".vibe/hooks.toml",
        VIBE_HOOKS + '\n[[hooks]]\nname = "late"\ntype = "post_agent"\nstrict = true\n'
        'command = "x"\n',
    )
    [sf] = [f for f in read(box, "mistral-vibe").files if f.scope == "project"]
    assert sf.state == "partial"
    assert [(p.where, p.effect) for p in sf.problems] == [("hooks[2]", "hook")]
    assert "`strict` on a post_agent hook" in sf.problems[0].why


def test_opencode_reads_its_plugins_files_and_a_bad_one_fails_closed(box) -> None:
    home, project, _ = box
    write(
        project / ".opencode/command-hooks.json",
        {
            "hooks": {
                "tool.execute.before": [
                    {"matcher": "bash", "hooks": [{"type": "command", "command": GUARD}]}
                ]
            }
        },
    )
    write(home / ".config/opencode/command-hooks.json", "{not json")
    inv = read(box, "opencode")
    project_file, user_file = inv.files
    assert (project_file.state, project_file.hooks) == ("ok", 1)
    assert user_file.state == "rejected"
    assert "fails closed" in user_file.problems[0].why
    [hook] = inv.hooks
    assert (hook.event, hook.matcher, hook.command, hook.fails) == (
        "tool.execute.before",
        "bash",
        GUARD,
        "closed",
    )
