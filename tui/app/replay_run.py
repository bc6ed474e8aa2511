"""The replay screen's runs: the records replayed in a worker, again on `R` or on each save.

A part of the replay screen (replay_screen.py). It owns what is replayed (the
records, the options, the hooks left out), each run (its generation, the results
so far, the last complete report) and stopping it.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable

from hooktui.replay.report import Report, Result
from hooktui.replay.run import Options, replay
from hooktui.replay.session import SessionRecord
from textual.widget import Widget


class ReplayRun(Widget):
    """`records` replayed against `options` in a worker thread: once, or on each save of `watch`.

    Depends on: `starting()` (a run begins: the screen empties its list),
    `added(result)` (each result of the current run, on the UI thread, as it
    finishes) and `finished()` (the run is complete: `report` holds it).
    """

    DEFAULT_CSS = "ReplayRun { display: none; }"

    def __init__(
        self,
        records: list[SessionRecord],
        options: Options,
        *,
        session: str,
        bad_lines: int,
        watch: list[str],
        left_out: dict[str, int],
        left_out_hint: str,
        starting: Callable[[], None],
        added: Callable[[Result], None],
        finished: Callable[[], None],
    ) -> None:
        super().__init__()
        self.records = records
        self.options = options
        self.session_label = session
        self.bad_lines = bad_lines
        self.watch_targets = watch
        # Records of other hooks than the one the policy replaces (replay.hooks).
        self.left_out = left_out
        self.left_out_hint = left_out_hint
        self._starting, self._added, self._finished = starting, added, finished
        self.generation = 0
        self.running = False
        self.results: list[Result] = []
        self.report: Report | None = None  # the last complete run
        self._cancel = threading.Event()

    def start(self) -> None:
        """The first run; with watch targets, a run after each save too."""
        if self.watch_targets:
            self.run_worker(self._watch_loop(), exclusive=True, group="replay")
        else:
            self.run_worker(self._run_once(), exclusive=True, group="replay")

    def rerun(self) -> None:
        """Stop the run (if any) and start again (`R`; watch targets re-run on saves)."""
        self._cancel.set()
        self.run_worker(self._run_once(), exclusive=True, group="replay")

    def stop(self) -> None:
        """Start no more records (the running ones finish)."""
        self._cancel.set()

    async def _run_once(self) -> None:
        self.generation += 1
        generation = self.generation
        self.results = []
        self.running = True
        self._starting()
        self._cancel = threading.Event()

        def add(result: Result) -> None:
            self.app.call_from_thread(self._add, generation, result)

        report = await asyncio.to_thread(
            replay,
            self.records,
            self.options,
            session=self.session_label,
            bad_lines=self.bad_lines,
            on_result=add,
            cancel=self._cancel,
        )
        report.left_out = dict(self.left_out)
        report.left_out_hint = self.left_out_hint
        if generation == self.generation:
            self.report = report
            self.results = list(report.results)
            self.running = False
            self._finished()

    async def _watch_loop(self) -> None:
        from hooktui.replay.watch import await_change, snapshot

        while True:
            since = snapshot(self.watch_targets)
            await self._run_once()
            await await_change(self.watch_targets, since)

    def _add(self, generation: int, result: Result) -> None:
        if generation == self.generation:  # not a stopped run's late result
            self.results.append(result)
            self._added(result)

    def report_so_far(self) -> Report:
        """The last complete run's report, or (quit before it ended) what was replayed so far."""
        if self.report is not None:
            return self.report
        return Report(
            session=self.session_label,
            policy=self.options.policy,
            repeat=self.options.repeat,
            bad_lines=self.bad_lines,
            results=list(self.results),
            left_out=dict(self.left_out),
            left_out_hint=self.left_out_hint,
        )
