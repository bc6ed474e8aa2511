"""`hooktui install mistral-vibe` (a TOML list of `[[hooks]]` tables, each naming its
point) and `hooktui install opencode` (Claude's layout, run by hooktui's plugin, which
install writes beside the settings): wrapped in place, given back byte for byte."""

from __future__ import annotations

import os
import subprocess
import tomllib
from pathlib import Path

from hooktui.tap.install.wrapper import read_shell
from hooktui.tap.runtimes import get_adapter

from tests.conftest import HOOKTUI

VIBE_HOOKS = """\
# team guards
[[hooks]]
name   = "guard"          # refuses force pushes
type   = "pre_tool"
match  = "re:bash|process_start"
command = 'python3 "$HOME/guards/no_force.py" --strict'
strict = true
timeout = 7.5

[[hooks]]
name = "audit"
type = "post_tool"
command = \"\"\"
sh -c 'cat >> /tmp/audit.jsonl'\"\"\"

[[hooks]]
name = "review"
type = "post_agent"
command = "make check"

[[hooks]]
name = "typo"
type = "pre_tol"
command = "true"
"""


def hooktui(*args: str, cwd: Path, env: dict | None = None) -> subprocess.CompletedProcess:
    return subprocess.run(
        [HOOKTUI, *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ, **(env or {})},
    )


def test_vibe_hooks_toml_round_trip(tmp_path: Path):
    path = tmp_path / ".vibe" / "hooks.toml"
    path.parent.mkdir()
    path.write_text(VIBE_HOOKS)
    res = hooktui("install", "mistral-vibe", "--stream", str(tmp_path / "s.jsonl"), cwd=tmp_path)
    assert res.returncode == 0, res.stderr
    assert "wrapped 3 command hook(s)" in res.stdout
    assert "hooks[3].type is 'pre_tol'" in res.stdout  # Vibe skips it: said, left alone
    assert "a folder Vibe trusts" in res.stdout
    hooks = tomllib.loads(path.read_text())["hooks"]
    wrapped = [read_shell(h["command"]) for h in hooks]
    assert [w.original if w else None for w in wrapped] == [
        'python3 "$HOME/guards/no_force.py" --strict',
        "sh -c 'cat >> /tmp/audit.jsonl'",  # (TOML trims the first newline)
        "make check",
        None,
    ]
    guard = wrapped[0].args
    assert guard[guard.index("--label") + 1] == "pre_tool:re:bash|process_start"
    assert guard[guard.index("--timeout-ms") + 1] == "7500" and "--fail-closed" in guard
    assert "--fail-closed" not in wrapped[1].args and "--timeout-default" in wrapped[1].args
    # Every other byte stays: comments, spacing, the other keys.
    text = path.read_text()
    assert text.startswith('# team guards\n[[hooks]]\nname   = "guard"          # refuses')
    assert 'type = "pre_tol"\ncommand = "true"\n' in text
    res = hooktui("uninstall", "mistral-vibe", cwd=tmp_path)
    assert res.returncode == 0 and "restored byte for byte" in res.stdout
    assert path.read_text() == VIBE_HOOKS


def test_vibe_user_hooks_follow_vibe_home(tmp_path: Path):
    home = tmp_path / "elsewhere"
    home.mkdir()
    (home / "hooks.toml").write_text('[[hooks]]\nname = "a"\ntype = "pre_tool"\ncommand = "x"\n')
    env = {"HOME": str(tmp_path), "VIBE_HOME": str(home)}
    res = hooktui("install", "mistral-vibe", "--user", "--dry-run", cwd=tmp_path, env=env)
    assert res.returncode == 0 and str(home / "hooks.toml") in res.stdout


def test_vibe_hooks_that_are_not_a_list_are_refused(tmp_path: Path):
    path = tmp_path / ".vibe" / "hooks.toml"
    path.parent.mkdir()
    path.write_text('[hooks]\npre_tool = "x"\n')
    res = hooktui("install", "mistral-vibe", cwd=tmp_path)
    assert res.returncode == 2 and "not a list of hooks" in res.stderr
    assert path.read_text() == '[hooks]\npre_tool = "x"\n'


OPENCODE_HOOKS = """{
  "hooks": {
    "tool.execute.before": [
      {"matcher": "bash", "hooks": [{"type": "command", "command": "python3 g.py", "timeout": 9}]}
    ]
  }
}
"""


def _opencode_project(tmp_path: Path) -> Path:
    (tmp_path / ".opencode").mkdir()
    settings = tmp_path / ".opencode" / "command-hooks.json"
    settings.write_text(OPENCODE_HOOKS)
    return settings


def test_opencode_install_writes_the_plugin_and_uninstall_leaves_it(tmp_path: Path):
    settings = _opencode_project(tmp_path)
    plugin = tmp_path / ".opencode" / "plugins" / "hooktui-command-hooks.js"
    dry = hooktui("install", "opencode", "--dry-run", cwd=tmp_path)
    assert "would write" in dry.stdout and not plugin.exists()
    res = hooktui("install", "opencode", cwd=tmp_path)
    assert res.returncode == 0, res.stderr
    assert plugin.read_bytes() == get_adapter("opencode").runner_text()
    assert "restart it" in res.stdout
    res = hooktui("uninstall", "opencode", cwd=tmp_path)
    assert settings.read_text() == OPENCODE_HOOKS
    assert plugin.read_bytes() == get_adapter("opencode").runner_text()
    assert "stays: it runs these hooks" in res.stdout


def test_opencode_install_updates_its_own_plugin_and_leaves_a_stranger(tmp_path: Path):
    _opencode_project(tmp_path)
    plugin = tmp_path / ".opencode" / "plugins" / "hooktui-command-hooks.js"
    plugin.parent.mkdir()
    ours = get_adapter("opencode").runner_text()
    older = ours.split(b"\n", 1)[0].replace(b"version 1", b"version 0") + b"\n// older\n"
    plugin.write_bytes(older)
    res = hooktui("install", "opencode", cwd=tmp_path)
    assert "updated" in res.stdout and plugin.read_bytes() == ours
    assert hooktui("uninstall", "opencode", cwd=tmp_path).returncode == 0
    plugin.write_bytes(b"export const Mine = async () => ({})\n")
    res = hooktui("install", "opencode", cwd=tmp_path)
    assert res.returncode == 0 and "is not hooktui's; left as it is" in res.stdout
    assert plugin.read_bytes() == b"export const Mine = async () => ({})\n"
