"""Watch's `r`: replay the marked (else the shown) calls against a policy, one hook's by default.

A stream holds the calls of every hook the user installed (a guard, a formatter, a
logger). The policy `r` asks for is an edited copy of one of them, so feeding it
every other hook's calls too would fill the replay with "changed" rows that mean
nothing. Like `hooktui replay --policy` (replay/hooks.py, whose hook names this
uses), `r` replays the calls of one hook: the hook of the focused call, the one the
user was looking at (the watch's counterpart of `--hook NAME`). What is left out
is said in the prompt, in a notification and in the replay screen's header.

Marks are the exception: calls marked one by one are the user's own choice, so
all of them are replayed, the prompt saying which hooks they span. Either way
ctrl+o in the prompt switches between the one hook and every call, before the
policy is typed: the count the prompt states is the count that runs, with a
policy or without one (each call's recorded hook).
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

from hooktui.tap.model import Record
from hooktui.tap.read.lines import read_record_at
from hooktui.tap.read.view import StreamLine
from hooktui.tui.present.format import count_of
from textual import work

if TYPE_CHECKING:
    from hooktui.tui.app.watch_replay_scope import Scope


class WatchReplay:
    """Mixed into WatchApp: it has `paths`, `names`, `view`, `calls` and `notify`."""

    def replay_entries(self) -> list[StreamLine]:
        """What `r` reads: the marked calls if any, else the shown ones."""
        marked = self.view.marked_entries()
        return marked or self.view.shown_entries()

    def action_replay(self) -> None:
        marked = self.view.marked_entries()
        entries = marked or self.view.shown_entries()  # as replay_entries, one pass over marks
        if not entries:
            self.notify("nothing to replay: no call is shown", severity="warning")
            return
        self.notify(f"reading {count_of(len(entries), 'call')} to replay…")
        self._load_for_replay(entries, self.calls.current, bool(marked))

    @work(thread=True, exclusive=True, group="replay-load")
    def _load_for_replay(
        self, entries: list[StreamLine], focused: StreamLine | None, marked: bool
    ) -> None:
        from hooktui.tui.app.watch_replay_scope import Scope

        records = [r for r in map(self._read_record, entries) if r is not None]
        scope = None
        if records:
            cursor = self._read_record(focused) if focused is not None else None
            scope = Scope(records, cursor, marked=marked)
        self.call_from_thread(self._ask_policy, scope)

    def _read_record(self, entry: StreamLine) -> Record | None:
        try:
            record = read_record_at(self.paths[entry.source], entry.offset)
        except OSError:
            return None
        return record if isinstance(record, Record) else None

    def _ask_policy(self, scope: Scope | None) -> None:
        from hooktui.tui.app.watch_replay_scope import ScopedPolicyPrompt

        if scope is None:
            self.notify("replay: the selected calls could not be read back", severity="error")
            return
        self.notify(scope.notice())
        prompt = ScopedPolicyPrompt(scope)
        self.push_screen(prompt, lambda answer: self._start_replay(prompt.scope, answer))

    def _start_replay(self, scope: Scope, answer: str | None) -> None:
        from hooktui.tui.app.replay import open_replay
        from hooktui.tui.app.watch_replay_scope import INCLUDE_HINT

        if answer is None:  # cancelled (and open_replay, given None, would ask again)
            return
        paths = self.names
        label = os.path.basename(paths[0]) if len(paths) == 1 else f"{len(paths)} streams"
        left_out = scope.left_out()
        open_replay(
            self,
            scope.chosen(),
            session=label,
            policy=answer,
            left_out=left_out,
            left_out_hint=INCLUDE_HINT if left_out else "",
        )
