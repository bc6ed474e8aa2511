"""A corrupt bytecode cache in the installed package never stops a guard from running.

boot.py reads the hot path's caches itself, and the import system reads the rest
(pump.py mid-call, the recorder's modules). A cache whose 16-byte header still
matches its source but whose body is cut short or is not code (a torn write, a
disk error) made the import system fail the import: the tap died with a
traceback before starting the hook, or mid-call, and exited 1, which runtimes
read as a non-blocking error. Each case installs hooktui as pip lays it out,
spoils one cache, and compares a denying hook through the installed line with
the hook run bare.
"""

from __future__ import annotations

import marshal
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import wait_for_records
from tests.tap.test_hotpath_launcher import TREE, VERSION, make_venv

HOOK = ["sh", "-c", "cat >/dev/null; echo deny; echo why >&2; exit 2"]
# Loaded by boot.py itself; by the import system mid-call (the pump takes every call
# whose stdin is not a pipe, a socket or a file); by the import system in the recorder.
CACHES = ["hotpath/quick", "hotpath/pump", "record/recorder"]


def installed(tmp_path: Path) -> tuple[Path, Path]:
    """(venv, its hooktui/tap), caches compiled as pip compiles them."""
    venv = make_venv(tmp_path / "venv", "none")
    tap = venv / "lib" / VERSION / "site-packages" / "hooktui" / "tap"
    shutil.copytree(TREE / "tap", tap, ignore=shutil.ignore_patterns("__pycache__"))
    subprocess.run([sys.executable, "-m", "compileall", "-q", str(tap)], check=True, timeout=60)
    return venv, tap


def cache_of(tap: Path, module: str) -> Path:
    folder, name = module.split("/")
    (cache,) = (tap / folder / "__pycache__").glob(f"{name}.*.pyc")
    return cache


@pytest.mark.parametrize("spoil", ["cut short", "not code"])
@pytest.mark.parametrize("module", CACHES)
def test_a_cache_whose_body_is_spoiled_is_compiled_from_its_source(tmp_path, module, spoil):
    venv, tap = installed(tmp_path)
    cache = cache_of(tap, module)
    data = cache.read_bytes()
    body = data[16 : len(data) // 2] if spoil == "cut short" else marshal.dumps(42)
    cache.write_bytes(data[:16] + body)  # the header still matches the source
    stream = tmp_path / "s.jsonl"
    line = [venv / "bin" / "python3", "-I", "-S", "-X", "utf8", venv / "bin" / "hooktui", "tap"]
    results = []
    for argv in (HOOK, [*line, "--stream", str(stream), "--", *HOOK]):
        done = subprocess.run(argv, stdin=subprocess.DEVNULL, capture_output=True, timeout=60)
        results.append((done.stdout, done.stderr, done.returncode))
    assert results[0] == results[1] == (b"deny\n", b"why\n", 2)
    (record,) = wait_for_records(stream, 1)
    assert record["exit_code"] == 2 and record["tap_error"] == ""
    assert not (tmp_path / "s.jsonl.errors.log").exists()
    healed = cache.read_bytes()  # written afresh: the next call reads it
    assert healed[:16] == data[:16] and marshal.loads(healed[16:]).co_filename.endswith(".py")
