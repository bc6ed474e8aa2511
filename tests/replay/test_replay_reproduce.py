"""Reproduce one call (issue 11): the shell command, edit and re-run, and `--id`.

Sessions are recorded through the real tap; the printed commands run under the real
dash (`sh`), bash and (where installed) zsh; the hooks are real processes.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import unicodedata
from pathlib import Path

import msgspec
import pytest
from hooktui.replay.policy import request_bytes
from hooktui.replay.reproduce import edited_record, request_text, rerun, shell_command
from hooktui.replay.session import load_session

from tests.conftest import wait_for_records
from tests.replay.helpers import (
    PYTHON,
    V1,
    record_session,
    replay_cli,
    replay_json,
    request_for,
    tap,
    write_guard,
)

SHELLS = [s for s in ("sh", "bash", "zsh") if shutil.which(s)]

# A hook that writes down exactly what it got, then allows.
PROBE = """\
import json, os, sys
data = sys.stdin.buffer.read()
with open(os.environ["PROBE_OUT"], "w") as f:
    json.dump({"stdin": data.hex(), "argv": sys.argv[1:], "cwd": os.getcwd(),
               "project": os.environ.get("CLAUDE_PROJECT_DIR"),
               "replay": os.environ.get("HOOKTUI_REPLAY")}, f)
"""


def _paste_safe(command: str) -> bool:
    """No character a terminal would act on or a reader could not see."""
    for ch in command:
        if ch == "\n":
            continue
        if ord(ch) < 0x20 or 0x7F <= ord(ch) < 0xA0:
            return False
        if unicodedata.category(ch) in ("Cf", "Cs", "Co", "Cn", "Zl", "Zp"):
            return False
    return True


@pytest.fixture
def probed(tmp_path: Path):
    """(session records, probe output path): calls recorded with a hostile-looking cwd,
    argument and runtime variable, for a JSON request and a text one."""
    odd = tmp_path / 'it\'s a "dir" $HOME `x`'
    odd.mkdir()
    probe = tmp_path / "probe.py"
    probe.write_text(PROBE)
    out = tmp_path / "probe.json"
    stream = tmp_path / "session.jsonl"
    env = dict(os.environ, CLAUDE_PROJECT_DIR="line1\nline2 \x1b]0;t\x07 $PATH 'q'")
    hook = [PYTHON, str(probe), "arg with 'quote' and \"dq\"", "%s\\n"]
    request = request_for("claude-code", "printf '%s\\n' \"$x\"; echo ‮evil", str(odd))
    request["tool_input"]["description"] = "two\nlines\ttab 🙂 \u200b"
    tap(stream, "claude-code", hook, request, cwd=odd, env=env)
    tap(
        stream,
        "claude-code",
        hook,
        b"not json 'q' \"dq\" %s \\ \x1b[31m\nsecond line",
        cwd=odd,
        env=env,
    )
    wait_for_records(stream, 2)
    return [e.record for e in load_session(str(stream)).records], out


@pytest.mark.parametrize("shell", SHELLS)
def test_the_command_reruns_exactly_that_hook_on_exactly_that_request(
    tmp_path: Path, probed, shell: str
):
    records, out = probed
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    for record in records:
        command = shell_command(record)
        assert _paste_safe(command), command
        env = {k: v for k, v in os.environ.items() if k != "CLAUDE_PROJECT_DIR"}
        env["PROBE_OUT"] = str(out)
        proc = subprocess.run(
            [shell, "-c", command], cwd=elsewhere, env=env, capture_output=True, timeout=60
        )
        assert proc.returncode == 0, proc.stderr
        got = json.loads(out.read_text())
        assert bytes.fromhex(got["stdin"]) == request_bytes(record)
        assert got["argv"] == record.hook.argv[2:]
        assert got["cwd"] == record.hook.cwd
        assert got["project"] == record.hook.env["CLAUDE_PROJECT_DIR"]
        assert got["replay"] == "1"


@pytest.mark.parametrize("shell", SHELLS)
def test_any_bytes_survive_the_command(tmp_path: Path, probed, shell: str):
    records, out = probed
    raw = b'{"x": "\xff\xfe\x00\x1b[2J"}\n%d \\ \'\n\xe2\x80\xae\x80 tail\n\n'
    command = shell_command(records[0], request=raw)
    assert _paste_safe(command), command
    env = dict(os.environ, PROBE_OUT=str(out))
    subprocess.run([shell, "-c", command], env=env, check=True, timeout=60)
    assert bytes.fromhex(json.loads(out.read_text())["stdin"]) == raw


def test_print_command_from_the_command_line(tmp_path: Path, probed):
    records, out = probed
    session = out.parent / "session.jsonl"
    proc = replay_cli(str(session), "--id", records[0].id[:12], "--print-command")
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == shell_command(records[0]) + "\n"
    policy = replay_cli(
        str(session), "--id", records[1].id, "--print-command", "--policy", "cat >/dev/null"
    )
    assert policy.stdout.rstrip("\n").endswith("sh -c 'cat >/dev/null'")
    missing = replay_cli(str(session), "--id", "zzz", "--print-command")
    assert missing.returncode == 2 and "no such record" in missing.stderr
    nameless = json.loads(session.read_text().splitlines()[0])
    nameless["hook"]["argv"] = []
    (out.parent / "nameless.jsonl").write_text(json.dumps(nameless) + "\n")
    proc = replay_cli(str(out.parent / "nameless.jsonl"), "--id", nameless["id"], "--print-command")
    assert proc.returncode == 2 and "give --policy" in proc.stderr and proc.stdout == ""


@pytest.fixture
def guarded(tmp_path: Path):
    guard = write_guard(tmp_path / "guard.py", V1)
    stream = tmp_path / "session.jsonl"
    workdir = tmp_path / "project"
    workdir.mkdir()
    records = record_session(
        stream, "claude-code", [PYTHON, str(guard)], ["rm -rf build", "ls"], workdir
    )
    return stream, records


def _editor(tmp_path: Path, old: str, new: str) -> str:
    script = tmp_path / "edit.py"
    script.write_text(
        "import sys\n"
        "p = sys.argv[1]\n"
        f"text = open(p).read().replace({old!r}, {new!r})\n"
        "open(p, 'w').write(text)\n"
    )
    return f"{PYTHON} {script}"


def test_edit_and_rerun_from_the_command_line(tmp_path: Path, guarded):
    stream, records = guarded
    env = dict(os.environ, EDITOR=_editor(tmp_path, "rm -rf build", "ls -la"))
    env.pop("VISUAL", None)
    args = (str(stream), "--id", records[0]["id"], "--edit")
    proc = replay_cli(*args, "--format", "json", env=env)
    assert proc.returncode == 1, proc.stderr  # the edited call goes through
    report = json.loads(proc.stdout)
    detail = report["record"]
    assert detail["request"]["tool_input"]["command"] == "ls -la"
    assert detail["recorded"]["decision"] == "deny" and detail["after"]["decision"] == "allow"
    assert (detail["class"], detail["direction"]) == ("changed", "loosened")
    assert detail["outcome"]["exit_code"] == 0
    text = replay_cli(*args, env=env).stdout
    assert "recorded deny" in text and "edited  allow" in text
    printed = replay_cli(*args, "--print-command", env=env).stdout
    assert '"command":"ls -la"' in printed
    # An editor that fails, or a request left empty: nothing runs.
    failing = replay_cli(*args, env=dict(env, EDITOR="false"))
    assert failing.returncode == 2 and "nothing was run" in failing.stderr
    emptied = replay_cli(*args, env=dict(env, EDITOR="truncate -s 0"))
    assert emptied.returncode == 2 and "empty" in emptied.stderr


def test_one_record_without_edit(guarded):
    stream, records = guarded
    code, report = replay_json(str(stream), "--id", records[1]["id"])
    assert code == 0 and report["total"] == 1
    assert report["record"]["after"]["decision"] == "allow"


def test_rerun_api_for_the_watch_ui(guarded):
    stream, _ = guarded
    record = load_session(str(stream)).records[0].record
    text = request_text(record)
    assert json.loads(text)["tool_input"]["command"] == "rm -rf build"
    same = rerun(record)
    assert (same.cls, same.after.decision, same.recorded.decision) == ("unchanged", "deny", "deny")
    edited = edited_record(record, text.replace("rm -rf build", "git status"))
    result = rerun(edited)
    assert (result.cls, result.direction) == ("changed", "loosened")
    assert result.after.decision == "allow" and result.before.decision == "deny"
    assert result.outcome is not None and result.outcome.exit_code == 0
    # Not JSON any more: sent as the text it is.
    broken = rerun(edited_record(record, "{not json"))
    assert broken.record.request_format == "text" and broken.cls == "failed"


DASHED = (b"-n\x1b[2J tail", b"--", b"-e \\n")  # not plain: printf escapes, `-` first


@pytest.mark.parametrize("shell", [s for s in ("sh", "bash", "ksh", "zsh") if shutil.which(s)])
def test_words_and_requests_starting_with_dash_or_equals_survive(tmp_path, probed, shell):
    """A word or request starting with `-` (printf read it as an option in dash, bash
    and ksh) or `=` (zsh expands `=word` to a path) reaches the hook as recorded
    (issue 19)."""
    records, out = probed
    record = records[0]
    argv = [*record.hook.argv[:2], "=echo", "=x y", "-n", "-\x1b[1m"]
    record = msgspec.structs.replace(record, hook=msgspec.structs.replace(record.hook, argv=argv))
    for raw in DASHED:
        command = shell_command(record, request=raw)
        env = dict(os.environ, PROBE_OUT=str(out))
        done = subprocess.run([shell, "-c", command], env=env, capture_output=True, timeout=60)
        assert done.returncode == 0, done.stderr
        got = json.loads(out.read_text())
        assert (bytes.fromhex(got["stdin"]), got["argv"]) == (raw, argv[2:])
