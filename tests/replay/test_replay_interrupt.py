"""Ctrl-C at the worst moment of a replayed hook's start: the hook is still killed.

`hooktui replay` under load lost hooks this way (test_replay_cli's Ctrl-C test failed
about 1 run in 8 with two busy loops beside it): the SIGINT came while the hook was
being forked, before replay had its pid on the books. Each test here runs a small
replay in a child Python (a real SIGINT must not reach pytest) and sends that SIGINT
at one exact point of the start with a real `os.kill`, instead of waiting for the
scheduler to pick it.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from tests.waits import WAIT_S, finish

# The child: replay one hook (`sh` writing its pid and start time, then sleeping)
# the way replay.run does, and answer Ctrl-C the way the CLI does (kill_running, 130).
# INJECT sends the SIGINT.
SCRIPT = """
import os, signal, sys, time
from hooktui.replay import procs
from hooktui.replay import runner

pidfile, mode = sys.argv[1], sys.argv[2]
HOOK = {hook!r}

def ctrl_c_once_the_hook_runs():
    # As in the test that failed: the hook has written its pid, then Ctrl-C comes.
    for _ in range(1000):
        if os.path.exists(pidfile):
            break
        time.sleep(0.01)
    os.kill(os.getpid(), signal.SIGINT)
{inject}
procs.start()
hook = ["sh", "-c", HOOK.format(pidfile=pidfile)]
# A cwd and an environment of its own: the runner forks (as for most records).
fork = mode == "fork"
try:
    procs.run(hook, b"", cwd="/" if fork else None, env=dict(os.environ) if fork else None,
              timeout_s=600)
except KeyboardInterrupt:
    procs.kill_running()
    sys.exit(130)
sys.exit(0)
"""

# The hook names itself by pid and start time (field 22 of /proc/PID/stat): once
# it is dead its pid may be another process's, the pair never is.
HOOK = (
    "echo $$ $(cut -d' ' -f22 /proc/$$/stat) > {pidfile}.new; mv {pidfile}.new {pidfile}; sleep 300"
)

# Ctrl-C while fork() runs: its handler then runs inside the after-fork callbacks
# (logging registers one in every replay), where CPython prints and drops exceptions.
DURING_FORK = """
fired = []
def ctrl_c():
    if not fired:
        fired.append(1)
        ctrl_c_once_the_hook_runs()
os.register_at_fork(after_in_parent=ctrl_c)
"""

# Ctrl-C once the hook runs but before `spawn` has handed its pid back to replay.
AFTER_SPAWN = """
spawn = runner.spawn
def spawn_then_ctrl_c(*args, **kwargs):
    started = spawn(*args, **kwargs)
    ctrl_c_once_the_hook_runs()
    return started
runner.spawn = spawn_then_ctrl_c
"""


def alive(pid: int, started: str) -> bool:
    """That very process is alive (not a zombie)."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            rest = f.read().rsplit(")", 1)[1].split()
    except OSError:
        return False
    return rest[19] == started and rest[0] not in ("Z", "X")


def gone(pid: int, started: str) -> bool:
    """That process is dead or a zombie (its pid may belong to another one by now)."""
    for _ in range(100):
        if not alive(pid, started):
            return True
        time.sleep(0.05)
    return False


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
@pytest.mark.parametrize(
    ("inject", "mode"),
    [(DURING_FORK, "fork"), (AFTER_SPAWN, "fork"), (AFTER_SPAWN, "spawn")],
    ids=["during-fork", "after-fork", "after-posix-spawn"],
)
def test_ctrl_c_while_a_hook_starts_kills_it(tmp_path: Path, inject: str, mode: str):
    script = tmp_path / "replay_one.py"
    script.write_text(SCRIPT.format(inject=textwrap.dedent(inject), hook=HOOK))
    pidfile = tmp_path / "hook.pid"
    proc = subprocess.Popen(
        [sys.executable, str(script), str(pidfile), mode],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    hook: int | None = None
    started: str | None = None
    try:
        for _ in range(600):
            if pidfile.exists() or proc.poll() is not None:
                break
            time.sleep(0.05)
        if not pidfile.exists():
            proc.kill()
            pytest.fail(f"the hook never wrote its pid: {finish(proc)[1].decode()}")
        pid, started = pidfile.read_text().split()
        hook = int(pid)
        try:
            code = proc.wait(timeout=WAIT_S)
        except subprocess.TimeoutExpired:
            pytest.fail("Ctrl-C was lost: the replay went on running its hook")
        stderr = finish(proc)[1].decode()
        assert code == 130, stderr
        assert "Traceback" not in stderr, stderr
        assert gone(hook, started), "the hook outlived Ctrl-C"
    finally:
        proc.kill()
        proc.wait(timeout=WAIT_S)
        proc.stdout.close()
        proc.stderr.close()
        if hook is not None and started is not None and alive(hook, started):
            os.killpg(hook, signal.SIGKILL)  # what the replay failed to stop


# --jobs 2: record 1's worker has passed replay's stop check when Ctrl-C comes, and
# only starts its hook once the CLI's answer (kill_running) is done.
LATE_WORKER = """
import os, signal, sys, time
from hooktui.replay import procs, run
from hooktui.replay.session import load_session

session, pidfile = sys.argv[1], sys.argv[2]
replay_record = run.replay_record

def late(index, recorded, options, **kwargs):
    if index == 1:
        os.kill(os.getpid(), signal.SIGINT)  # handled in the main thread
        while procs._generation == 0:  # until kill_running() has run
            time.sleep(0.01)
    return replay_record(index, recorded, options, **kwargs)

run.replay_record = late
hook = {hook!r}.format(pidfile=pidfile)
try:
    run.replay(load_session(session).records, run.Options(policy=hook, jobs=2, timeout_s=600))
except KeyboardInterrupt:
    procs.kill_running()
    sys.exit(130)  # the interpreter still waits for the pool's threads
sys.exit(0)
"""


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_ctrl_c_kills_a_hook_a_worker_starts_after_it(tmp_path: Path):
    from tests.replay.helpers import COMMANDS, PYTHON, V1, record_session, write_guard

    workdir = tmp_path / "project"
    workdir.mkdir()
    stream = tmp_path / "session.jsonl"
    guard = write_guard(tmp_path / "guard.py", V1)
    record_session(stream, "claude-code", [PYTHON, str(guard)], COMMANDS[:2], workdir)
    script = tmp_path / "late_worker.py"
    pids = tmp_path / "pids"
    hook = "echo $$ $(cut -d' ' -f22 /proc/$$/stat) >> {pidfile}; sleep 300"
    script.write_text(LATE_WORKER.format(hook=hook))
    proc = subprocess.Popen(
        [sys.executable, str(script), str(stream), str(pids)],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    try:
        try:
            code = proc.wait(timeout=WAIT_S)
        except subprocess.TimeoutExpired:
            pytest.fail("a hook started after Ctrl-C ran on (and held the replay's exit)")
        stderr = finish(proc)[1].decode()
        assert code == 130, stderr
        assert "Traceback" not in stderr, stderr
        hooks = pids.read_text().splitlines() if pids.exists() else []
        for line in hooks:
            pid, since = line.split()
            assert gone(int(pid), since), f"hook {pid} outlived Ctrl-C"
    finally:
        proc.kill()
        proc.wait(timeout=WAIT_S)
        proc.stdout.close()
        proc.stderr.close()
        for line in pids.read_text().splitlines() if pids.exists() else []:
            pid, since = line.split()
            if alive(int(pid), since):
                os.killpg(int(pid), signal.SIGKILL)  # what the replay failed to stop


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
@pytest.mark.parametrize("jobs", ["1", "2"])
def test_ctrl_c_still_sweeps_what_the_hooks_left(tmp_path: Path, jobs: str):
    # Each hook leaves a `setsid` daemon (out of its group: only the sweep reaches
    # it); the later hooks then wait, and Ctrl-C comes while they do. The sweep after
    # each hook runs at most once a second, so the one at the end must still run.
    from tests.conftest import HOOKTUI
    from tests.replay.helpers import COMMANDS, PYTHON, V1, record_session, write_guard

    workdir = tmp_path / "project"
    workdir.mkdir()
    stream = tmp_path / "session.jsonl"
    guard = write_guard(tmp_path / "guard.py", V1)
    record_session(stream, "claude-code", [PYTHON, str(guard)], COMMANDS[:3], workdir)
    daemons, hooks = tmp_path / "daemons", tmp_path / "hooks"
    count = "$(cat {} 2>/dev/null | wc -l)".format
    policy = (
        'setsid sh -c \'echo $$ $(cut -d" " -f22 /proc/$$/stat) >> "$0"; exec sleep 300\' '
        f"{daemons} </dev/null >/dev/null 2>&1 & "
        f"while [ {count(daemons)} -le {count(hooks)} ]; do sleep 0.01; done; "
        f"echo $$ >> {hooks}; [ {count(hooks)} -gt {jobs} ] && sleep 300; true"
    )
    proc = subprocess.Popen(
        [HOOKTUI, "replay", str(stream), "--policy", policy, "--jobs", jobs, "--format", "json"],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    try:
        for _ in range(600):  # until a hook waits
            if hooks.exists() and len(hooks.read_text().split()) > int(jobs):
                break
            time.sleep(0.05)
        proc.send_signal(signal.SIGINT)
        assert proc.wait(timeout=60) == 130
        assert "Traceback" not in finish(proc)[1].decode()
        left = [line.split() for line in daemons.read_text().splitlines()]
        assert len(left) > int(jobs)
        for pid, since in left:
            assert gone(int(pid), since), f"daemon {pid} outlived the interrupted replay"
    finally:
        proc.kill()
        proc.wait(timeout=WAIT_S)
        proc.stdout.close()
        proc.stderr.close()
        for line in daemons.read_text().splitlines() if daemons.exists() else []:
            pid, since = line.split()
            if alive(int(pid), since):
                os.kill(int(pid), signal.SIGKILL)
