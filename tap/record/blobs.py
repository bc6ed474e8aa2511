"""A hook's stdout or stderr as a record holds it: text or base64, capped, described.

`length` and `sha256` always describe all the bytes the hook wrote, so a cut
or a redaction is visible; `data` holds at most BLOB_CAP bytes of them.
"""

from __future__ import annotations

import binascii

from hooktui.tap.base.sha import sha256_hex
from hooktui.tap.record.tapcall import Captured

BLOB_CAP = 256 * 1024


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


def finish_blob(text: str, encoding: str, captured: Captured) -> dict:
    """Cap the (possibly redacted) text; describe all the bytes the hook wrote."""
    sha = captured.sha256 or sha256_hex(captured.head)
    blob = {"data": "", "encoding": encoding, "length": captured.length, "sha256": sha}
    if encoding == "base64":
        data = text.encode("utf-8", "surrogateescape")
        cut = data[:BLOB_CAP]
        blob["data"] = binascii.b2a_base64(cut, newline=False).decode("ascii")
        blob["truncated"] = len(cut) < len(data) or not captured.whole
    elif encoding == "utf-8":
        cut = text.encode("utf-8")[:BLOB_CAP].decode("utf-8", "ignore")  # never half a character
        blob["data"] = cut
        blob["truncated"] = len(cut) < len(text) or not captured.whole
    else:
        blob["truncated"] = False
    return blob
