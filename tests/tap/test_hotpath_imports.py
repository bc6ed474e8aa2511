"""The tap's hot path imports only `select` and `_signal` beyond what Python preloads,
and `select` only when a call outgrows quick.py's first stretch.

Checked in a clean interpreter started as the launcher starts the tap (`-I -S`,
the package put on the path by hand): importing every hot-path module, and
running a whole tapped call up to its answer, adds nothing else to sys.modules.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import hooktui.tap

TREE = str(Path(hooktui.tap.__file__).resolve().parents[1])  # holds tap/, replay/, tui/
ALLOWED = {"os", "select", "_signal"}
HOT = ["capture", "quick", "shim", "signals", "spawn"]
# Imported only when a call outgrows quick.py's first stretch (pump.py, and `select`
# with it), a hook outlives half its timeout (or holds its output open), a hook
# cannot start, or needs a cwd or an environment of its own.
LATER = ["pump", "watchdog", "execvp"]

PROBE = """
import sys
before = set(sys.modules)
spec = sys.modules["_frozen_importlib"].ModuleSpec("hooktui", None, is_package=True)
spec.submodule_search_locations = [TREE]
module = type(sys)("hooktui")
module.__spec__, module.__path__ = spec, [TREE]
sys.modules["hooktui"] = module
for name in HOT:
    __import__("hooktui.tap.hotpath." + name)
imported = set(sys.modules)
from hooktui.tap.hotpath import shim
code = shim.main(["--stream", STREAM, "--", "sh", "-c", "cat; echo answer"])
after = set(sys.modules)
for name in LATER:
    __import__("hooktui.tap.hotpath." + name)
later = set(sys.modules) - after
print(json.dumps([sorted(imported - before), sorted(after - imported), sorted(later), code]))
"""


def probe(tmp_path: Path) -> tuple[set[str], set[str], set[str], int]:
    code = (
        f"import json\nTREE, HOT, LATER = {TREE!r}, {HOT!r}, {LATER!r}\n"
        + f"STREAM = {str(tmp_path / 's.jsonl')!r}\n"
        + PROBE
    )
    # The request is in the pipe before the probe starts, as a runtime has written it
    # by the tap's first look: a call that ends in quick.py's stretch, whatever the load.
    r, w = os.pipe()
    os.write(w, b"{}")
    os.close(w)
    try:
        out = subprocess.run(
            [sys.executable, "-I", "-S", "-c", code],
            stdin=r,
            capture_output=True,
            timeout=60,
            check=True,
            # A runtime directory of its own: a dashboard holding breakpoints elsewhere
            # on this machine (or the socket one left behind) would be offered the call.
            env={**os.environ, "XDG_RUNTIME_DIR": str(tmp_path)},
        )
    finally:
        os.close(r)
    lines = out.stdout.decode().splitlines()
    assert lines[0] == "{}answer"  # the hook's output, passed through
    imported, during_call, later, status = json.loads(lines[-1])
    return set(imported), set(during_call), set(later), status


def test_the_hot_path_imports_only_what_it_may(tmp_path):
    imported, during_call, later, status = probe(tmp_path)
    ours = {name for name in imported if name == "hooktui" or name.startswith("hooktui.")}
    assert ours == {"hooktui", "hooktui.tap", "hooktui.tap.hotpath"} | {
        f"hooktui.tap.hotpath.{name}" for name in HOT
    }
    assert imported - ours <= ALLOWED, imported - ours
    # Not even `select` (a shared library to load) for a call that ends in quick.py's
    # first stretch, as this one does: nothing at all is imported on its answer path.
    assert "select" not in imported and during_call == set(), (imported, during_call)
    assert later - ALLOWED == {f"hooktui.tap.hotpath.{name}" for name in LATER}, later
    assert "select" in later  # with pump.py
    assert status == 0
