"""What the tap hands the recorder for one call: one plain struct, no imports.

The tap builds a TapCall on its pass-through path, where importing msgspec or
even `dataclasses` would cost every tool call, so these are plain classes.
The recorder (recorder.py) reads nothing else: no options dict, no globals
beyond the environment and cwd it runs in (which are the hook's).
"""

from __future__ import annotations

CAPTURES = ("full", "redacted", "digest")  # as hooktui.tap.model.CAPTURES (a test checks)


class Captured:
    """What the tap kept of one output stream (stdout or stderr).

    `head` is the first bytes (all of them when short), `length` how many
    bytes the hook wrote in all, `sha256` the hex digest of all of them, `tail`
    the last bytes when the head is not all of them. A tap that holds the whole
    output may leave `sha256` empty: the recorder hashes `head` then, which must
    be all `length` bytes.
    """

    __slots__ = ("head", "length", "sha256", "tail")

    def __init__(
        self, head: bytes = b"", length: int | None = None, sha256: str = "", tail: bytes = b""
    ) -> None:
        self.head = head
        self.length = len(head) if length is None else length
        self.sha256 = sha256
        self.tail = tail

    @property
    def whole(self) -> bool:
        return len(self.head) >= self.length

    def __repr__(self) -> str:
        return f"Captured(<{len(self.head)} of {self.length} bytes>)"


class TapCall:
    """One hook call as the tap saw it, and how to record it.

    Options (from `hooktui tap`'s command line): `stream` (None: the default
    stream), `label` (None: named after the command), `runtime` (None:
    detected), `capture`, `timeout_ms`, `timeout_default` (True: `timeout_ms`
    is the runtime's default, the settings set none), `fail_closed` (the
    hook's settings ask that its failure block the action), `hook_env` (names
    of variables the settings set for this hook alone: recorded too), `argv` (the hook
    command).

    What happened: `request` (the bytes the hook got on stdin), `stdout`,
    `stderr` (Captured), `exit_code` / `signal` (one of them, or neither when
    the hook never started), `spawn_error`, `started_at` (wall clock, when the
    hook started), `duration_ms`.

    How it ended, for the timeout call: `forwarded` (the tap passed a signal
    on to the hook), `startup_ms` (the tap's own start-up before the hook,
    counted by the runtime's clock), `killed` (set by the watchdog: True when
    the runtime killed the tap at the configured timeout, False when earlier,
    None when the tap records the call itself).
    """

    __slots__ = (
        "argv",
        "capture",
        "duration_ms",
        "exit_code",
        "fail_closed",
        "forwarded",
        "held",
        "hook_env",
        "killed",
        "label",
        "request",
        "runtime",
        "signal",
        "spawn_error",
        "started_at",
        "startup_ms",
        "stderr",
        "stdout",
        "stream",
        "timeout_default",
        "timeout_ms",
    )

    def __init__(
        self,
        *,
        argv: list[str],
        request: bytes = b"",
        stdout: Captured | None = None,
        stderr: Captured | None = None,
        exit_code: int | None = None,
        signal: int | None = None,
        spawn_error: str = "",
        started_at: float = 0.0,
        duration_ms: float = 0.0,
        stream: str | None = None,
        label: str | None = None,
        runtime: str | None = None,
        capture: str = "redacted",
        timeout_ms: int | None = None,
        timeout_default: bool = False,
        fail_closed: bool = False,
        hook_env: tuple[str, ...] = (),
        forwarded: bool = False,
        startup_ms: float = 0.0,
        killed: bool | None = None,
        held: dict | None = None,
    ) -> None:
        self.argv = argv
        self.request = request
        self.stdout = stdout if stdout is not None else Captured()
        self.stderr = stderr if stderr is not None else Captured()
        self.exit_code = exit_code
        self.signal = signal
        self.spawn_error = spawn_error
        self.started_at = started_at
        self.duration_ms = duration_ms
        self.stream = stream
        self.label = label
        self.runtime = runtime
        self.capture = capture
        self.timeout_ms = timeout_ms
        self.timeout_default = timeout_default
        self.fail_closed = fail_closed
        self.hook_env = hook_env
        self.forwarded = forwarded
        self.startup_ms = startup_ms
        self.killed = killed
        self.held = held

    def __repr__(self) -> str:
        return f"TapCall(argv={self.argv!r}, exit_code={self.exit_code}, signal={self.signal})"
