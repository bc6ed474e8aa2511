"""The dashboard's side of breakpoints, UI-free: listen, match, queue, release.

A HoldServer listens on the private socket (place.py) while it has a
breakpoint. Each tap that connects offers one answered call; the server builds
its record in memory (as the recorder would, nothing is written), matches it
against the breakpoint's filter and answers hold or pass. A held call waits in
`held()` until `release()` sends a decision (answers.py), or the tap lets it go
at its deadline. Closing the server (or the dashboard dying) closes every
connection: each tap then sends the hook's own answer.

`on_change()` is called from the server's threads whenever the queue changes.
"""

from __future__ import annotations

import contextlib
import itertools
import os
import socket
import threading
import time
from collections.abc import Callable
from typing import Any

import msgspec
from hooktui.tap.hold import place, wire
from hooktui.tap.hold.budget import hold_budget
from hooktui.tap.model import Record, RecordHead
from hooktui.tap.read.filter import compile_filter, is_empty_filter
from hooktui.tap.record.judge import judge
from hooktui.tap.record.recorder import build_record
from hooktui.tap.record.request import load_request
from hooktui.tap.record.tapcall import Captured, TapCall

# How long a connecting tap may take to send its call.
OFFER_READ_S = 5.0


class HoldError(Exception):
    """The breakpoint cannot be set (one line for the user)."""


class HeldCall:
    """One call a tap holds for us: what it is, the hook's answer, the time left."""

    def __init__(self, number: int, offer: dict, conn: socket.socket) -> None:
        self.number = number
        self.conn = conn
        self.tapcall = _tapcall(offer)
        self.request, _ = load_request(self.tapcall.request)
        judged = judge(self.tapcall, self.request)
        self.call = judged.call  # the canonical call, for the runtime's encode
        self.version = judged.version
        self.fields = build_record(self.tapcall)  # capture "full": in memory only
        self.record = msgspec.convert(self.fields, Record, strict=False)
        self.head = msgspec.convert(self.fields, RecordHead, strict=False)
        self.runtime = self.record.runtime
        self.received = time.monotonic()
        self.elapsed_s = float(offer.get("elapsed_s") or 0)
        self.deadline = self.received  # set when held
        self.decided = False

    @property
    def timeout_ms(self) -> int | None:
        return self.record.hook.timeout_ms

    def left_s(self, now: float | None = None) -> float:
        return max(0.0, self.deadline - (time.monotonic() if now is None else now))


def _tapcall(offer: dict) -> TapCall:
    out, err = wire.unb64(offer.get("stdout") or ""), wire.unb64(offer.get("stderr") or "")
    return TapCall(
        argv=[str(a) for a in offer.get("argv") or []],
        request=wire.unb64(offer.get("request") or ""),
        stdout=Captured(out),
        stderr=Captured(err),
        exit_code=offer.get("exit_code"),
        signal=offer.get("signal"),
        started_at=float(offer.get("started_at") or 0),
        duration_ms=float(offer.get("duration_ms") or 0),
        label=offer.get("label"),
        runtime=offer.get("runtime"),
        capture="full",
        timeout_ms=offer.get("timeout_ms"),
        timeout_default=bool(offer.get("timeout_default")),
        fail_closed=bool(offer.get("fail_closed")),
    )


class HoldServer:
    """Breakpoints for one dashboard. `set_breakpoint(expr)` starts (or stops) listening."""

    def __init__(self, on_change: Callable[[], Any] | None = None, path: str | None = None):
        self.path = path
        self.on_change = on_change or (lambda: None)
        self.expr = ""
        self._match: Callable[[RecordHead], bool] = lambda head: False
        self._listener: socket.socket | None = None
        self._inode: tuple[int, int] | None = None
        self._lock_fd = -1  # holds hold.lock while listening (place.py)
        self._held: dict[int, HeldCall] = {}
        self._lock = threading.Lock()
        self._numbers = itertools.count(1)
        self.released: list[tuple[HeldCall, str]] = []  # (call, by), newest last

    # -- the breakpoint --------------------------------------------------------

    def set_breakpoint(self, expr: str) -> None:
        """Hold calls matching `expr` (the filter language); "" clears it.

        Raises FilterError for a bad expression, HoldError when the socket
        cannot be had (another dashboard holds breakpoints, a directory open
        to others): either way the previous breakpoint stays.
        """
        if is_empty_filter(expr):
            self.expr, self._match = "", lambda head: False
            self._stop_listening()
            return
        match = compile_filter(expr)
        if self._listener is None:
            self._listen()
        self.expr, self._match = expr.strip(), match

    @property
    def listening(self) -> bool:
        return self._listener is not None

    def held(self) -> list[HeldCall]:
        """The calls waiting for a decision, oldest first."""
        with self._lock:
            return sorted(self._held.values(), key=lambda c: c.number)

    def release(self, number: int, frame: dict) -> bool:
        """Send a decision (answers.py) to the tap holding call `number`; False if it is gone."""
        with self._lock:
            call = self._held.pop(number, None)
        if call is None or call.decided:
            return False
        call.decided = True
        try:
            wire.send(call.conn, frame)
        except OSError:
            return False
        finally:
            self.on_change()
        return True

    def close(self) -> None:
        """Stop listening and let every held call go (its tap sends the hook's answer)."""
        self._stop_listening()
        with self._lock:
            calls, self._held = list(self._held.values()), {}
        for call in calls:
            _hang_up(call.conn)

    # -- listening -------------------------------------------------------------

    def _listen(self) -> None:
        try:
            path = self.path or place.socket_path()
            place.private_dir(os.path.dirname(path))
            lock = _take_lock(place.lock_path(path))
        except OSError as exc:
            where = self.path or " or ".join(place.candidates())
            raise HoldError(f"cannot listen for held calls at {where}: {exc}") from None
        try:
            _claim(path)
            listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            listener.bind(path)
            os.chmod(path, 0o600)
            listener.listen(64)
        except OSError as exc:
            os.close(lock)
            raise HoldError(f"cannot listen for held calls at {path}: {exc}") from None
        info = os.stat(path)
        self.path, self._inode, self._lock_fd = path, (info.st_dev, info.st_ino), lock
        self._listener = listener
        threading.Thread(target=self._accept, args=(listener,), daemon=True).start()

    def _stop_listening(self) -> None:
        listener, self._listener = self._listener, None
        if listener is None:
            return
        try:  # only our own socket: another dashboard may have taken the path since
            info = os.stat(self.path)
            if (info.st_dev, info.st_ino) == self._inode:
                os.unlink(self.path)
        except OSError:
            pass
        _hang_up(listener)
        if self._lock_fd >= 0:
            os.close(self._lock_fd)  # lets the lock go: taps see no dashboard here
            self._lock_fd = -1

    def _accept(self, listener: socket.socket) -> None:
        while True:
            try:
                conn, _ = listener.accept()
            except OSError:
                return  # closed: the breakpoint was cleared
            threading.Thread(target=self._serve, args=(conn,), daemon=True).start()

    # -- one tap ---------------------------------------------------------------

    def _serve(self, conn: socket.socket) -> None:
        call = None
        try:
            conn.settimeout(OFFER_READ_S)
            if wire.peer_uid(conn) != os.getuid():
                return
            offer = wire.receive(conn)
            if offer is None:
                return
            call = HeldCall(next(self._numbers), offer, conn)
            budget = self._budget(call)
            if not budget or not self._match(call.head):
                wire.send(conn, {"hold": False})
                return
            call.deadline = call.received + budget
            # Told first, shown second: a call the dashboard shows as held is one whose
            # tap has the word (a runtime ending the tap then still finds it held).
            wire.send(conn, {"hold": True, "budget_s": budget})
            with self._lock:
                self._held[call.number] = call
            self.on_change()
            self._wait_for_tap(call, budget)
        except Exception:  # whatever went wrong, the tap sees EOF and sends the hook's answer
            pass
        finally:
            if call is not None:
                with self._lock:
                    gone = self._held.pop(call.number, None)
                if gone is not None:
                    self.on_change()
            _hang_up(conn)

    def _budget(self, call: HeldCall) -> float:
        return hold_budget(call.timeout_ms, call.elapsed_s + time.monotonic() - call.received)

    def _wait_for_tap(self, call: HeldCall, budget: float) -> None:
        """Until the tap says how the hold ended (or goes away)."""
        call.conn.settimeout(budget + 5.0)
        try:
            note = wire.receive(call.conn)
        except TimeoutError:
            note = None
        by = str(note.get("released_by")) if note else "dashboard-gone"
        with self._lock:
            self.released.append((call, by))
            del self.released[:-50]


def _take_lock(path: str) -> int:
    """Hold the dashboards' lock (place.py): only one holds breakpoints at a time."""
    fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC | os.O_NOFOLLOW, 0o600)
    try:
        os.lockf(fd, os.F_TLOCK, 0)
    except OSError:
        os.close(fd)
        raise OSError("another dashboard holds breakpoints already") from None
    return fd


def _claim(path: str) -> None:
    """Take the socket path (the lock is ours): refuse one a dashboard of an older
    hooktui listens on (it took no lock), remove a stale one."""
    if not os.path.lexists(path):
        return
    probe = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        probe.settimeout(1.0)
        probe.connect(path)
    except OSError:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(path)  # nobody listens: a dashboard that died
        return
    finally:
        probe.close()
    raise OSError("another dashboard holds breakpoints already")


def _hang_up(sock: socket.socket) -> None:
    try:
        sock.shutdown(socket.SHUT_RDWR)
    except OSError:
        pass
    sock.close()
