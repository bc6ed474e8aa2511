"""`hooktui install` on a 10 MB settings file, as a multiple of reading it with `json.loads`.

Plain script, run on demand (not collected by pytest):

    .venv/bin/python tests/bench/install_10mb.py [ROUNDS]

The file holds 200 command hooks and ~10 MB of other settings. Each round
installs (no --dry-run: no diff is built), uninstalls, and times `json.loads`
of the same text, interleaved; it prints the medians and the ratios. Before
the re-cut, install built a unified diff every time and took 40-80 s here.
"""

from __future__ import annotations

import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

from hooktui.tap.install import settings as inst

HOOKS = 200


def settings_text() -> str:
    groups = [
        {"matcher": f"Tool{i}", "hooks": [{"type": "command", "command": f"./guard.sh {i}"}]}
        for i in range(HOOKS)
    ]
    filler = {f"key{i}": ["x" * 90, {"n": i, "flag": True}] for i in range(80_000)}
    return json.dumps({"hooks": {"PreToolUse": groups}, "other": filler}, indent=2)


def main() -> None:
    rounds = int(sys.argv[1]) if len(sys.argv) > 1 else 5
    text = settings_text()
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "settings.json"
        path.write_text(text)
        opts = inst.Options(runtime="claude-code", hooktui=inst.hooktui_path())
        installs, uninstalls, loads = [], [], []
        for _ in range(rounds):
            t0 = time.perf_counter()
            report = inst.install(path, opts)
            t1 = time.perf_counter()
            inst.uninstall(path, "claude-code")
            t2 = time.perf_counter()
            json.loads(path.read_text())
            t3 = time.perf_counter()
            assert len(report.changes) == HOOKS and path.read_text() == text
            installs.append(t1 - t0)
            uninstalls.append(t2 - t1)
            loads.append(t3 - t2)
    load = statistics.median(loads)
    print(f"settings: {len(text) / 1e6:.1f} MB, {HOOKS} command hooks, {rounds} rounds")
    print(f"json.loads   {load * 1000:8.1f} ms")
    for name, times in (("install", installs), ("uninstall", uninstalls)):
        median = statistics.median(times)
        print(f"{name:<12} {median * 1000:8.1f} ms  = {median / load:.1f}x json.loads")


if __name__ == "__main__":
    main()
