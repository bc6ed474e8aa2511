"""The suite never sees the user's machine: a tap it starts with no stream named
records into the test process's own state folder, and a dashboard's socket and the
tap's fallback log live in its own runtime folder (tests/conftest.py)."""

from __future__ import annotations

import os
import subprocess
import tempfile
from pathlib import Path

from tests.conftest import HOOKTUI, wait_for_records


def test_the_suite_has_folders_of_its_own():
    home = Path(os.environ["HOOKTUI_TEST_HOME"])
    assert home.parent == Path(tempfile.gettempdir())
    for name in ("XDG_RUNTIME_DIR", "XDG_STATE_HOME"):
        folder = Path(os.environ[name])
        assert folder.is_relative_to(home)
        assert folder.stat().st_uid == os.getuid() and not folder.stat().st_mode & 0o077
    assert "HOOKTUI_STREAM" not in os.environ


def test_a_tap_with_no_stream_named_records_into_the_suites_state():
    stream = Path(os.environ["XDG_STATE_HOME"]) / "hooktui" / "stream.jsonl"
    before = len(stream.read_bytes().splitlines()) if stream.exists() else 0
    result = subprocess.run(
        [HOOKTUI, "tap", "--wait", "--label", "isolation", "--", "cat"],
        input=b'{"hook_event_name":"PreToolUse"}',
        capture_output=True,
        timeout=60,
    )
    assert result.returncode == 0, result.stderr
    records = wait_for_records(stream, before + 1)
    assert records[-1]["hook"]["label"] == "isolation"
