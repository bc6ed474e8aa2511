"""The tap's own Python ignores the caller's Python settings; the hook gets them, byte for byte."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from tests.conftest import HOOKTUI, wait_for_records

REQUEST = b'{"hook_event_name": "PreToolUse", "tool_name": "Bash"}'
# The hook: its whole environment, NUL-separated, then the request it read.
HOOK = ["sh", "-c", "env -0; echo; cat"]


def hostile_dir(tmp_path: Path) -> Path:
    """A project whose files shadow modules the tap uses, and a Python start-up file."""
    project = tmp_path / "project"
    project.mkdir()
    for name in ("select", "os", "posix", "_signal", "time", "sitecustomize", "site"):
        (project / f"{name}.py").write_text("import sys\nsys.stderr.write('hijacked\\n')\n")
    (project / "startup.py").write_text("print('startup ran')\n")
    return project


def base_env(cwd: Path, **extra: str) -> dict:
    """The caller's environment: PATH and a PWD a shell would have set (see the launcher)."""
    env = {"PATH": os.environ["PATH"], "PWD": str(cwd), "HOME": os.environ.get("HOME", "/")}
    env.update(extra)
    return env


def both(tmp_path: Path, env: dict, cwd: Path):
    stream = tmp_path / "s.jsonl"
    env = dict(env, HOOKTUI_STREAM=str(stream))
    bare = subprocess.run(HOOK, input=REQUEST, capture_output=True, env=env, cwd=cwd, timeout=60)
    tapped = subprocess.run(
        [HOOKTUI, "tap", "--", *HOOK],
        input=REQUEST,
        capture_output=True,
        env=env,
        cwd=cwd,
        timeout=60,
    )
    return bare, tapped, stream


def test_python_settings_meant_for_the_hook_do_not_touch_the_tap(tmp_path):
    project = hostile_dir(tmp_path)
    env = base_env(
        project,
        PYTHONHOME=str(tmp_path / "no-such-home"),
        PYTHONPATH=str(project),
        PYTHONVERBOSE="1",
        PYTHONPROFILEIMPORTTIME="1",
        PYTHONSTARTUP=str(project / "startup.py"),
        PYTHONINSPECT="1",
        PYTHONSAFEPATH="",
        PYTHONWARNINGS="error",
        PYTHONDEVMODE="1",
        PYTHONMALLOC="debug",
        PYTHONTRACEMALLOC="5",
        PYTHONFAULTHANDLER="1",
        PYTHONUNBUFFERED="1",
        PYTHONIOENCODING="ascii",
        PYTHONUTF8="0",
        PYTHONPYCACHEPREFIX=str(tmp_path / "pycache"),
        PYTHONNOUSERSITE="1",
        PYTHONBREAKPOINT="nothing.here",
        PYTHONCOERCECLOCALE="warn",
    )
    bare, tapped, stream = both(tmp_path, env, project)
    assert bare.returncode == 0 and bare.stderr == b""
    assert (tapped.stdout, tapped.stderr, tapped.returncode) == (bare.stdout, b"", 0)
    (record,) = wait_for_records(stream, 1)
    assert record["exit_code"] == 0 and record["tap_error"] == ""
    assert not (tmp_path / "pycache").exists()


@pytest.mark.parametrize(
    "locale",
    [{}, {"LC_CTYPE": "C"}, {"LC_CTYPE": "POSIX"}, {"LANG": "C"}, {"LC_ALL": "C"}],
    ids=["unset", "LC_CTYPE=C", "LC_CTYPE=POSIX", "LANG=C", "LC_ALL=C"],
)
def test_the_hook_gets_the_callers_locale_not_pythons_coercion(tmp_path, locale):
    bare, tapped, _ = both(tmp_path, base_env(tmp_path, **locale), tmp_path)
    assert tapped.stdout == bare.stdout
    assert b"LC_CTYPE=C.UTF-8" not in tapped.stdout


def test_the_environment_passes_byte_for_byte(tmp_path):
    env = {
        b"PATH": os.environ["PATH"].encode(),
        b"PWD": str(tmp_path).encode(),
        b"LATIN1": "caf\xe9".encode("latin-1"),  # not UTF-8
        b"EMPTY": b"",
        b"EQUALS": b"a=b=c",
        b"NEWLINE": b"two\nlines",
        b"LC_CTYPE": b"C.UTF-8",  # as the caller set it: kept
    }
    bare, tapped, _ = both(tmp_path, env, tmp_path)
    assert tapped.stdout == bare.stdout
    assert b"LATIN1=caf\xe9\0" in tapped.stdout
