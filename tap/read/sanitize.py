"""Text from a record made safe for a terminal: one sanitizer for every reader.

A record holds what a hook and a runtime sent, and a stream file may come from
anyone: an OSC sequence in a field could retitle the terminal or write the
clipboard (OSC 52), a CSI could move the cursor over earlier rows, and a bidi
override could make `rm -rf /` read as something else (Trojan Source). Every
field printed to a terminal goes through `safe_line` (one row) or `safe_text`
(several lines); both keep the text readable and make each such character
visible instead of letting it act.

Pure functions of str, UI-free: `show`, the watch widgets and replay all use them.
"""

from __future__ import annotations

# Unicode's bidirectional formatting characters: embeddings, overrides and
# isolates, the marks, and the Arabic letter mark.
BIDI_CONTROLS = (
    *range(0x202A, 0x202F),  # LRE RLE PDF LRO RLO
    *range(0x2066, 0x206A),  # LRI RLI FSI PDI
    0x200E,  # LRM
    0x200F,  # RLM
    0x061C,  # ALM
)
# Line and paragraph separators: some terminals break the row on them.
SEPARATORS = (0x2028, 0x2029)
# C0 controls, DEL and C1 controls (0x9b is a one-byte CSI, 0x9d an OSC).
CONTROLS = (*range(0x00, 0x20), *range(0x7F, 0xA0))


def _escape(code: int) -> str:
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


# One row: newlines become a visible mark, tabs a space, the rest a middle dot
# (a single cell, so column widths stay exact).
_ONE_LINE = {c: "·" for c in (*CONTROLS, *SEPARATORS)}
_ONE_LINE[ord("\n")] = "⏎"
_ONE_LINE[ord("\t")] = " "
_ONE_LINE.update({c: "�" for c in BIDI_CONTROLS})

# Several lines: newlines and tabs stay, every other control shows as an escape.
_MULTI_LINE = {c: _escape(c) for c in (*CONTROLS, *SEPARATORS, *BIDI_CONTROLS)}
del _MULTI_LINE[ord("\n")], _MULTI_LINE[ord("\t")]


def safe_line(text: str) -> str:
    """`text` for one terminal row: no control, escape or bidi character left to act."""
    return text.translate(_ONE_LINE)


def safe_text(text: str) -> str:
    """Multi-line `text` with newlines and tabs kept and every other control as \\xNN / \\uNNNN."""
    return text.translate(_MULTI_LINE)


# In JSON text these can only stand inside strings, where a \u escape is the same value.
_JSON_INERT = {c: f"\\u{c:04x}" for c in (*range(0x7F, 0xA0), *SEPARATORS, *BIDI_CONTROLS)}


def inert_json(data: bytes) -> bytes:
    """JSON `data` (UTF-8) with DEL, C1, bidi and separator characters written as \\u escapes.

    The same JSON value, that a terminal shows as it is: JSON hooktui prints of its
    own (groups, a replay's report) carries record text such as a raw U+009B (CSI).
    """
    return (
        data.decode("utf-8", "surrogateescape")
        .translate(_JSON_INERT)
        .encode("utf-8", "surrogateescape")
    )
