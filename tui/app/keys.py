"""Keys as data: each part of a screen declares its keys, and why each does nothing now.

A `Key` is a Textual binding plus `unless`, the part's reason the key has nothing to
act on in the state it is in ("no call selected"). The reason is said when the key
is pressed anyway, and the command palette leaves such a key out; the help (`?`)
and the footer list keys from the same data. A screen gathers its parts' keys into
its BINDINGS (in the order its help reads) and runs each key's action on the part
that declared it (`KeyedScreen`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from functools import wraps
from typing import Any, NamedTuple

from textual.binding import Binding
from textual.dom import DOMNode
from textual.screen import Screen


def _never(_part: Any) -> str | None:
    return None


class Key(NamedTuple):
    binding: Binding
    # Why the key has nothing to act on now (None: it has), asked of the owning part.
    unless: Callable[[Any], str | None] = _never

    @property
    def action(self) -> str:
        """The action's name, without its arguments."""
        return self.binding.action.split("(", 1)[0]


def keys_in_order(order: Iterable[str], *keys: Iterable[Key]) -> list[Binding]:
    """The bindings of the parts' `keys`, in `order` (binding ids): a screen's BINDINGS."""
    by_id = {key.binding.id: key.binding for part_keys in keys for key in part_keys}
    return [by_id[key_id] for key_id in order]


class KeyedScreen(Screen):
    """A screen whose parts declare their keys: `key_parts()` names them.

    An action a part declared runs on that part, and asks its `unless` first: a key
    with nothing to act on says why (a notification) instead of doing nothing.
    """

    def key_parts(self) -> Iterable[DOMNode]:
        """The parts that declare keys (the screen itself may be one of them)."""
        return ()

    def key_for(self, action: str) -> tuple[DOMNode, Key] | None:
        """The part that owns `action` (a name without arguments), and its key."""
        for part in self.key_parts():
            for key in type(part).KEYS:
                if key.action == action:
                    return part, key
        return None

    def why_not(self, action: str) -> str | None:
        """Why `action` has nothing to act on now, or None."""
        owned = self.key_for(action)
        return owned[1].unless(owned[0]) if owned is not None else None

    def __getattr__(self, name: str):
        # Textual looks up `action_<name>` on the screen that has the binding: a
        # part's key runs the part's method (its reason, if any, said instead).
        if name.startswith("action_"):
            owned = self.key_for(name[len("action_") :])
            if owned is not None and owned[0] is not self:
                return self._guarded(owned[0], owned[1], getattr(owned[0], name))
        raise AttributeError(name)

    def _guarded(self, part: DOMNode, key: Key, method: Callable) -> Callable:
        @wraps(method)  # its signature: Textual passes an action as many arguments as it takes
        def run(*args):
            reason = key.unless(part)
            if reason is not None:
                self.notify(reason, severity="warning")
                return None
            return method(*args)

        return run
