"""What a failed hook said last: the line of its stderr a person reads first.

A crashed guard's traceback ends with the error (`KeyError: 'command'`); that
last non-blank line is what `show`'s why column, watch's row and Summary, and
`replay --format text` show beside the failure. A capture cut at its bound
keeps its last bytes in `tail`: the error is there, not in the head.
"""

from __future__ import annotations

from hooktui.tap.model import Blob


def last_line(data: bytes | str) -> str:
    """The last non-blank line of `data`, stripped; "" when there is none."""
    text = data.decode("utf-8", "replace") if isinstance(data, bytes) else data
    for line in reversed(text.splitlines()):
        if line.strip():
            return line.strip()
    return ""


def stderr_words(stderr: Blob) -> str:
    """The last line of a recorded stderr, when it was kept as text ("" otherwise)."""
    if stderr.encoding != "utf-8":
        return ""
    tail = stderr.tail if stderr.truncated and isinstance(stderr.tail, str) else ""
    return last_line(tail) or last_line(stderr.data)
