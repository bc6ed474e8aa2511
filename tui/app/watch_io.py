"""Watch's keys that read or write files: copy (`c`) and write (`w`).

Replay (`r`) reads the streams too; it is watch_replay.py.

Every read of the streams and every write runs in a thread worker, never on
the UI thread; what they report comes back through `call_from_thread`.
"""

from __future__ import annotations

import os
import tempfile
from typing import BinaryIO

from hooktui.tap.read.lines import read_line_at
from hooktui.tap.read.view import StreamLine
from hooktui.tui.app.widgets.prompt import ConfirmPrompt, PathPrompt
from hooktui.tui.present.format import count_of
from textual import work


def write_lines(out: BinaryIO, entries: list[StreamLine], paths: list[str]) -> None:
    """Copy each entry's line, byte for byte, newline included, into `out`.

    One open file per stream (not one per line): `w` on 100k shown records.
    """
    sources: dict[int, BinaryIO] = {}
    try:
        for entry in entries:
            src = sources.get(entry.source)
            if src is None:
                src = sources[entry.source] = open(paths[entry.source], "rb")
            src.seek(entry.offset)
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


class WatchIO:
    """Mixed into WatchApp: it has `paths`, `view`, `calls` and `notify`."""

    def action_copy(self) -> None:
        entry = self.calls.current
        if entry is None:
            self.notify("no call selected", severity="warning")
            return
        self._copy(entry)

    @work(thread=True, group="copy")
    def _copy(self, entry: StreamLine) -> None:
        try:
            line = read_line_at(self.paths[entry.source], entry.offset)
        except OSError as exc:
            self.call_from_thread(
                self.notify, f"cannot read the record: {exc.strerror}", severity="error"
            )
            return
        text = line.decode("utf-8", "replace")
        self.call_from_thread(self.copy_to_clipboard, text)
        self.call_from_thread(
            self.notify, f"copied the record ({count_of(len(line), 'byte')}) to the clipboard"
        )

    # -- w -------------------------------------------------------------------

    def _write_question(self) -> str:
        # Asked again while the prompt is open: records keep arriving.
        return f"Write the {count_of(len(self.view), 'shown record')} to (JSONL):"

    def action_write(self) -> None:
        if not len(self.view):
            self.notify("nothing shown to write", severity="warning")
            return
        self.push_screen(PathPrompt(self._write_question, "hooktui-calls.jsonl"), self._write_to)

    def _write_to(self, path: str | None) -> None:
        if not path:
            return
        path = os.path.expanduser(path)
        entries = self.view.shown_entries()  # what is shown now, as the prompt last said
        if any(_same_file(path, stream) for stream in (*self.paths, *self.names)):
            self.notify(f"{path} is a watched stream: choose another name", severity="error")
            return
        if os.path.lexists(path):

            def answered(yes: bool | None) -> None:
                if yes:
                    self._write(path, entries, replace=True)

            self.push_screen(
                ConfirmPrompt(
                    f"{path} exists. Replace it with {count_of(len(entries), 'record')}?"
                ),
                answered,
            )
            return
        self._write(path, entries, replace=False)

    @work(thread=True, group="write")
    def _write(self, path: str, entries: list[StreamLine], replace: bool) -> None:
        try:
            if replace:
                # A new file renamed over the old one: the old one is whole until the end.
                folder = os.path.dirname(os.path.abspath(path))
                fd, temp = tempfile.mkstemp(prefix=".hooktui-", dir=folder)
                try:
                    with os.fdopen(fd, "wb") as out:
                        write_lines(out, entries, self.paths)
                    os.replace(temp, path)
                except BaseException:
                    os.unlink(temp)
                    raise
            else:
                with open(path, "xb") as out:  # "x": never clobber a file that appeared meanwhile
                    write_lines(out, entries, self.paths)
        except OSError as exc:
            message = f"cannot write {path}: {exc.strerror}"
            self.call_from_thread(self.notify, message, severity="error")
            return
        self.call_from_thread(self.notify, f"wrote {count_of(len(entries), 'record')} to {path}")
