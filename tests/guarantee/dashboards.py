"""Dashboards for the matrix, each its own process: `python -m tests.guarantee.dashboards KIND PATH`.

- healthy: a real HoldServer holding every guard call, letting the hook's own answer
  go as soon as it sees it (a person pressing the key at once);
- listening: a real HoldServer whose breakpoint matches no call;
- stopped: the same, then stopped with SIGSTOP by the test (the kernel still accepts);
- slow: a peer that answers an offer one byte every half second;
- killed: a peer that says "hold" and then dies by SIGKILL.

Each prints "ready" once it listens at PATH.
"""

from __future__ import annotations

import contextlib
import json
import os
import select
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
OTHER_UID = 4242  # a user that is not us: the squatter
BREAKPOINT = "event:pre"
READY_S = 30.0


def dead_port() -> int:
    """A local port nobody listens on."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def socket_path(cell) -> str:
    return os.path.join(cell.env["XDG_RUNTIME_DIR"], "hooktui", "hold.sock")


def start(cell, kind: str) -> subprocess.Popen:
    """Start a dashboard of `kind` for the cell; stopped and killed when the cell ends."""
    path = socket_path(cell)
    os.makedirs(os.path.dirname(path), mode=0o700, exist_ok=True)
    env = dict(cell.env, PYTHONPATH=str(REPO))
    proc = subprocess.Popen(
        [sys.executable, "-m", "tests.guarantee.dashboards", kind, path],
        stdout=subprocess.PIPE,
        env=env,
        cwd=REPO,
    )
    cell.stack.callback(_end, proc)
    ready, _, _ = select.select([proc.stdout], [], [], READY_S)
    line = proc.stdout.readline() if ready else b""
    assert line == b"ready\n", f"the {kind} dashboard did not start: {line!r}"
    if kind == "stopped":
        os.kill(proc.pid, signal.SIGSTOP)
    return proc


def _end(proc: subprocess.Popen) -> None:
    with contextlib.suppress(ProcessLookupError):
        os.kill(proc.pid, signal.SIGCONT)
        proc.kill()
    proc.wait(timeout=30)
    proc.stdout.close()


# --- the dashboards themselves ----------------------------------------------------


def _healthy(path: str, breakpoint: str = BREAKPOINT) -> None:
    from hooktui.tap.hold import answers
    from hooktui.tap.hold.server import HoldServer

    server = HoldServer(path=path)
    server.set_breakpoint(breakpoint)
    _ready()
    while True:
        for call in server.held():
            server.release(call.number, answers.own())
        time.sleep(0.01)


def _raw(path: str, serve) -> None:
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    listener.bind(path)
    listener.listen(128)
    _ready()
    while True:
        conn, _ = listener.accept()
        threading.Thread(target=serve, args=(conn,), daemon=True).start()


def _offer(conn: socket.socket) -> None:
    size = int.from_bytes(_exactly(conn, 4), "big")
    _exactly(conn, size)


def _exactly(conn: socket.socket, size: int) -> bytes:
    data = b""
    while len(data) < size:
        chunk = conn.recv(size - len(data))
        if not chunk:
            raise EOFError
        data += chunk
    return data


def _frame(message: dict) -> bytes:
    body = json.dumps(message).encode()
    return len(body).to_bytes(4, "big") + body


def _slow(conn: socket.socket) -> None:
    with contextlib.suppress(OSError, EOFError):
        _offer(conn)
        for byte in _frame({"hold": True, "budget_s": 600}):
            conn.send(bytes([byte]))
            time.sleep(0.5)
        while conn.recv(1 << 16):
            pass


def _killed(conn: socket.socket) -> None:
    with contextlib.suppress(OSError, EOFError):
        _offer(conn)
        conn.sendall(_frame({"hold": True, "budget_s": 600}))
    os.kill(os.getpid(), signal.SIGKILL)


def _ready() -> None:
    sys.stdout.write("ready\n")
    sys.stdout.flush()


def main(kind: str, path: str) -> None:
    if kind in ("healthy", "stopped"):
        _healthy(path)
    elif kind == "listening":
        _healthy(path, "tool:no-such-tool")
    else:
        _raw(path, {"slow": _slow, "killed": _killed}[kind])


if __name__ == "__main__":
    main(*sys.argv[1:3])
