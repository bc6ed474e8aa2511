"""What the tap keeps of one output stream: a bounded head, the length, a running sha256.

The hook's output passes through to the runtime as it arrives; the record
keeps only a capped copy (the cap itself is the recorder's). So the tap holds
the first HEAD bytes, counts them all and, once the output outgrows the head,
hashes them all as they pass: 300 MB of output costs the tap HEAD bytes of
memory. The attributes the recorder reads are `head`, `length` and `sha256`
(empty while the head holds everything: then the head is the whole).

While a dashboard may hold the call (KEPT_BACK), the output is kept back whole
instead, for the dashboard to see and the tap to send once it decides; but never
more than HELD bytes of it (issue 19: 200 MB of output held 400 MB): past that
the call will not be offered, so what was kept goes out and the rest passes
through as it arrives (`spill`).
"""

import posix

# The record keeps a quarter of this (the recorder's cap); the rest is room
# for judging a long JSON answer whole and for redacting a secret that
# straddles the cap.
HEAD = 1 << 20
# And the last bytes, once the output outgrows the head: the record keeps head and tail.
TAIL = HEAD // 4
# `keep` for output kept back while a dashboard may hold the call, and how much.
KEPT_BACK = -1
HELD = 4 << 20


class Capture:
    """One stream's bytes as the tap keeps them. `limit=None` keeps everything."""

    __slots__ = (
        "_chunks", "_kept", "_sha", "_tail", "_tail_len", "length", "limit", "spill_fd", "spilled"
    )  # fmt: skip

    def __init__(self, limit: int | None = HEAD, spill_fd: int = -1) -> None:
        self._chunks: list[bytes] = []
        self._kept = 0
        self._sha = None  # started once the output outgrows the head
        self._tail: list[bytes] = []  # the last TAIL bytes or more, past the head
        self._tail_len = 0
        self.length = 0
        self.limit = limit
        self.spill_fd = spill_fd  # kept back for a dashboard: where it goes past HELD
        self.spilled = False

    def add(self, data: bytes) -> None:
        self._keep(data)
        if self.spilled:
            forward(self.spill_fd, data)
        elif self.spill_fd >= 0 and self.length > HELD:
            self.spill()

    def spill(self) -> None:
        """Send what was kept back to its fd, and from now on pass output through
        (kept as any output is: a head and a hash)."""
        if self.spilled or self.spill_fd < 0:
            return
        self.spilled, self.limit = True, HEAD
        forward(self.spill_fd, self.head)

    def _keep(self, data: bytes) -> None:
        if self._sha is None and self.limit is not None and self.length + len(data) > self.limit:
            self._sha = _new_sha256()
            for chunk in self._chunks:  # all of it so far: nothing was dropped yet
                self._sha.update(chunk)
        if self._sha is not None:
            self._sha.update(data)
        self.length += len(data)
        room = len(data) if self.limit is None else self.limit - self._kept
        if room > 0:
            part = data if room >= len(data) else data[:room]
            self._chunks.append(part)
            self._kept += len(part)
        if room < len(data):  # past the head: the tail rolls on
            self._tail.append(data)
            self._tail_len += len(data)
            while self._tail_len - len(self._tail[0]) >= TAIL:
                self._tail_len -= len(self._tail.pop(0))

    @property
    def tail(self) -> bytes:
        """The last TAIL bytes, when the head does not hold them all (else b"")."""
        return b"".join(self._tail)[-TAIL:] if self._tail else b""

    @property
    def head(self) -> bytes:
        if len(self._chunks) > 1:
            self._chunks = [b"".join(self._chunks)]
        return self._chunks[0] if self._chunks else b""

    @property
    def whole(self) -> bool:
        return self._kept == self.length

    @property
    def sha256(self) -> str:
        """Hex digest of every byte, or "" when `head` holds them all (hash that)."""
        return "" if self._sha is None else self._sha.hexdigest()

    def __repr__(self) -> str:
        return f"Capture(<{self._kept} of {self.length} bytes>)"


def pair(keep: int | None) -> tuple[Capture, Capture]:
    """(stdout, stderr) captures for `keep` (a head size, None: all, or KEPT_BACK)."""
    if keep == KEPT_BACK:
        return Capture(None, spill_fd=1), Capture(None, spill_fd=2)
    return Capture(keep), Capture(keep)


def forward(fd: int, data: bytes) -> bool:
    """Write all of `data` to `fd` without `select` (the pump's write_all when the
    caller's pipe would block); False when the reader is gone."""
    view = memoryview(data)
    while view:
        try:
            view = view[posix.write(fd, view) :]
        except BlockingIOError:
            from hooktui.tap.hotpath.pump import write_all

            return write_all(fd, bytes(view))
        except (BrokenPipeError, ConnectionResetError):  # the caller stopped listening
            return False
        except OSError:  # a full disk, EIO: the hook's own write would fail and it go on
            return True
    return True


def _new_sha256():
    # Imported only for an output longer than the head: CPython's own sha256
    # (a small C module) rather than hashlib, which loads OpenSSL first.
    from hooktui.tap.base.cpython import sha256

    return sha256()
