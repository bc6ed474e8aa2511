"""The line install writes for a runtime that runs hooks with the user's login shell
(Codex: `$SHELL -lc`): every shell reads it alike, and the original runs under that
shell, byte for byte as bare (issue 19: fish never ran the guard, tcsh exited 0)."""

from __future__ import annotations

import os
import shutil
import subprocess

import pytest
from hooktui.tap.install.anyshell import encoded, read_any_shell, wrap_any_shell
from hooktui.tap.install.wrapper import Tap, read_shell

from tests.conftest import HOOKTUI, wait_for_records

SHELLS = ("sh", "dash", "bash", "zsh", "ksh", "fish", "tcsh")
ORIGINALS = (
    "cat >/dev/null; echo hi; exit 3",
    "cat >/dev/null; printf '%s\\n' \"it's\"; echo $((1 + 2)) >&2; exit 2",
    "cat >/dev/null; echo 'a!b'\necho 100% \\\\ done",
)


def shell_path(name: str) -> str:
    path = shutil.which(name)
    if path is None:  # CI installs them (.ci/run), and there a missing one fails
        assert not os.environ.get("HOOKTUI_REQUIRE_SHELLS"), f"{name} is not installed"
        pytest.skip(f"{name} is not installed")
    return path


def run(shell: str, text: str) -> tuple[bytes, bytes, int]:
    """`text` as a runtime using the login shell `shell` runs a hook (its $SHELL)."""
    env = {**os.environ, "SHELL": shell}
    p = subprocess.run([shell, "-c", text], input=b"{}", capture_output=True, env=env, timeout=60)
    return p.stdout, p.stderr, p.returncode


@pytest.mark.parametrize("original", ORIGINALS, ids=("plain", "quotes", "newline"))
def test_every_shell_runs_the_original_as_bare(original, tmp_path):
    stream = tmp_path / "s.jsonl"
    python = os.path.join(os.path.dirname(HOOKTUI), "python3")
    tap = Tap(HOOKTUI, python, ("--label", "any shell", "--stream", str(stream)), True)
    line = wrap_any_shell(original, tap)
    assert read_shell(line).original == original
    ran = 0
    for name in SHELLS:
        shell = shell_path(name)
        assert run(shell, line) == run(shell, original), name
        ran += 1
    assert len(wait_for_records(stream, ran)) == ran  # through the tap every time


def test_an_unquotable_tap_path_keeps_the_posix_line():
    tap = Tap('/opt/it"s/hooktui', None, ("--label", "x"))
    assert wrap_any_shell("true", tap) is None


def test_the_escapes_read_back():
    text = "a'b\\c!d\ne%f"
    wrapped = read_any_shell(
        wrap_any_shell(text, Tap("/h/hooktui", "/h/python3", ("--label", "l"), True))
    )
    assert wrapped.original == text and wrapped.args == ["--label", "l"]
    assert not set("'!\n") & set(encoded(text))  # a backslash only before three digits
