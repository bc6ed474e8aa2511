"""Snapshots of watch's hooks screen (`H`): fixed sizes, UTC times from the records.

A project under HOME (the title reads `~/project` on every run) whose settings
configure four hooks, wrapped by the real `hooktui install`, and a settings file
Claude Code rejects; the stream is written by hand, so its times and latencies
are fixed: a guard that denies, one that went quiet, one that never fired.
Regenerate with `--snapshot-update` and look at the SVGs before committing them.
"""

from __future__ import annotations

import json
from datetime import UTC
from pathlib import Path

import pytest
from hooktui.tap.model import HookInfo
from hooktui.tui.app.hooks_screen import HooksScreen
from hooktui.tui.app.watch import WatchApp

from tests.tui.conftest import make_record, wait_until, write_stream
from tests.tui.test_cli_try_hooks import run

SETTINGS = {
    "hooks": {
        "PreToolUse": [
            {"matcher": "Bash", "hooks": [{"type": "command", "command": "python3 guard.py"}]},
            {
                "matcher": "Bash",
                "hooks": [{"type": "command", "command": "python3 old_guard.py", "timeout": 5}],
            },
            {"matcher": "Edit", "hooks": [{"type": "command", "command": "python3 fmt.py"}]},
        ],
        "PostToolUse": [{"hooks": [{"type": "command", "command": "./log.sh"}]}],
    }
}


def _records():
    def hook(command: str) -> HookInfo:
        return HookInfo(label="PreToolUse:Bash", argv=["sh", "-c", command])

    out = []
    for i in range(12):
        deny = i % 4 == 1
        out.append(
            make_record(
                i,
                hook=hook("python3 guard.py"),
                decision="deny" if deny else "allow",
                exit_code=2 if deny else 0,
                duration_ms=40.0 + 10 * i,
            )
        )
        if i < 4:  # the old guard answered the first calls, then no more
            out.append(
                make_record(i, id=f"old-{i}", hook=hook("python3 old_guard.py"), duration_ms=8.0)
            )
    return out


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    home = tmp_path / "home"
    project = home / "project"
    (project / ".claude").mkdir(parents=True)
    (project / ".claude" / "settings.json").write_text(json.dumps(SETTINGS, indent=2))
    stream = project / "stream.jsonl"
    installed = run("install", "claude-code", "--stream", str(stream), cwd=project, home=home)
    assert installed.returncode == 0, installed.stderr
    (project / ".claude" / "settings.local.json").write_text('{"hooks": {"PreToolUse": [}}')
    write_stream(stream, _records())
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.delenv("CLAUDE_CONFIG_DIR", raising=False)
    monkeypatch.chdir(project)
    return "stream.jsonl"


def _hooks(app: WatchApp, *keys: str):
    async def run_before(pilot) -> None:
        await wait_until(pilot, lambda: app.main_screen.feed.loaded)
        await pilot.press("H")
        await wait_until(
            pilot, lambda: isinstance(app.screen, HooksScreen) and app.screen.hooks.loaded
        )
        await pilot.press(*keys)
        await pilot.pause(0.3)

    return run_before


def test_hooks_screen_160x45(snap_compare, project: str) -> None:
    app = WatchApp([project], tz=UTC, live=False)
    # Sorted by calls, the cursor on the quiet guard.
    assert snap_compare(app, terminal_size=(160, 45), run_before=_hooks(app, "s", "j"))


def test_hooks_screen_80x24(snap_compare, project: str) -> None:
    app = WatchApp([project], tz=UTC, live=False)
    assert snap_compare(app, terminal_size=(80, 24), run_before=_hooks(app))


def test_hooks_screen_no_color_80x24(
    snap_compare, project: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("NO_COLOR", "1")
    app = WatchApp([project], tz=UTC, live=False)
    assert snap_compare(app, terminal_size=(80, 24), run_before=_hooks(app, "s", "s", "s"))
