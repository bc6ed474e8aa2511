"""`--capture digest`: no prompt or tool output, in any words, anywhere in the record.

Two steps, because a hook's answer quotes what it read:

1. the request keys that hold a prompt or a tool's output (`digest_keys`, at
   any depth: fastpace nests `tool_input.prompt`) are replaced by
   `[digest sha256:<hex> len:<n>]`, the sha256 and length of the UTF-8 text
   (or, for a JSON object or array, of its compact JSON); the texts they held,
   with the call's own prompt and tool output and a rewritten output, are
   the *quoted texts*;
2. every other string of the record (reasons, added context, rewritten input,
   the summary, the rest of the request) has each stretch it shares with a
   quoted text replaced the same way: a whole quoted text of `MIN_QUOTE`
   characters or more, and any stretch of `MIN_RUN + STEP - 1` or more that
   a quoted text also holds (so a reason quoting the middle of a prompt is
   caught too; shorter shared runs may be), read through JSON and `repr`
   escapes (unescape.py).

stdout and stderr are kept as digests only (recorder.py).
"""

from __future__ import annotations

from hooktui.tap.base import jsonio
from hooktui.tap.base.sha import text_sha256_hex
from hooktui.tap.record.unescape import views

TYPE_CHECKING = False  # not `typing`'s: see tap/base/jsonio.py
if TYPE_CHECKING:
    from typing import Any

MARKER_PREFIX = "[digest sha256:"

MIN_QUOTE = 8  # a shorter quoted text is not looked for elsewhere
MIN_RUN = 16  # quoted texts are indexed by their runs of this length ...
STEP = 8  # ... starting every STEP characters


def digest_keys(runtime: str) -> frozenset[str]:
    """The request keys holding a prompt or a tool's output: each runtime's descriptor
    lists its own, and every runtime's are taken whichever sent the call, so a call
    read as another runtime's still keeps none."""
    from hooktui.tap.runtimes import digest_fields  # loaded already: the call was judged

    return digest_fields()


def digest_marker(value: Any) -> str:
    """`[digest sha256:<hex> len:<n>]` for a string, or a value's compact JSON."""
    data = value if isinstance(value, str) else jsonio.dumps(value).decode("utf-8")
    size = len(data.encode("utf-8", "surrogatepass"))
    return f"{MARKER_PREFIX}{text_sha256_hex(data)} len:{size}]"


def digest_keys_in(value: Any, keys: frozenset[str], quoted: list[str]) -> Any:
    """`value` with every member under one of `keys` digested; their texts go to `quoted`."""
    if isinstance(value, dict):
        out = {}
        for key, item in value.items():
            if key in keys and item is not None:
                strings(item, quoted)
                out[key] = digest_marker(item)
            else:
                out[key] = digest_keys_in(item, keys, quoted)
        return out
    if isinstance(value, list):
        return [digest_keys_in(v, keys, quoted) for v in value]
    return value


def strings(value: Any, out: list[str]) -> None:
    """Every string inside `value` (keys too), appended to `out`."""
    if isinstance(value, str):
        out.append(value)
    elif isinstance(value, dict):
        for k, v in value.items():
            out.append(str(k))
            strings(v, out)
    elif isinstance(value, list):
        for v in value:
            strings(v, out)


class Quotes:
    """The quoted texts, ready to be looked for in other strings."""

    def __init__(self, texts: list[str]) -> None:
        self.whole = sorted({t for t in texts if len(t.strip()) >= MIN_QUOTE}, key=len)[::-1]
        self.long = [t for t in self.whole if len(t) >= MIN_RUN]
        self.index: dict[str, tuple[int, int]] = {}  # run -> (text number, where)
        for n, text in enumerate(self.long):
            for at in range(0, len(text) - MIN_RUN + 1, STEP):
                self.index.setdefault(text[at : at + MIN_RUN], (n, at))

    def __bool__(self) -> bool:
        return bool(self.whole)

    def scrub(self, value: Any) -> Any:
        """`value` with every quoted stretch in its strings (keys too) digested."""
        if isinstance(value, str):
            return self.scrub_text(value)
        if isinstance(value, dict):
            return {self.scrub_text(k): self.scrub(v) for k, v in value.items()}
        if isinstance(value, list):
            return [self.scrub(v) for v in value]
        return value

    def scrub_text(self, text: str) -> str:
        if len(text) < MIN_QUOTE or text.startswith(MARKER_PREFIX):
            return text
        spans = self._spans(text)
        for view in views(text):
            spans += [(view.original(s), view.original(e)) for s, e in self._spans(view.text)]
        if not spans:
            return text
        parts, done = [], 0
        for start, end in _merged(spans):
            parts += [text[done:start], digest_marker(text[start:end])]
            done = end
        parts.append(text[done:])
        return "".join(parts)

    def _spans(self, text: str) -> list[tuple[int, int]]:
        spans = []
        for quote in self.whole:
            at = text.find(quote)
            while at != -1:
                spans.append((at, at + len(quote)))
                at = text.find(quote, at + len(quote))
        if self.index and len(text) >= MIN_RUN:
            spans += self._shared_runs(text)
        return spans

    def _shared_runs(self, text: str) -> list[tuple[int, int]]:
        """Stretches of `text` also found in a long quoted text (MIN_RUN or more)."""
        spans = []
        at, last = 0, len(text) - MIN_RUN
        while at <= last:
            hit = self.index.get(text[at : at + MIN_RUN])
            if hit is None:
                at += 1
                continue
            quote, where = self.long[hit[0]], hit[1]
            start, end = at, at + MIN_RUN
            back = where
            while start > 0 and back > 0 and text[start - 1] == quote[back - 1]:
                start, back = start - 1, back - 1
            ahead = where + MIN_RUN
            while end < len(text) and ahead < len(quote) and text[end] == quote[ahead]:
                end, ahead = end + 1, ahead + 1
            spans.append((start, end))
            at = end
        return spans


def _merged(spans: list[tuple[int, int]]) -> list[tuple[int, int]]:
    out: list[list[int]] = []
    for start, end in sorted(spans):
        if out and start <= out[-1][1]:
            out[-1][1] = max(out[-1][1], end)
        else:
            out.append([start, end])
    return [(s, e) for s, e in out]
