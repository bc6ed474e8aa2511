"""JSON in and out for the recorder, on CPython's `_json` accelerator alone.

The recorder runs once per tool call, in a process of its own; importing
msgspec (typing, inspect, ast, ...) or even stdlib `json` (which pulls in
`re`) would cost more than writing the record. `_json` is the C half of
stdlib `json`: the same scanner and encoder, without the Python wrapper.

What is accepted matches the stream's readers (msgspec): strict JSON only,
so NaN/Infinity, numbers out of float range, lone UTF-16 surrogates and
invalid UTF-8 are refused, and such a request is recorded as text instead.
"""

from __future__ import annotations

from hooktui.tap.base.cpython import json_encoder, json_scanner

TYPE_CHECKING = False  # not `typing`'s: importing typing costs more than a record
if TYPE_CHECKING:
    from typing import Any

_WHITESPACE = " \t\n\r"


class NotJSON(ValueError):
    """The bytes are not one strict JSON value."""


def _finite_float(text: str) -> float:
    value = float(text)
    if value in (float("inf"), float("-inf")):
        raise NotJSON(f"number out of range: {text}")
    return value


def _no_constant(name: str) -> None:
    raise NotJSON(f"{name} is not JSON")


class _Rules:
    """What `_json`'s scanner reads from a decoder (as json.JSONDecoder has it)."""

    def __init__(self) -> None:
        self.strict = True
        self.object_hook = None
        self.object_pairs_hook = None
        self.parse_int = int
        self.parse_float = _finite_float
        self.parse_constant = _no_constant


_scan = json_scanner(_Rules())


def loads(raw: bytes | str) -> Any:
    """The JSON value in `raw`; raises NotJSON for anything else."""
    try:
        text = raw.decode("utf-8") if isinstance(raw, bytes) else raw
        start = _skip_space(text, 0)
        value, end = _scan(text, start)
    except StopIteration:
        raise NotJSON("no JSON value") from None
    except (ValueError, RecursionError) as exc:  # UnicodeDecodeError, JSONDecodeError, ours
        raise NotJSON(str(exc)) from None
    except SystemError:
        # Until `json.decoder` is imported (the recorder never does), `_json` has no
        # JSONDecodeError to raise for an error inside an object or array (CPython 3.11:
        # "returned NULL without setting an exception").
        raise NotJSON("not JSON") from None
    if _skip_space(text, end) != len(text):
        raise NotJSON("extra data after the JSON value")
    if "\\u" in text and _has_lone_surrogate(value):
        raise NotJSON("a lone UTF-16 surrogate")
    return value


def _skip_space(text: str, i: int) -> int:
    n = len(text)
    while i < n and text[i] in _WHITESPACE:
        i += 1
    return i


def _has_lone_surrogate(value: Any) -> bool:
    if isinstance(value, str):
        return has_surrogates(value)
    if isinstance(value, dict):
        return any(has_surrogates(k) or _has_lone_surrogate(v) for k, v in value.items())
    if isinstance(value, list):
        return any(_has_lone_surrogate(v) for v in value)
    return False


def has_surrogates(text: str) -> bool:
    """Does `text` hold a code point UTF-8 cannot carry (a lone surrogate)?"""
    if text.isascii():
        return False
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return True
    return False


def _unencodable(value: Any) -> Any:
    raise TypeError(f"{type(value).__name__} is not JSON serializable")


_encode = json_encoder(_unencodable)  # compact, UTF-8 kept, insertion order


def dumps(value: Any) -> bytes:
    """Compact UTF-8 JSON; ValueError for NaN, infinities or a lone surrogate."""
    text = "".join(_encode(value, 0))
    try:
        return text.encode("utf-8")
    except UnicodeEncodeError as exc:
        raise ValueError(f"not representable as UTF-8 JSON: {exc}") from None
