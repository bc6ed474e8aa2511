"""What a recorded hook needs from the machine it was recorded on (replay.machine),
looked for on this one's real file system."""

from __future__ import annotations

import sys
from pathlib import Path

from hooktui.replay.machine import needed_file


def test_a_script_of_another_machine_is_needed(tmp_path: Path):
    here = tmp_path / "guard.py"
    here.write_text("")
    gone = "/nonexistent/home/alice/.claude/hooks/guard.py"
    assert needed_file([sys.executable, str(here)], {}, "") == ""
    assert needed_file(["python3", gone], {}, "") == gone
    # Inside a shell's script, through the runtime's variable as recorded.
    env = {"CLAUDE_PROJECT_DIR": "/nonexistent/proj"}
    argv = ["/bin/sh", "-c", 'python3 "$CLAUDE_PROJECT_DIR"/.claude/hooks/check.py --fast']
    assert needed_file(argv, env, "") == "/nonexistent/proj/.claude/hooks/check.py"
    missing = str(tmp_path / ".claude/hooks/check.py")
    assert needed_file(argv, {"CLAUDE_PROJECT_DIR": str(tmp_path)}, "") == missing
    (tmp_path / ".claude/hooks").mkdir(parents=True)
    (tmp_path / ".claude/hooks/check.py").write_text("")
    assert needed_file(argv, {"CLAUDE_PROJECT_DIR": str(tmp_path)}, "") == ""


def test_interpreters_relative_paths_and_what_is_not_looked_at(tmp_path: Path):
    # An interpreter named by a path of the other machine is needed too.
    assert needed_file(["/opt/homebrew/bin/node", "g.js"], {}, "") == "/opt/homebrew/bin/node"
    # A relative path is the recorded cwd's.
    assert needed_file(["./hooks/g.sh"], {}, "/nonexistent/proj") == "/nonexistent/proj/hooks/g.sh"
    (tmp_path / "hooks").mkdir()
    (tmp_path / "hooks/g.sh").write_text("")
    assert needed_file(["./hooks/g.sh"], {}, str(tmp_path)) == ""
    # Words that are not paths, and a variable nobody set, are left alone.
    assert needed_file(["guard", "--strict"], {}, "") == ""
    assert needed_file(["sh", "-c", "$UNSET_DIR/g.sh"], {}, "") == ""
    # Only the hook's own file is looked for: later arguments may name files to come.
    assert needed_file(["/bin/sh", "-c", "true > /nonexistent/out.log"], {}, "") == ""
