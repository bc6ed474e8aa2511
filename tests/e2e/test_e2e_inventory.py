"""The inventory's reading of a settings file the runtime rejects, checked in the real CLI.

Per runtime, one session with two sources: one file as the runtime reads it, one it
rejects (or, for Gemini CLI, one that stops it at start). The real CLI runs the
hooks of the good file only (or refuses to start); `hooktui hooks` must say the same
of the same files (2026-12-07).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hooktui.tap.inventory.read import inventory

from tests.e2e.drivers import ClaudeCode, CodexHooksJson, GeminiCli
from tests.e2e.drivers_chat import Copilot, QwenCode
from tests.e2e.harness import Sandbox, hook_command, skip_reason


def claude_style(command: str, matcher: str, event: str = "PreToolUse", **handler) -> dict:
    return {
        "hooks": {
            event: [
                {"matcher": matcher, "hooks": [{"type": "command", "command": command, **handler}]}
            ]
        }
    }


def bad_claude_local(driver, sb: Sandbox, hook: str) -> tuple[Path, Path]:
    # 2.1.332: a timeout that is not a number costs the file all its hooks.
    local = sb.project / ".claude" / "settings.local.json"
    return write(local, claude_style(hook, "Bash", timeout="ten")), driver.settings_path(sb)


def bad_copilot_project(driver, sb: Sandbox, hook: str) -> tuple[Path, Path]:
    # 1.0.102: a `version` other than 1 and the file is skipped, silently.
    data = {"version": 2, "hooks": {"preToolUse": [{"type": "command", "bash": hook}]}}
    return write(sb.project / ".github" / "hooks" / "v2.json", data), driver.settings_path(sb)


def bad_qwen_project(driver, sb: Sandbox, hook: str) -> tuple[Path, Path]:
    # 0.24.4: a project file that is not JSON runs none of its hooks. The good hooks go
    # to the user file (beside its auth settings).
    project = driver.settings_path(sb)
    user = sb.home / ".qwen" / "settings.json"
    merged = {**json.loads(user.read_text()), "hooks": json.loads(project.read_text())["hooks"]}
    write(user, merged)
    bad = claude_style(hook, "run_shell_command")
    return write(project, json.dumps(bad)[:-1] + ",}"), user


def write(path: Path, data) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(data if isinstance(data, str) else json.dumps(data, indent=2))
    return path


RUNTIMES = {
    "claude-code": (ClaudeCode(), bad_claude_local, "rejected"),
    "copilot": (Copilot(), bad_copilot_project, "rejected"),
    "qwen-code": (QwenCode(), bad_qwen_project, "rejected"),
}


@pytest.mark.parametrize("name", list(RUNTIMES))
def test_a_rejected_file_runs_no_hook_and_the_inventory_says_so(name, tmp_path) -> None:
    driver, spoil, state = RUNTIMES[name]
    why = skip_reason(driver.cli)
    if why:
        pytest.skip(why)
    sb = Sandbox(tmp_path)
    sb.fresh_run_dirs()
    good, bad, post = (hook_command(sb.hooks, n) for n in ("good", "bad", "post"))
    driver.write_settings(sb, good, post)
    spoilt, kept = spoil(driver, sb, bad)
    # Read before the run: a runtime may rewrite a file it cannot parse (Qwen Code does).
    env = {**driver.env(sb), "HOME": str(sb.home)}
    inv = inventory([driver.runtime], project=sb.project, environ=env)
    files = {Path(f.path): f for f in inv.files}
    run = driver.run(sb, "run")
    assert run.exit_code == 0, run.describe()
    calls = {k: len(v) for k, v in run.hook_calls.items()}
    assert calls.get("good") == 1 and "bad" not in calls, calls
    assert files[spoilt].state == state, files[spoilt]
    assert files[kept].state == "ok"
    bad_hooks = [h for h in inv.hooks if h.command == bad]
    assert all(h.ignored for h in bad_hooks)


def test_codex_skips_a_hooks_file_with_a_hook_without_command(tmp_path) -> None:
    driver = CodexHooksJson()
    why = skip_reason(driver.cli)
    if why:
        pytest.skip(why)
    sb = Sandbox(tmp_path)
    sb.fresh_run_dirs()
    good, bad, post = (hook_command(sb.hooks, n) for n in ("good", "bad", "post"))
    driver.write_settings(sb, bad, post)
    hooks_json = driver.settings_path(sb)
    data = json.loads(hooks_json.read_text())
    data["hooks"]["PreToolUse"].append({"matcher": "Bash", "hooks": [{"type": "command"}]})
    hooks_json.write_text(json.dumps(data))
    # The good hook in config.toml, the other file Codex reads in the same folder.
    config = sb.home / ".codex" / "config.toml"
    config.write_text(
        config.read_text()
        + f'\n[[hooks.PreToolUse]]\nmatcher = "Bash"\n\n[[hooks.PreToolUse.hooks]]\n'
        f'type = "command"\ncommand = {json.dumps(good)}\ntimeout = 30\n'
    )
    run = driver.run(sb, "run")
    calls = {k: len(v) for k, v in run.hook_calls.items()}
    assert calls.get("good") == 1 and "bad" not in calls and "post" not in calls, calls
    env = {**driver.env(sb), "HOME": str(sb.home)}
    inv = inventory(["codex"], project=sb.project, environ=env)
    files = {Path(f.path): f for f in inv.files}
    assert files[hooks_json].state == "rejected" and files[config].state == "ok"


FATAL = {
    # 0.61: a settings file that is not JSON, and it stops at start (exit 52).
    "gemini-cli": (GeminiCli(), lambda sb: sb.project / ".gemini" / "settings.json", 52),
    # 0.24.4 reads its sandbox policy from the user file first: not JSON, it stops (exit 1).
    "qwen-code": (QwenCode(), lambda sb: sb.home / ".qwen" / "settings.json", 1),
}


@pytest.mark.parametrize("name", list(FATAL))
def test_a_file_that_stops_the_runtime_is_fatal_in_the_inventory(name, tmp_path) -> None:
    driver, where, code = FATAL[name]
    why = skip_reason(driver.cli)
    if why:
        pytest.skip(why)
    sb = Sandbox(tmp_path)
    sb.fresh_run_dirs()
    driver.write_settings(sb, hook_command(sb.hooks, "good"), hook_command(sb.hooks, "post"))
    bad = write(where(sb), '{"hooks": {,}}')
    run = driver.run(sb, "run")
    assert run.exit_code == code and not run.hook_calls, run.describe()
    env = {**driver.env(sb), "HOME": str(sb.home)}
    inv = inventory([driver.runtime], project=sb.project, environ=env)
    assert {Path(f.path): f for f in inv.files}[bad].state == "fatal"


def test_copilot_runs_its_sources_in_the_inventorys_order(tmp_path) -> None:
    """1.0.102 runs the hooks of one call one after another: the user's, .github/hooks,
    then Claude Code's two files, then .github/copilot/settings.json."""
    driver = Copilot()
    why = skip_reason(driver.cli)
    if why:
        pytest.skip(why)
    sb = Sandbox(tmp_path)
    sb.fresh_run_dirs()
    names = ("user", "gh", "claude", "local", "ghsettings")
    cmd = {n: hook_command(sb.hooks, n) for n in names}
    driver.write_settings(sb, cmd["gh"], hook_command(sb.hooks, "post"))
    write(
        sb.home / ".copilot" / "hooks" / "mine.json",
        {"version": 1, "hooks": {"preToolUse": [{"type": "command", "bash": cmd["user"]}]}},
    )
    write(sb.project / ".claude" / "settings.json", claude_style(cmd["claude"], "Bash"))
    write(sb.project / ".claude" / "settings.local.json", claude_style(cmd["local"], "Bash"))
    write(
        sb.project / ".github" / "copilot" / "settings.json",
        {"hooks": {"preToolUse": [{"type": "command", "bash": cmd["ghsettings"]}]}},
    )
    run = driver.run(sb, "run")
    ran = sorted((c["t"], n) for n in names for c in run.hook_calls.get(n, []))
    assert [n for _, n in ran] == list(names), run.describe()
    env = {**driver.env(sb), "HOME": str(sb.home)}
    inv = inventory(["copilot"], project=sb.project, environ=env)
    by_command = {h.command: h.position for h in inv.hooks if h.event.lower() == "pretooluse"}
    assert sorted(names, key=lambda n: by_command[cmd[n]]) == list(names)
