"""The tap's call handed to the recorder: the struct it takes, and the run.

Loaded by the shim only after the answer (in the forked child that records, or
in the watchdog's), so none of it costs the answer path anything.
"""

import posix
import sys


def record(opts, *args, killed=None, held=None) -> None:
    """Record one call (see tap_call for the arguments); failures go to the error log."""
    run_recorder(tap_call(opts, *args, killed=killed, held=held))


def tap_call(
    opts, request, out, err, code, sig, started_at, duration_ms, spawn_error, killed=None, held=None
):
    """The one struct the recorder takes (tap/record/tapcall.py).

    `out`, `err`: Captures (capture.py), a bounded head with the length and
    sha256 of all. `killed`: set by the watchdog, True when the runtime killed
    the tap at the timeout.
    """
    from hooktui.tap.record.tapcall import Captured, TapCall

    return TapCall(
        argv=list(opts["command"]),
        request=request,
        stdout=Captured(out.head, out.length, out.sha256, out.tail),
        stderr=Captured(err.head, err.length, err.sha256, err.tail),
        exit_code=code,
        signal=sig,
        spawn_error=spawn_error,
        started_at=started_at,
        duration_ms=duration_ms,
        stream=opts.get("stream"),
        label=opts.get("label"),
        runtime=opts.get("runtime"),
        capture=opts.get("capture") or "redacted",
        timeout_ms=opts.get("timeout_ms"),
        timeout_default=bool(opts.get("timeout_default")),
        fail_closed=bool(opts.get("fail_closed")),
        hook_env=tuple(n for n in (opts.get("hook_env") or "").split(",") if n),
        forwarded=bool(opts.get("forwarded")),
        startup_ms=opts.get("startup_ms", 0.0),
        killed=killed,
        held=held,
    )


def run_recorder(call) -> None:
    try:
        recorder().record(call)
    except BaseException as exc:  # never the hook's stderr: the error log
        try:
            from hooktui.tap.base import stream as stream_mod

            where = call.stream or stream_mod.default_stream_path()
            stream_mod.log_error(where, f"recording failed: {exc!r}")
        except BaseException:
            pass


def recorder():
    """The recorder module; its dependencies may need `site` after all (a venv
    that uses the system's packages, a user install): the launcher skipped it."""
    try:
        from hooktui.tap.record import recorder
    except ImportError:
        if not sys.flags.no_site:
            raise
        import site

        site.ENABLE_USER_SITE = b"PYTHONNOUSERSITE" not in posix.environ
        site.main()
        from hooktui.tap.record import recorder
    return recorder
