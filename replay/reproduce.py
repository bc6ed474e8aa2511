"""Reproduce one call: as a shell command, or re-run now with an edited request.

The API the command line and the watch UI share (UI-free; no terminal needed):

- `shell_command(record, policy=None, request=None) -> str`: a POSIX shell command
  (sh, bash, zsh) that re-runs exactly that hook on exactly that request, in the
  recorded cwd, with the recorded runtime variables (filtered as replay filters them)
  and HOOKTUI_REPLAY=1: `cd … && printf … | env … HOOK`. Every word is quoted; bytes
  that are not printable (control characters, invalid UTF-8, invisible Unicode) are
  written as printf octal escapes, so the text is safe to paste into a terminal or a
  bug report and sends the same bytes. ValueError when there is nothing to run.
- `request_text(record) -> str`: the request to put in an editor (indented JSON, or
  the raw text as recorded).
- `edited_record(record, text) -> Record`: the record with `text` as its request
  (JSON when it parses, else sent as text).
- `rerun(record, policy=None, timeout_s=None) -> Result`: run the hook (or `policy`)
  on the record's request now, once; the Result holds the new answer (`outcome`), the
  new verdict (`after`) beside today's reading of the recorded one (`before`, and
  `recorded` as written), and the class (changed, loosened...). Pass an
  `edited_record` to run a changed request.
"""

from __future__ import annotations

import shlex
from typing import Any

import msgspec
from hooktui.replay.environ import REPLAY_ENV, WRITE_TARGET_SUFFIX, recorded_env
from hooktui.replay.policy import policy_argv, recorded_argv, recorded_cwd, request_bytes
from hooktui.replay.report import Result
from hooktui.replay.run import Options, replay
from hooktui.replay.session import SessionRecord
from hooktui.tap.model import Record

# ---------------------------------------------------------------------------
# Quoting


def _safe_char(ch: str) -> bool:
    """Printable and visible as itself (newline and tab are fine inside quotes)."""
    return ch in "\n\t" or (ch.isprintable() and ch not in "\u2028\u2029")


def _plain(data: bytes) -> str | None:
    """`data` as text when every character is safe to show as itself, else None."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return None
    return text if all(_safe_char(ch) for ch in text) else None


def _printf_format(data: bytes) -> str:
    """A printf format that prints exactly `data`: `%` and `\\` doubled, newlines as
    `\\n`, and every byte that is not safe as itself as a three-digit octal escape."""
    out: list[str] = []
    text = data.decode("utf-8", "surrogateescape")
    for ch in text:
        if ch == "%":
            out.append("%%")
        elif ch == "\\":
            out.append("\\\\")
        elif ch == "\n":
            out.append("\\n")
        elif _safe_char(ch) and not ("\udc80" <= ch <= "\udcff"):
            out.append(ch)
        else:
            out.extend(f"\\{b:03o}" for b in ch.encode("utf-8", "surrogateescape"))
    return "".join(out)


def _printf(data: bytes) -> str:
    """A command printing exactly `data` on stdout."""
    plain = _plain(data)
    if plain is not None:
        return f"printf '%s' {_quote(plain)}"
    form = _printf_format(data)
    if form.startswith("-"):  # else printf reads it as an option (dash, bash, ksh)
        form = "\\055" + form[1:]
    return f"printf {_quote(form)}"


def _quote(text: str) -> str:
    """shlex.quote, and quoted too when it starts with `=` (zsh expands `=word` to a
    command's path)."""
    quoted = shlex.quote(text)
    if quoted == text and text[:1] == "=":
        return f"'{text}'"
    return quoted


def _word(text: str, prelude: list[str]) -> str:
    """`text` as one shell word. Quoted when it is safe to show; otherwise built by a
    variable assignment in `prelude` from printf escapes (the `x` keeps trailing
    newlines, which a command substitution would drop)."""
    data = text.encode("utf-8", "surrogateescape")
    if _plain(data) is not None:
        return _quote(text)
    name = f"w{len(prelude)}"
    prelude.append(f'{name}="$({_printf(data)}; echo x)"; {name}="${{{name}%x}}"')
    return f'"${name}"'


# ---------------------------------------------------------------------------
# The command


def hook_argv(record: Record, policy: str | None = None) -> list[str]:
    return policy_argv(policy) if policy is not None else recorded_argv(record)


def shell_command(record: Record, policy: str | None = None, request: bytes | None = None) -> str:
    """The shell command that re-runs `record`'s hook (or `policy`) on its request
    (or on `request`, bytes as the hook reads them). See the module text.

    Raises ValueError when there is nothing to run (no policy, no recorded command).
    """
    argv = hook_argv(record, policy)
    if not argv:
        raise ValueError("no hook command was recorded (give --policy)")
    prelude: list[str] = []
    stdin = request if request is not None else request_bytes(record)
    assignments = [f"{REPLAY_ENV}=1"]
    for name, value in sorted(recorded_env(record).values.items()):
        if name.endswith(WRITE_TARGET_SUFFIX):
            assignments.append(f'{name}="$(mktemp)"')  # never a file the session names
        else:
            assignments.append(f"{name}={_word(value, prelude)}")
    words = [_word(w, prelude) for w in argv]
    if argv and ("=" in argv[0] or argv[0].startswith("-")):
        words.insert(0, "--")  # env would read the word as a variable or an option
    pipeline = f"{_printf(stdin)} | env {' '.join(assignments)} {' '.join(words)}"
    cwd = recorded_cwd(record) or record.cwd
    if cwd:
        pipeline = f"cd -- {_word(cwd, prelude)} && {pipeline}"
    return "; ".join([*prelude, pipeline])


# ---------------------------------------------------------------------------
# Edit and re-run

_pretty = msgspec.json.Encoder()


def request_text(record: Record) -> str:
    """The request for a person to edit: indented JSON, or the recorded text."""
    if record.request_format == "text" and isinstance(record.request, str):
        return record.request
    return msgspec.json.format(_pretty.encode(record.request), indent=2).decode() + "\n"


def parse_request(text: str) -> tuple[Any, str]:
    """(request, format): JSON when `text` parses as JSON, else the text itself."""
    try:
        return msgspec.json.decode(text.encode("utf-8", "surrogateescape")), "json"
    except (msgspec.DecodeError, RecursionError):
        return text, "text"


def edited_record(record: Record, text: str) -> Record:
    """`record` with `text` as its request. The person supplied the request, so what
    the recorder redacted from the old one no longer stands in the way (a marker
    left in the text still does)."""
    request, fmt = parse_request(text)
    return msgspec.structs.replace(
        record,
        request=request,
        request_format=fmt,
        redactions=[r for r in record.redactions if not r.pointer.startswith("/request")],
    )


def rerun(record: Record, policy: str | None = None, timeout_s: float | None = None) -> Result:
    """Run the hook (or `policy`) on `record`'s request now, once (see the module text)."""
    report = replay(
        [SessionRecord(line=0, record=record)], Options(policy=policy, timeout_s=timeout_s)
    )
    return report.results[0]
