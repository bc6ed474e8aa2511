"""`hooktui show --group-by FIELD`: the pattern table for scripts and CI logs."""

from __future__ import annotations

import json

from hooktui.tap import model

from tests.tui.test_show import env, rec, show, write


def _stream(tmp_path):
    p = tmp_path / "s.jsonl"
    guard = model.HookInfo(label="guard.py")
    lint = model.HookInfo(label="lint.sh")
    write(
        p,
        [
            *(rec(i, decision="deny", hook=guard, duration_ms=float(10 * i)) for i in range(1, 5)),
            rec(5, hook=guard, duration_ms=500.0),
            rec(6, decision="failure", failure="timeout", effect="proceeds", hook=lint),
            rec(7, hook=lint),
            b"junk\n",
        ],
    )
    return p


def test_group_by_hook_as_json_lines(tmp_path):
    p = _stream(tmp_path)
    r = show(str(p), "--group-by", "hook", "--format", "json")
    assert r.returncode == 0, r.stderr
    rows = [json.loads(x) for x in r.stdout.splitlines()]
    assert [g["key"] for g in rows] == ["guard.py · claude-code", "lint.sh · claude-code"]
    assert [(g["hook"], g["runtime"], g["command"]) for g in rows] == [
        ("guard.py", "claude-code", ""),
        ("lint.sh", "claude-code", ""),
    ]
    guard, lint = rows
    assert guard["by"] == "hook" and guard["count"] == 5 and guard["deny"] == 4
    assert guard["deny_rate"] == 0.8 and guard["p95_ms"] == 500.0
    assert lint["fail_open"] == 1 and lint["fail_open_rate"] == 0.5
    # The filter picks the calls first; --sort orders the groups.
    f = show(
        str(p), "--group-by", "decision", "--sort", "name", "--format", "json", "-f", "hook:guard"
    )
    assert [json.loads(x)["key"] for x in f.stdout.splitlines()] == ["allow", "deny"]


def test_group_by_as_a_text_table_in_a_log(tmp_path):
    p = _stream(tmp_path)
    e = env()
    e.pop("COLUMNS")
    r = show(str(p), "--group-by", "failure", env=e)
    assert r.returncode == 0, r.stderr
    lines = r.stdout.splitlines()
    assert lines[0].split() == ["failure", "calls", "deny", "deny%", "fail-open%", "p50", "p95"]
    assert lines[1].split()[:2] == ["(none)", "6"] and lines[2].split()[:2] == ["timeout", "1"]
    assert lines[-1].startswith("7 calls") and "1 bad line" in lines[-1]


def test_group_by_hook_is_by_runtime_label_and_command(tmp_path):
    """One label, two runtimes, two commands: three hooks, three rows, one filter each."""
    p = tmp_path / "s.jsonl"
    label, guard = "PreToolUse:Bash", ["python3", "/repo/guard.py"]
    write(
        p,
        [
            rec(1, hook=model.HookInfo(label=label, argv=guard), decision="deny"),
            rec(2, hook=model.HookInfo(label=label, argv=guard), runtime="codex"),
            rec(3, hook=model.HookInfo(label=label, argv=["sh", "-c", "lint --fix"])),
            rec(4, hook=model.HookInfo(label=label, argv=guard)),
        ],
    )
    r = show(str(p), "--group-by", "hook", "--sort", "name")
    assert r.returncode == 0, r.stderr
    assert [line.split("  ")[0] for line in r.stdout.splitlines()[1:4]] == [
        "PreToolUse:Bash · claude-code · python3 /repo/guard.py",
        "PreToolUse:Bash · claude-code · sh -c 'lint --fix'",
        "PreToolUse:Bash · codex · python3 /repo/guard.py",
    ]
    # Each row's own filter (what watch's patterns view applies) picks its calls alone.
    picked = show(
        str(p), "-f", 'runtime=codex hook=PreToolUse:Bash command="python3 /repo/guard.py"'
    )
    assert picked.returncode == 0 and "number-2" in picked.stdout
    assert "number-1" not in picked.stdout and "number-4" not in picked.stdout


def test_group_by_bad_field_or_with_follow_is_one_line(tmp_path):
    p = _stream(tmp_path)
    for args in (["--group-by", "latency"], ["--group-by", "hook", "--follow"]):
        r = show(str(p), *args)
        assert r.returncode == 2
        assert "Traceback" not in r.stderr and len(r.stderr.strip().splitlines()) == 1
