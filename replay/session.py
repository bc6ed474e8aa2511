"""Loading a recorded session (read-only) and choosing the records to replay."""

from __future__ import annotations

import msgspec
from hooktui.tap.model import Record, record_decoder


class SessionError(Exception):
    """A session that cannot be replayed; the message is one line for the user."""


class Entry(msgspec.Struct, kw_only=True):
    line: int  # 1-based line number in the session file
    record: Record


class Session(msgspec.Struct, kw_only=True):
    path: str
    entries: list[Entry]
    lines: int = 0  # complete lines read
    bad_lines: int = 0  # complete lines that are not records
    torn_tail: bool = False  # the file ends inside a line (still being written?)


def load_session(path: str) -> Session:
    """Every record of `path`. Bad lines are counted, never fatal; a file with no
    record at all is not a session. The file is only ever opened for reading."""
    try:
        with open(path, "rb") as f:  # read-only: a replay never writes to a session
            data = f.read()
    except FileNotFoundError:
        raise SessionError(f"no such session file: {path}") from None
    except IsADirectoryError:
        raise SessionError(f"{path} is a directory, not a session file") from None
    except OSError as exc:
        raise SessionError(f"cannot read {path}: {exc.strerror or exc}") from None
    parts = data.split(b"\n")
    tail = parts.pop()  # bytes after the last newline: a line still being written
    session = Session(path=path, entries=[], lines=len(parts), torn_tail=bool(tail.strip()))
    for number, line in enumerate(parts, 1):
        if not line.strip():
            continue
        try:
            record = record_decoder.decode(line)
        except (msgspec.DecodeError, msgspec.ValidationError):
            session.bad_lines += 1
            continue
        session.entries.append(Entry(line=number, record=record))
    if not session.entries:
        if not data.strip():
            raise SessionError(f"{path} is empty: no recorded calls to replay")
        raise SessionError(
            f"{path} is not a hooktui session (none of its {max(len(parts), 1)} lines is a record)"
        )
    return session


def select(session: Session, filter_expr: str | None) -> list[Entry]:
    """The entries matching `filter_expr` (the shared filter language), in file order.

    Raises SessionError with the filter's own message on a bad expression.
    """
    if not filter_expr:
        return list(session.entries)
    from hooktui.tap.read.filter import FilterError, compile_filter

    try:
        predicate = compile_filter(filter_expr)
    except FilterError as exc:
        raise SessionError(f"bad --filter: {exc}") from None
    return [e for e in session.entries if predicate(e.record)]
