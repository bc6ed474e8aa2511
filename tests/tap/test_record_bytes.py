"""A hook whose argv, cwd, label or runtime variable is not UTF-8 is still recorded.

Through the real `hooktui tap`: the values are kept escaped (`\\xNN`, backslashes
doubled), listed in `hook.escaped`, and `unescape_bytes` gives the bytes back.
"""

from __future__ import annotations

import json
import os
import subprocess

import pytest
from hooktui.tap.record.hookinfo import escape_bytes, unescape_bytes

from tests.conftest import HOOKTUI


@pytest.mark.parametrize(
    "raw",
    [b"caf\xe9", b"\xff\xfe", b"a\\xff\xff", b"\\", b"ok \xc3\xa9 \xc3", b"plain"],
)
def test_escape_round_trips(raw):
    text, escaped = escape_bytes(raw)
    text.encode("utf-8")  # always representable
    assert escaped == (raw != b"plain" and raw != b"\\")
    assert (unescape_bytes(text) if escaped else text.encode()) == raw


def test_non_utf8_argv_cwd_label_and_variable_are_recorded(tmp_path):
    stream = tmp_path / "s.jsonl"
    cwd = os.path.join(os.fsencode(tmp_path), b"caf\xe9 \\dir")
    os.mkdir(cwd)
    env = {k.encode(): v.encode() for k, v in os.environ.items()}
    env[b"CLAUDE_PROJECT_DIR"] = b"/proj/\xfe\xff"
    arg = b"--name=\xff\\x41"
    out = subprocess.run(
        [HOOKTUI, "tap", "--wait", "--stream", str(stream), "--label", b"g\xe9"]
        + ["--", "sh", "-c", "cat >/dev/null; echo ok", arg],
        input=b'{"hook_event_name": "PreToolUse", "tool_name": "Bash"}',
        capture_output=True,
        env=env,
        cwd=cwd,
        timeout=60,
    )
    assert out.stdout == b"ok\n"
    (line,) = stream.read_bytes().splitlines()
    hook = json.loads(line)["hook"]
    assert sorted(hook["escaped"]) == sorted(
        ["/hook/argv/3", "/hook/cwd", "/hook/env/CLAUDE_PROJECT_DIR", "/hook/label"]
    )
    assert unescape_bytes(hook["argv"][3]) == arg
    assert unescape_bytes(hook["cwd"]) == cwd
    assert unescape_bytes(hook["env"]["CLAUDE_PROJECT_DIR"]) == b"/proj/\xfe\xff"
    assert unescape_bytes(hook["label"]) == b"g\xe9"
    assert hook["argv"][:3] == ["sh", "-c", "cat >/dev/null; echo ok"]  # UTF-8 kept as is


def test_a_utf8_record_marks_nothing(tmp_path):
    stream = tmp_path / "s.jsonl"
    subprocess.run(
        [HOOKTUI, "tap", "--wait", "--stream", str(stream), "--", "true", "é \\x"],
        input=b"{}",
        timeout=60,
        check=True,
    )
    hook = json.loads(stream.read_bytes())["hook"]
    assert "escaped" not in hook and hook["argv"] == ["true", "é \\x"]
