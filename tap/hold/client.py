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
from hooktui.tap.hold.budget import MAX_HOLD_S, hold_budget

# How long the dashboard may take to say hold or pass (it builds the record, matches).
OFFER_TIMEOUT_S = 2.0
# While held, how often the tap looks up to see whether the runtime asked it to end.
SIGNAL_CHECK_S = 0.1
# A call whose answer is bigger than this is never offered (the tap keeps it in memory).
MAX_OFFER = 4 << 20

PERSON, DEADLINE, GONE, ENDED = "person", "deadline", "dashboard-gone", "runtime-ended"


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
    `signals` (the shim's Forwarder): a runtime asking the tap to end ends the hold.
    """
    sock = _connect(path)
    if sock is None:
        return own
    try:
        return _hold(sock, call, own, t0, signals)
    except (OSError, ValueError, wire.WireError):
        return own  # the dashboard went away before holding: nothing was held
    finally:
        sock.close()


def _connect(path: bytes):
    sock = _socket.socket(_socket.AF_UNIX, _socket.SOCK_STREAM | _socket.SOCK_CLOEXEC)
    try:
        sock.settimeout(OFFER_TIMEOUT_S)
        sock.connect(path)
        if wire.peer_uid(sock) != posix.getuid():
            raise PermissionError("the socket's owner is another user")
    except OSError:
        sock.close()
        return None
    return sock


def _hold(sock, call: dict, own: Answer, t0: float, signals) -> Answer:
    own_budget = hold_budget(call.get("timeout_ms"), time.monotonic() - t0)
    if call.get("timeout_ms") is not None and not own_budget:
        return own  # too close to the runtime's timeout to hold at all
    wire.send(sock, dict(call, elapsed_s=time.monotonic() - t0))
    reply = wire.receive(sock)
    if not reply or not reply.get("hold"):
        return own
    held_at = time.monotonic()
    budget = min(float(reply.get("budget_s") or 0), MAX_HOLD_S)
    if call.get("timeout_ms") is not None:
        budget = min(budget, hold_budget(call["timeout_ms"], held_at - t0))
    by, decision = _wait(sock, held_at + budget, signals)
    held = {"held_ms": round((time.monotonic() - held_at) * 1000, 3), "released_by": by}
    _tell(sock, by)
    if decision is None:
        held["action"] = "hook"
        own.held = held
        return own
    return _decided(decision, own, held)


def _wait(sock, deadline: float, signals):
    """(released by, the decision frame or None for the hook's own answer)."""
    import select

    while True:  # in steps: a signal's handler runs between them
        if signals is not None and signals.ending:
            return ENDED, None
        left = deadline - time.monotonic()
        if left <= 0:
            return DEADLINE, None
        if select.select([sock], [], [], min(left, SIGNAL_CHECK_S))[0]:
            break
    sock.settimeout(max(0.5, deadline - time.monotonic()))  # the frame is on its way
    try:
        message = wire.receive(sock)
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
