"""A list of keyed items and the rows shown: a view `Focus` can sit on, for lists besides calls.

Watch's call list has its own view model (`hooktui.tap.read.view.CallView`);
the replay list and the patterns table hold plain items (results, groups).
This gives them the same few things `Focus` reads from a view (`shown`, `total`,
`key_at`, `row_of`, `index_of`, the added and refreshed signals), so
every list's cursor, anchor and follow mode come from the one model.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable
from typing import Any, NamedTuple


class KeyedRow(NamedTuple):
    key: Hashable
    item: Any


class KeyedRows:
    """Items in order, each with a key that names it across refills; a predicate picks the rows."""

    def __init__(self, visible: Callable[[Any], bool] | None = None) -> None:
        self.kept: list[KeyedRow] = []  # every item, shown or not
        self.shown: list[int] = []  # indices into kept, in display order
        self._visible = visible
        self._row_by_key: dict[Hashable, int] = {}
        self.on_added: list[Callable[[int, int], None]] = []
        self.on_refresh: list[Callable[[], None]] = []

    # -- reading -------------------------------------------------------------

    def __len__(self) -> int:
        return len(self.shown)

    @property
    def total(self) -> int:
        return len(self.kept)

    def key_at(self, row: int) -> Hashable:
        return self.kept[self.shown[row]].key

    def item(self, row: int) -> Any:
        return self.kept[self.shown[row]].item

    def items(self) -> list[Any]:
        return [self.kept[i].item for i in self.shown]

    def row_of(self, key: Hashable) -> int | None:
        return self._row_by_key.get(key)

    def index_of(self, key: Hashable) -> int | None:
        """The index in `kept` of the first item keyed `key`, shown or not."""
        return next((i for i, kept in enumerate(self.kept) if kept.key == key), None)

    # -- changing ------------------------------------------------------------

    def add(self, key: Hashable, item: Any) -> bool:
        """Append one item; returns whether it became a shown row."""
        self.kept.append(KeyedRow(key, item))
        if self._visible is not None and not self._visible(item):
            return False
        row = len(self.shown)
        self.shown.append(len(self.kept) - 1)
        self._row_by_key.setdefault(key, row)
        for listener in self.on_added:
            listener(row, 1)
        return True

    def extend(self, rows: Iterable[tuple[Hashable, Any]]) -> int:
        """Append (key, item) pairs, one signal for all; returns how many became shown rows."""
        first = len(self.shown)
        for key, item in rows:
            self.kept.append(KeyedRow(key, item))
            if self._visible is None or self._visible(item):
                self._row_by_key.setdefault(key, len(self.shown))
                self.shown.append(len(self.kept) - 1)
        added = len(self.shown) - first
        if added:
            for listener in self.on_added:
                listener(first, added)
        return added

    def set_item(self, row: int, item: Any) -> None:
        """`item` in place of the shown row's, its key kept (what the row shows changed)."""
        i = self.shown[row]
        self.kept[i] = KeyedRow(self.kept[i].key, item)

    def replace(self, rows: Iterable[tuple[Hashable, Any]]) -> None:
        """Start over with these (key, item) pairs."""
        self.kept = [KeyedRow(key, item) for key, item in rows]
        self.rebuild()

    def rebuild(self) -> None:
        visible, kept = self._visible, self.kept
        if visible is None:
            self.shown = list(range(len(kept)))
        else:
            self.shown = [i for i, e in enumerate(kept) if visible(e.item)]
        self._row_by_key = {}
        for row, i in enumerate(self.shown):
            self._row_by_key.setdefault(kept[i].key, row)
        for listener in self.on_refresh:
            listener()
