"""An environment entry without a name never keeps the hook from running.

A program may exec another with any strings as its environment: `=C:=C:\\dir`
(as Windows shells keep their drives' folders), or `=x`. Python reads such an
entry as the name "" and posix_spawn refuses that name (ValueError), so the tap
died with a traceback before starting the hook: exit 1, which runtimes read as
a non-blocking error. Each case execs the hook and the tap with a raw
environment (execve through ctypes: Python's own exec takes a mapping).
"""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from tests.conftest import HOOKTUI, wait_for_records

EXECVE = """
import ctypes, json, sys
argv, env = json.loads(sys.argv[1]), json.loads(sys.argv[2])
strings = lambda words: (ctypes.c_char_p * (len(words) + 1))(*[w.encode() for w in words], None)
ctypes.CDLL(None).execve(argv[0].encode(), strings(argv), strings(env))
sys.exit("execve failed")
"""
HOOK = ["/bin/sh", "-c", "cat >/dev/null; tr '\\0' '\\n' </proc/self/environ; echo deny; exit 2"]


@pytest.mark.parametrize(
    ("entry", "passed_on"), [("=C:=C:\\dir", True), ("==", True), ("=x", False)]
)
def test_an_entry_without_a_name_still_runs_the_hook(tmp_path, entry, passed_on):
    stream = tmp_path / "s.jsonl"
    env = ["PATH=/usr/bin:/bin", entry, f"HOOKTUI_STREAM={stream}"]
    tap = [sys.executable, "-I", "-S", "-X", "utf8", HOOKTUI, "tap", "--"]
    results = []
    for argv in (HOOK, tap + HOOK):
        done = subprocess.run(
            [sys.executable, "-c", EXECVE, json.dumps(argv), json.dumps(env)],
            input=b"{}",
            capture_output=True,
            timeout=60,
        )
        results.append((done.stdout, done.stderr, done.returncode))
    bare, tapped = results
    assert bare == ("\n".join([*env, "deny", ""]).encode(), b"", 2)
    if passed_on:  # where and as the caller wrote it
        assert tapped == bare
    else:  # no exec from Python can pass `=x` on: the rest still goes through
        kept = [e for e in env if e != entry]
        assert tapped == ("\n".join([*kept, "deny", ""]).encode(), b"", 2)
    (record,) = wait_for_records(stream, 1)
    assert record["exit_code"] == 2
