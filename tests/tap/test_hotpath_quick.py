"""quick.py's first stretch ends most calls without `select`; every call it cannot
end is handed to the pump, mid-way, and still answers as the bare hook does.

Each case runs the hook bare and through the tap as the installed line starts it
(`-I -S -X utf8`), with `-X importtime` telling whether the pump took over (its
lines are told apart from the hook's own stderr). The cases name the moment of
the hand-over: the request still open, too big for the hook's pipe, a pipeful
of output, a hook past the stretch's budget, output held open by a background
child, a caller's pipe that would block.
"""

from __future__ import annotations

import fcntl
import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from tests.conftest import HOOKTUI, wait_for_records
from tests.waits import WAIT_S, read_line, read_some

REQUEST = json.dumps({"hook_event_name": "PreToolUse", "tool_name": "Bash"}).encode()
PUMP = "hooktui.tap.hotpath.pump"
F_SETPIPE_SZ = 1031  # Linux


def tap_line(stream: Path, hook: list[str]) -> list[str]:
    return [sys.executable, "-I", "-S", "-X", "utf8", "-X", "importtime", HOOKTUI, "tap"] + [
        "--stream",
        str(stream),
        "--",
        *hook,
    ]


def split_importtime(stderr: bytes) -> tuple[bytes, set[str]]:
    """(the hook's stderr, the modules the import system loaded)."""
    own, modules = [], set()
    for line in stderr.splitlines(keepends=True):
        if line.startswith(b"import time:"):
            modules.add(line.rpartition(b"|")[2].strip().decode())
        else:
            own.append(line)
    return b"".join(own), modules


def run(argv: list[str], feed, **kw) -> tuple[bytes, bytes, int]:
    """Run `argv`, its stdin written by `feed(pipe)` (which closes it), or, for a
    `written` request, a pipe that already holds it all."""
    if isinstance(feed, bytes):
        stdin = written(feed)
        try:
            proc = subprocess.run(argv, stdin=stdin, capture_output=True, timeout=60, **kw)
        finally:
            os.close(stdin)
        return proc.stdout, proc.stderr, proc.returncode
    proc = subprocess.Popen(
        argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, **kw
    )
    pipe, proc.stdin = proc.stdin, None  # the writer's alone: communicate only reads
    writer = threading.Thread(target=feed, args=(pipe,))
    writer.start()
    out, err = proc.communicate(timeout=60)
    writer.join()
    return out, err, proc.returncode


def written(data: bytes) -> int:
    """The read end of a pipe holding all of `data`, its write end closed: a request
    the runtime wrote and closed before the tap looked, whatever the machine's load
    (a writer thread started beside the tap may come after its first look)."""
    r, w = os.pipe()
    fcntl.fcntl(w, F_SETPIPE_SZ, max(len(data), 4096))
    os.write(w, data)
    os.close(w)
    return r


def at_once(data: bytes):
    def feed(pipe):
        try:
            pipe.write(data)
        except BrokenPipeError:
            pass
        pipe.close()

    return feed


def late(data: bytes, after_s: float):
    def feed(pipe):
        time.sleep(after_s)
        pipe.write(data)
        pipe.close()

    return feed


def both(tmp_path: Path, hook: list[str], feed) -> tuple[tuple, tuple, set[str], dict]:
    """(bare, tapped, modules the tap imported, the record)."""
    stream = tmp_path / "s.jsonl"
    bare = run(hook, feed)
    out, err, code = run(tap_line(stream, hook), feed)
    err, modules = split_importtime(err)
    (record,) = wait_for_records(stream, 1)
    return bare, (out, err, code), modules, record


def sh(script: str) -> list[str]:
    return ["sh", "-c", script]


# (name, hook, caller's stdin, whether the pump takes over)
CASES = [
    ("answers at once", sh("cat >/dev/null; echo '{\"ok\":1}'; echo note >&2"), REQUEST, False),
    ("echoes the request", sh("cat"), REQUEST, False),
    ("exit 2 with a reason", sh("cat >/dev/null; echo no >&2; exit 2"), REQUEST, False),
    ("request after 0.3 s", sh("cat"), late(REQUEST, 0.3), True),
    ("request of 1 MiB", sh("cat | wc -c"), at_once(b"x" * (1 << 20)), True),
    ("never reads its request", sh("echo early"), at_once(b"y" * (1 << 20)), True),
    ("a pipeful of output", sh("cat >/dev/null; head -c 300000 /dev/zero | tr '\\0' z"), REQUEST, True),
    ("past the budget", sh("cat >/dev/null; echo a; sleep 0.8; echo b"), REQUEST, True),
    ("a background child holds stdout", sh("cat >/dev/null; echo a; (sleep 0.3; echo late) &"), REQUEST, True),
]  # fmt: skip


@pytest.mark.parametrize(
    ("hook", "feed", "pumped"), [c[1:] for c in CASES], ids=[c[0] for c in CASES]
)
def test_every_call_answers_as_bare_whichever_path_ends_it(tmp_path, hook, feed, pumped):
    bare, tapped, modules, record = both(tmp_path, hook, feed)
    assert tapped == bare
    assert (PUMP in modules) is pumped, sorted(m for m in modules if m.startswith("hooktui"))
    assert ("select" in modules) is pumped
    assert record["exit_code"] == bare[2]


def test_the_record_holds_the_whole_request_and_output_across_a_hand_over(tmp_path):
    """Read partly by the stretch, the rest by the pump: the record has it all."""
    request = json.dumps({"hook_event_name": "PreToolUse", "pad": "r" * 200_000}).encode()
    hook = sh("cat; head -c 200000 /dev/zero | tr '\\0' o")
    bare, tapped, modules, record = both(tmp_path, hook, at_once(request))
    assert tapped == bare and PUMP in modules
    assert record["request"] == json.loads(request)
    assert record["stdout"]["length"] == len(bare[0])


def test_the_hook_starts_with_the_callers_signal_mask(tmp_path):
    """The tap blocks SIGCHLD for itself; the hook must not inherit that (a shell
    with SIGCHLD blocked would never hear of its own children)."""
    hook = ["grep", "^SigBlk:", "/proc/self/status"]  # no shell: shells reset their mask
    for blocked in ((), (signal.SIGUSR1,)):

        def caller(blocked=blocked):
            signal.pthread_sigmask(signal.SIG_SETMASK, blocked)

        stream = tmp_path / f"s{len(blocked)}.jsonl"
        outs = [
            subprocess.run(
                argv, input=REQUEST, capture_output=True, preexec_fn=caller, timeout=60
            ).stdout
            for argv in (hook, tap_line(stream, hook))
        ]
        assert outs[0] == outs[1], outs
        assert int(outs[0].split()[1], 16) == sum(1 << (s - 1) for s in blocked)


def test_a_signal_during_the_stretch_reaches_the_hook(tmp_path):
    """SIGTERM to the tap while the hook runs (the stretch asleep in sigtimedwait):
    the hook gets it and dies by it, and so does the tap."""
    stream = tmp_path / "s.jsonl"
    hook = sh("cat >/dev/null; echo started; sleep 5")
    proc = subprocess.Popen(
        tap_line(stream, hook),
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    proc.stdin.write(REQUEST)
    proc.stdin.close()
    assert read_line(proc.stdout) == b"started\n"
    proc.send_signal(signal.SIGTERM)
    assert proc.wait(timeout=WAIT_S) == -signal.SIGTERM
    proc.stdout.close()
    proc.stderr.close()
    (record,) = wait_for_records(stream, 1)
    assert record["signal"] == signal.SIGTERM


@pytest.mark.parametrize("size", [len(REQUEST), 3 << 20])
def test_a_callers_stdin_from_a_file_is_read_by_the_stretch(tmp_path, size):
    """A regular file is the hook's own stdin, as bare (it may seek in it): the stretch
    copies it for the record without moving its offset, and needs no pump, at any size."""
    data = (REQUEST * (size // len(REQUEST) + 1))[:size]
    request = tmp_path / "request.json"
    request.write_bytes(data)
    stream = tmp_path / "s.jsonl"
    with open(request, "rb") as f:
        done = subprocess.run(
            tap_line(stream, sh("wc -c")), stdin=f, capture_output=True, timeout=60
        )
    err, modules = split_importtime(done.stderr)
    assert (done.stdout.strip(), err, done.returncode) == (str(size).encode(), b"", 0)
    assert PUMP not in modules
    wait_for_records(stream, 1)


def test_a_caller_that_hands_over_socketpairs_as_node_does(tmp_path):
    """Node's child_process gives a child socketpairs for its stdio (Claude Code, Gemini
    CLI, Copilot CLI and Qwen Code start hooks so): the request ends with a shutdown of
    the caller's end, and the stretch reads it there as from a pipe."""
    stream = tmp_path / "s.jsonl"
    hook = sh("cat; echo done >&2")
    results = []
    for argv in (hook, tap_line(stream, hook)):
        pairs = [socket.socketpair() for _ in range(3)]
        # Sent and shut before the start: all there at the tap's first look, however
        # loaded the machine (Node writes it as it spawns).
        pairs[0][0].sendall(REQUEST)
        pairs[0][0].shutdown(socket.SHUT_WR)
        proc = subprocess.Popen(argv, stdin=pairs[0][1], stdout=pairs[1][1], stderr=pairs[2][1])
        for _, theirs in pairs:
            theirs.close()
        got = []
        for ours, _ in pairs[1:]:
            ours.settimeout(WAIT_S)  # a hang fails: socket.timeout
            data = b""
            while chunk := ours.recv(1 << 16):
                data += chunk
            got.append(data)
        results.append((*got, proc.wait(timeout=WAIT_S)))
        for ours, _ in pairs:
            ours.close()
    (bare_out, bare_err, bare_code), (out, err, code) = results
    err, modules = split_importtime(err)
    assert (out, err, code) == (bare_out, bare_err, bare_code) == (REQUEST, b"done\n", 0)
    assert PUMP not in modules
    assert wait_for_records(stream, 1)[0]["request"] == json.loads(REQUEST)


def test_a_caller_whose_stdout_would_block_still_gets_all_of_it(tmp_path):
    """The caller's end of stdout is non-blocking, small, and nobody reads it for a
    while: the stretch hands the write to the pump's write_all, which waits for room."""
    stream = tmp_path / "s.jsonl"
    r, w = os.pipe()
    os.set_blocking(w, False)
    fcntl.fcntl(w, F_SETPIPE_SZ, 4096)
    hook = sh("cat >/dev/null; head -c 50000 /dev/zero | tr '\\0' a")
    proc = subprocess.Popen(
        tap_line(stream, hook), stdin=subprocess.PIPE, stdout=w, stderr=subprocess.PIPE
    )
    os.close(w)
    proc.stdin.write(REQUEST)
    proc.stdin.close()
    time.sleep(0.3)  # let the pipe fill: the tap's write would block
    got = b""
    while chunk := read_some(r):
        got += chunk
    os.close(r)
    assert proc.wait(timeout=WAIT_S) == 0
    proc.stderr.close()
    assert got == b"a" * 50000
    assert wait_for_records(stream, 1)[0]["stdout"]["length"] == 50000
