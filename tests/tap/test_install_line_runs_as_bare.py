"""The wrapped line, attacked: it must run the original hook byte for byte as it ran bare.

Each test installs through the real command line into a real settings file,
then runs the wrapped line and the bare command as the runtime does (`sh -c`
or `bash -c`, a request on stdin) and compares stdout, stderr and exit status.
"""

from __future__ import annotations

import json
import os
import shlex
import subprocess
from pathlib import Path

from hooktui.tap.install.wrapper import read_shell

from tests.conftest import HOOKTUI

REQUEST = b'{"session_id": "s1", "hook_event_name": "Stop", "cwd": "/tmp"}'


def run(args: list[str], cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run(
        [HOOKTUI, *args], cwd=cwd, capture_output=True, text=True, timeout=60, check=False
    )


def settings_with(path: Path, commands: list[str], event: str = "Stop") -> bytes:
    hooks = [{"type": "command", "command": c} for c in commands]
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps({"hooks": {event: [{"hooks": hooks}]}}, indent=2))
    return path.read_bytes()


def commands(path: Path, event: str = "Stop") -> list[str]:
    return [h["command"] for h in json.loads(path.read_text())["hooks"][event][0]["hooks"]]


def answer(shell: str, line: str, env: dict | None = None) -> tuple:
    done = subprocess.run(
        [shell, "-c", line],
        input=REQUEST,
        capture_output=True,
        env={**os.environ, **(env or {})},
        timeout=60,
        check=False,
    )
    return done.stdout, done.stderr, done.returncode


def install(tmp_path: Path, runtime: str, path: Path) -> subprocess.CompletedProcess:
    stream = tmp_path / "stream.jsonl"
    return run(["install", runtime, "--settings", str(path), "--stream", str(stream)], tmp_path)


def test_a_variable_the_caller_exported_reaches_the_hook_unchanged(tmp_path):
    """The line once held the original in `c`: a `c` the runtime's environment
    carried (exported) reached the hook as the hook's own command text."""
    hook = "cat >/dev/null; printf '%s|%s' \"${c-unset}\" \"$#\"; env | grep -c '^c=' >&2"
    path = tmp_path / "settings.json"
    original = settings_with(path, [hook])
    assert install(tmp_path, "claude-code", path).returncode == 0
    (line,) = commands(path)
    for env in ({"c": "the user's own"}, {}):
        bare = answer("sh", hook, env)
        assert answer("sh", line, env) == bare
    assert bare[0] == b"unset|0"  # the last run: no c at all, as bare
    assert run(["uninstall", "claude-code", "--settings", str(path)], tmp_path).returncode == 0
    assert path.read_bytes() == original


def gemini_runs(line: str, project: str) -> tuple:
    """As Gemini CLI runs a hook: its variable replaced by the quoted path, then bash -c."""
    return answer("bash", line.replace("$GEMINI_PROJECT_DIR", shlex.quote(project)))


def test_the_here_document_keeps_the_originals_trailing_newlines(tmp_path):
    """Gemini CLI's hooks hold the original in a here-document read by `$(...)`,
    which drops trailing newlines: an original ending in a line continuation or an
    unterminated here-document of its own then ran differently."""
    hooks = [
        "cat >/dev/null; printf '%s' \"$GEMINI_PROJECT_DIR\"; echo a\\\n",
        "cat >/dev/null; cat <<EOF\n$GEMINI_PROJECT_DIR\n\n\n",
        "cat >/dev/null; echo \"$GEMINI_PROJECT_DIR\" ')' '\"'\n\n",
    ]
    path = tmp_path / ".gemini" / "settings.json"
    original = settings_with(path, hooks, "AfterTool")
    assert install(tmp_path, "gemini-cli", path).returncode == 0
    lines = commands(path, "AfterTool")
    project = str(tmp_path / "my project")
    for hook, line in zip(hooks, lines, strict=True):
        assert "HOOKTUI_END" in line  # the here-document form
        assert read_shell(line).original == hook
        assert gemini_runs(line, project) == gemini_runs(hook, project)
    assert gemini_runs(lines[0], project)[0] == f"{shlex.quote(project)}a\n".encode()
    assert run(["uninstall", "gemini-cli", "--settings", str(path)], tmp_path).returncode == 0
    assert path.read_bytes() == original


def test_a_long_command_is_wrapped_only_when_the_system_can_start_the_line(tmp_path):
    """A runtime passes the whole line as one argument, and Linux refuses one over
    128 KiB: a 104 KB guard of many quoted words ran bare, but its single-quoted line
    (each `'` five bytes) could not be started at all. It now goes in a here-document;
    one too long even there stays as it was, and install says so."""
    quoted = "cat >/dev/null; echo " + " ".join(["'x'"] * 26_000) + " | wc -c"
    huge = "cat >/dev/null; echo " + "y" * 131_000
    path = tmp_path / "settings.json"
    original = settings_with(path, [quoted, huge, "cat >/dev/null; echo small"])
    result = install(tmp_path, "claude-code", path)
    assert result.returncode == 0, result.stderr
    assert "wrapped 2 command hook(s)" in result.stdout
    assert "hooks.Stop[0].hooks[1]: a command hook: its command is 131021 bytes" in result.stdout
    lines = commands(path)
    assert lines[1] == huge  # left as it was: bare, it still runs
    assert read_shell(lines[0]).original == quoted and read_shell(lines[2]) is not None
    for hook, line in zip([quoted, huge, "cat >/dev/null; echo small"], lines, strict=True):
        assert answer("sh", line) == answer("sh", hook)
    assert answer("sh", lines[0])[0] == b"52000\n"
    assert run(["uninstall", "claude-code", "--settings", str(path)], tmp_path).returncode == 0
    assert path.read_bytes() == original


OLD_TAIL = ' -- "$0" -c "$c"; exec "$0" -c "$c"'


def test_lines_that_held_the_original_in_c_are_read_rewritten_and_unwrapped(tmp_path):
    """Lines the previous version wrote (`c='...'`, `c=$(cat <<'HOOKTUI_END' ...)`)
    are still ours: install brings them up to date, uninstall gives the hook back."""
    hooktui = str(Path(HOOKTUI))
    guard = f"[ -x {hooktui} ] && exec {hooktui} tap --label Stop --runtime claude-code"
    hook = "cat >/dev/null; echo 'it''s' \"$HOME\""
    quoted = f"c={shlex.quote(hook)}; {guard}{OLD_TAIL}"
    heredoc = f"c=$(cat <<'HOOKTUI_END'\n{hook}\nHOOKTUI_END\n); {guard}{OLD_TAIL}"
    for old in (quoted, heredoc):
        assert read_shell(old).original == hook
    path = tmp_path / "settings.json"
    settings_with(path, [quoted, heredoc])
    result = install(tmp_path, "claude-code", path)
    assert "wrapped 2 command hook(s)" in result.stdout, result.stderr
    for line in commands(path):
        assert line.startswith("set -- ") and read_shell(line).original == hook
        assert answer("sh", line) == answer("sh", hook)
    settings_with(path, [quoted, heredoc])
    assert run(["uninstall", "claude-code", "--settings", str(path)], tmp_path).returncode == 0
    assert commands(path) == [hook, hook]


def test_uninstall_names_a_wrapped_hook_it_cannot_read_back(tmp_path):
    """A line the user re-quoted by hand (`set -- "..."`, as valid) is no longer one
    uninstall can read: it stays wrapped, and uninstall said only that it unwrapped
    the others (or "nothing to do"), so the hook ran through the tap for good, unseen."""
    path = tmp_path / "settings.json"
    settings_with(path, ["cat >/dev/null; echo one", "cat >/dev/null; echo two"])
    assert install(tmp_path, "claude-code", path).returncode == 0
    data = json.loads(path.read_text())
    first = data["hooks"]["Stop"][0]["hooks"][0]
    first["command"] = first["command"].replace(
        "set -- 'cat >/dev/null; echo one'", 'set -- "cat >/dev/null; echo one"'
    )
    path.write_text(json.dumps(data))
    edited = first["command"]
    for _ in range(2):  # with another hook to unwrap, then with none
        result = run(["uninstall", "claude-code", "--settings", str(path)], tmp_path)
        assert result.returncode == 0
        assert (
            f"warning: {path}: hooks.Stop[0].hooks[0] still runs through `hooktui tap`"
            in result.stdout
        )
        assert commands(path) == [edited, "cat >/dev/null; echo two"]
    assert answer("sh", edited) == answer("sh", "cat >/dev/null; echo one")  # still its guard
