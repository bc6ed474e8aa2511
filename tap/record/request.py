"""Reading the request bytes a hook received into something a record can hold."""

from __future__ import annotations

from hooktui.tap.base import jsonio

TYPE_CHECKING = False  # not `typing`'s: see tap/base/jsonio.py
if TYPE_CHECKING:
    from typing import Any


def load_request(raw: bytes) -> tuple[Any, str]:
    """(parsed JSON, "json"), (text, "text") or ("", "empty").

    Only zero bytes count as empty; anything else that is not strict JSON is
    kept as text. Bytes that are not UTF-8 become U+FFFD there (a record is
    JSON, and JSON cannot hold raw bytes; requests from real runtimes are
    UTF-8 JSON, so this only touches garbage). The hook itself always got
    the exact bytes.
    """
    if not raw:
        return "", "empty"
    try:
        return jsonio.loads(raw), "json"
    except jsonio.NotJSON:
        pass
    return raw.decode("utf-8", errors="replace"), "text"
