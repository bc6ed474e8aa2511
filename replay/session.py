"""Loading a recorded session (read-only) and choosing the records to replay.

A session is a file, a FIFO or `-` (standard input); it is read once, whole.
"""

from __future__ import annotations

import os
import sys

import msgspec
from hooktui.tap.base.ids import names, random_part
from hooktui.tap.model import Record, record_decoder
from hooktui.tap.read.lines import NOT_A_STREAM_DEVICE, endless_device, endless_input


class SessionError(Exception):
    """A session that cannot be replayed; the message is one line for the user."""


class SessionRecord(msgspec.Struct, kw_only=True):
    """One recorded call of a session to replay, and where it was."""

    line: int  # 1-based line number in the session file
    record: Record


class Session(msgspec.Struct, kw_only=True):
    path: str
    records: list[SessionRecord]
    lines: int = 0  # complete lines read
    bad_lines: int = 0  # complete lines that are not records
    bad_line_errors: list[tuple[int, str]] = []  # (line, why) for the first BAD_DETAIL
    torn_tail: bool = False  # the file ends inside a line (still being written?)


STDIN = "-"
BAD_DETAIL = 20  # bad lines described one by one; the rest are only counted


def plural(n: int, word: str, many: str = "") -> str:
    """`1 record`, `2 records` (`many` for irregular plurals)."""
    return f"{n} {word if n == 1 else many or word + 's'}"


def read_bytes(path: str) -> bytes:
    """The whole of `path` (`-`: standard input), opened only for reading."""
    if path == STDIN:
        try:
            if endless_input(sys.stdin.fileno()):
                raise SessionError(f"cannot read standard input: {NOT_A_STREAM_DEVICE}")
            return sys.stdin.buffer.read()
        except (OSError, ValueError, AttributeError) as exc:
            raise SessionError(f"cannot read the session from standard input: {exc}") from None
    try:
        with open(path, "rb") as f:  # read-only: a replay never writes to a session
            if endless_device(os.fstat(f.fileno())):  # /dev/zero: read() would fill memory
                raise SessionError(f"cannot read {path}: {NOT_A_STREAM_DEVICE}")
            return f.read()
    except FileNotFoundError:
        raise SessionError(f"no such session file: {path}") from None
    except IsADirectoryError:
        raise SessionError(f"{path} is a directory, not a session file") from None
    except OSError as exc:
        raise SessionError(f"cannot read {path}: {exc.strerror or exc}") from None


def decode_line(line: bytes) -> Record | str:
    """The record on `line`, or why it is not one."""
    try:
        return record_decoder.decode(line)
    except msgspec.ValidationError as exc:
        return f"not a record ({exc})"
    except msgspec.DecodeError:
        return "invalid JSON"
    except RecursionError:  # msgspec stops at Python's recursion limit
        return "nested too deep to read (about 1,000 levels deep or more; 10,000 on Python 3.13)"


def load_session(path: str) -> Session:
    """Every record of `path`. Bad lines are counted, never fatal; a file with no
    record at all is not a session. The file is only ever opened for reading. A folder
    is a suite of made-up cases (replay/suite.py)."""
    if path != STDIN and os.path.isdir(path):
        from hooktui.replay.suite import load_suite

        return load_suite(path)
    data = read_bytes(path)
    name = "standard input" if path == STDIN else path
    parts = data.split(b"\n")
    tail = parts.pop()  # bytes after the last newline: a line still being written
    session = Session(path=path, records=[], lines=len(parts), torn_tail=bool(tail.strip()))
    for number, line in enumerate(parts, 1):
        if not line.strip():
            continue
        record = decode_line(line)
        if isinstance(record, str):
            session.bad_lines += 1
            if len(session.bad_line_errors) < BAD_DETAIL:
                session.bad_line_errors.append((number, record))
            continue
        session.records.append(SessionRecord(line=number, record=record))
    if not session.records:
        if not data.strip():
            raise SessionError(f"{name} is empty: no recorded calls to replay")
        lines = plural(max(len(parts), 1), "line")
        why = ""
        if session.bad_line_errors:
            first, error = session.bad_line_errors[0]
            why = f"; line {first}: {error}"
        raise SessionError(
            f"{name} is not a hooktui session (none of its {lines} is a record{why})"
        )
    return session


def select(session: Session, filter_expr: str | None) -> list[SessionRecord]:
    """The records matching `filter_expr` (the shared filter language), in file order.

    Raises SessionError with the filter's own message on a bad expression.
    """
    if not filter_expr:
        return list(session.records)
    from hooktui.tap.read.filter import compile_filter
    from hooktui.tap.read.filter_tokens import FilterError

    try:
        predicate = compile_filter(filter_expr)
    except FilterError as exc:
        raise SessionError(f"bad --filter: {exc}") from None
    return [e for e in session.records if predicate(e.record)]


def by_id(records: list[SessionRecord], wanted: str) -> SessionRecord:
    """The one record whose id is `wanted`, or starts with it, or whose random part does
    (ids begin with the time, so a short prefix of the whole id names many)."""
    exact = [e for e in records if e.record.id == wanted]
    if exact:
        return exact[0]
    found = [e for e in records if names(e.record.id, wanted)]
    if len(found) == 1:
        return found[0]
    if found:
        some = ", ".join(random_part(e.record.id) for e in found[:4])
        more = ", …" if len(found) > 4 else ""
        raise SessionError(
            f"--id {wanted!r} names {plural(len(found), 'record')} ({some}{more}): give more of it"
        )
    raise SessionError(f"--id {wanted!r}: no such record among {plural(len(records), 'record')}")
