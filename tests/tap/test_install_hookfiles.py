"""`hooktui install cline`: hooks that are files, wrapped in place and given back whole.

The wrapper takes the hook's name; the hook keeps its inode under a second name
beside it; uninstall renames it back: bytes, mode, owner, times and inode as they
were. The wrapper starts the hook as Cline does (its `#!` interpreter or its
extension's), through the tap, or bare when hooktui is gone.
"""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest
from hooktui.tap.install import settings as inst
from hooktui.tap.install.hookfiles import MARK, read_wrapper

from tests.conftest import HOOKTUI, wait_for_records

GUARD = """#!/usr/bin/env python3
import json, sys
request = json.load(sys.stdin)
commands = request["tool_call"]["input"]["commands"]
if any("rm -rf" in c for c in commands):
    print(json.dumps({"cancel": True, "errorMessage": "no wipes"}))
"""
REQUEST = {
    "hookName": "tool_call",
    "taskId": "t1",
    "clineVersion": "",
    "workspaceRoots": ["/repo"],
    "tool_call": {"id": "c1", "name": "run_commands", "input": {"commands": ["rm -rf /"]}},
}


def hooktui(*args: str, cwd: Path, env: dict | None = None) -> subprocess.CompletedProcess:
    return subprocess.run(
        [HOOKTUI, *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ, **(env or {})},
    )


def snapshot(folder: Path) -> dict[str, tuple]:
    """Each entry: its bytes (or link target), mode, inode, mtime."""
    out = {}
    for p in sorted(folder.iterdir()):
        st = p.lstat()
        body = os.readlink(p) if p.is_symlink() else p.read_bytes()
        out[p.name] = (body, st.st_mode, st.st_ino, st.st_mtime_ns, st.st_uid, st.st_gid)
    return out


@pytest.fixture
def project(tmp_path: Path) -> Path:
    hooks = tmp_path / ".clinerules" / "hooks"
    hooks.mkdir(parents=True)
    (hooks / "PreToolUse.py").write_text(GUARD)
    (hooks / "PreToolUse.py").chmod(0o750)
    (hooks / "TaskComplete").write_text("cat >/dev/null\n")  # no #!: bash runs it
    (hooks / "PostToolUse").symlink_to("PreToolUse.py")  # Cline never runs a link
    (hooks / "notes.txt").write_text("not a hook\n")
    return tmp_path


def test_install_wraps_each_hook_file_and_uninstall_gives_it_back(project: Path):
    hooks = project / ".clinerules" / "hooks"
    before = snapshot(hooks)
    stream = project / "s.jsonl"
    res = hooktui("install", "cline", "--stream", str(stream), cwd=project)
    assert res.returncode == 0, res.stderr
    assert "wrapped 2 hook file(s)" in res.stdout
    assert "PostToolUse: a symbolic link" in res.stdout  # listed as not wrapped, with why
    installed = snapshot(hooks)
    original = f"PreToolUse{MARK}.py"
    # The hook kept its inode, bytes and mode under its second name...
    assert installed[original][:3] == before["PreToolUse.py"][:3]
    # ...and the wrapper has its name and mode: it starts it as Cline did.
    assert installed["PreToolUse.py"][1] == before["PreToolUse.py"][1]
    name, words, args = read_wrapper(hooks / "PreToolUse.py")
    assert (name, words) == (original, ["python3"])
    assert args[args.index("--runtime") + 1] == "cline"
    assert args[args.index("--timeout-ms") + 1] == "120000"  # Cline waits 120 s for it
    assert read_wrapper(hooks / "TaskComplete")[1] == ["bash"]
    assert "--timeout-ms" not in read_wrapper(hooks / "TaskComplete")[2]  # run in the background
    assert installed["notes.txt"] == before["notes.txt"]
    assert installed["PostToolUse"] == before["PostToolUse"]

    # Run as Cline runs a file (its #! line names sh): the answer passes, the call is recorded.
    ran = subprocess.run(
        ["sh", str(hooks / "PreToolUse.py")],
        input=json.dumps(REQUEST).encode(),
        capture_output=True,
        timeout=60,
        cwd=project,
    )
    assert json.loads(ran.stdout) == {"cancel": True, "errorMessage": "no wipes"}
    [record] = wait_for_records(stream, 1)
    assert (record["runtime"], record["decision"], record["reason"]) == (
        "cline",
        "deny",
        "no wipes",
    )
    assert record["hook"]["argv"] == ["python3", str(hooks / original)]

    again = hooktui("install", "cline", "--stream", str(stream), cwd=project)
    assert "already wrapped" in again.stdout and snapshot(hooks) == installed

    res = hooktui("uninstall", "cline", cwd=project)
    assert res.returncode == 0, res.stderr
    assert "put back 2 hook file(s)" in res.stdout
    assert snapshot(hooks) == before  # bytes, mode, inode, times, owner


def test_the_wrapper_runs_the_hook_bare_when_hooktui_is_gone(project: Path, tmp_path: Path):
    """A guard never fails open because of hooktui: the wrapper's own fallback (the
    hooktui it names is not there; tests/guarantee deletes a real one's venv)."""
    hooks = project / ".clinerules" / "hooks"
    gone = str(tmp_path / "gone" / "bin" / "hooktui")
    report = inst.install(hooks, inst.Options(runtime="cline", hooktui=gone))
    assert report.code == 0 and gone in (hooks / "PreToolUse.py").read_text()
    ran = subprocess.run(
        ["sh", str(hooks / "PreToolUse.py")],
        input=json.dumps(REQUEST).encode(),
        capture_output=True,
        timeout=60,
    )
    assert json.loads(ran.stdout) == {"cancel": True, "errorMessage": "no wipes"}


def test_dry_run_writes_nothing(project: Path):
    hooks = project / ".clinerules" / "hooks"
    before = snapshot(hooks)
    res = hooktui("install", "cline", "--dry-run", cwd=project)
    assert res.returncode == 0 and "would be wrapped" in res.stdout
    assert "+# original: PreToolUse.hooktui-original.py" in res.stdout
    assert snapshot(hooks) == before


def test_an_install_stopped_half_way_is_finished_not_refused(project: Path):
    """The hook already has its second name (a hard link), the wrapper never came."""
    hooks = project / ".clinerules" / "hooks"
    os.link(hooks / "PreToolUse.py", hooks / f"PreToolUse{MARK}.py")
    res = hooktui("install", "cline", cwd=project)
    assert res.returncode == 0, res.stderr
    assert read_wrapper(hooks / "PreToolUse.py") is not None


def test_a_foreign_file_under_the_original_name_is_refused(project: Path):
    hooks = project / ".clinerules" / "hooks"
    (hooks / f"PreToolUse{MARK}.py").write_text("someone else's\n")
    before = snapshot(hooks)
    res = hooktui("install", "cline", cwd=project)
    assert res.returncode != 0 and res.stderr.count("\n") == 1
    assert "move it away first" in res.stderr
    assert snapshot(hooks) == before


def test_an_edited_wrapper_is_left_alone(project: Path):
    hooks = project / ".clinerules" / "hooks"
    assert hooktui("install", "cline", cwd=project).returncode == 0
    (hooks / "PreToolUse.py").write_text("#!/bin/sh\necho mine\n")
    res = hooktui("uninstall", "cline", cwd=project)
    assert "not hooktui's wrapper" in res.stdout + res.stderr
    assert (hooks / "PreToolUse.py").read_text() == "#!/bin/sh\necho mine\n"
    assert (hooks / f"PreToolUse{MARK}.py").read_text() == GUARD


def test_no_hook_files_says_where_it_looked(tmp_path: Path):
    res = hooktui("install", "cline", cwd=tmp_path, env={"HOME": str(tmp_path)})
    assert res.returncode == 1 and res.stderr.count("\n") == 1
    assert "no cline hook files found" in res.stderr and ".clinerules/hooks" in res.stderr
