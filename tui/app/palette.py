"""Command palette entries for the watch screen (ctrl+p)."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

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


class WatchCommands(Provider):
    """The watch app's actions and preset filters."""

    def _commands(self) -> list[tuple[str, Callable[[], object], str]]:
        app = self.app
        commands: list[tuple[str, Callable[[], object], str]] = [
            ("Follow: toggle following new calls", partial(app.run_action, "follow"), "f"),
            ("Pause: hold new records / resume", partial(app.run_action, "pause"), "p"),
            ("Filter…", partial(app.run_action, "filter"), "/"),
            ("Clear filter and marked-only", partial(app.run_action, "clear"), "esc"),
            ("Mark: toggle the selected call", partial(app.run_action, "mark"), "m"),
            ("Marked only: toggle", partial(app.run_action, "marked_only"), "M"),
            ("Copy the selected record as JSON", partial(app.run_action, "copy"), "c"),
            ("Write the shown records to a JSONL file…", partial(app.run_action, "write"), "w"),
            ("Replay the shown or marked calls", partial(app.run_action, "replay"), "r"),
            ("Help: keys and filter language", partial(app.run_action, "help"), "?"),
        ]
        for title, expr in PRESET_FILTERS:
            commands.append((title, partial(app.run_action, f"apply_filter({expr!r})"), expr))
        return commands

    async def discover(self) -> Hits:
        for title, command, help_ in self._commands():
            yield DiscoveryHit(title, command, help=help_)

    async def search(self, query: str) -> Hits:
        matcher = self.matcher(query)
        for title, command, help_ in self._commands():
            score = matcher.match(title)
            if score > 0:
                yield Hit(score, matcher.highlight(title), command, text=title, help=help_)
