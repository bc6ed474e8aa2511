"""A hook starts under the tap exactly as `execvp` starts it bare.

The reference is coreutils' `env`, which runs its command with glibc's execvp:
a script without a `#!` line goes to /bin/sh, PATH is searched past entries
that cannot be executed, and what cannot start exits 126 or 127.
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest
from hooktui.replay.runner import run_hook

from tests.conftest import HOOKTUI, wait_for_records


def write(path: Path, text: str, mode: int) -> Path:
    path.write_text(text)
    path.chmod(mode)
    return path


def both(tmp_path: Path, command: list[str], env: dict | None = None):
    stream = tmp_path / "s.jsonl"
    run = dict(input=b"{}", capture_output=True, timeout=60, env=env, cwd=tmp_path)
    bare = subprocess.run(["/usr/bin/env", "--", *command], **run)
    tapped = subprocess.run([HOOKTUI, "tap", "--stream", str(stream), "--", *command], **run)
    assert (tapped.stdout, tapped.returncode) == (bare.stdout, bare.returncode)
    return bare, tapped, stream


def test_a_script_without_a_shebang_runs_under_sh(tmp_path):
    script = write(tmp_path / "guard", 'cat >/dev/null; echo "ran as $0 with $1"\n', 0o755)
    bare, tapped, stream = both(tmp_path, [str(script), "arg"])
    assert bare.stdout == f"ran as {script} with arg\n".encode() and bare.returncode == 0
    assert tapped.stderr == b""
    (record,) = wait_for_records(stream, 1)
    assert record["exit_code"] == 0 and record["failure"] == ""


def test_a_script_without_a_shebang_found_on_path(tmp_path):
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    write(bin_dir / "guard", "echo found on path\n", 0o755)
    env = dict(os.environ, PATH=f"{bin_dir}:{os.environ['PATH']}")
    bare, _, _ = both(tmp_path, ["guard"], env)
    assert bare.stdout == b"found on path\n"


def test_path_search_skips_entries_that_cannot_be_executed(tmp_path):
    first, second = tmp_path / "a", tmp_path / "b"
    first.mkdir()
    second.mkdir()
    write(first / "guard", "#!/bin/sh\necho first\n", 0o644)  # not executable
    (first / "dir-guard").mkdir()  # a directory by that name
    write(second / "guard", "#!/bin/sh\necho second\n", 0o755)
    write(second / "dir-guard", "echo second, no shebang\n", 0o755)
    env = dict(os.environ, PATH=f"{first}:{second}")
    assert both(tmp_path, ["guard"], env)[0].stdout == b"second\n"
    assert both(tmp_path, ["dir-guard"], env)[0].stdout == b"second, no shebang\n"


@pytest.mark.parametrize(
    "setup, code",
    [("missing", 127), ("not-executable", 126), ("directory", 126), ("only-denied", 126)],
)
def test_what_cannot_start_exits_like_a_shell(tmp_path, setup, code):
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    if setup == "not-executable":
        command = [str(write(tmp_path / "guard", "#!/bin/sh\n", 0o644))]
    elif setup == "directory":
        (tmp_path / "guard").mkdir()
        command = [str(tmp_path / "guard")]
    elif setup == "only-denied":  # found on PATH, but nowhere executable
        write(bin_dir / "guard", "#!/bin/sh\n", 0o644)
        command = ["guard"]
    else:
        command = ["no-such-guard-xyz"]
    env = dict(os.environ, PATH=f"{bin_dir}:/usr/bin:/bin")
    bare, tapped, stream = both(tmp_path, command, env)
    assert bare.returncode == tapped.returncode == code
    (record,) = wait_for_records(stream, 1)
    assert record["exit_code"] == code and record["failure"] == "spawn_error"


def test_replays_runner_starts_hooks_the_same_way(tmp_path):
    script = write(tmp_path / "policy", 'cat; echo " seen by $0"\n', 0o755)
    for kw in ({}, {"cwd": str(tmp_path)}, {"env": dict(os.environ, X="1")}):
        outcome = run_hook([str(script)], b"request", **kw)
        assert (outcome.exit_code, outcome.stdout) == (0, f"request seen by {script}\n".encode())
    env = dict(os.environ, PATH=f"{tmp_path}:/usr/bin:/bin")
    assert run_hook(["policy"], b"x", env=env).stdout == f"x seen by {script}\n".encode()
