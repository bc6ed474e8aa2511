"""A hook's stdout or stderr as a record holds it: text or base64, capped, described.

`length` and `sha256` always describe all the bytes the hook wrote, so a cut
or a redaction is visible. Output longer than the body cap (cut.py) keeps its
head in `data` (three quarters of the cap) and its last bytes in `tail` (a
quarter), marked `truncated`.
"""

from __future__ import annotations

import binascii

from hooktui.tap.base.sha import sha256_hex
from hooktui.tap.record.cut import DEFAULT_CAP
from hooktui.tap.record.tapcall import Captured

BLOB_CAP = DEFAULT_CAP  # the default: body_cap() is what is kept


def blob_text(captured: Captured) -> tuple[str, str]:
    """(text, encoding): UTF-8 text as is; other bytes held losslessly as
    surrogate escapes until they are base64-encoded at the end. A head cut
    inside a character (the rest was not kept) is still UTF-8."""
    raw = captured.head
    try:
        return raw.decode("utf-8"), "utf-8"
    except UnicodeDecodeError as exc:
        if not captured.whole and exc.reason == "unexpected end of data":
            return raw[: exc.start].decode("utf-8"), "utf-8"
        return raw.decode("utf-8", "surrogateescape"), "base64"


def tail_text(captured: Captured, encoding: str, cap: int = BLOB_CAP) -> str:
    """The last bytes of an output longer than `cap` (as `blob_text` holds text), or ""."""
    if captured.length <= cap or encoding == "digest":
        return ""
    raw = (captured.tail or captured.head)[-(cap // 4) :]
    if encoding == "utf-8":
        return raw.decode("utf-8", "ignore")  # a character cut at its start is left out
    return raw.decode("utf-8", "surrogateescape")


def finish_blob(
    text: str, encoding: str, captured: Captured, tail: str = "", cap: int = BLOB_CAP
) -> dict:
    """Cap the (possibly redacted) text; describe all the bytes the hook wrote."""
    sha = captured.sha256 or sha256_hex(captured.head)
    blob = {"data": "", "encoding": encoding, "length": captured.length, "sha256": sha}
    keep = cap - cap // 4 if tail else cap
    if encoding == "base64":
        data = text.encode("utf-8", "surrogateescape")
        cut = data[:keep]
        blob["data"] = binascii.b2a_base64(cut, newline=False).decode("ascii")
        blob["truncated"] = len(cut) < len(data) or not captured.whole
    elif encoding == "utf-8":
        cut = text.encode("utf-8")[:keep].decode("utf-8", "ignore")  # never half a character
        blob["data"] = cut
        blob["truncated"] = len(cut) < len(text) or not captured.whole
    else:
        blob["truncated"] = False
    if tail and blob["truncated"]:
        raw = tail.encode("utf-8", "surrogateescape")
        blob["tail"] = raw.decode("utf-8") if encoding == "utf-8" else _b64(raw)
    return blob


def _b64(data: bytes) -> str:
    return binascii.b2a_base64(data, newline=False).decode("ascii")
