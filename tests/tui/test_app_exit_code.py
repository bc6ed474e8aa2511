"""A Textual app that crashes makes its command exit non-zero (tui/cli/args.py).

Textual prints the traceback of an app that raised and returns from `run()` as
if it had ended; watch, demo and replay take the app's return code too. Real
apps, run headless: one that raises while mounting, one that exits with a value.
"""

from __future__ import annotations

from hooktui.tui.cli.args import app_exit_code
from textual.app import App


class Crashes(App):
    def on_mount(self) -> None:
        raise RuntimeError("a bug")


class Ends(App):
    def __init__(self, value) -> None:
        super().__init__()
        self.value = value

    def on_mount(self) -> None:
        self.exit(self.value)


def test_a_crashed_app_exits_non_zero() -> None:
    app = Crashes()
    result = app.run(headless=True)
    assert result is None and app.return_code == 1
    assert app_exit_code(app, result) == 1


def test_an_app_that_ends_gives_its_value_or_zero() -> None:
    for value, code in ((3, 3), (None, 0), ("report", 0)):
        app = Ends(value)
        assert app_exit_code(app, app.run(headless=True)) == code
