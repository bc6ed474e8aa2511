"""Frozen, keyword-built classes of facts: what `@dataclass(frozen=True, kw_only=True)`
gave the runtime descriptors, without importing `dataclasses`.

`dataclasses` loads `inspect` (and with it `ast`, `dis`, `enum`, `tokenize`): on
the tap's recorder, which loads every runtime once per tool call, that import
cost more than writing the record. A subclass declares its fields as annotated
class attributes, with their defaults (`Factory(dict)` for a fresh mutable one);
a field without a default must be given. Annotations are never evaluated.
"""

from __future__ import annotations

TYPE_CHECKING = False  # not `typing`'s: see tap/base/jsonio.py
if TYPE_CHECKING:
    from typing import Any


class Factory:
    """A default made fresh for each instance (dataclasses' `default_factory`)."""

    __slots__ = ("make",)

    def __init__(self, make: Any) -> None:
        self.make = make


_REQUIRED = object()


class Facts:
    """Fields from the class annotations (the whole MRO's, in order); frozen after __init__;
    equal when of one type with equal fields. `replace(**changes)` makes a changed copy."""

    _fields: dict[str, Any] = {}  # name -> default (or _REQUIRED / a Factory), per class

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        fields = dict(cls._fields)
        for name in cls.__dict__.get("__annotations__", {}):
            if not name.startswith("_"):
                fields[name] = cls.__dict__.get(name, _REQUIRED)
        cls._fields = fields

    def __init__(self, **given: Any) -> None:
        for name, default in self._fields.items():
            if name in given:
                value = given.pop(name)
            elif default is _REQUIRED:
                raise TypeError(f"{type(self).__name__}: missing required argument {name!r}")
            else:
                value = default.make() if type(default) is Factory else default
            object.__setattr__(self, name, value)
        if given:
            raise TypeError(f"{type(self).__name__}: unexpected argument {next(iter(given))!r}")

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError(f"{type(self).__name__} is frozen: cannot set {name!r}")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"{type(self).__name__} is frozen: cannot delete {name!r}")

    def replace(self, **changes: Any) -> Any:
        return type(self)(**{**{n: getattr(self, n) for n in self._fields}, **changes})

    def __eq__(self, other: object) -> bool:
        if type(other) is not type(self):
            return NotImplemented
        return all(getattr(self, n) == getattr(other, n) for n in self._fields)

    def __hash__(self) -> int:
        return hash(tuple(getattr(self, n) for n in self._fields))

    def __repr__(self) -> str:
        fields = ", ".join(f"{n}={getattr(self, n)!r}" for n in self._fields)
        return f"{type(self).__name__}({fields})"
