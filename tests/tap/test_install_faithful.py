"""`hooktui install` does what it says: the wrapped hook runs as the runtime runs it bare,
survives hooktui going away, and install/uninstall never lose what the user wrote."""

from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
from hooktui.tap.install import files as install_files
from hooktui.tap.install import settings as inst
from hooktui.tap.install.wrapper import read_shell

from tests.conftest import HOOKTUI, wait_for_records
from tests.tap.test_install import claude_project, run, write

GEMINI_TOKENS = ("$GEMINI_PROJECT_DIR", "$GEMINI_CWD", "$CLAUDE_PROJECT_DIR")


def gemini_runs(command: str, project: Path, request: bytes) -> tuple[bytes, bytes, int]:
    """What Gemini CLI does with a hook command (hookRunner.ts, 0.61): replace each
    variable in the text with the shell-quoted project path, then `bash -c` it."""
    for token in GEMINI_TOKENS:
        command = command.replace(token, shlex.quote(str(project)))
    env = {**os.environ, "GEMINI_PROJECT_DIR": str(project)}
    p = subprocess.run(
        ["bash", "-c", command],
        input=request,
        capture_output=True,
        cwd=project,
        env=env,
        timeout=60,
    )
    return p.stdout, p.stderr, p.returncode


GEMINI_HOOK = (
    # bash-isms ([[ ]], $'...') and the substituted, quoted path with a space in it
    "[[ -d $GEMINI_PROJECT_DIR ]] && cat > $GEMINI_PROJECT_DIR/seen.json && "
    'printf \'%s\' "{\\"decision\\":\\"deny\\",\\"reason\\":\\"in $(basename $GEMINI_PROJECT_DIR)\\"}"'
    " && echo $'tab\\there' >&2"
)


def test_gemini_hook_runs_under_bash_with_the_runtimes_substitutions(tmp_path):
    project = tmp_path / "my project"
    settings = project / ".gemini" / "settings.json"
    hooks = {"BeforeTool": [{"hooks": [{"type": "command", "command": GEMINI_HOOK}]}]}
    write(settings, json.dumps({"hooks": hooks}, indent=2))
    stream = tmp_path / "s.jsonl"
    result = run(["install", "gemini-cli", "--stream", str(stream)], project)
    assert result.returncode == 0, result.stderr
    wrapped = json.loads(settings.read_text())["hooks"]["BeforeTool"][0]["hooks"][0]["command"]
    request = json.dumps(
        {"hook_event_name": "BeforeTool", "tool_name": "run_shell_command", "timestamp": "t"}
    ).encode()
    bare = gemini_runs(GEMINI_HOOK, project, request)
    assert bare[2] == 0 and b"in my project" in bare[0] and bare[1] == b"tab\there\n"
    assert gemini_runs(wrapped, project, request) == bare
    (record,) = wait_for_records(stream, 1)
    assert record["runtime"] == "gemini-cli" and record["decision"] == "deny"
    assert record["reason"] == "in my project"
    # The original comes back exactly on uninstall.
    assert run(["uninstall", "gemini-cli"], project).returncode == 0
    assert json.loads(settings.read_text())["hooks"] == hooks


def test_a_hook_keeps_the_shell_that_runs_it(tmp_path):
    """Codex runs hooks with the user's login shell, `$SHELL -lc` (bash here): bash-isms
    must keep working, and under sh they fail as they do bare."""
    original = "[[ $((2 + 2)) == 4 ]] && echo ok; echo $'x\\ty' >&2; exit 3"
    path = tmp_path / ".codex" / "hooks.json"
    hooks = {"PreToolUse": [{"hooks": [{"type": "command", "command": original}]}]}
    write(path, json.dumps({"hooks": hooks}))
    stream = tmp_path / "s.jsonl"
    assert run(["install", "codex", "--stream", str(stream)], tmp_path).returncode == 0
    wrapped = json.loads(path.read_text())["hooks"]["PreToolUse"][0]["hooks"][0]["command"]
    for name in ("bash", "sh"):
        shell = shutil.which(name)
        env = {**os.environ, "SHELL": shell}
        bare = subprocess.run(
            [shell, "-lc", original], capture_output=True, input=b"{}", env=env, timeout=60
        )
        tapped = subprocess.run(
            [shell, "-lc", wrapped], capture_output=True, input=b"{}", env=env, timeout=60
        )
        assert (tapped.stdout, tapped.stderr, tapped.returncode) == (
            bare.stdout,
            bare.stderr,
            bare.returncode,
        ), name
    assert len(wait_for_records(stream, 2)) == 2


def _hooktui_copy(tmp_path: Path) -> tuple[Path, Path]:
    """A hooktui whose `#!` names an interpreter of its own (as a venv's does)."""
    venv = tmp_path / "venv" / "bin"
    venv.mkdir(parents=True)
    python = venv / "python3"
    python.write_text(f'#!/bin/sh\nexec {shlex.quote(sys.executable)} "$@"\n')
    python.chmod(0o755)
    script = Path(HOOKTUI).read_text().split("\n", 1)[1]
    hooktui = venv / "hooktui"
    hooktui.write_text(f"#!{python}\n{script}")
    hooktui.chmod(0o755)
    return hooktui, python


@pytest.mark.parametrize("gone", ["interpreter", "hooktui"])
def test_hooks_run_bare_when_the_tap_is_gone(tmp_path, gone):
    hooktui, python = _hooktui_copy(tmp_path)
    guard = "cat > /dev/null; echo 'no force-push' >&2; exit 2"
    path = tmp_path / "settings.json"
    hooks = [
        {"type": "command", "command": guard},
        {"type": "command", "command": "sh", "args": ["-c", guard]},
    ]
    write(path, json.dumps({"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": hooks}]}}))
    stream = tmp_path / "s.jsonl"
    opts = inst.Options(runtime="claude-code", hooktui=str(hooktui), stream=str(stream))
    report = inst.install(path, opts)
    assert any(str(python) in m and "depend" in m for m in report.messages)
    shell_form, exec_form = json.loads(path.read_text())["hooks"]["PreToolUse"][0]["hooks"]

    def answers():
        a = subprocess.run(
            ["sh", "-c", shell_form["command"]], input=b"{}", capture_output=True, timeout=60
        )
        b = subprocess.run(
            [exec_form["command"], *exec_form["args"]],
            input=b"{}",
            capture_output=True,
            timeout=60,
        )
        return [(p.stdout, p.stderr, p.returncode) for p in (a, b)]

    bare = (b"", b"no force-push\n", 2)
    assert answers() == [bare, bare]
    assert len(wait_for_records(stream, 2)) == 2  # through the tap while it is there
    (python if gone == "interpreter" else hooktui).unlink()
    assert answers() == [bare, bare]  # the guard still denies: it never fails open


@pytest.mark.parametrize(
    ("value", "expected"),
    [(99999999, "2147483647"), ("1e400", "2147483647"), (-5, "600000"), (0, "600000")],
)
def test_timeouts_from_settings_are_clamped(tmp_path, value, expected):
    path = tmp_path / "settings.json"
    text = (
        '{"hooks": {"PreToolUse": [{"hooks": [{"type": "command", "command": "exit 0", '
        f'"timeout": {value}}}]}}]}}}}'
    )
    write(path, text)
    result = run(["install", "claude-code", "--settings", str(path)], tmp_path)
    assert result.returncode == 0, result.stderr
    command = json.loads(path.read_text())["hooks"]["PreToolUse"][0]["hooks"][0]["command"]
    wrapped = read_shell(command)
    assert wrapped.args[wrapped.args.index("--timeout-ms") + 1] == expected
    # ...and the tap takes it: the hook answers as it does bare.
    env = {**os.environ, "HOOKTUI_STREAM": str(tmp_path / "s.jsonl")}
    done = subprocess.run(
        ["sh", "-c", command], input=b"{}", capture_output=True, env=env, timeout=60
    )
    assert (done.returncode, done.stderr) == (0, b"")


def test_toml_inf_and_nan_timeouts(tmp_path):
    path = tmp_path / ".codex" / "config.toml"
    write(
        path,
        '[[hooks.PreToolUse]]\n[[hooks.PreToolUse.hooks]]\ntype = "command"\n'
        'command = "a"\ntimeout = inf\n[[hooks.PreToolUse.hooks]]\ntype = "command"\n'
        'command = "b"\ntimeout = nan\n',
    )
    assert run(["install", "codex"], tmp_path).returncode == 0
    hooks = tomllib.loads(path.read_text())["hooks"]["PreToolUse"][0]["hooks"]
    timeouts = [read_shell(h["command"]).args for h in hooks]
    assert [a[a.index("--timeout-ms") + 1] for a in timeouts] == ["2147483647", "600000"]


def test_claude_local_settings_are_found_and_the_user_told_what_next(tmp_path):
    local = tmp_path / ".claude" / "settings.local.json"
    write(tmp_path / ".claude" / "settings.json", '{"model": "opus"}\n')
    write(local, '{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "true"}]}]}}')
    result = run(["install", "claude-code", "--stream", str(tmp_path / "s.jsonl")], tmp_path)
    assert result.returncode == 0, result.stderr
    assert read_shell(json.loads(local.read_text())["hooks"]["Stop"][0]["hooks"][0]["command"])
    assert f"{local}: wrapped 1" in result.stdout
    assert f"calls will be recorded in {tmp_path / 's.jsonl'}" in result.stdout
    assert "next: run `hooktui watch" in result.stdout
    # Without --stream it names the default stream.
    run(["uninstall", "claude-code"], tmp_path)
    state = tmp_path / "state"
    result = run(["install", "claude-code"], tmp_path, env={"XDG_STATE_HOME": str(state)})
    assert f"calls will be recorded in {state / 'hooktui' / 'stream.jsonl'}" in result.stdout


GEMINI_JSONC = """// my settings
{
  "hooks": {
    "BeforeTool": [{"hooks": [
      {"type": "command", "command": "./guard.sh"} // the guard
    ]}]
  }
}
"""


def test_uninstall_unwraps_in_place_keeping_later_comments_and_edits(tmp_path):
    path = tmp_path / ".gemini" / "settings.json"
    write(path, GEMINI_JSONC)
    assert run(["install", "gemini-cli"], tmp_path).returncode == 0
    # The user comments and re-indents after install; the data stay the same.
    edited = path.read_text().replace("// my settings", "// my settings\n// added later")
    edited = edited.replace('  "hooks": {', '    "hooks": {')
    path.write_text(edited)
    result = run(["uninstall", "gemini-cli"], tmp_path)
    assert result.returncode == 0, result.stderr
    expected = GEMINI_JSONC.replace("// my settings", "// my settings\n// added later")
    assert path.read_text() == expected.replace('  "hooks": {', '    "hooks": {')


def test_uninstall_keeps_toml_comments_added_after_install(tmp_path):
    text = '[[hooks.PreToolUse]]\n[[hooks.PreToolUse.hooks]]\ntype = "command"\ncommand = "x"\n'
    path = tmp_path / ".codex" / "config.toml"
    write(path, text)
    assert run(["install", "codex"], tmp_path).returncode == 0
    path.write_text("# mine, added later\n" + path.read_text())
    assert run(["uninstall", "codex"], tmp_path).returncode == 0
    assert path.read_text() == "# mine, added later\n" + text


def test_a_second_install_with_another_stream_rewraps(tmp_path):
    project, path, original = claude_project(tmp_path)
    first, second = tmp_path / "one.jsonl", tmp_path / "two.jsonl"
    assert run(["install", "claude-code", "--stream", str(first)], project).returncode == 0
    result = run(["install", "claude-code", "--stream", str(second)], project)
    assert result.returncode == 0 and "wrapped 4" in result.stdout
    assert str(first) not in path.read_text() and str(second) in path.read_text()
    assert run(["uninstall", "claude-code"], project).returncode == 0
    assert path.read_bytes() == original  # the backup is still the first original


@pytest.mark.skipif(os.geteuid() != 0, reason="needs root to give a file to another user")
def test_root_editing_another_users_file_keeps_owner_and_mode(tmp_path):
    project, path, _ = claude_project(tmp_path)
    os.chown(path, 4321, 4322)
    path.chmod(0o640)
    assert run(["install", "claude-code"], project).returncode == 0
    backup = path.with_name(path.name + install_files.BACKUP_SUFFIX)
    for p in (path, backup):
        st = p.stat()
        assert (st.st_uid, st.st_gid, st.st_mode & 0o777) == (4321, 4322, 0o640), p
    assert run(["uninstall", "claude-code"], project).returncode == 0
    assert (path.stat().st_uid, path.stat().st_gid) == (4321, 4322)


def test_an_immutable_file_leaves_no_stray_backup(tmp_path):
    project, path, original = claude_project(tmp_path)
    if (
        shutil.which("chattr") is None
        or subprocess.run(["chattr", "+i", path], timeout=60).returncode
    ):
        pytest.skip("no immutable files here")
    try:
        result = run(["install", "claude-code"], project)
        assert result.returncode != 0
        assert result.stderr.count("\n") == 1 and "Traceback" not in result.stderr
        assert sorted(p.name for p in path.parent.iterdir()) == ["settings.json"]
    finally:
        subprocess.run(["chattr", "-i", path], timeout=60)
    assert path.read_bytes() == original


def test_no_diff_is_built_unless_asked(tmp_path):
    project, path, _ = claude_project(tmp_path)
    opts = inst.Options(runtime="claude-code", hooktui=HOOKTUI)
    assert inst.install(path, opts, dry_run=True).diff
    assert inst.install(path, opts).diff == ""


def test_a_near_miss_runtime_name_gets_a_suggestion(tmp_path):
    for typed, meant in (("claude", "claude-code"), ("gemini", "gemini-cli"), ("codx", "codex")):
        result = run(["install", typed], tmp_path)
        assert result.returncode == 2 and result.stderr.count("\n") == 1
        assert f"did you mean {meant}?" in result.stderr


@pytest.mark.parametrize(
    ("hooks", "says"),
    [
        ("[]", "hooks is a list, not an object of events"),
        ('{"PreToolUse": {"hooks": []}}', "hooks.PreToolUse is an object, not a list"),
        ('{"PreToolUse": [{"hooks": "x"}]}', "hooks.PreToolUse[0].hooks is a string"),
        ('{"Stop": [{"hooks": [{"type": "command", "command": 3}]}]}', "command is not a string"),
    ],
)
def test_a_malformed_hooks_section_is_reported(tmp_path, hooks, says):
    path = tmp_path / ".claude" / "settings.json"
    original = write(path, f'{{"hooks": {hooks}}}')
    result = run(["install", "claude-code"], tmp_path)
    assert result.returncode == 2 and result.stderr.count("\n") == 1
    assert says in result.stderr and "no command hooks" not in result.stderr
    assert path.read_bytes() == original


def test_deeply_nested_settings_are_one_clear_line(tmp_path):
    path = tmp_path / ".claude" / "settings.json"
    original = write(path, '{"hooks": {}, "x": ' + "[" * 100_000 + "]" * 100_000 + "}")
    for verb in ("install", "uninstall"):
        result = run([verb, "claude-code"], tmp_path)
        assert result.returncode == 2 and result.stderr.count("\n") == 1, result.stderr
        assert "nested too deeply" in result.stderr and "Traceback" not in result.stderr
    assert path.read_bytes() == original


def test_hooks_that_cannot_be_wrapped_are_listed_with_why(tmp_path):
    hooks = [
        {"type": "http", "url": "http://127.0.0.1:9/hook"},
        {"type": "mcp_tool", "server": "s", "tool": "t"},
        {"type": "prompt", "prompt": "safe?"},
        {"type": "agent", "prompt": "check"},
        {"type": "command", "command": "./notify.sh", "async": True},
        {"type": "command", "command": "./guard.sh"},
    ]
    path = tmp_path / ".claude" / "settings.json"
    write(path, json.dumps({"hooks": {"PreToolUse": [{"hooks": hooks}]}}))
    result = run(["install", "claude-code"], tmp_path)
    assert result.returncode == 0, result.stderr
    listed = [x for x in result.stdout.splitlines() if x.startswith("not wrapped:")]
    assert len(listed) == 4  # the http hook is wrapped (test_install_http.py)
    for i, word in enumerate(("'mcp_tool'", "'prompt'", "'agent'", "async"), start=1):
        assert f"hooks.PreToolUse[0].hooks[{i}]: " in listed[i - 1] and word in listed[i - 1]
    assert "wrapped 2 command hook" in result.stdout
    new = json.loads(path.read_text())["hooks"]["PreToolUse"][0]["hooks"]
    assert new[1:5] == hooks[1:5]


def test_install_cursor_writes_no_event_name_and_warns_of_unknown_ones(tmp_path):
    path = tmp_path / ".cursor" / "hooks.json"
    events = {"preCompact": "./a.sh", "afterAgentResponse": "./b.sh", "beforeShellExecution": "c"}
    hooks = {event: [{"command": command}] for event, command in events.items()}
    write(path, json.dumps({"version": 1, "hooks": hooks}))
    result = run(["install", "cursor"], tmp_path)
    assert result.returncode == 0 and "warning" not in result.stdout + result.stderr
    assert list(json.loads(path.read_text())["hooks"]) == list(events)
    run(["uninstall", "cursor"], tmp_path)
    write(path, json.dumps({"version": 1, "hooks": {**hooks, "beforeEverything": []}}))
    result = run(["install", "cursor"], tmp_path)
    assert "hooks.beforeEverything: not an event Cursor knows" in result.stdout
    assert list(json.loads(path.read_text())["hooks"]) == [*events, "beforeEverything"]


def test_the_file_kind_comes_from_the_runtime_not_the_extension(tmp_path):
    codex = tmp_path / "config.toml"
    original = write(
        codex, '[[hooks.PreToolUse]]\n[[hooks.PreToolUse.hooks]]\ntype = "command"\ncommand = "x"\n'
    )
    result = run(["install", "claude-code", "--settings", str(codex)], tmp_path)
    assert result.returncode == 2 and "not valid JSON" in result.stderr
    assert codex.read_bytes() == original
    # Claude Code settings named .toml are still Claude Code's JSON.
    claude = tmp_path / "claude.toml"
    write(claude, '{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "x"}]}]}}')
    assert run(["install", "claude-code", "--settings", str(claude)], tmp_path).returncode == 0
    assert re.search(r"set -- x; ", claude.read_text())
