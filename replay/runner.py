"""Run a hook to completion: what replay uses, on the tap's own spawn and poll loop.

`spawn` (spawn.py) starts a hook as execvp would, `pump` (pump.py) moves its
traffic; `run_hook` puts them together for replay (`replay/procs.py` adds the
bookkeeping of the hooks it has running) and builds the msgspec
`Outcome`, importing it lazily so that the tap's hot path stays on
`os`, `select` and `_signal`.
"""

from __future__ import annotations

import time

from hooktui.tap.hotpath.execvp import spawn_exit_code, spawn_message
from hooktui.tap.hotpath.pump import GRACE_S, kill, pump
from hooktui.tap.hotpath.quick import decode_status
from hooktui.tap.hotpath.spawn import spawn

__all__ = ["run_hook"]


def run_hook(
    argv: list[str],
    stdin: bytes,
    *,
    cwd: str | None = None,
    env: dict[str, str] | None = None,
    timeout_s: float | None = None,
    new_session: bool = False,
    keep: int | None = None,
    on_started=None,
):
    """Run one hook to completion and describe what it did (used by replay).

    On timeout the hook is killed (its whole process group with
    `new_session=True`, which puts it in a session of its own) and
    `timed_out` is set. A command that cannot start gives `exit_code=127`
    (126 when it exists but cannot be executed) and `spawn_error`. Output a
    background child holds open is waited for GRACE_S after the hook exits.
    A timeout of NaN, infinity or beyond ~30 years is no timeout. `keep`
    bounds what is kept of each output (None: all of it); `on_started(pid)`
    is called once the hook runs, before its traffic moves.
    """
    from hooktui.tap.canonical import Outcome

    started = time.monotonic()
    try:
        pid, in_w, out_r, err_r = spawn(argv, cwd=cwd, env=env, new_session=new_session)
    except OSError as exc:
        return Outcome(
            exit_code=spawn_exit_code(exc),
            spawn_error=spawn_message(argv[0] if argv else "", exc),
            duration_ms=(time.monotonic() - started) * 1000,
        )
    except ValueError as exc:  # a NUL byte in a word or variable: no process carries it
        return Outcome(exit_code=126, spawn_error=f"{argv[0]!r}: cannot be started ({exc})")
    try:
        if on_started is not None:
            on_started(pid)
        _, out, err, status, timed_out = pump(
            pid,
            in_w,
            out_r,
            err_r,
            feed=stdin,
            timeout_s=timeout_s,
            kill_group=new_session,
            linger_s=GRACE_S,
            keep=keep,
        )
    except BaseException:  # Ctrl-C in this thread: leave no hook running
        kill(pid, new_session)
        raise
    code, sig = decode_status(status)
    if timed_out and new_session:
        kill(pid, True)  # stragglers of the group
    return Outcome(
        stdout=out.head,
        stderr=err.head,
        exit_code=code,
        signal=sig,
        timed_out=timed_out,
        duration_ms=(time.monotonic() - started) * 1000,
    )
