"""What watch does with the shown calls: write them (`w`), replay them against a policy (`r`).

`w` copies the shown records, byte for byte, to a JSONL file. Every read of the
streams and every write runs in a thread worker, never on the UI thread.

`r` replays the marked (else the shown) calls against a policy, one hook's by
default. A stream holds the calls of every hook the user installed (a guard, a
formatter, a logger). The policy `r` asks for is an edited copy of one of them, so
feeding it every other hook's calls too would fill the replay with "changed" rows
that mean nothing. Like `hooktui replay --policy` (replay/hooks.py, whose hook
names this uses), `r` replays the calls of one hook: the hook of the focused call,
the one the user was looking at (the watch's counterpart of `--hook NAME`). What is
left out is said in the prompt, in a notification and in the replay screen's header.

Marks are the exception: calls marked one by one are the user's own choice, so
all of them are replayed, the prompt saying which hooks they span. Either way
ctrl+o in the prompt switches between the one hook and every call, before the
policy is typed: the count the prompt states is the count that runs, with a
policy or without one (each call's recorded hook).
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Callable
from typing import TYPE_CHECKING, BinaryIO, ClassVar

from hooktui.tap.model import Record
from hooktui.tap.read.lines import read_record_at
from hooktui.tap.read.view import CallView, StreamLine
from hooktui.tui.app.keys import Key
from hooktui.tui.app.widgets.prompt import ConfirmPrompt, PathPrompt
from hooktui.tui.present.format import count_of
from textual import work
from textual.binding import Binding
from textual.widget import Widget

if TYPE_CHECKING:
    from hooktui.tui.app.watch_replay_scope import Scope


def write_lines(out: BinaryIO, stream_lines: list[StreamLine], paths: list[str]) -> None:
    """Copy each line, byte for byte, newline included, into `out`.

    One open file per stream (not one per line): `w` on 100k shown records.
    """
    sources: dict[int, BinaryIO] = {}
    try:
        for stream_line in stream_lines:
            src = sources.get(stream_line.source)
            if src is None:
                src = sources[stream_line.source] = open(paths[stream_line.source], "rb")
            src.seek(stream_line.offset)
            line = src.readline()
            out.write(line if line.endswith(b"\n") else line + b"\n")
    finally:
        for src in sources.values():
            src.close()


def _same_file(a: str, b: str) -> bool:
    try:
        return os.path.samefile(a, b)
    except OSError:
        return False


class ShownCalls(Widget):
    """The keys that act on the shown (or marked) calls as a whole: `w` and `r`.

    Depends on: the view (what is shown and marked), the streams' paths (read
    back, byte for byte) and `names` (as the user gave them), and `selected`,
    the call list's selected call (whose hook `r` replays).
    """

    DEFAULT_CSS = "ShownCalls { display: none; }"

    KEYS: ClassVar[tuple[Key, ...]] = (
        Key(
            Binding(
                "w",
                "write",
                "Write",
                tooltip="write the shown records to a JSONL file, byte for byte",
                id="watch.write",
            ),
            lambda part: None if len(part.view) else "nothing shown to write",
        ),
        Key(
            Binding(
                "r",
                "replay",
                "Replay",
                show=False,
                tooltip="replay marked calls (else the focused hook's) against a policy",
                id="watch.replay",
            ),
            lambda part: None if len(part.view) else "nothing to replay: no call is shown",
        ),
    )

    def __init__(
        self,
        view: CallView,
        paths: list[str],
        names: list[str],
        selected: Callable[[], StreamLine | None],
    ) -> None:
        super().__init__()
        self.view, self.paths, self.names = view, paths, names
        self._selected = selected

    # -- w -------------------------------------------------------------------

    def _write_question(self) -> str:
        # Asked again while the prompt is open: records keep arriving.
        return f"Write the {count_of(len(self.view), 'shown record')} to (JSONL):"

    def action_write(self) -> None:
        self.app.push_screen(
            PathPrompt(self._write_question, "hooktui-calls.jsonl"), self._write_to
        )

    def _write_to(self, path: str | None) -> None:
        if not path:
            return
        path = os.path.expanduser(path)
        stream_lines = self.view.shown_lines()  # what is shown now, as the prompt last said
        if any(_same_file(path, stream) for stream in (*self.paths, *self.names)):
            self.app.notify(f"{path} is a watched stream: choose another name", severity="error")
            return
        if os.path.lexists(path):

            def answered(yes: bool | None) -> None:
                if yes:
                    self._write(path, stream_lines, replace=True)

            self.app.push_screen(
                ConfirmPrompt(
                    f"{path} exists. Replace it with {count_of(len(stream_lines), 'record')}?"
                ),
                answered,
            )
            return
        self._write(path, stream_lines, replace=False)

    @work(thread=True, group="write")
    def _write(self, path: str, stream_lines: list[StreamLine], replace: bool) -> None:
        try:
            if replace:
                # A new file renamed over the old one: the old one is whole until the end.
                folder = os.path.dirname(os.path.abspath(path))
                fd, temp = tempfile.mkstemp(prefix=".hooktui-", dir=folder)
                try:
                    with os.fdopen(fd, "wb") as out:
                        write_lines(out, stream_lines, self.paths)
                    os.replace(temp, path)
                except BaseException:
                    os.unlink(temp)
                    raise
            else:
                with open(path, "xb") as out:  # "x": never clobber a file that appeared meanwhile
                    write_lines(out, stream_lines, self.paths)
        except OSError as exc:
            message = f"cannot write {path}: {exc.strerror}"
            self.app.call_from_thread(self.app.notify, message, severity="error")
            return
        self.app.call_from_thread(
            self.app.notify, f"wrote {count_of(len(stream_lines), 'record')} to {path}"
        )

    # -- r -------------------------------------------------------------------

    def replay_lines(self) -> list[StreamLine]:
        """What `r` reads: the marked calls if any, else the shown ones."""
        marked = self.view.marked_lines()
        return marked or self.view.shown_lines()

    def action_replay(self) -> None:
        marked = self.view.marked_lines()
        stream_lines = marked or self.view.shown_lines()  # as replay_lines, one pass over marks
        self.app.notify(f"reading {count_of(len(stream_lines), 'call')} to replay…")
        self._load_for_replay(stream_lines, self._selected(), bool(marked))

    @work(thread=True, exclusive=True, group="replay-load")
    def _load_for_replay(
        self, stream_lines: list[StreamLine], focused: StreamLine | None, marked: bool
    ) -> None:
        from hooktui.tui.app.watch_replay_scope import Scope

        records = [r for r in map(self._read_record, stream_lines) if r is not None]
        scope = None
        if records:
            cursor = self._read_record(focused) if focused is not None else None
            scope = Scope(records, cursor, marked=marked)
        self.app.call_from_thread(self._ask_policy, scope)

    def _read_record(self, stream_line: StreamLine) -> Record | None:
        try:
            record = read_record_at(self.paths[stream_line.source], stream_line.offset)
        except OSError:
            return None
        return record if isinstance(record, Record) else None

    def _ask_policy(self, scope: Scope | None) -> None:
        from hooktui.tui.app.watch_replay_scope import ScopedPolicyPrompt

        if scope is None:
            self.app.notify("replay: the selected calls could not be read back", severity="error")
            return
        self.app.notify(scope.notice())
        prompt = ScopedPolicyPrompt(scope)
        self.app.push_screen(prompt, lambda answer: self._start_replay(prompt.scope, answer))

    def _start_replay(self, scope: Scope, answer: str | None) -> None:
        from hooktui.tui.app.replay import open_replay
        from hooktui.tui.app.watch_replay_scope import INCLUDE_HINT

        if answer is None:  # cancelled (and open_replay, given None, would ask again)
            return
        paths = self.names
        label = os.path.basename(paths[0]) if len(paths) == 1 else f"{len(paths)} streams"
        left_out = scope.left_out()
        open_replay(
            self.app,
            scope.chosen(),
            session=label,
            policy=answer,
            left_out=left_out,
            left_out_hint=INCLUDE_HINT if left_out else "",
        )
