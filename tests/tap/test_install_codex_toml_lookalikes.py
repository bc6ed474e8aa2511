"""Codex's config.toml, attacked: valid files whose text only looks like more hook tables."""

from __future__ import annotations

import subprocess
import tomllib
from pathlib import Path

from hooktui.tap.install.wrapper import read_shell

from tests.conftest import HOOKTUI

# A multi-line string of another key holding lines that read as a hook table and
# a command; a comment holding characters Python (not TOML) ends a line at.
CONFIG = """model = "gpt-5-codex"
developer_instructions = '''
[[hooks.Stop.hooks]]
command = "not a hook"
'''
[[hooks.Stop]]
[[hooks.Stop.hooks]]
type = "command"
status = \"\"\"
[notes]
command = "still not a hook"
\"\"\"
command = "cat >/dev/null; echo one"
# a note\x85command = 'in a comment'\u2028command = 'still the comment'
[[hooks.Stop.hooks]]
type = "command"
command = '''cat >/dev/null
echo two'''
"""


def run(args: list[str], cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run(
        [HOOKTUI, *args], cwd=cwd, capture_output=True, text=True, timeout=60, check=False
    )


def test_lines_inside_strings_and_comments_are_not_taken_for_hooks(tmp_path):
    """They were: a header inside another key's multi-line string reset the table,
    and a `command =` after \\x85 or \\u2028 in a comment took the hook's place, so
    install refused a file Codex reads (the check kept it untouched)."""
    path = tmp_path / ".codex" / "config.toml"
    path.parent.mkdir()
    path.write_text(CONFIG, encoding="utf-8")
    original = path.read_bytes()
    hooks = tomllib.loads(CONFIG)["hooks"]["Stop"][0]["hooks"]
    assert [h["command"] for h in hooks] == ["cat >/dev/null; echo one", "cat >/dev/null\necho two"]
    result = run(["install", "codex", "--stream", str(tmp_path / "s.jsonl")], tmp_path)
    assert result.returncode == 0, result.stderr
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    wrapped = [read_shell(h["command"]).original for h in data["hooks"]["Stop"][0]["hooks"]]
    assert wrapped == [h["command"] for h in hooks]
    assert data["developer_instructions"] == tomllib.loads(CONFIG)["developer_instructions"]
    assert run(["uninstall", "codex"], tmp_path).returncode == 0
    assert path.read_bytes() == original
