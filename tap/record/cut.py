"""Bounding a record, whatever the hook or the runtime sends (issue 19).

A 50 MB request took the recorder 50 s and 725 MB and wrote a 100 MB line (the
request, and the tool output parsed out of it, each whole). Like Envoy's tap (a
configured maximum per body) and mitmproxy (bodies over a size are streamed, not
kept), a record keeps at most `body_cap()` bytes of any one body:

- a string of the request or of the canonical call (tool input, tool output,
  prompt, details, a rewritten input) longer than that keeps its head and its
  tail around a marker, `…[cut <n> bytes sha256:<hex>]…`, and the record lists it
  in `cut` (its JSON pointer, length, sha256): nothing is cut silently;
- a request of more than CUT_WHOLE_AT times the cap (many strings, none long)
  is kept as its text, cut the same way;
- stdout and stderr keep their head and their tail (blobs.py).

Redaction runs on what is kept, so its time is bounded too. A request beyond
PARSE_MAX is not parsed at all: it is kept cut, as text, and judged as a runtime
that cannot be told. HOOKTUI_BODY_CAP (bytes, as the tap's environment has it)
sets the cap; the default suits every real hook call.
"""

from __future__ import annotations

import os

from hooktui.tap.base.sha import sha256_hex

DEFAULT_CAP = 256 * 1024
MIN_CAP = 1024
ENV = "HOOKTUI_BODY_CAP"
CUT_WHOLE_AT = 8
PARSE_MAX = 64 << 20
# The record's fields that hold the request or what the runtime's parser read from it.
REQUEST_FIELDS = ("prompt", "tool_input", "tool_output", "details", "request")
ANSWER_FIELDS = ("updated_input", "updated_output", "context", "reason")


def body_cap() -> int:
    value = os.environ.get(ENV, "")
    if value.isascii() and value.isdigit():
        return max(MIN_CAP, int(value))
    return DEFAULT_CAP


def cut_text(text: str, cap: int, pointer: str, cuts: list) -> str:
    """`text` whole when it fits in `cap` bytes, else its head and tail around a marker."""
    data = text.encode("utf-8", "surrogatepass")
    if len(data) <= cap:
        return text
    half = cap // 2
    head = data[:half].decode("utf-8", "ignore")
    tail = data[-half:].decode("utf-8", "ignore")
    sha = sha256_hex(data)
    cuts.append({"pointer": pointer, "length": len(data), "sha256": sha})
    return f"{head}…[cut {len(data)} bytes sha256:{sha}]…{tail}"


def cut_strings(value, cap: int, pointer: str, cuts: list):
    """`value` (parsed JSON) with every string longer than `cap` bytes cut."""
    if isinstance(value, str):
        return cut_text(value, cap, pointer, cuts) if len(value) > cap // 4 else value
    if isinstance(value, dict):
        return {
            cut_text(k, cap, pointer, cuts): cut_strings(v, cap, f"{pointer}/{_token(k)}", cuts)
            for k, v in value.items()
        }
    if isinstance(value, list):
        return [cut_strings(v, cap, f"{pointer}/{i}", cuts) for i, v in enumerate(value)]
    return value


def _token(key: str) -> str:
    return key.replace("~", "~0").replace("/", "~1")


def bound(fields: dict, raw_request: bytes, answer_length: int, cap: int) -> list:
    """Cut `fields` (a record being built) in place; the list of what was cut."""
    cuts: list = []
    names = (REQUEST_FIELDS if len(raw_request) > cap // 4 else ()) + (
        ANSWER_FIELDS if answer_length > cap // 4 else ()
    )
    for name in names:
        if name in fields:
            fields[name] = cut_strings(fields[name], cap, f"/{name}", cuts)
    if len(raw_request) > cap * CUT_WHOLE_AT and fields.get("request_format") == "json":
        text = raw_request.decode("utf-8", "replace")
        cuts = [c for c in cuts if not c["pointer"].startswith("/request")]
        fields["request"] = cut_text(text, cap, "/request", cuts)
        fields["request_format"] = "text"
    return cuts
