"""Decoding lines: a record's head (or only some of its fields), or a BadLine saying why not.

A line that is not a record becomes a `BadLine` that costs only itself; the
messages are msgspec's, made short enough for an error row.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable

import msgspec
from hooktui.tap.model import Blob, RecordHead, runtime_decision
from hooktui.tap.read.last_words import stderr_words

PREVIEW_CHARS = 120


class BadLine(msgspec.Struct, kw_only=True):
    """A complete line that is not a record: shown as an error row and counted."""

    offset: int  # of the line's first byte in the file
    length: int  # bytes, newline not included
    error: str  # short, e.g. "invalid JSON at byte 12", "not a record: missing 'decision'"
    preview: str  # the first PREVIEW_CHARS characters, decoded with replacement


# What one complete line of a stream decodes to: a record's head, or why it is not one.
LineHead = RecordHead | BadLine


class _StrictHead(RecordHead, kw_only=True):
    """A RecordHead that insists on the fields every record has.

    `RecordHead` gives every field a default, so `{}` would decode as a call;
    requiring these three tells a record from any other JSON object. Instances
    are RecordHeads (a subclass), so callers never see the difference.
    """

    id: str
    ts: str
    decision: str


_strict_head_decoder = msgspec.json.Decoder(_StrictHead)
# The head of a line, or an exception: decode_head without the BadLine (a reader
# that tells bad lines apart itself, and only then asks decode_head why).
decode_head_or_raise = _strict_head_decoder.decode
_REQUIRED = ("id", "ts", "decision")
_DECISION_NEEDS = ("held", "hook_decision")


@functools.lru_cache(maxsize=32)
def partial_head_decoder(fields: frozenset[str]) -> msgspec.json.Decoder:
    """A decoder of only `fields` of a record head (plus id, ts and decision, required).

    Filtering a big stream needs a few fields of each line, and every string
    decoded is an object made: `show` decodes these to pick lines, then the
    full head only of the lines it prints. Unknown names are ignored.
    """
    known = {f.name: f for f in msgspec.structs.fields(RecordHead)}
    spec: list = []
    # `decision` is what the runtime got: a breakpoint's answer (`held`) is read to know it.
    for name in sorted(set(fields) | set(_REQUIRED) | set(_DECISION_NEEDS)):
        f = known.get(name)
        if f is None:
            continue
        if name in _REQUIRED:
            spec.append((name, f.type))
        elif f.default_factory is not msgspec.NODEFAULT:
            spec.append((name, f.type, msgspec.field(default_factory=f.default_factory)))
        else:
            spec.append((name, f.type, f.default))
    partial = msgspec.defstruct(
        "PartialHead",
        spec,
        kw_only=True,
        gc=False,
        namespace={"__post_init__": runtime_decision},
    )
    return msgspec.json.Decoder(partial)


_MALFORMED = re.compile(r"JSON is malformed: (.*) \(byte (\d+)\)")
_MISSING = re.compile(r"Object missing required field `([^`]*)`(?: - at `([^`]*)`)?")
_EXPECTED = re.compile(r"Expected `([^`]*)`, got `([^`]*)`(?: - at `([^`]*)`)?")


def _short_error(exc: Exception) -> str:
    """msgspec's message, made into the short line a user reads in an error row."""
    msg = str(exc)
    if isinstance(exc, msgspec.ValidationError):
        m = _MISSING.fullmatch(msg)
        if m:
            where = f" in {m.group(2)}" if m.group(2) else ""
            return f"not a record: missing '{m.group(1)}'{where}"
        m = _EXPECTED.fullmatch(msg)
        if m:
            if m.group(3) is None:
                return f"not a record: a JSON {m.group(2)}, not an object"
            return f"not a record: {m.group(3)} is {m.group(2)}, expected {m.group(1)}"
        return f"not a record: {msg}"
    m = _MALFORMED.fullmatch(msg)
    if m:
        return f"invalid JSON at byte {m.group(2)}: {m.group(1)}"
    if "truncated" in msg:
        return "invalid JSON: ends early"
    return f"invalid JSON: {msg}"


def _preview(line: bytes) -> str:
    # Decoding a few bytes more than needed keeps multi-byte characters whole.
    return line[: PREVIEW_CHARS * 4].decode("utf-8", "replace")[:PREVIEW_CHARS]


def bad_line(line: bytes, offset: int, error: str) -> BadLine:
    return BadLine(offset=offset, length=len(line), error=error, preview=_preview(line))


class _Stderr(msgspec.Struct):
    stderr: Blob = msgspec.field(default_factory=Blob)


_stderr_decoder = msgspec.json.Decoder(_Stderr)


def _strict(line: bytes) -> RecordHead:
    """The head of a record line (raises when it is none); a failure's last stderr line
    kept as `said` (failures are few: only their lines are decoded twice)."""
    head = _strict_head_decoder.decode(line)
    if head.hook_decision == "failure":
        try:
            head.said = stderr_words(_stderr_decoder.decode(line).stderr)
        except (msgspec.DecodeError, msgspec.ValidationError):
            pass
    return head


def decode_head(line: bytes, offset: int) -> LineHead:
    """The head of one line, or a BadLine saying why not. Never raises."""
    try:
        return _strict(line)
    except (msgspec.DecodeError, msgspec.ValidationError) as exc:
        return bad_line(line, offset, _short_error(exc))
    except Exception as exc:  # a reader must survive anything a line holds
        return bad_line(line, offset, f"unreadable: {exc}")


def decode_heads(lines: Iterable[tuple[int, bytes]], decode=None) -> list[tuple[int, LineHead]]:
    """decode_head over (offset, line) pairs, as (offset, head) pairs. `decode`: a
    narrower decoder tried first (the index's); a line it refuses gets decode_head."""
    decode = decode or _strict
    out: list[tuple[int, LineHead]] = []
    append = out.append
    for offset, line in lines:
        try:
            append((offset, decode(line)))
        except Exception:
            append((offset, decode_head(line, offset)))
    return out


def decode_lines(lines: Iterable[tuple[int, bytes]]) -> list[tuple[int, bytes, LineHead]]:
    """(offset, line, head) for (offset, line) pairs: decode_head, keeping each line."""
    decode = _strict
    out: list[tuple[int, bytes, LineHead]] = []
    append = out.append
    for offset, line in lines:
        try:
            append((offset, line, decode(line)))
        except Exception:
            append((offset, line, decode_head(line, offset)))
    return out


# How deep a line's JSON may nest and still be shown indented: what msgspec reads
# under Python 3.11's recursion limit. 3.12 and 3.13 let it read about ten times
# deeper, where indenting costs the square of the depth (a 10 KB line, 50 MB of
# text), so the limit is ours, the same on every Python.
PRETTY_DEPTH = 900
_STRING = re.compile(rb'"(?:[^"\\]|\\.)*"', re.S)
_BRACKETS = bytes.maketrans(b"{}", b"[]")
_NOT_BRACKETS = bytes(set(range(256)) - set(b"[]{}"))


def nests_deeper(line: bytes, depth: int = PRETTY_DEPTH) -> bool:
    """True when `line`'s arrays and objects nest more than `depth` levels (strings skipped)."""
    level = 0
    for byte in _STRING.sub(b"", line).translate(_BRACKETS, _NOT_BRACKETS):
        level += 1 if byte == 91 else -1  # "["
        if level > depth:
            return True
    return False
