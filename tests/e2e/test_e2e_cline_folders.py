"""Which hook files the real Cline CLI runs, and in which order, is what `hooktui hooks`
lists (3.0.65, seen 2026-12-07).

One session with a PreToolUse hook in each of Cline's four folders (a file name in
any case, with and without an extension or a `#!` line) and files it passes over: a
symbolic link, PreCompact, an extension it does not know. Cline runs the hooks of
one call one after another; the order they ran in must be the inventory's order (the
files' full paths), and the files it passed over must be the inventory's problems.
A second session sets CLINE_DIR: Cline then reads `$CLINE_DIR/hooks`, not
`~/.cline/hooks` (resolveClineDir), and so does the inventory.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from hooktui.tap.inventory.read import inventory

from tests.e2e.drivers_cline import CLINE, Cline, _post_file
from tests.e2e.harness import Sandbox, hook_command, skip_reason

_skip = skip_reason("cline")
pytestmark = pytest.mark.skipif(_skip is not None, reason=str(_skip))


def put(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    return path


class _MovedCline(Cline):
    """Cline with CLINE_DIR set (its settings, its data and its user hooks move there)."""

    def env(self, sb: Sandbox) -> dict[str, str]:
        return super().env(sb) | {"CLINE_DIR": str(sb.root / "cline-dir")}


@pytest.mark.parametrize("moved", [False, True], ids=["home", "cline-dir"])
def test_cline_runs_the_hook_files_the_inventory_lists_in_its_order(
    tmp_path: Path, moved: bool
) -> None:
    DRIVER = _MovedCline() if moved else CLINE  # noqa: N806 (the module's name for it)
    sb = Sandbox(tmp_path)
    sb.fresh_run_dirs()
    names = ("rules", "docs", "dot", "moved", "cline", "link", "txt")
    cmd = {n: hook_command(sb.hooks, n) for n in names}
    DRIVER.write_settings(sb, cmd["rules"], hook_command(sb.hooks, "post"))
    files = {
        # the driver's .clinerules/hooks/PreToolUse.sh (no #!: bash) is "rules"
        "docs": put(
            sb.home / "Documents/Cline/Hooks/PreToolUse", f"#!/bin/sh\nexec {cmd['docs']}\n"
        ),
        "dot": put(sb.home / ".cline/hooks/pretooluse.sh", f"exec {cmd['dot']}\n"),
        "moved": put(sb.root / "cline-dir/hooks/PreToolUse", f"exec {cmd['moved']}\n"),
        "cline": put(sb.project / ".cline/hooks/PreToolUse.py", _post_file(sb.hooks, "cline")),
        "txt": put(sb.project / ".cline/hooks/PreToolUse.txt", f"exec {cmd['txt']}\n"),
    }
    target = put(sb.root / "elsewhere" / "hook.sh", f"exec {cmd['link']}\n")
    (sb.project / ".cline/hooks/PostToolUse").symlink_to(target)
    put(sb.project / ".clinerules/hooks/PreCompact.sh", f"exec {cmd['txt']}\n")

    env = {**DRIVER.env(sb), "HOME": str(sb.home)}
    inv = inventory(["cline"], project=sb.project, environ=env)
    run = DRIVER.run(sb, "run")
    assert run.exit_code == 0, run.describe()

    ran = sorted((c["t"], n) for n in cmd for c in run.hook_calls.get(n, []))
    user = "moved" if moved else "dot"  # ~/.cline/hooks, or $CLINE_DIR/hooks in its place
    assert {n for _, n in ran} == {"rules", "docs", user, "cline"}, run.describe()
    order = [n for _, n in ran]
    assert len(order) == 4, order  # one call: each hook once

    by_where = {(h.path, h.where): h for h in inv.hooks if h.event == "tool_call"}
    not_read = {"txt", "dot" if moved else "moved"}
    where = {n: (str(p.parent), p.name) for n, p in files.items() if n not in not_read}
    where["rules"] = (str(sb.project / ".clinerules/hooks"), "PreToolUse.sh")
    assert set(by_where) == set(where.values())
    listed = sorted(where, key=lambda n: by_where[where[n]].position)
    assert order == listed, (order, listed)
    # ~/.cline before ~/Documents, .cline before .clinerules: full paths, not folders' ranks
    # (sb.root/cline-dir sorts before sb.root/home)
    assert order == [user, "docs", "cline", "rules"]
    passed_over = {p.where for f in inv.files for p in f.problems}
    assert {"PostToolUse", "PreCompact.sh"} <= passed_over
