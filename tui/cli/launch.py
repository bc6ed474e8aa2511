"""The one way from the plain commands into the Textual apps.

`tui/cli` imports `tui/app` here and nowhere else, and only inside these functions:
a plain command (`show`, `replay --format text`, `install`) never loads Textual,
and the apps never import the commands (tests/tui/test_layering.py).
"""

from __future__ import annotations


def watch_app(paths: list[str], **options):
    """The watch app over `paths` (options: WatchApp's), not yet running."""
    from hooktui.tui.app.watch import WatchApp

    return WatchApp(paths, **options)


def run_replay_app(job, watch: list[str]):
    """Run the replay screen for a prepared job: (its last report, the app's return code)."""
    from hooktui.tui.app.replay import run_app

    return run_app(job, watch)
