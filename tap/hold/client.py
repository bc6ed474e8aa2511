"""The tap's side of a breakpoint: offer the answered call, wait for a decision or the deadline.

Loaded by the shim only when the socket exists (a dashboard may hold breakpoints),
after the hook has answered and before the runtime has the answer. Never blocks
longer than the hold budget (budget.py), and every failure of the channel means
the hook's own answer goes through: the tap never waits on a dashboard that is
not there.
"""

import _socket
import posix
import time

from hooktui.tap.hold import wire
from hooktui.tap.hold.budget import MAX_HOLD_S, MIN_HOLD_S, hold_budget

# How long the dashboard may take to say hold or pass (it builds the record, matches).
OFFER_TIMEOUT_S = 2.0
# While held, how often the tap looks up to see whether the runtime asked it to end.
SIGNAL_CHECK_S = 0.1
# A call whose answer is bigger than this is never offered (the tap keeps it in memory).
MAX_OFFER = 4 << 20

PERSON, DEADLINE, GONE, ENDED = "person", "deadline", "dashboard-gone", "runtime-ended"
# The dashboard did not say hold or pass in time (stopped, or starved on a loaded
# machine): nothing was held, and the record says why the breakpoint let it by.
SLOW = "dashboard-slow"


class Answer:
    """What the runtime gets, and what the record says about the hold (`held`, a dict)."""

    __slots__ = ("stdout", "stderr", "exit_code", "signal", "held")

    def __init__(self, stdout: bytes, stderr: bytes, exit_code, signal, held=None) -> None:
        self.stdout, self.stderr = stdout, stderr
        self.exit_code, self.signal = exit_code, signal
        self.held = held


def offer(path: bytes, call: dict, own: Answer, t0: float, signals=None) -> Answer:
    """Offer `call` (the offer frame's fields) to the dashboard at `path`; the answer to send.

    `own` is the hook's own answer, `t0` the tap's start (monotonic): the hold
    budget counts from there, inside `call["timeout_ms"]` when the tap knows it.
    Every step, from the connect to the last frame, ends at one deadline: the
    budget's end, and for the dashboard's first word OFFER_TIMEOUT_S at most (a
    stopped or trickling peer holds nobody past it). `signals` (the shim's
    Forwarder): a runtime asking the tap to end ends the wait, at any step.
    """
    end = t0 + hold_budget(call.get("timeout_ms"), 0.0)
    if time.monotonic() >= end - MIN_HOLD_S:
        return own  # too close to the runtime's timeout to hold at all
    clock = _Clock(min(end, time.monotonic() + OFFER_TIMEOUT_S), signals)
    sock = _connect(path, clock)
    if sock is None:
        return own
    try:
        return _hold(sock, call, own, t0, end, clock)
    except (OSError, ValueError, wire.WireError, _Over):
        return own  # the dashboard went away before holding (or too late): nothing held
    finally:
        sock.close()


class _Over(Exception):
    """The wait ended: `by` says how (DEADLINE or ENDED)."""

    def __init__(self, by: str) -> None:
        self.by = by


class _Clock:
    """One absolute deadline for every step of the exchange, and the runtime's word."""

    def __init__(self, deadline: float, signals) -> None:
        self.deadline, self.signals = deadline, signals

    def left(self) -> float:
        """Seconds left; _Over once none are, or once the runtime asked the tap to end."""
        if self.signals is not None and self.signals.ending:
            raise _Over(ENDED)
        left = self.deadline - time.monotonic()
        if left <= 0:
            raise _Over(DEADLINE)
        return left

    def readable(self, sock) -> None:
        """Return once `sock` has something to read (looking up for signals meanwhile)."""
        import select

        while not select.select([sock], [], [], min(self.left(), SIGNAL_CHECK_S))[0]:
            pass


def _connect(path: bytes, clock: _Clock):
    sock = _socket.socket(_socket.AF_UNIX, _socket.SOCK_STREAM | _socket.SOCK_CLOEXEC)
    try:
        sock.settimeout(clock.left())
        sock.connect(path)
        if wire.peer_uid(sock) != posix.getuid():
            raise PermissionError("the socket's owner is another user")
    except (OSError, _Over):
        sock.close()
        return None
    return sock


def _hold(sock, call: dict, own: Answer, t0: float, end: float, clock: _Clock) -> Answer:
    sock.settimeout(clock.left())  # sendall: one timeout for the whole frame
    wire.send(sock, dict(call, elapsed_s=time.monotonic() - t0))
    reply, ended = _reply(sock, clock)
    if reply is None and ended == DEADLINE:
        own.held = {"held_ms": 0.0, "released_by": SLOW, "action": "hook"}
        return own
    if not reply or not reply.get("hold"):
        return own
    if ended:  # the hold began as the wait ended: it ends at once
        _tell(sock, ended)
        own.held = {"held_ms": 0.0, "released_by": ended, "action": "hook"}
        return own
    held_at = time.monotonic()
    budget = min(float(reply.get("budget_s") or 0), MAX_HOLD_S, end - held_at)
    by, decision = _wait(sock, _Clock(held_at + budget, clock.signals))
    held = {"held_ms": round((time.monotonic() - held_at) * 1000, 3), "released_by": by}
    _tell(sock, by)
    if decision is None:
        held["action"] = "hook"
        own.held = held
        return own
    return _decided(decision, own, held)


def _reply(sock, clock: _Clock):
    """(the dashboard's hold-or-pass frame or None, how the wait ended: "" if it did
    not). Ended, the frame may be in already: the dashboard holds the call then."""
    try:
        return wire.receive(sock, wait=clock.readable), ""
    except _Over as over:
        ended = over.by
    import select

    def now_or_never(sock) -> None:
        if not select.select([sock], [], [], 0)[0]:
            raise _Over(ended)

    try:
        return wire.receive(sock, wait=now_or_never), ended
    except (OSError, ValueError, wire.WireError, _Over):
        return None, ended


def _wait(sock, clock: _Clock):
    """(released by, the decision frame or None for the hook's own answer): the frame
    too must be whole by the deadline (a peer trickling it holds nobody longer)."""
    try:
        message = wire.receive(sock, wait=clock.readable)
    except _Over as over:
        return over.by, None
    except (OSError, ValueError, wire.WireError):
        return GONE, None
    if message is None or "action" not in message:
        return GONE, None
    return PERSON, message


def _tell(sock, by: str) -> None:
    """Best effort: the dashboard learns how the hold ended (it may be gone)."""
    try:
        sock.settimeout(0.2)
        wire.send(sock, {"released_by": by})
    except OSError:
        pass


def _decided(decision: dict, own: Answer, held: dict) -> Answer:
    held["action"] = str(decision["action"])
    if decision["action"] == "hook":
        own.held = held
        return own
    sent = {
        "decision": str(decision.get("decision") or ""),
        "reason": str(decision.get("reason") or ""),
        "exit_code": int(decision.get("exit_code") or 0),
        "stdout": wire.unb64(decision.get("stdout") or ""),
        "stderr": wire.unb64(decision.get("stderr") or ""),
    }
    held["sent"] = sent
    return Answer(sent["stdout"], sent["stderr"], sent["exit_code"], None, held)


def hold_and_answer(
    path: bytes, opts: dict, request, out, err, code, sig, started_at, t0, signals=None
) -> Answer:
    """The shim's step between the hook's answer and the runtime's: the Answer to send.

    `out`/`err` are the whole output (Captures kept whole while a dashboard may
    hold). The answer is the hook's or the person's, which the shim writes to
    fds 1 and 2; its `held` is None when the call was not held, else the record's
    `held` (plus `hook_ms`, the hook's own duration, for the record's `duration_ms`).
    """
    hook_ms = (time.monotonic() - t0) * 1000
    if out.length + err.length > MAX_OFFER:  # never offered: too big to hold in memory twice
        return Answer(out.head, err.head, code, sig)
    call = {
        "v": 1,
        "argv": list(opts["command"]),
        "label": opts.get("label"),
        "runtime": opts.get("runtime"),
        "capture": opts.get("capture") or "redacted",
        "stream": opts.get("stream"),
        "timeout_ms": opts.get("timeout_ms"),
        "timeout_default": bool(opts.get("timeout_default")),
        "fail_closed": bool(opts.get("fail_closed")),
        "started_at": started_at,
        "duration_ms": hook_ms,
        "exit_code": code,
        "signal": sig,
        "request": wire.b64(request),
        "stdout": wire.b64(out.head),
        "stderr": wire.b64(err.head),
        "cwd": posix.getcwd(),
        "pid": posix.getpid(),
    }
    answer = offer(path, call, Answer(out.head, err.head, code, sig), t0, signals)
    if answer.held is not None:
        answer.held["hook_ms"] = hook_ms
    return answer
