"""`hooktui hooks` reads Mistral Vibe's hooks.toml as Vibe 3.0.3 loads it: checked
against Vibe's own loader (`vibe.core.hooks.config.load_hooks_from_fs`, run in its
venv), which decides which [[hooks]] tables run. Seen 2026-12-07.

Each table below is one way a hook can be written; the real loader keeps some and
skips the rest with a warning (its pydantic model reads leniently: a timeout "7.5"
and a strict "yes" load). The inventory must list as runnable exactly the hooks the
loader keeps, in its order, across the project file and the user's.
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest
from hooktui.tap.inventory.read import inventory

from tests.e2e.harness import skip_reason, venvs

_skip = skip_reason("mistral-vibe")
pytestmark = pytest.mark.skipif(_skip is not None, reason=str(_skip))

PROJECT = """\
[[hooks]]
name = "plain"
type = "pre_tool"
command = "echo plain"

[[hooks]]
type = "pre_tool"
command = "echo no-name"

[[hooks]]
name = 3
type = "pre_tool"
command = "echo int-name"

[[hooks]]
name = "blank-command"
type = "pre_tool"
command = "  "

[[hooks]]
name = "no-command"
type = "post_tool"

[[hooks]]
name = "blank-match"
type = "pre_tool"
match = ""
command = "echo blank-match"

[[hooks]]
name = "number-match"
type = "pre_tool"
match = 3
command = "echo number-match"

[[hooks]]
name = "string-timeout"
type = "pre_tool"
timeout = "7.5"
command = "echo string-timeout"

[[hooks]]
name = "word-timeout"
type = "pre_tool"
timeout = "soon"
command = "echo word-timeout"

[[hooks]]
name = "bool-timeout"
type = "post_tool"
timeout = true
command = "echo bool-timeout"

[[hooks]]
name = "strict-yes"
type = "pre_tool"
strict = "yes"
command = "echo strict-yes"

[[hooks]]
name = "strict-two"
type = "pre_tool"
strict = 2
command = "echo strict-two"

[[hooks]]
name = "strict-agent"
type = "post_agent"
strict = true
command = "echo strict-agent"

[[hooks]]
name = "lax-agent"
type = "post_agent"
strict = "off"
command = "echo lax-agent"

[[hooks]]
name = "unknown-point"
type = "pre_tol"
command = "echo unknown-point"

[[hooks]]
name = "plain"
type = "post_tool"
command = "echo plain-again"
"""

USER = """\
[[hooks]]
name = "string-timeout"
type = "post_tool"
command = "echo user-duplicate"

[[hooks]]
name = "user-own"
type = "post_tool"
command = "echo user-own"
"""

# Vibe's loader over the two files, in the order the inventory reads them.
LOADER = """
import json, sys, types
from vibe.core.hooks.config import load_hooks_from_fs
files = [__import__("pathlib").Path(p) for p in sys.argv[1:]]
result = load_hooks_from_fs(harness_files=types.SimpleNamespace(hook_files=files))
print(json.dumps([[h.name, h.command] for h in result.hooks]))
"""


def test_the_inventory_runs_the_hooks_vibes_loader_keeps(tmp_path: Path) -> None:
    home, project = tmp_path / "home", tmp_path / "project"
    (project / ".vibe").mkdir(parents=True)
    (home / ".vibe").mkdir(parents=True)
    (project / ".vibe" / "hooks.toml").write_text(PROJECT)
    (home / ".vibe" / "hooks.toml").write_text(USER)

    inv = inventory(["mistral-vibe"], project=project, environ={"HOME": str(home)})
    assert [Path(f.path) for f in inv.files] == [
        project / ".vibe" / "hooks.toml",
        home / ".vibe" / "hooks.toml",
    ]
    ours = [[h.name, h.command] for h in inv.hooks if not h.ignored]

    python = venvs() / "mistral-vibe" / "bin" / "python"
    done = subprocess.run(
        [python, "-c", LOADER, *(f.path for f in inv.files)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    theirs = json.loads(done.stdout)
    assert ours == theirs
    # The cases are not vacuous: the loader kept some tables and skipped others.
    assert len(theirs) == 6 and len(inv.hooks) > len(theirs)
