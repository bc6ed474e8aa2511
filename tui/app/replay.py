"""`hooktui replay --format tui` and watch's `r`: ask for a policy, push the replay screen.

The screen itself is in `replay_screen.py`, its tabs and cells in `replay_tabs.py`.
"""

from __future__ import annotations

import os
from typing import ClassVar

from hooktui.replay.report import Report
from hooktui.replay.run import Options
from hooktui.replay.session import SessionRecord
from hooktui.tap.model import Record
from hooktui.tui.app.replay_screen import ReplayScreen
from hooktui.tui.present.format import count_of
from textual import on
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Input, Label

__all__ = ["PolicyPrompt", "ReplayApp", "ReplayScreen", "open_replay", "run_app"]


class PolicyPrompt(ModalScreen[str | None]):
    """Asks for the policy command (empty: each record's recorded hook)."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "cancel", "Cancel")]

    def __init__(self, count: int, default: str = "") -> None:
        super().__init__()
        self.count = count
        self.default = default

    def compose(self) -> ComposeResult:
        with Vertical(id="prompt"):
            yield Label(
                f"Replay {count_of(self.count, 'call')} against which hook command?"
                " (run through sh -c)",
                markup=False,
            )
            yield Label("Leave empty to re-run each call's recorded hook.", classes="dim")
            yield Input(value=self.default, placeholder="python3 /path/to/guard.py", id="policy")
            yield Label("enter: replay   esc: cancel", id="prompt-hint")

    @on(Input.Submitted)
    def _submitted(self, event: Input.Submitted) -> None:
        self.dismiss(event.value)

    def action_cancel(self) -> None:
        self.dismiss(None)


def open_replay(
    app: App,
    records: list[Record],
    *,
    session: str = "",
    policy: str | None = None,
    left_out: dict[str, int] | None = None,
    left_out_hint: str = "",
) -> None:
    """What `hooktui watch`'s `r` key calls: ask for the policy (unless given), push the screen.

    `records` are the shown or marked calls, in the order to replay them;
    `left_out` counts, by hook, the calls not among them (said in the header,
    with `left_out_hint` on how to include them).
    """
    numbered = [SessionRecord(line=i + 1, record=rec) for i, rec in enumerate(records)]

    def start(answer: str | None) -> None:
        if answer is None:
            return
        command = answer.strip() or None
        if command is not None:  # hooks run in each record's recorded cwd: pin it to here
            from hooktui.replay.policy import anchor_policy

            command = anchor_policy(command, os.getcwd())
        screen = ReplayScreen(
            numbered,
            Options(policy=command),
            session=session,
            left_out=left_out,
            left_out_hint=left_out_hint,
        )
        app.push_screen(screen)

    if policy is not None:
        start(policy)
    else:
        app.push_screen(PolicyPrompt(len(records)), start)


class ReplayApp(App[Report | None]):
    """`hooktui replay --format tui`: the replay screen on its own."""

    TITLE = "hooktui replay"
    CSS_PATH = "hooktui.tcss"

    def __init__(
        self,
        records: list[SessionRecord],
        options: Options,
        *,
        session: str = "",
        bad_lines: int = 0,
        watch: list[str] | None = None,
        left_out: dict[str, int] | None = None,
        left_out_hint: str = "",
    ) -> None:
        super().__init__()
        self._screen_args = (records, options)
        self._screen_kwargs = dict(
            session=session,
            bad_lines=bad_lines,
            watch=watch,
            left_out=left_out,
            left_out_hint=left_out_hint,
        )

    def on_mount(self) -> None:
        self.push_screen(ReplayScreen(*self._screen_args, standalone=True, **self._screen_kwargs))


def app_for(job, watch: list[str]) -> ReplayApp:
    """The app for a prepared replay job (`hooktui replay --format tui`)."""
    return ReplayApp(
        job.records,
        job.options,
        session=os.path.basename(job.session.path),
        bad_lines=job.session.bad_lines,
        watch=watch,
        left_out=job.left_out,
        left_out_hint=job.left_out_hint,
    )


def run_app(job, watch: list[str]) -> tuple[Report, int]:
    """Run the screen for a prepared replay job: (the last complete report, the app's
    return code: non-zero when it crashed)."""
    app = app_for(job, watch)
    report = app.run()
    return (report if report is not None else Report(session=app.title)), app.return_code or 0
