"""A hook whose background child keeps its stdout open (a SessionStart hook starting a
dev server): the tap waits for the output to close, as the runtime does, and it waits
asleep (issue 19: it busy-polled, 117k `poll` calls in 2 s, most of a core)."""

from __future__ import annotations

import os
import resource
import subprocess

from tests.conftest import HOOKTUI

LINGER_S = 2.0


def cpu_of_children() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def test_a_tap_waiting_on_a_background_child_sleeps(tmp_path):
    hook = f"cat >/dev/null; echo DENY; (sleep {LINGER_S}) & exit 2"
    before = cpu_of_children()
    done = subprocess.run(
        [HOOKTUI, "tap", "--stream", str(tmp_path / "s.jsonl"), "--", "sh", "-c", hook],
        input=b"{}",
        capture_output=True,
        timeout=60,
    )
    assert (done.stdout, done.returncode) == (b"DENY\n", 2), done.stderr
    # The tap's own CPU and its hook's (the recorder it leaves is not ours): a
    # Python start and a few polls, not LINGER_S of a core spent polling.
    assert cpu_of_children() - before < LINGER_S / 4


def test_the_pump_sleeps_between_looks_while_output_lingers():
    """Its clock once the hook is gone and a background child holds the output: a
    look every LINGER_CHECK_S, never a deadline already past (poll(0) in a loop)."""
    from hooktui.tap.hotpath import pump
    from hooktui.tap.hotpath.spawn import spawn

    pid, in_w, out_r, err_r = spawn(["sh", "-c", "sleep 3 & exit 0"], new_session=True)
    p = pump.Pump(pid, in_w, out_r, err_r)
    try:
        for _ in range(100):  # until the pidfd says the hook is gone
            for fd, _ in p.poller.poll(100):
                p._on_ready(fd)
            p._check_hook()
            if p.reaped:
                break
        assert p.reaped and p.sinks  # gone, its output still open
        p.exited_at -= 10  # long ago
        assert p._wait_ms() >= pump.LINGER_CHECK_S * 1000
    finally:
        pump.kill(pid, True)  # its group: the background child
        for fd in p.sinks:
            os.close(fd)
