"""`hooktui demo`: real traffic through the real tap into a stream."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

from hooktui.tap.guards import guard_path
from hooktui.tap.runtimes import RUNTIMES, get_adapter
from hooktui.tui.cli.demo_traffic import (
    CALLS_AT_ONCE,
    ROUND_SIZE,
    SLOW_SLEEP_MS,
    SLOW_TIMEOUT_MS,
    scenarios,
)
from hooktui.tui.present.format import near_timeout

from tests.conftest import HOOKTUI, wait_for_records
from tests.waits import WAIT_S


def demo(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [HOOKTUI, "demo", *args],
        capture_output=True,
        text=True,
        timeout=120,
        stdin=subprocess.DEVNULL,
    )


def test_no_ui_writes_count_records_covering_runtimes_and_decisions(tmp_path):
    stream = tmp_path / "demo.jsonl"
    count = 2 * ROUND_SIZE
    result = demo("--no-ui", "--count", str(count), "--rate", "50", "--stream", str(stream))
    assert result.returncode == 0, result.stderr
    assert f"writing to {stream}" in result.stdout
    tally = result.stdout.splitlines()[-1]
    assert tally.startswith(f"{count} calls, {count} recorded")
    records = wait_for_records(stream, count)
    assert len(records) == count
    runtimes = {r["runtime"] for r in records}
    assert {"claude-code", "codex", "basis"} <= runtimes and len(runtimes) >= 3
    # Claude Code's guard as the runtimes that run its hooks call it: named by them.
    guests = [r for r in records if r["runtime"] in ("copilot", "continue-cli")]
    assert {r["runtime"] for r in guests} == {"copilot", "continue-cli"}
    assert all(r["decision"] == "deny" and r["native_event"] == "PreToolUse" for r in guests)
    assert {"cline", "mistral-vibe", "opencode"} <= runtimes
    decisions = {r["decision"] for r in records}
    assert {"allow", "deny", "modify", "replace", "failure"} <= decisions
    for r in records:
        assert r["tap_error"] == ""
        assert r["hook"]["argv"][-1 if r["runtime"] != "gemini-cli" else -3] in {
            str(guard_path(n))
            for n in (
                "deny_force_push",
                "drop_force",
                "redact_output",
                "slow_guard",
                "crashing_guard",
                "allow_all",
                "cancel_rm_rf",
                "no_sudo",
                "keep_env_private",
            )
        }
    failures = [r for r in records if r["decision"] == "failure"]
    assert all(r["effect"] == "proceeds" and r["runtime"] == "claude-code" for r in failures)
    modified = [r for r in records if r["decision"] == "modify"]
    assert all("--force" not in r["updated_input"]["command"] for r in modified)
    assert all(not r["updated_input"]["command"].startswith("sudo") for r in modified)
    replaced = [r for r in records if r["decision"] == "replace"]
    assert all("***" in r["updated_output"] for r in replaced)
    slow = [r for r in records if r["runtime"] == "gemini-cli"]
    assert slow and all(r["hook"]["timeout_ms"] == SLOW_TIMEOUT_MS for r in slow)
    assert all(r["duration_ms"] >= SLOW_SLEEP_MS for r in slow)  # it sleeps at least that long
    # ...which is what watch flags as close to the timeout: the demo shows the marker.
    assert all(near_timeout(r["duration_ms"], r["hook"]["timeout_ms"]) for r in slow)
    # The tally counts what the stream holds.
    for decision in decisions:
        assert f"{decision} {sum(r['decision'] == decision for r in records)}" in tally


def test_no_ui_appends_to_an_existing_stream_and_tallies_only_its_own(tmp_path):
    stream = tmp_path / "s.jsonl"
    assert demo("--no-ui", "--count", "3", "--rate", "50", "--stream", str(stream)).returncode == 0
    result = demo("--no-ui", "--count", "2", "--rate", "50", "--stream", str(stream))
    assert result.stdout.splitlines()[-1].startswith("2 calls, 2 recorded")
    assert len(wait_for_records(stream, 5)) == 5


def test_one_call_is_one_call(tmp_path):
    stream = tmp_path / "s.jsonl"
    result = demo("--no-ui", "--count", "1", "--rate", "50", "--stream", str(stream))
    assert result.stdout.splitlines()[-1].startswith("1 call, 1 recorded")
    assert " from 1 runtime into " in result.stdout.splitlines()[-1]


def test_default_stream_is_a_new_temp_file():
    result = demo("--no-ui", "--count", "2", "--rate", "50")
    assert result.returncode == 0
    first = result.stdout.splitlines()[0]
    path = Path(first.removeprefix("hooktui demo: writing to "))
    try:
        assert path.name == "stream.jsonl" and path.parent.name.startswith("hooktui-demo-")
        assert len(wait_for_records(path, 2)) == 2
    finally:
        shutil.rmtree(path.parent)


def test_bad_arguments_are_one_line_exit_2(tmp_path):
    for args in (
        ["--rate", "0"],
        ["--rate", "fast"],
        ["--count", "-1"],
        ["--stream", str(tmp_path)],
    ):
        result = demo("--no-ui", *args)
        assert result.returncode == 2, args
        assert result.stderr.count("\n") == 1 and "Traceback" not in result.stderr


def test_ui_mode_without_a_terminal_says_so(tmp_path):
    result = demo("--count", "1", "--stream", str(tmp_path / "s.jsonl"))
    assert result.returncode == 2
    assert "--no-ui" in result.stderr and result.stderr.count("\n") == 1
    assert not (tmp_path / "s.jsonl").exists()  # nothing generated


def test_one_round_of_scenarios_expects_every_decision():
    nth = scenarios("/repo")
    round_ = [nth(i) for i in range(ROUND_SIZE)]
    assert {s.expect for s in round_} == {"allow", "deny", "modify", "replace", "failure"}
    assert len({s.runtime for s in round_}) == 8
    assert all(guard_path(s.guard).exists() for s in round_)


async def test_ui_mode_shows_the_demo_traffic_live(tmp_path):
    import asyncio
    import threading

    from hooktui.tui.cli.demo import watch_app
    from hooktui.tui.cli.demo_traffic import Generator

    stream = tmp_path / "ui.jsonl"
    gen = Generator(str(stream), rate=50, count=ROUND_SIZE, wait=False)
    app = watch_app(stream)
    thread = threading.Thread(target=gen.run, daemon=True)
    async with app.run_test(size=(140, 40)) as pilot:
        thread.start()
        for _ in range(1500):  # the stream appears and fills while the app runs
            if app.main_screen.view.total >= ROUND_SIZE:
                break
            await asyncio.sleep(0.02)
            await pilot.pause()
        heads = [app.main_screen.view.line(i).head for i in range(len(app.main_screen.view))]
        assert len(heads) == ROUND_SIZE
        assert {h.decision for h in heads} == {"allow", "deny", "modify", "replace", "failure"}
        assert {h.runtime for h in heads} >= {"claude-code", "codex", "basis"}
    gen.stop.set()
    thread.join(timeout=30)


def test_no_ui_forever_stops_cleanly_on_ctrl_c(tmp_path):
    import signal

    stream = tmp_path / "forever.jsonl"
    proc = subprocess.Popen(
        [HOOKTUI, "demo", "--no-ui", "--count", "0", "--rate", "20", "--stream", str(stream)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        stdin=subprocess.DEVNULL,
        text=True,
    )
    try:
        wait_for_records(stream, 4, timeout=60)
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=60)
    finally:
        proc.kill()
    assert proc.returncode == 0, err
    assert "Traceback" not in err
    last = out.splitlines()[-1]
    calls = int(last.split()[0])
    assert calls >= 4 and f"{calls} recorded" in last


def test_ctrl_c_drops_the_calls_a_slow_machine_has_queued(tmp_path):
    """Calls come faster than the taps run (as on a loaded machine): Ctrl-C ends the
    demo once the calls already running are done, never after the whole queue."""
    import signal

    stream = tmp_path / "queued.jsonl"
    proc = subprocess.Popen(
        [HOOKTUI, "demo", "--no-ui", "--count", "0", "--rate", "1000", "--stream", str(stream)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        stdin=subprocess.DEVNULL,
        text=True,
    )
    try:
        wait_for_records(stream, 4)
        before = len(wait_for_records(stream, 4))
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=WAIT_S)
    finally:
        proc.kill()
    assert proc.returncode == 0, err
    after = len(stream.read_bytes().splitlines())
    assert before <= after <= before + CALLS_AT_ONCE  # only the calls running at Ctrl-C
    assert f"{after} recorded" in out.splitlines()[-1]


def test_help_names_the_runtimes_users_have_before_the_research_ones():
    help_text = " ".join(demo("--help").stdout.split())
    names = [get_adapter(name).title for name in RUNTIMES]
    spoken = [title for title in names if title in help_text]
    assert "Claude Code" in spoken and "basis" in spoken
    # The sentence follows the registry: Claude Code first, basis and fastpace last.
    assert sorted(spoken, key=help_text.index) == spoken
    assert help_text.index("fastpace") > help_text.index("OpenCode")
