"""One deadline for a held call, whatever the dashboard does (issue 19): a peer that
says "hold" and then trickles its decision a byte at a time holds the call no longer
than its deadline, and a runtime ending the tap (SIGTERM) ends the wait at once, in
the middle of that frame too (it held a call 51 s, and SIGTERM did not end it)."""

from __future__ import annotations

import json
import os
import signal
import socket
import threading
import time

from tests.hold_helpers import REQUEST, finish, private_runtime_dir, start_tap, wait_for


def _frame(message: dict) -> bytes:
    body = json.dumps(message).encode()
    return len(body).to_bytes(4, "big") + body


class TricklingPeer:
    """Says hold, then sends a decision one byte every half second, for ever."""

    def __init__(self, runtime_dir: str) -> None:
        folder = os.path.join(runtime_dir, "hooktui")
        os.makedirs(folder, mode=0o700, exist_ok=True)
        self.lock = os.open(os.path.join(folder, "hold.lock"), os.O_RDWR | os.O_CREAT, 0o600)
        os.lockf(self.lock, os.F_TLOCK, 0)  # a live dashboard's
        self.listener = socket.socket(socket.AF_UNIX)
        self.listener.bind(os.path.join(folder, "hold.sock"))
        self.listener.listen(4)
        self.trickling = threading.Event()
        threading.Thread(target=self._serve, daemon=True).start()

    def _serve(self) -> None:
        try:
            conn, _ = self.listener.accept()
            size = int.from_bytes(conn.recv(4, socket.MSG_WAITALL), "big")
            conn.recv(size, socket.MSG_WAITALL)
            conn.sendall(_frame({"hold": True, "budget_s": 600}))
            self.trickling.set()
            for byte in _frame({"action": "answer", "stdout": "", "exit_code": 0}) * 100:
                conn.send(bytes([byte]))
                time.sleep(0.5)
        except OSError:
            pass

    def close(self) -> None:
        self.listener.close()
        os.close(self.lock)


def test_sigterm_ends_a_hold_whose_decision_trickles(tmp_path):
    runtime_dir = private_runtime_dir()
    peer = TricklingPeer(runtime_dir)
    deny = ["sh", "-c", "cat >/dev/null; echo DENY"]
    try:
        tap = start_tap(tmp_path / "s.jsonl", runtime_dir, REQUEST, timeout_ms=600_000, hook=deny)
        wait_for(peer.trickling.is_set)
        time.sleep(1)  # a few bytes of the decision are in
        tap.send_signal(signal.SIGTERM)
        out, _err, code = finish(tap, timeout=10)  # the hold would last 478 s
    finally:
        peer.close()
    assert (out, code) == (b"DENY\n", 0)
