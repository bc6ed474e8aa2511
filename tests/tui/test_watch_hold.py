"""Breakpoints in the watch app: real taps held by a real dashboard, decided with its keys."""

from __future__ import annotations

import asyncio
import json
from datetime import UTC
from pathlib import Path

import pytest
from hooktui.tap.hold.server import HoldServer
from hooktui.tap.model import decode_head
from hooktui.tap.read.view import StreamLine
from hooktui.tui.app.watch import WatchApp
from hooktui.tui.present.rows import call_row

from tests.hold_helpers import finish, private_runtime_dir, start_tap
from tests.tui.conftest import wait_until
from tests.waits import WAIT_S

SIZE = (120, 36)


@pytest.fixture
def runtime_dir(monkeypatch):
    path = private_runtime_dir()
    monkeypatch.setenv("XDG_RUNTIME_DIR", path)
    return path


async def _finished(tap) -> tuple[bytes, bytes, int]:
    return await asyncio.to_thread(finish, tap)


def _app(stream: Path, expr: str = "tool:Bash") -> WatchApp:
    server = HoldServer()
    server.set_breakpoint(expr)
    return WatchApp([str(stream)], tz=UTC, hold=server)


async def test_held_calls_come_first_and_keys_decide_them(runtime_dir, tmp_path):
    stream = tmp_path / "s.jsonl"
    app = _app(stream)
    async with app.run_test(size=SIZE) as pilot:
        first, second = start_tap(stream, runtime_dir), start_tap(stream, runtime_dir)
        await wait_until(pilot, lambda: app.main_screen.held_panel.list.option_count == 2)
        assert app.main_screen.held_panel.has_class("-holding")
        assert app.focused is app.main_screen.held_panel.list  # the queue takes the keys
        assert "git push --force" in str(app.main_screen.held_panel.detail.render())
        await pilot.press("d")  # deny asks a reason
        await pilot.press("ctrl+a", "ctrl+k", *"no force", "enter")
        await wait_until(pilot, lambda: app.main_screen.held_panel.list.option_count == 1)
        await pilot.press("a")
        await wait_until(pilot, lambda: not app.main_screen.held_panel.has_class("-holding"))
        outs = sorted([(await _finished(first))[0], (await _finished(second))[0]])
        assert outs[0] == b""  # allowed: Claude Code's plain allow
        denied = json.loads(outs[1])["hookSpecificOutput"]
        assert denied["permissionDecision"] == "deny"
        assert denied["permissionDecisionReason"] == "no force"
        await wait_until(pilot, lambda: app.main_screen.view.total == 2)
        assert app.focused is app.main_screen.calls  # back to the list once nothing is held
    heads = [decode_head(line) for line in stream.read_bytes().splitlines()]
    assert sorted(h.held.action for h in heads) == ["allow", "deny"]
    row = call_row(StreamLine(0, 0, heads[0]), 120, UTC, False).plain
    assert "⏸ " in row  # the list marks a held call


async def test_enter_lets_the_hooks_answer_through_and_e_rewrites(runtime_dir, tmp_path):
    stream = tmp_path / "s.jsonl"
    app = _app(stream)
    async with app.run_test(size=SIZE) as pilot:
        tap = start_tap(stream, runtime_dir)
        await wait_until(pilot, lambda: app.main_screen.held_panel.list.option_count == 1)
        await pilot.press("e")
        await wait_until(pilot, lambda: app.screen.__class__.__name__ == "EditHeld")
        area = app.screen.area
        area.load_text(json.dumps({"command": "git push"}))
        await pilot.press("ctrl+s")
        out, _err, code = await _finished(tap)
        sent = json.loads(out)["hookSpecificOutput"]
        assert sent["updatedInput"] == {"command": "git push"} and code == 0
        tap = start_tap(stream, runtime_dir)
        await wait_until(pilot, lambda: app.main_screen.held_panel.list.option_count == 1)
        await pilot.press("enter")
        assert (await _finished(tap))[:2] == (b"", b"")


async def test_i_sets_changes_and_clears_the_breakpoint(runtime_dir, tmp_path):
    stream = tmp_path / "s.jsonl"
    app = WatchApp([str(stream)], tz=UTC)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("i", *"tool:Read", "enter")
        await wait_until(
            pilot,
            lambda: (
                app.main_screen.held_panel.hold is not None
                and app.main_screen.held_panel.hold.listening
            ),
        )
        # A Bash call does not match: it goes through without a hold.
        out, _err, code = await _finished(start_tap(stream, runtime_dir))
        assert (out, code) == (b"", 0)
        assert app.main_screen.held_panel.list.option_count == 0
        await pilot.press("i", "ctrl+a", "ctrl+k", *"tool:Bash", "enter")
        await wait_until(pilot, lambda: app.main_screen.held_panel.hold.expr == "tool:Bash")
        tap = start_tap(stream, runtime_dir)
        await wait_until(pilot, lambda: app.main_screen.held_panel.list.option_count == 1)
        await pilot.press("enter")
        await _finished(tap)
        await pilot.press("i", "ctrl+a", "ctrl+k", "enter")  # empty: cleared
        await wait_until(pilot, lambda: not app.main_screen.held_panel.hold.listening)
        await pilot.press("i", *"tool:(", "enter")  # a bad expression: said, nothing set
        await pilot.pause(0.1)
        assert not app.main_screen.held_panel.hold.listening


async def test_quitting_the_dashboard_lets_held_calls_go(runtime_dir, tmp_path):
    stream = tmp_path / "s.jsonl"
    app = _app(stream)
    async with app.run_test(size=SIZE) as pilot:
        tap = start_tap(stream, runtime_dir)
        await wait_until(pilot, lambda: app.main_screen.held_panel.list.option_count == 1)
    out, _err, code = await _finished(tap)
    assert (out, code) == (b"", 0)
    head = decode_head(stream.read_bytes().splitlines()[0])
    assert head.held.released_by == "dashboard-gone"


def test_in_a_real_terminal_deny_then_sigkill_the_dashboard(runtime_dir, tmp_path):
    """`hooktui watch --intercept` in tmux: d denies a held call; SIGKILL lets the next one go."""
    import os
    import shutil
    import signal
    import subprocess
    import time

    from tests.conftest import HOOKTUI

    if shutil.which("tmux") is None:
        pytest.skip("tmux is not installed")
    stream, pidfile = tmp_path / "s.jsonl", tmp_path / "pid"
    tmux = ["tmux", "-L", f"hooktui-hold-{os.getpid()}"]
    command = (
        f"echo $$ > {pidfile}; exec env XDG_RUNTIME_DIR={runtime_dir} "
        f"{HOOKTUI} watch --intercept tool:Bash {stream}"
    )
    subprocess.run(
        [*tmux, "new-session", "-d", "-x", "120", "-y", "30", command], check=True, timeout=60
    )

    def screen() -> str:
        return subprocess.run(
            [*tmux, "capture-pane", "-p"], capture_output=True, text=True, timeout=60
        ).stdout

    def wait_screen(text: str) -> None:
        deadline = time.monotonic() + WAIT_S
        while text not in screen() and time.monotonic() < deadline:
            time.sleep(0.1)
        assert text in screen(), (
            screen(),
            [p.poll() for p in taps],
            os.listdir(runtime_dir + "/hooktui"),
        )

    taps = []
    try:
        deadline = time.monotonic() + WAIT_S
        while not (Path(runtime_dir) / "hooktui" / "hold.sock").exists():
            assert time.monotonic() < deadline, screen()
            time.sleep(0.05)
        wait_screen("● intercept  tool:Bash")  # armed: marked in the header, not only a toast
        tap = start_tap(stream, runtime_dir)
        taps.append(tap)
        wait_screen("1 held")
        assert "git push --force" in screen()
        subprocess.run([*tmux, "send-keys", "d"], check=True, timeout=60)
        wait_screen("the reason")
        subprocess.run([*tmux, "send-keys", "Enter"], check=True, timeout=60)  # the offered reason
        out, _err, code = finish(tap)
        assert json.loads(out)["hookSpecificOutput"]["permissionDecision"] == "deny"
        wait_screen("⏸ denied")  # the recorded call, marked in the list
        tap = start_tap(stream, runtime_dir)
        wait_screen("1 held")
        os.kill(int(pidfile.read_text()), signal.SIGKILL)
        out, _err, code = finish(tap)
        assert (out, code) == (b"", 0)  # the hook's own answer: allow
        head = decode_head(stream.read_bytes().splitlines()[-1])
        assert head.held.released_by == "dashboard-gone"
    finally:
        subprocess.run([*tmux, "kill-server"], capture_output=True, timeout=60)


def test_a_bad_intercept_gets_one_line(tmp_path, monkeypatch, capsys):
    import os
    import subprocess

    from hooktui.tui.cli import watch as watch_cli

    from tests.conftest import HOOKTUI

    res = subprocess.run(
        [HOOKTUI, "watch", "--intercept", "tool:(", str(tmp_path / "s.jsonl")],
        capture_output=True,
        text=True,
        stdin=subprocess.DEVNULL,
        timeout=60,
    )
    assert res.returncode == 2
    assert res.stderr.startswith("hooktui watch: --intercept: ") and res.stderr.count("\n") == 1
    # A runtime directory open to others is passed over for a private one (issue 19).
    open_dir = tmp_path / "run"
    (open_dir / "hooktui").mkdir(parents=True)
    os.chmod(open_dir / "hooktui", 0o755)
    monkeypatch.setenv("XDG_RUNTIME_DIR", str(open_dir))
    server = watch_cli._holding("tool:Bash")
    try:
        assert server and not server.path.startswith(str(open_dir))
        assert not os.stat(os.path.dirname(server.path)).st_mode & 0o077
    finally:
        server.close()
    assert not (open_dir / "hooktui" / "hold.sock").exists()
