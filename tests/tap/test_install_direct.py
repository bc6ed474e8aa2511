"""The line `install` writes starts the launcher's Python itself (`<python> -I -S <hooktui>
tap`), skipping the launcher's shell step; the hook still answers as it does bare, and
still runs bare when hooktui, its Python or its package is gone.

The venvs are built by hand as in test_hotpath_launcher (no pip run, no network).
"""

from __future__ import annotations

import json
import os
import shlex
import shutil
import subprocess
from pathlib import Path

import pytest
from hooktui.tap.install import settings as inst
from hooktui.tap.install.wrapper import (
    START_FLAGS,
    Tap,
    interpreter_of,
    read_shell,
    starts_direct,
    wrap_exec,
    wrap_shell,
)

from tests.conftest import wait_for_records
from tests.tap.test_hotpath_launcher import VERSION, make_venv
from tests.tap.test_install import write

GUARD = "cat > /dev/null; echo 'no force-push' >&2; exit 2"
BARE = (b"", b"no force-push\n", 2)


def installed(tmp_path: Path, hooktui: Path) -> tuple[Path, Path, bytes]:
    """settings.json with the guard in both forms, wrapped by `install` for `hooktui`."""
    path = tmp_path / "settings.json"
    hooks = [
        {"type": "command", "command": GUARD},
        {"type": "command", "command": "sh", "args": ["-c", GUARD]},
    ]
    original = write(path, json.dumps({"hooks": {"PreToolUse": [{"hooks": hooks}]}}))
    stream = tmp_path / "s.jsonl"
    opts = inst.Options(runtime="claude-code", hooktui=str(hooktui), stream=str(stream))
    inst.install(path, opts)
    return path, stream, original


def answers(path: Path) -> list[tuple[bytes, bytes, int]]:
    shell_form, exec_form = json.loads(path.read_text())["hooks"]["PreToolUse"][0]["hooks"]
    a = subprocess.run(
        ["sh", "-c", shell_form["command"]], input=b"{}", capture_output=True, timeout=60
    )
    b = subprocess.run(
        [exec_form["command"], *exec_form["args"]], input=b"{}", capture_output=True, timeout=60
    )
    return [(p.stdout, p.stderr, p.returncode) for p in (a, b)]


def test_install_starts_the_launchers_python_without_the_shell_step(tmp_path):
    venv = make_venv(tmp_path / "venv", "regular")
    hooktui, python = venv / "bin" / "hooktui", venv / "bin" / "python3"
    path, stream, original = installed(tmp_path, hooktui)
    shell_form = json.loads(path.read_text())["hooks"]["PreToolUse"][0]["hooks"][0]["command"]
    h, py = shlex.quote(str(hooktui)), shlex.quote(str(python))
    assert START_FLAGS == "-I -S -X utf8"
    assert f"[ -x {py} ] && [ -x {h} ] && exec {py} -I -S -X utf8 {h} tap --label" in shell_form
    assert answers(path) == [BARE, BARE]
    assert len(wait_for_records(stream, 2)) == 2
    assert not (venv / "site-ran").exists()  # started as the tap: no `site`
    # Installing again changes nothing; uninstall gives back the very bytes.
    again = inst.install(path, inst.Options("claude-code", str(hooktui), str(stream)))
    assert again.changes == []
    inst.uninstall(path, "claude-code")
    assert path.read_bytes() == original


@pytest.mark.parametrize("gone", ["python", "hooktui", "package"])
def test_the_direct_line_runs_the_hook_bare_when_the_tap_is_gone(tmp_path, gone):
    venv = make_venv(tmp_path / "venv", "regular")
    path, stream, _ = installed(tmp_path, venv / "bin" / "hooktui")
    assert answers(path) == [BARE, BARE]
    assert len(wait_for_records(stream, 2)) == 2
    if gone == "package":
        shutil.rmtree(venv / "lib" / VERSION / "site-packages" / "hooktui")
    else:
        (venv / "bin" / ("python3" if gone == "python" else "hooktui")).unlink()
    assert answers(path) == [BARE, BARE]  # the guard still denies: it never fails open
    assert len(wait_for_records(stream, 2)) == 2  # and nothing more was recorded


def test_lines_older_versions_wrote_are_read_and_rewritten(tmp_path):
    """`exec <hooktui> tap ...` (no -I -S) is read back, and `install` brings it up to date."""
    venv = make_venv(tmp_path / "venv", "regular")
    hooktui, python = str(venv / "bin" / "hooktui"), str(venv / "bin" / "python3")
    stream = str(tmp_path / "s.jsonl")
    args = ("--label", "PreToolUse", "--runtime", "claude-code", "--stream", stream)
    old = Tap(hooktui, python, args)  # as the previous version wrote it
    assert read_shell(wrap_shell(GUARD, old)).original == GUARD
    path = tmp_path / "settings.json"
    hook = {"type": "command", "command": wrap_shell(GUARD, old)}
    write(path, json.dumps({"hooks": {"PreToolUse": [{"hooks": [hook]}]}}))
    report = inst.install(path, inst.Options("claude-code", hooktui, stream))
    assert len(report.changes) == 1
    line = json.loads(path.read_text())["hooks"]["PreToolUse"][0]["hooks"][0]["command"]
    assert (
        f"exec {python} {START_FLAGS} {hooktui} tap" in line and read_shell(line).original == GUARD
    )
    inst.uninstall(path, "claude-code")
    assert json.loads(path.read_text())["hooks"]["PreToolUse"][0]["hooks"][0] == {
        "type": "command",
        "command": GUARD,
    }


def test_a_direct_line_without_utf8_mode_is_read_and_brought_up_to_date(tmp_path):
    """Lines written before `-X utf8` joined START_FLAGS (2026-12-03) start `-I -S`:
    they still run and read back, and `install` rewrites them; uninstall restores the hook."""
    venv = make_venv(tmp_path / "venv", "regular")
    hooktui, python = str(venv / "bin" / "hooktui"), str(venv / "bin" / "python3")
    stream = str(tmp_path / "s.jsonl")
    args = ("--label", "PreToolUse", "--runtime", "claude-code", "--stream", stream)
    line = wrap_shell(GUARD, Tap(hooktui, python, args, direct=True))
    older = line.replace(f" {START_FLAGS} ", " -I -S ")
    assert older != line and read_shell(older).original == GUARD
    done = subprocess.run(["sh", "-c", older], input=b"{}", capture_output=True, timeout=60)
    assert (done.stdout, done.stderr, done.returncode) == BARE
    assert len(wait_for_records(tmp_path / "s.jsonl", 1)) == 1
    path = tmp_path / "settings.json"
    write(
        path,
        json.dumps({"hooks": {"PreToolUse": [{"hooks": [{"type": "command", "command": older}]}]}}),
    )
    report = inst.install(path, inst.Options("claude-code", hooktui, stream))
    assert len(report.changes) == 1
    now = json.loads(path.read_text())["hooks"]["PreToolUse"][0]["hooks"][0]["command"]
    assert f"exec {python} {START_FLAGS} {hooktui} tap" in now and read_shell(now).original == GUARD
    inst.uninstall(path, "claude-code")
    assert json.loads(path.read_text())["hooks"]["PreToolUse"][0]["hooks"][0]["command"] == GUARD


def test_the_tap_s_utf8_mode_is_not_the_hook_s(tmp_path):
    """UTF-8 mode is the tap's own: a Python hook started through the line decodes as it
    does bare (its locale, its filesystem encoding), and its argv passes byte for byte."""
    venv = make_venv(tmp_path / "venv", "regular")
    hook = (
        f"{shlex.quote(str(venv / 'bin' / 'python3'))} -c 'import sys, os; "
        "print(sys.flags.utf8_mode, sys.getfilesystemencoding(), os.fsencode(sys.argv[1]))' "
        "caf$(printf '\\351')"
    )
    stream = str(tmp_path / "s.jsonl")
    tap = Tap(str(venv / "bin" / "hooktui"), str(venv / "bin" / "python3"), ("--stream", stream))
    line = wrap_shell(hook, Tap(tap.hooktui, tap.python, tap.args, direct=True))
    for lang in ("C.UTF-8", "C"):
        env = {"PATH": "/usr/bin:/bin", "LANG": lang}
        env["XDG_CACHE_HOME"] = os.environ["XDG_CACHE_HOME"]  # the suite's (tests/conftest.py)
        bare, tapped = (
            subprocess.run(["sh", "-c", c], input=b"{}", capture_output=True, env=env, timeout=60)
            for c in (hook, line)
        )
        assert bare.returncode == 0 and bare.stdout.endswith(b"b'caf\\xe9'\n"), bare
        assert (tapped.stdout, tapped.stderr, tapped.returncode) == (
            bare.stdout,
            bare.stderr,
            bare.returncode,
        ), lang
    assert bare.stdout.startswith(b"1 utf-8")  # C: Python's own UTF-8 mode, bare too
    assert len(wait_for_records(tmp_path / "s.jsonl", 2)) == 2


def test_only_our_launcher_is_started_directly(tmp_path):
    """Any other hooktui (an entry-point script, a launcher whose Python is on PATH)
    is exec'd itself: starting its interpreter with -I -S could fail the guard."""
    venv = make_venv(tmp_path / "venv", "regular")
    (venv / "bin" / "python3").unlink()  # the launcher would use python3 from PATH
    path, _, _ = installed(tmp_path, venv / "bin" / "hooktui")
    line = json.loads(path.read_text())["hooks"]["PreToolUse"][0]["hooks"][0]["command"]
    assert "-I -S" not in line and f"exec {venv / 'bin' / 'hooktui'} tap" in line
    other = tmp_path / "other" / "hooktui"
    other.parent.mkdir()
    other.write_text("#!/usr/bin/python3\nimport sys\n")  # an entry-point script
    assert interpreter_of(str(other)) == "/usr/bin/python3"
    assert not starts_direct(str(other), "/usr/bin/python3")
    tap = Tap(str(other), "/usr/bin/python3", ("--label", "x"), direct=False)
    assert "-I -S" not in wrap_shell("true", tap) and "-I -S" not in wrap_exec(["true"], tap)[1][1]


@pytest.mark.parametrize("pwd", ["caller's", "stale", "none"])
def test_the_hook_gets_the_environment_it_gets_bare(tmp_path, pwd):
    """No launcher shell step any more: nothing between the runtime's shell and the
    hook may add or change a variable (PWD, SHLVL...), whatever PWD the caller passed."""
    venv = make_venv(tmp_path / "venv", "regular")
    hook = "env -0; echo; cat"
    stream = str(tmp_path / "s.jsonl")
    tap = Tap(str(venv / "bin" / "hooktui"), str(venv / "bin" / "python3"), ("--stream", stream))
    line = wrap_shell(hook, Tap(tap.hooktui, tap.python, tap.args, direct=True))
    env = {"PATH": "/usr/bin:/bin", "LATIN1": "caf\xe9", "NEWLINE": "two\nlines"}
    env["XDG_CACHE_HOME"] = os.environ["XDG_CACHE_HOME"]  # the suite's (tests/conftest.py)
    if pwd != "none":
        env["PWD"] = str(tmp_path) if pwd == "caller's" else "/nonexistent"
    for shell in ("sh", "bash"):
        bare, tapped = (
            subprocess.run(
                [shell, "-c", c],
                input=b"{}",
                capture_output=True,
                env=env,
                cwd=tmp_path,
                timeout=60,
            )
            for c in (hook, line)
        )
        assert (tapped.stdout, tapped.stderr, tapped.returncode) == (
            bare.stdout,
            bare.stderr,
            bare.returncode,
        ), shell
