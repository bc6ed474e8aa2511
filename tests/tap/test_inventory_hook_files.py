"""`hooktui hooks` for Cline, whose hooks are files: each of its four folders is a
source, each file named for an event a hook, listed with the argv Cline starts it
with (3.0.65: its `#!` line or its extension), in the order Cline runs them (their
full paths, whatever folder), and a wrapped one counted from its records."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

from hooktui.tap.inventory.read import inventory
from hooktui.tap.inventory.usage import join, uses

from tests.conftest import HOOKTUI, wait_for_records
from tests.tap.test_install_hookfiles import GUARD, REQUEST


def folders(tmp_path: Path) -> tuple[Path, Path]:
    home, project = tmp_path / "home", tmp_path / "project"
    user = home / "Documents" / "Cline" / "Hooks"
    rules = project / ".clinerules" / "hooks"
    for d in (user, rules):
        d.mkdir(parents=True)
    (user / "PostToolUse.py").write_text(GUARD)
    (rules / "PreToolUse.py").write_text(GUARD)
    (rules / "taskcomplete").write_text("cat >/dev/null\n")  # any case; no #!: bash
    (rules / "PreCompact.sh").write_text("true\n")  # known, never run
    (rules / "SessionShutdown").symlink_to("taskcomplete")  # Cline runs regular files only
    (rules / "notes.md").write_text("not a hook\n")
    return home, project


def test_each_folder_is_a_source_and_each_event_file_a_hook(tmp_path: Path) -> None:
    home, project = folders(tmp_path)
    inv = inventory(["cline"], project=project, environ={"HOME": str(home)})
    states = {Path(f.path).relative_to(tmp_path).as_posix(): f.state for f in inv.files}
    assert states == {
        "home/Documents/Cline/Hooks": "ok",
        "home/.cline/hooks": "missing",
        "project/.clinerules/hooks": "partial",
        "project/.cline/hooks": "missing",
    }
    rules = next(f for f in inv.files if f.path.endswith(".clinerules/hooks"))
    assert {p.where for p in rules.problems} == {"PreCompact.sh", "SessionShutdown"}
    assert not inv.notes

    listed = [(h.where, h.event, h.command, h.is_async, h.timeout_ms) for h in inv.hooks]
    user = home / "Documents" / "Cline" / "Hooks"
    hooks = project / ".clinerules" / "hooks"
    # In the order of their full paths: home/... before project/...
    assert listed == [
        ("PostToolUse.py", "tool_result", f"python3 {user / 'PostToolUse.py'}", False, 120_000),
        ("PreToolUse.py", "tool_call", f"python3 {hooks / 'PreToolUse.py'}", False, 120_000),
        ("taskcomplete", "agent_end", f"bash {hooks / 'taskcomplete'}", True, None),
    ]
    assert [h.position for h in inv.hooks] == [0, 1, 2]
    assert not any(h.wrapped for h in inv.hooks)


def test_a_wrapped_hook_file_is_listed_as_its_original_and_its_calls_counted(
    tmp_path: Path,
) -> None:
    home, project = folders(tmp_path)
    hooks = project / ".clinerules" / "hooks"
    stream = tmp_path / "s.jsonl"
    done = subprocess.run(
        [HOOKTUI, "install", "cline", "--stream", str(stream)],
        cwd=project,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr

    # One call as Cline makes it (the wrapper's #! line names sh).
    ran = subprocess.run(
        ["sh", str(hooks / "PreToolUse.py")],
        input=json.dumps(REQUEST).encode(),
        capture_output=True,
        timeout=60,
    )
    assert json.loads(ran.stdout)["cancel"] is True
    [record] = wait_for_records(stream, 1)

    inv = inventory(["cline"], project=project, environ={"HOME": str(home)})
    # The originals install renamed beside the wrappers are not hooks of their own.
    assert [h.where for h in inv.hooks] == ["PostToolUse.py", "PreToolUse.py", "taskcomplete"]
    pre = inv.hooks[1]
    assert pre.wrapped and pre.label == record["hook"]["label"] == "PreToolUse"
    assert pre.command == f"python3 {hooks / 'PreToolUse.hooktui-original.py'}"
    join(inv.hooks, uses([str(stream)]))
    assert (pre.usage.calls, pre.usage.denies) == (1, 1)
    assert inv.hooks[2].usage.calls == 0
