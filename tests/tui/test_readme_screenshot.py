"""The README's screenshot, docs/watch.svg, is the real watch screen of today's code.

Rendered as the snapshot tests render theirs (a headless app at a fixed size, UTC
times, a relative path) and compared byte for byte, so it can never go stale:
`pytest tests/tui/test_readme_screenshot.py --snapshot-update` rewrites it, as
that flag rewrites the snapshots.
"""

from __future__ import annotations

from datetime import UTC
from pathlib import Path

import pytest
from hooktui.tui.app.watch import WatchApp
from pytest_textual_snapshot import normalize_svg

from tests.tui.conftest import varied_records, write_stream
from tests.tui.test_watch_snapshots import SIZE, _at_row

SCREENSHOT = Path(__file__).resolve().parents[2] / "docs" / "watch.svg"


async def test_readme_screenshot_is_the_real_screen(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, request: pytest.FixtureRequest
) -> None:
    monkeypatch.chdir(tmp_path)  # the header shows the stream's path as given
    write_stream(tmp_path / "stream.jsonl", varied_records())
    app = WatchApp(["stream.jsonl"], tz=UTC, live=False)
    async with app.run_test(size=SIZE) as pilot:
        # The cursor on the call a timed-out guard let through: the detail says why.
        await _at_row(app, ("g", *"jjjjj"))(pilot)
        await pilot.wait_for_scheduled_animations()
        svg = normalize_svg(app.export_screenshot(title="hooktui watch"))
    if request.config.getoption("--snapshot-update"):
        SCREENSHOT.write_text(svg)
    assert SCREENSHOT.read_text() == svg, (
        "docs/watch.svg is stale: pytest tests/tui/test_readme_screenshot.py --snapshot-update"
    )
