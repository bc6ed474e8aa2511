"""What `hooktui show` prints: hostile fields, odd times, colour, widths, reasons, words.

Real subprocesses on real files; the terminal's view is what the bytes say.
"""

from __future__ import annotations

import subprocess

import pytest
from hooktui.tap import model

from tests.conftest import HOOKTUI
from tests.tui.test_show import env, rec, show, write

# Sequences a hostile session file could carry: a window title (OSC 0), the
# clipboard (OSC 52), cursor movement (CSI), a one-byte C1 CSI, a bidi override.
OSC_TITLE = "\x1b]0;pwned\x07"
OSC_CLIP = "\x1b]52;c;ZWNobyBwd25lZA==\x1b\\"
CSI = "\x1b[2J\x1b[H"
C1_CSI = "\x9b31m"
RLO = "\u202egnp.exe"
HOSTILE = OSC_TITLE + OSC_CLIP + CSI + C1_CSI + RLO


def _unsafe(text: str) -> list[str]:
    return [c for c in text if c in "\x1b\x07\x9b\x9d\u202e\u2066" or ord(c) < 0x0A]


def test_hostile_fields_never_reach_the_terminal(tmp_path):
    p = tmp_path / f"s{CSI}.jsonl"
    other = tmp_path / "b.jsonl"
    write(
        p,
        [
            rec(
                1,
                decision="deny" + OSC_TITLE,
                tool_name="Bash" + OSC_CLIP,
                summary="rm " + HOSTILE,
                reason="because " + HOSTILE,
                runtime="codex" + CSI,
                event="pre" + C1_CSI,
                hook=model.HookInfo(label="g" + RLO),
            ),
            rec(2, decision="failure", failure="timeout" + OSC_TITLE, effect="proceeds"),
            ("{" + HOSTILE + "\n").encode(),  # a bad line: its preview is shown
        ],
    )
    write(other, [rec(3)])
    for args in ([str(p), str(other)], [str(p), "--group-by", "tool"], [str(p), "--last", "9"]):
        r = show(*args)
        assert r.returncode == 0, r.stderr
        assert _unsafe(r.stdout) == [], args
        assert _unsafe(r.stderr) == [], args
    assert "pwned" in show(str(p)).stdout  # made visible, not dropped
    j = show(str(p), "--format", "json")
    assert _unsafe(j.stderr) == []  # the bad line's report


@pytest.mark.parametrize(
    "ts",
    [
        "0001-01-01T00:00:00+01:00",
        "9999-12-31T23:59:59-05:00",
        "9999-12-31T23:59:59Z",
        "garbage",
        "",
    ],
)
@pytest.mark.parametrize("tz", ["UTC", "Asia/Tokyo", "America/Los_Angeles"])
def test_extreme_timestamps_never_crash(tmp_path, ts, tz):
    p = tmp_path / "s.jsonl"
    b = tmp_path / "b.jsonl"
    write(p, [rec(1), rec(2, ts=ts, duration_ms=1e300), rec(3)])
    write(b, [rec(4)])
    for args in ([str(p)], [str(p), str(b)], [str(p), "--utc"], [str(p), "--group-by", "hook"]):
        r = show(*args, env=env(TZ=tz))
        assert r.returncode == 0, r.stderr
        assert "Traceback" not in r.stderr
        tally = r.stdout.splitlines()[-1]
        assert "calls" in tally and len(tally) < 120


def test_no_color_keeps_weight_and_symbols_but_no_colour(tmp_path):
    p = tmp_path / "s.jsonl"
    write(p, [rec(1), rec(2, decision="deny"), rec(3, decision="modify")])
    colour = show(str(p), env=env(FORCE_COLOR="1", TERM="xterm-256color", NO_COLOR=""))
    assert "\x1b[38;" in colour.stdout or "\x1b[3" in colour.stdout  # coloured normally
    r = show(str(p), env=env(FORCE_COLOR="1", TERM="xterm-256color", NO_COLOR="1"))
    assert r.returncode == 0
    sgr = [part.split("m")[0] for part in r.stdout.split("\x1b[")[1:]]
    codes = [int(c) for s in sgr for c in s.split(";") if c.isdigit()]
    colours = [c for c in codes if 30 <= c <= 49 or 90 <= c <= 107]
    assert colours == []
    assert "\x1b[1m" in r.stdout  # bold still marks deny
    rows = r.stdout.splitlines()
    deny = next(x for x in rows if "deny" in x and "r2" not in x)
    modify = next(x for x in rows if "modify" in x)
    assert "✗ deny" in deny and "✎ modify" in modify and "✓ allow" in r.stdout


def test_deny_reason_and_last_stderr_line_of_a_failure(tmp_path):
    p = tmp_path / "s.jsonl"
    stderr = "Traceback (most recent call last):\n  File x\nKeyError: 'tool_input'\n\n"
    write(
        p,
        [
            rec(1, decision="deny", reason="no force pushes", summary="git push -f"),
            rec(
                2,
                decision="failure",
                failure="exit_code",
                effect="proceeds",
                summary="ls",
                stderr=model.Blob(data=stderr, length=len(stderr)),
            ),
        ],
    )
    for columns, whole in (("200", True), ("100", False)):
        out = show(str(p), env=env(COLUMNS=columns)).stdout
        deny = next(x for x in out.splitlines() if "git push -f" in x)
        assert "no force pushes" in deny
        fail = next(x for x in out.splitlines() if "exit_code" in x)
        assert ("stderr: KeyError: 'tool_input'" if whole else "stderr: KeyErr") in fail


def test_hook_column_grows_with_the_terminal(tmp_path):
    p = tmp_path / "s.jsonl"
    label = "policies/no-secrets-guard.py"
    write(p, [rec(1, hook=model.HookInfo(label=label))])
    assert label in show(str(p), env=env(COLUMNS="250")).stdout
    assert label not in show(str(p), env=env(COLUMNS="120")).stdout  # cut, with an ellipsis


def test_piped_without_columns_nothing_is_cut(tmp_path):
    # A CI log is a pipe: no terminal width to fit, so nothing is guessed or cut.
    p = tmp_path / "s.jsonl"
    summary = "pytest -q tests/ " + "--deselect tests/test_slow.py::test_%d " * 12
    label = "hooks/a-rather-long-hook-label.py"
    write(p, [rec(1, summary=summary, reason="a reason", hook=model.HookInfo(label=label))])
    e = env()
    e.pop("COLUMNS")
    r = subprocess.run([HOOKTUI, "show", str(p)], capture_output=True, text=True, env=e, timeout=60)
    assert r.returncode == 0, r.stderr
    assert summary in r.stdout and label in r.stdout and "a reason" in r.stdout
    tally = r.stdout.splitlines()[-1]
    assert "…" not in tally and tally.startswith("1 call |")


def test_one_call_is_singular(tmp_path):
    p = tmp_path / "s.jsonl"
    write(p, [rec(1), b"junk\n"])
    tally = show(str(p)).stdout.splitlines()[-1]
    assert tally.startswith("1 call |") and "1 bad line" in tally
    assert "1 calls" not in tally
    write(p, [rec(2)])
    assert show(str(p), "-f", "id:r1").stdout.splitlines()[-1].startswith("1 of 2 calls")


@pytest.mark.parametrize("columns", ["80", "100", "120", "160", "250"])
def test_rows_are_laid_out_by_the_one_column_spec(tmp_path, columns):
    # show's columns are watch's and replay's: the same titles, in the same
    # places, as `columns.layout` gives for that width (two spaces apart).
    from hooktui.tui.present.columns import SHOW_COLUMNS, STREAM, layout

    p = tmp_path / "s.jsonl"
    write(p, [rec(1, decision="deny", reason="no"), rec(2, decision="failure", failure="timeout")])
    out = show(str(p), env=env(COLUMNS=columns)).stdout.splitlines()
    spec = layout(tuple(c for c in SHOW_COLUMNS if c is not STREAM), int(columns), 2)
    x = 0
    for column, width in spec:
        assert out[0][x : x + width].strip() == column.title, (columns, column.name)
        x += width + 2
    assert all(len(line) <= int(columns) for line in out[:-1])
    assert "⚠ timeout" in out[2] or "! timeout" in out[2]


def test_a_pipe_is_aligned_by_the_spec_and_never_cut(tmp_path):
    from hooktui.tui.present.columns import SHOW_COLUMNS, STREAM, layout

    p = tmp_path / "s.jsonl"
    long_tool = "mcp__a_rather_long_server__and_an_even_longer_tool_name"
    write(p, [rec(1, tool_name=long_tool), rec(2)])
    e = env()
    e.pop("COLUMNS")
    r = subprocess.run([HOOKTUI, "show", str(p)], capture_output=True, text=True, env=e, timeout=60)
    header, row_long, row_short = r.stdout.splitlines()[:3]
    assert long_tool in row_long and "…" not in r.stdout
    spec = layout(tuple(c for c in SHOW_COLUMNS if c is not STREAM), None, 2)
    x = 0
    for column, width in spec[:-1]:  # the last column (why) is never padded
        assert header[x : x + width].strip() == column.title
        x += width + 2
    assert row_short.index("echo") == header.index("summary")  # aligned where it fits
