"""Filtering rows by the index alone: the predicate runs once per distinct combination."""

from __future__ import annotations

from collections.abc import Sequence

from hooktui.tap.read.index import INDEXED, Columns


class _Row:
    """The indexed fields of one row, for a predicate that reads only those."""

    __slots__ = tuple(INDEXED)


def select_indexed(index: Columns, rows: Sequence[int], fields: list[str], predicate) -> list[int]:
    """Filter rows by the index alone: the predicate runs once per distinct value combination."""
    if not fields:
        return list(rows) if predicate(_Row()) else []
    columns = []
    for name in fields:
        if name in index.text:
            columns.append(index.text[name])
        elif name == "timed_out":
            columns.append(index.flags)
        else:
            columns.append(getattr(index, name))
    keys = zip(*[map(column.__getitem__, rows) for column in columns], strict=True)
    memo: dict[tuple, bool] = {}
    out = []
    append = out.append
    for i, key in zip(rows, keys, strict=True):
        hit = memo.get(key)
        if hit is None:
            row = _Row()
            for name in fields:
                setattr(row, name, index.value(name, i))
            hit = memo[key] = bool(predicate(row))
        if hit:
            append(i)
    return out
