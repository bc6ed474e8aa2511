"""What the tap keeps of one output stream: a bounded head, the length, a running sha256.

The hook's output passes through to the runtime as it arrives; the record
keeps only a capped copy (the cap itself is the recorder's). So the tap holds
the first HEAD bytes, counts them all and, once the output outgrows the head,
hashes them all as they pass: 300 MB of output costs the tap HEAD bytes of
memory. The attributes the recorder reads are `head`, `length` and `sha256`
(empty while the head holds everything: then the head is the whole).
"""

# The record keeps a quarter of this (the recorder's cap); the rest is room
# for judging a long JSON answer whole and for redacting a secret that
# straddles the cap.
HEAD = 1 << 20


class Capture:
    """One stream's bytes as the tap keeps them. `limit=None` keeps everything."""

    __slots__ = ("_chunks", "_kept", "_sha", "length", "limit")

    def __init__(self, limit: int | None = HEAD) -> None:
        self._chunks: list[bytes] = []
        self._kept = 0
        self._sha = None  # started once the output outgrows the head
        self.length = 0
        self.limit = limit

    def add(self, data: bytes) -> None:
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


def _new_sha256():
    # Imported only for an output longer than the head: CPython's own sha256
    # (a small C module) rather than hashlib, which loads OpenSSL first.
    from hooktui.tap.base.cpython import sha256

    return sha256()
