"""`hooktui watch` on the command line: bad input is one clear line and a non-zero exit."""

from __future__ import annotations

import subprocess
from pathlib import Path

from tests.conftest import HOOKTUI


def _run(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [HOOKTUI, "watch", *args],
        capture_output=True,
        text=True,
        stdin=subprocess.DEVNULL,
        cwd=cwd,
        timeout=60,
    )


def test_help() -> None:
    result = _run("--help")
    assert result.returncode == 0
    assert "STREAM" in result.stdout and "--utc" in result.stdout


def test_a_directory_is_not_a_stream(tmp_path: Path) -> None:
    result = _run(str(tmp_path))
    assert result.returncode == 2
    assert result.stderr.strip().splitlines() == [
        f"hooktui watch: {tmp_path} is a directory, not a stream file"
    ]


def test_without_a_terminal_points_to_show(tmp_path: Path) -> None:
    result = _run(str(tmp_path / "s.jsonl"))
    assert result.returncode == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and "hooktui show" in lines[0]
    assert "Traceback" not in result.stderr


def test_unreadable_stream(tmp_path: Path) -> None:
    stream = tmp_path / "s.jsonl"
    stream.write_bytes(b"")
    stream.chmod(0)
    try:
        result = _run(str(stream))
    finally:
        stream.chmod(0o600)
    # root reads anything: then it is the missing terminal that stops it
    assert result.returncode == 2
    assert len(result.stderr.strip().splitlines()) == 1
    assert "Traceback" not in result.stderr


def test_unknown_option_is_one_line() -> None:
    result = _run("--nope")
    assert result.returncode == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and "--nope" in lines[0]


def test_the_column_spec_imports_without_textual() -> None:
    """`show` (a plain command) lays its rows out with the same spec as watch and replay."""
    import sys

    code = (
        "import sys; from hooktui.tui.present.columns import WATCH_COLUMNS, SHOW_COLUMNS, layout; "
        "assert not any(m == 'textual' or m.startswith('textual.') for m in sys.modules); "
        "cols = layout(SHOW_COLUMNS, 80, gap=2); "
        "print(sum(w for _, w in cols) + 2 * (len(cols) - 1))"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=60
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "80"  # the columns fill the width exactly


def test_watch_rows_follow_the_column_spec() -> None:
    from hooktui.tui.present.columns import WATCH_COLUMNS, layout
    from hooktui.tui.present.rows import header_row

    for width in (80, 100, 120, 150, 200):
        titles = header_row(width).plain
        assert len(titles) == width
        x = 0
        for column, w in layout(WATCH_COLUMNS, width):
            cell = titles[x : x + w].strip()
            assert cell == column.title[:w].strip() or cell.endswith("…"), (width, column.name)
            x += w + 1
