"""One command palette provider (ctrl+p) for watch and replay, built from the bindings.

The commands are the active screen's (and app's) documented bindings, asked
first whether they make sense now (`palette_allows`): no "marked only" with
nothing marked, no "copy" with nothing selected. Presets (filters worth one
keystroke) come from `palette_presets()` on the same objects.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from functools import partial

from hooktui.tui.app.help import bindings_of, key_label
from textual.command import DiscoveryHit, Hit, Hits, Provider

# Filters worth one keystroke in the palette: the questions people ask at 2 a.m.
PRESET_FILTERS = (
    ("Filter: failures the runtime let through", "decision:failure -effect:blocks"),
    ("Filter: all hook failures", "decision:failure"),
    ("Filter: denied calls", "decision:deny"),
    ("Filter: rewritten calls (modify, replace)", "decision:modify or decision:replace"),
    ("Filter: slow calls (over 1 s)", "latency>1s"),
    ("Filter: non-zero exits", "exit!=0"),
)

Command = tuple[str, Callable[[], object], str]


def commands_for(app, screen) -> list[Command]:
    """The palette's commands over `screen` (the one under the palette)."""
    commands: list[Command] = []
    seen: set[str] = set()
    for node in (screen, app):
        allows = getattr(node, "palette_allows", None)
        bindings = bindings_of(type(node))
        shared = Counter(b.tooltip for b in bindings)
        for binding in bindings:
            if not binding.tooltip or binding.action in seen:
                continue
            if node is app and app.check_action(binding.action, ()) is False:
                continue  # the app's keys that this screen does not take
            name = binding.action.split("(", 1)[0]
            if allows is not None and not allows(name):
                continue
            seen.add(binding.action)
            if shared[binding.tooltip] > 1:  # e.g. the five detail tabs: "Detail tabs: diff"
                title = f"{binding.tooltip.split(':')[0].capitalize()}: {binding.description}"
            else:
                title = f"{binding.description}: {binding.tooltip}"
            commands.append(
                (title, partial(app.run_action, binding.action, node), key_label(binding.key))
            )
        presets = getattr(node, "palette_presets", None)
        if presets is not None:
            commands.extend(presets())
    return commands


class BindingCommands(Provider):
    """The active screen's actions and presets."""

    def _commands(self) -> list[Command]:
        return commands_for(self.app, self.screen)

    async def discover(self) -> Hits:
        for title, command, help_ in self._commands():
            yield DiscoveryHit(title, command, help=help_)

    async def search(self, query: str) -> Hits:
        matcher = self.matcher(query)
        for title, command, help_ in self._commands():
            score = matcher.match(title)
            if score > 0:
                yield Hit(score, matcher.highlight(title), command, text=title, help=help_)
