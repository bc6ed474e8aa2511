"""Backslash escapes undone, keeping track of where each character came from.

A hook's stdout is often JSON (`{"updatedInput": {"command": "export T=\\"ghp_…\\"\\n…"}}`)
and its stderr a Python traceback (`repr` of a string): a secret sits there
behind `\\n`, `\\t`, `\\"` or `\\uXXXX`, and the character before it is a
letter, so a pattern that wants a word boundary misses it. The redactor
therefore also reads a decoded view of such text and maps what it finds
there back onto the original characters, which is what it masks.

Only the common escapes of JSON and Python `repr` are read; any other
backslash is kept as it is. Stdlib only (`bisect`), no `re`.
"""

from __future__ import annotations

from bisect import bisect_right

_SIMPLE = {
    "n": "\n",
    "t": "\t",
    "r": "\r",
    "b": "\b",
    "f": "\f",
    "v": "\v",
    "a": "\a",
    "0": "\0",
    '"': '"',
    "'": "'",
    "\\": "\\",
    "/": "/",
}
_HEX_WIDTH = {"x": 2, "u": 4, "U": 8}
_HEX = frozenset("0123456789abcdefABCDEF")

# How many layers of quoting to undo (JSON inside a JSON string inside a repr).
MAX_LEVELS = 3


class View:
    """Decoded text plus a map from its positions back to the original's."""

    __slots__ = ("text", "_decoded_at", "_original_at", "_outer")

    def __init__(self, text: str, decoded_at: list[int], original_at: list[int], outer) -> None:
        self.text = text
        self._decoded_at = decoded_at  # anchors: decoded position ...
        self._original_at = original_at  # ... and the original position it came from
        self._outer = outer  # the View this one was decoded from, or None

    def original(self, pos: int) -> int:
        """The position in the outermost text for position `pos` of this view."""
        k = bisect_right(self._decoded_at, pos) - 1
        at = self._original_at[k] + (pos - self._decoded_at[k])
        if k + 1 < len(self._original_at):
            at = min(at, self._original_at[k + 1])  # inside an escape: its end
        return self._outer.original(at) if self._outer is not None else at


def views(text: str) -> list[View]:
    """Each layer of escapes undone in turn (none when `text` has no backslash)."""
    found: list[View] = []
    outer = None
    current = text
    for _ in range(MAX_LEVELS):
        if "\\" not in current:
            break
        view = decode(current, outer)
        if view.text == current:
            break
        found.append(view)
        outer, current = view, view.text
    return found


def decode(text: str, outer: View | None = None) -> View:
    """One layer of `\\n`, `\\t`, `\\"`, `\\\\`, `\\uXXXX`, `\\xNN`… undone."""
    parts: list[str] = []
    decoded_at = [0]
    original_at = [0]
    done = 0  # original characters consumed
    size = 0  # decoded characters produced
    i = text.find("\\")
    while i != -1:
        parts.append(text[done:i])
        size += i - done
        char, width = _escape_at(text, i)
        decoded_at.append(size)
        original_at.append(i)
        parts.append(char)
        size += len(char)
        done = i + width
        decoded_at.append(size)
        original_at.append(done)
        i = text.find("\\", done)
    parts.append(text[done:])
    return View("".join(parts), decoded_at, original_at, outer)


def _escape_at(text: str, i: int) -> tuple[str, int]:
    """(what the escape at `i` stands for, how many characters it spans)."""
    letter = text[i + 1 : i + 2]
    if letter in _SIMPLE:
        return _SIMPLE[letter], 2
    width = _HEX_WIDTH.get(letter)
    if width:
        digits = text[i + 2 : i + 2 + width]
        if len(digits) == width and all(d in _HEX for d in digits):
            code = int(digits, 16)
            if 0xD800 <= code < 0xDC00 and text[i + 6 : i + 8] == "\\u":  # a surrogate pair
                low = text[i + 8 : i + 12]
                if len(low) == 4 and all(d in _HEX for d in low):
                    code2 = int(low, 16)
                    if 0xDC00 <= code2 < 0xE000:
                        return chr(0x10000 + ((code - 0xD800) << 10) + (code2 - 0xDC00)), 12
            if code <= 0x10FFFF:
                return chr(code), 2 + width
    return "\\", 1  # not an escape we read: the backslash stays
