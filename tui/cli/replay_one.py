"""`hooktui replay SESSION --id ID [--edit] [--print-command]`: reproduce one call.

`--print-command` prints the shell command that re-runs the call (replay.reproduce);
`--edit` opens the request in the user's editor first; otherwise the call's hook (or
--policy) runs once on the request and the new answer and verdict are shown beside
the recorded ones.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
from typing import Any

import msgspec
from hooktui.replay.report import Result, side, to_builtins
from hooktui.replay.reproduce import edited_record, request_text, shell_command
from hooktui.replay.session import SessionError
from hooktui.tap.canonical import Outcome
from hooktui.tap.model import Record


def run_one(args: argparse.Namespace, job) -> int:
    record = job.records[0].record
    if args.edit:
        record = edit(record)
    if args.print_command:
        try:
            command = shell_command(record, policy=args.policy)
        except ValueError as exc:
            raise SessionError(str(exc)) from None
        sys.stdout.write(command + "\n")
        return 0
    report = job.run() if not args.edit else _run_edited(job, record)
    (result,) = report.results
    if args.format == "json":
        out = to_builtins(report)
        out["record"] = _detail(result)
        sys.stdout.buffer.write(msgspec.json.encode(out) + b"\n")
        sys.stdout.flush()
    else:
        from hooktui.tui.cli.replay import make_console

        render_one(make_console(), result, edited=args.edit)
    return report.exit_status(args.fail_on)


def _run_edited(job, record: Record):
    from hooktui.replay.session import SessionRecord

    job.records = [SessionRecord(line=job.records[0].line, record=record)]
    return job.run()


# ---------------------------------------------------------------------------
# Editing


def _editor() -> str:
    return os.environ.get("VISUAL") or os.environ.get("EDITOR") or "vi"


def edit(record: Record) -> Record:
    """`record` with the request as the user left it in the editor; SessionError when
    the editor fails or the request is left empty (nothing is run then)."""
    suffix = ".txt" if record.request_format == "text" else ".json"
    fd, path = tempfile.mkstemp(prefix="hooktui-request-", suffix=suffix)
    try:
        with os.fdopen(fd, "w", encoding="utf-8", errors="surrogateescape") as f:
            f.write(request_text(record))
        _open_editor(path)
        with open(path, encoding="utf-8", errors="surrogateescape") as f:
            text = f.read()
    finally:
        os.unlink(path)
    if not text.strip():
        raise SessionError("the edited request is empty: nothing was run")
    if record.request_format == "text" and not record.request.endswith("\n"):
        text = text.removesuffix("\n")  # the editor's final newline, not the user's
    return edited_record(record, text)


def _open_editor(path: str) -> None:
    """Run the editor on `path` on the terminal, even when stdin or stdout is a pipe."""
    editor = _editor()
    tty = None
    try:
        tty = open("/dev/tty", "r+b", buffering=0)  # noqa: SIM115 - closed below
    except OSError:
        pass
    io = {"stdin": tty, "stdout": tty} if tty is not None else {}
    try:
        code = subprocess.call(["sh", "-c", f'{editor} "$1"', editor, path], **io)
    except OSError as exc:
        raise SessionError(f"cannot start the editor {editor!r}: {exc}") from None
    finally:
        if tty is not None:
            tty.close()
    if code != 0:
        raise SessionError(f"the editor ({editor}) exited with status {code}: nothing was run")


# ---------------------------------------------------------------------------
# Showing one result


def _tail(data: bytes, width: int = 160) -> str:
    from hooktui.tui.present.replay_text import clean

    text = data.decode("utf-8", "replace")
    return clean(text[-4000:], width) if text.strip() else ""


def _outcome_line(outcome: Outcome | None) -> str:
    if outcome is None:
        return ""
    if outcome.spawn_error:
        ended = f"could not start ({outcome.spawn_error})"
    elif outcome.timed_out:
        ended = "timed out"
    elif outcome.signal is not None:
        ended = f"killed by signal {outcome.signal}"
    else:
        ended = f"exit {outcome.exit_code}"
    return f"{ended}, {outcome.duration_ms:.0f} ms"


def render_one(console, r: Result, *, edited: bool) -> None:
    from hooktui.tui.present.replay_text import (
        RULES_CHANGED,
        clean,
        effect_lines,
        label_text,
        record_head,
        verdict_line,
    )
    from rich.text import Text

    console.print(record_head(r))
    if r.cls == "skipped":
        console.print(Text(f"    skipped: {clean(r.skip_reason, 200)}", style="italic"))
        return
    console.print(verdict_line("recorded", r.recorded))
    if r.rules_changed:
        console.print(verdict_line("today", r.before))
        console.print(Text(f"    ({RULES_CHANGED})", style="yellow"))
    console.print(verdict_line("edited" if edited else "now", r.after))
    result = Text("    result  ")
    result.append_text(label_text(r))
    console.print(result)
    for line in effect_lines(r):
        console.print(line)
    console.print(Text(f"    ran     {_outcome_line(r.outcome)}", style="dim"))
    if r.outcome is not None:
        for name, data in (("stdout", r.outcome.stdout), ("stderr", r.outcome.stderr)):
            if _tail(data):
                console.print(Text(f"    {name:<8}{_tail(data)}", style="dim"))
    for note in r.notes:
        console.print(Text(f"    note    {clean(note, 200)}", style="yellow"))


def _detail(r: Result) -> dict[str, Any]:
    out: dict[str, Any] = {
        "id": r.record.id,
        "line": r.line,
        "class": r.cls,
        "direction": r.direction,
        "effects": r.effects,
        "recorded": side(r.recorded),
        "today": side(r.before),
        "rules_changed": r.rules_changed,
        "after": side(r.after) if r.after is not None else None,
        "request": r.record.request,
        "notes": list(r.notes),
        "skip_reason": r.skip_reason,
    }
    if r.outcome is not None:
        out["outcome"] = {
            "exit_code": r.outcome.exit_code,
            "signal": r.outcome.signal,
            "timed_out": r.outcome.timed_out,
            "duration_ms": round(r.outcome.duration_ms, 3),
            "stdout": r.outcome.stdout.decode("utf-8", "replace"),
            "stderr": r.outcome.stderr.decode("utf-8", "replace"),
        }
    return out
