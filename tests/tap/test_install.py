"""`hooktui install` / `uninstall` on real settings files, through the real command line."""

from __future__ import annotations

import json
import os
import shlex
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
from hooktui.tap.install import settings as inst
from hooktui.tap.install.wrapper import Wrapped, read_exec, read_shell, unwrap_shell

from tests.conftest import HOOKTUI, wait_for_records


def run(args: list[str], cwd: Path, env: dict | None = None) -> subprocess.CompletedProcess:
    return subprocess.run(
        [HOOKTUI, *args],
        cwd=cwd,
        env={**os.environ, **(env or {})},
        capture_output=True,
        text=True,
        timeout=60,
    )


def write(path: Path, text: str, mode: int = 0o644) -> bytes:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    path.chmod(mode)
    return path.read_bytes()


# Odd indentation (3 spaces, a tab), keys in an unusual order, a compact inner
# object, non-ASCII text, no trailing newline, and hooks that are not commands.
CLAUDE_SETTINGS = """{
   "hooks": {
\t"PreToolUse": [
         {
            "hooks": [
               {"timeout": 30, "command": "python3 \\"$CLAUDE_PROJECT_DIR\\"/.claude/hooks/guard.py 'a b'", "type": "command"},
               {"type": "http", "url": "http://127.0.0.1:9/hook"},
               {"type": "prompt", "prompt": "Is this safe? café"},
               {"type": "command", "command": "/usr/local/bin/policy", "args": ["--mode", "strict", "x y"]}
            ],
            "matcher": "Bash"
         }
      ],
\t"Stop": [{"hooks": [{"type": "agent", "prompt": "check"}, {"type": "command", "command": "echo done >> /tmp/log"}]}]
   },
   "permissions": {"allow": ["Bash(ls:*)"]},
   "model": "opus"
}"""


def claude_project(tmp_path: Path) -> tuple[Path, Path, bytes]:
    project = tmp_path / "project"
    path = project / ".claude" / "settings.json"
    return project, path, write(path, CLAUDE_SETTINGS, 0o600)


def test_claude_install_wraps_commands_and_keeps_everything_else(tmp_path):
    project, path, original = claude_project(tmp_path)
    result = run(["install", "claude-code"], project)
    assert result.returncode == 0, result.stderr
    new = path.read_text()
    data = json.loads(new)
    pre = data["hooks"]["PreToolUse"][0]["hooks"]
    # Shell form: the original runs unchanged, under the runtime's own shell, in the tap.
    wrapped = parsed(pre[0]["command"])
    assert wrapped.hooktui == HOOKTUI
    assert wrapped.original == "python3 \"$CLAUDE_PROJECT_DIR\"/.claude/hooks/guard.py 'a b'"
    assert option(wrapped, "--label") == "PreToolUse:Bash"
    assert option(wrapped, "--runtime") == "claude-code"
    assert option(wrapped, "--timeout-ms") == "30000"  # 30 s configured
    assert "--stream" not in wrapped.args  # the tap's default applies
    # Exec form: the argv is wrapped as it is, no shell between the tap and the hook.
    exec_form = read_exec(pre[3]["command"], pre[3]["args"])
    assert exec_form.hooktui == HOOKTUI
    assert exec_form.argv == ["/usr/local/bin/policy", "--mode", "strict", "x y"]
    assert option(exec_form, "--timeout-ms") == "600000"  # Claude's default
    # An http hook becomes a command that makes its POST in the tap (its keys kept);
    # other hooks untouched.
    http = parsed(pre[1]["command"])
    assert {k: v for k, v in pre[1].items() if k != "command"} == {
        "type": "command",
        "url": "http://127.0.0.1:9/hook",
    }
    assert "-m hooktui.tap.httphook --runtime claude-code --url http://127.0.0.1:9/hook" in (
        http.original
    )
    assert option(http, "--timeout-ms") == "600000"
    assert pre[2] == {"type": "prompt", "prompt": "Is this safe? café"}
    stop = data["hooks"]["Stop"][0]["hooks"]
    assert stop[0] == {"type": "agent", "prompt": "check"}
    assert parsed(stop[1]["command"]).original == "echo done >> /tmp/log"
    assert argv_label(stop[1]["command"]) == "Stop"
    # Formatting kept: every line without a command is byte-identical, same
    # line count, no trailing newline added, key order kept, mode kept.
    old_lines, new_lines = CLAUDE_SETTINGS.split("\n"), new.split("\n")
    assert len(old_lines) == len(new_lines)
    changed = [i for i, (a, b) in enumerate(zip(old_lines, new_lines, strict=True)) if a != b]
    assert all('"command"' in old_lines[i] or '"http"' in old_lines[i] for i in changed)
    assert len(changed) == 4
    assert not new.endswith("\n")
    assert list(data) == ["hooks", "permissions", "model"]
    assert list(pre[0]) == ["timeout", "command", "type"]
    assert path.stat().st_mode & 0o777 == 0o600
    # Backup of the original, byte for byte.
    backup = path.with_name("settings.json.hooktui-backup")
    assert backup.read_bytes() == original
    assert "wrapped 4 command hook(s)" in result.stdout


def parsed(command: str) -> Wrapped:
    wrapped = read_shell(command)
    assert wrapped is not None, command
    return wrapped


def option(wrapped: Wrapped, name: str) -> str:
    return wrapped.args[wrapped.args.index(name) + 1]


def argv_label(command: str) -> str:
    return option(parsed(command), "--label")


def test_install_twice_wraps_nothing_twice(tmp_path):
    project, path, original = claude_project(tmp_path)
    assert run(["install", "claude-code"], project).returncode == 0
    once = path.read_bytes()
    again = run(["install", "claude-code"], project)
    assert again.returncode == 0
    assert "already wrapped" in again.stdout
    assert path.read_bytes() == once
    backup = path.with_name("settings.json.hooktui-backup")
    assert backup.read_bytes() == original  # still the first install's original


def test_dry_run_prints_a_diff_and_writes_nothing(tmp_path):
    project, path, original = claude_project(tmp_path)
    result = run(["install", "claude-code", "--dry-run"], project)
    assert result.returncode == 0
    assert result.stdout.startswith(f"--- {path}")
    lines = result.stdout.splitlines()
    minus = [x for x in lines if x.startswith("-") and not x.startswith("---")]
    plus = [x for x in lines if x.startswith("+") and not x.startswith("+++")]
    assert len(minus) == len(plus) == 4  # three commands, one http hook
    assert all(HOOKTUI in line for line in plus)
    assert "nothing written" in result.stdout
    assert path.read_bytes() == original
    assert sorted(p.name for p in path.parent.iterdir()) == ["settings.json"]


def test_uninstall_restores_byte_for_byte(tmp_path):
    project, path, original = claude_project(tmp_path)
    assert run(["install", "claude-code"], project).returncode == 0
    assert path.read_bytes() != original
    result = run(["uninstall", "claude-code"], project)
    assert result.returncode == 0, result.stderr
    assert path.read_bytes() == original
    assert "byte for byte" in result.stdout
    assert path.stat().st_mode & 0o777 == 0o600
    assert not path.with_name("settings.json.hooktui-backup").exists()
    # Uninstalling again: nothing to do, nothing written.
    again = run(["uninstall", "claude-code"], project)
    assert again.returncode == 0 and "nothing to do" in again.stdout
    assert path.read_bytes() == original


def test_uninstall_after_an_edit_unwraps_in_place_and_keeps_the_edit(tmp_path):
    project, path, _ = claude_project(tmp_path)
    assert run(["install", "claude-code"], project).returncode == 0
    path.write_text(path.read_text().replace('"model": "opus"', '"model": "sonnet"'))
    result = run(["uninstall", "claude-code"], project)
    assert result.returncode == 0
    assert "in place" in result.stdout and "changed since install" in result.stdout
    data = json.loads(path.read_text())
    assert data["model"] == "sonnet"
    assert data == {**json.loads(CLAUDE_SETTINGS), "model": "sonnet"}


def test_uninstall_dry_run_writes_nothing(tmp_path):
    project, path, _ = claude_project(tmp_path)
    assert run(["install", "claude-code"], project).returncode == 0
    installed = path.read_bytes()
    result = run(["uninstall", "claude-code", "--dry-run"], project)
    assert result.returncode == 0 and "nothing written" in result.stdout
    assert path.read_bytes() == installed


@pytest.mark.parametrize(
    ("rel", "runtime", "text"),
    [
        (".claude/settings.json", "claude-code", '{"hooks": {"PreToolUse": [}}'),
        (".gemini/settings.json", "gemini-cli", "{'hooks': {}}"),
        (".codex/config.toml", "codex", '[[hooks.PreToolUse]]\nmatcher = "Bash\n'),
        (".cursor/hooks.json", "cursor", ""),
    ],
)
def test_invalid_settings_exit_2_and_stay_untouched(tmp_path, rel, runtime, text):
    path = tmp_path / rel
    original = write(path, text)
    result = run(["install", runtime], tmp_path)
    assert result.returncode == 2
    assert result.stderr.count("\n") == 1 and "Traceback" not in result.stderr
    assert str(path) in result.stderr and "not valid" in result.stderr
    assert path.read_bytes() == original
    assert sorted(p.name for p in path.parent.iterdir()) == [path.name]
    assert run(["uninstall", runtime], tmp_path).returncode == 2


def test_missing_settings_and_no_command_hooks_exit_1(tmp_path):
    result = run(["install", "claude-code"], tmp_path)
    assert result.returncode == 1
    assert "no claude-code settings" in result.stderr and ".claude/settings.json" in result.stderr
    write(
        tmp_path / ".claude/settings.json",
        '{"hooks": {"Stop": [{"hooks": [{"type": "prompt", "prompt": "x"}]}]}}\n',
    )
    result = run(["install", "claude-code"], tmp_path)
    assert result.returncode == 1 and "no command hooks" in result.stderr
    result = run(["install", "claude-code", "--settings", str(tmp_path / "nope.json")], tmp_path)
    assert result.returncode == 1 and "no such settings file" in result.stderr


def test_bad_usage_is_one_line_exit_2(tmp_path):
    result = run(["install", "vim"], tmp_path)
    assert result.returncode == 2 and result.stderr.count("\n") == 1
    result = run(["install", "claude-code", "--label-from", "nothing"], tmp_path)
    assert result.returncode == 2 and result.stderr.count("\n") == 1


def test_project_settings_found_from_a_subdirectory_via_git_top(tmp_path):
    project, path, original = claude_project(tmp_path)
    (project / ".git").mkdir()
    sub = project / "src" / "pkg"
    sub.mkdir(parents=True)
    assert run(["install", "claude-code"], sub).returncode == 0
    assert path.read_bytes() != original
    assert run(["uninstall", "claude-code"], sub).returncode == 0
    assert path.read_bytes() == original


def test_user_settings_and_explicit_settings(tmp_path):
    home = tmp_path / "home"
    user = home / ".claude" / "settings.json"
    original = write(
        user,
        '{"hooks": {"PreToolUse": [{"matcher": "Edit|Write", "hooks": [{"type": "command", "command": "lint"}]}]}}\n',
    )
    result = run(["install", "claude-code", "--user"], tmp_path, env={"HOME": str(home)})
    assert result.returncode == 0, result.stderr
    hook = json.loads(user.read_text())["hooks"]["PreToolUse"][0]["hooks"][0]
    assert argv_label(hook["command"]) == "PreToolUse:Edit|Write"
    other = tmp_path / "elsewhere.json"
    other.write_bytes(original)
    assert run(["install", "claude-code", "--settings", str(other)], tmp_path).returncode == 0
    assert json.loads(other.read_text()) == json.loads(user.read_text())
    assert run(["uninstall", "claude-code", "--settings", str(other)], tmp_path).returncode == 0
    assert other.read_bytes() == original


CODEX_TOML = """# Codex config
model = "gpt-5-codex"   # inline comment
approval_policy = "never"

[features]
hooks = true

[[hooks.PreToolUse]]
matcher = "Bash"

  [[hooks.PreToolUse.hooks]]
  type = "command"
  command = 'python3 ~/.codex/guard.py --strict'   # a literal string
  timeout = 10

  [[hooks.PreToolUse.hooks]]
  type = "command"
  command = \"\"\"
echo "multi line" && exit 0\"\"\"

[[hooks.PostToolUse]]
[[hooks.PostToolUse.hooks]]
type = "command"
command = "echo \\"post\\" \\\\ done"

[analytics]
enabled = false
"""


def test_codex_config_toml_edited_in_place(tmp_path):
    path = tmp_path / ".codex" / "config.toml"
    original = write(path, CODEX_TOML)
    result = run(["install", "codex"], tmp_path)
    assert result.returncode == 0, result.stderr
    assert "re-approve" in result.stdout and "--dangerously-bypass-hook-trust" in result.stdout
    new = path.read_text()
    data = tomllib.loads(new)
    before = tomllib.loads(CODEX_TOML)
    pre = data["hooks"]["PreToolUse"][0]["hooks"]
    assert parsed(pre[0]["command"]).original == "python3 ~/.codex/guard.py --strict"
    assert argv_timeout(pre[0]["command"]) == "10000"
    assert argv_timeout(pre[1]["command"]) == "600000"
    assert (
        parsed(pre[1]["command"]).original
        == before["hooks"]["PreToolUse"][0]["hooks"][1]["command"]
    )
    post = data["hooks"]["PostToolUse"][0]["hooks"][0]["command"]
    assert parsed(post).original == 'echo "post" \\ done'
    assert argv_label(post) == "PostToolUse"
    # Everything else (comments included) kept.
    assert "# Codex config\n" in new and "# a literal string" in new and "# inline comment" in new
    assert {k: v for k, v in data.items() if k != "hooks"} == {
        k: v for k, v in before.items() if k != "hooks"
    }
    assert run(["install", "codex"], tmp_path).stdout.count("already wrapped") == 1
    result = run(["uninstall", "codex"], tmp_path)
    assert result.returncode == 0
    assert path.read_bytes() == original


def argv_timeout(command: str) -> str:
    return option(parsed(command), "--timeout-ms")


def test_codex_hooks_json_and_config_toml_both_wrapped_and_codex_home_for_user(tmp_path):
    # The real Codex 0.171 runs the hooks of both files (pinned by hand: a marker from each).
    project = tmp_path / "repo"
    hooks_json = project / ".codex" / "hooks.json"
    original = write(
        hooks_json,
        '{\n  "hooks": {\n    "PreToolUse": [\n      {\n        "matcher": "Bash",\n        "hooks": [\n          {\n            "type": "command",\n            "command": "./check.sh"\n          }\n        ]\n      }\n    ]\n  }\n}\n',
    )
    toml = write(project / ".codex" / "config.toml", CODEX_TOML)
    result = run(["install", "codex"], project)
    assert result.returncode == 0, result.stderr
    assert str(hooks_json) in result.stdout and "config.toml" in result.stdout
    cmd = json.loads(hooks_json.read_text())["hooks"]["PreToolUse"][0]["hooks"][0]["command"]
    assert parsed(cmd).original == "./check.sh"
    wrapped_toml = tomllib.loads((project / ".codex" / "config.toml").read_text())
    assert parsed(wrapped_toml["hooks"]["PostToolUse"][0]["hooks"][0]["command"])
    assert run(["uninstall", "codex"], project).returncode == 0
    assert hooks_json.read_bytes() == original
    assert (project / ".codex" / "config.toml").read_bytes() == toml
    # --user honours $CODEX_HOME.
    codex_home = tmp_path / "codex-home"
    user_toml = codex_home / "config.toml"
    user_original = write(user_toml, CODEX_TOML)
    env = {"CODEX_HOME": str(codex_home), "HOME": str(tmp_path / "home")}
    assert run(["install", "codex", "--user"], project, env).returncode == 0
    assert user_toml.read_bytes() != user_original
    assert run(["uninstall", "codex", "--user"], project, env).returncode == 0
    assert user_toml.read_bytes() == user_original


def test_codex_inline_hook_tables_are_refused_untouched(tmp_path):
    text = '[hooks]\nPreToolUse = [{ matcher = "Bash", hooks = [{ type = "command", command = "x" }] }]\n'
    path = tmp_path / ".codex" / "config.toml"
    original = write(path, text)
    result = run(["install", "codex"], tmp_path)
    assert result.returncode == 2 and "left untouched" in result.stderr
    assert path.read_bytes() == original


def test_gemini_timeouts_are_milliseconds(tmp_path):
    path = tmp_path / ".gemini" / "settings.json"
    settings = {
        "general": {"disableAutoUpdate": True},
        "hooks": {
            "BeforeTool": [
                {
                    "matcher": "run_shell_command",
                    "sequential": True,
                    "hooks": [
                        {
                            "type": "command",
                            "name": "guard",
                            "command": "node guard.js",
                            "timeout": 1500,
                        },
                        {"type": "command", "command": "python3 .gemini/hooks/audit.py"},
                    ],
                }
            ]
        },
    }
    original = write(path, json.dumps(settings, indent=2) + "\n")
    result = run(
        ["install", "gemini-cli", "--label-from", "command", "--stream", str(tmp_path / "s.jsonl")],
        tmp_path,
    )
    assert result.returncode == 0, result.stderr
    hooks = json.loads(path.read_text())["hooks"]["BeforeTool"][0]["hooks"]
    assert argv_timeout(hooks[0]["command"]) == "1500"
    assert argv_timeout(hooks[1]["command"]) == "60000"
    assert argv_label(hooks[0]["command"]) == "guard.js"  # the script, not `node`
    assert argv_label(hooks[1]["command"]) == "audit.py"
    assert option(parsed(hooks[0]["command"]), "--stream") == str(tmp_path / "s.jsonl")
    assert option(parsed(hooks[0]["command"]), "--runtime") == "gemini-cli"
    assert hooks[0]["name"] == "guard" and hooks[0]["timeout"] == 1500
    assert run(["uninstall", "gemini-cli"], tmp_path).returncode == 0
    assert path.read_bytes() == original


def test_cursor_flat_hooks(tmp_path):
    path = tmp_path / ".cursor" / "hooks.json"
    original = write(
        path,
        '{"version": 1, "hooks": {"beforeShellExecution": [{"command": "./audit.sh"}], "afterFileEdit": [{"command": "./fmt.sh", "timeout": 5}]}}',
    )
    assert run(["install", "cursor"], tmp_path).returncode == 0
    hooks = json.loads(path.read_text())["hooks"]
    first = hooks["beforeShellExecution"][0]["command"]
    assert parsed(first).original == "./audit.sh"
    assert argv_label(first) == "beforeShellExecution"
    assert "--timeout-ms" not in parsed(first).args  # no documented default
    assert argv_timeout(hooks["afterFileEdit"][0]["command"]) == "5000"
    assert run(["uninstall", "cursor"], tmp_path).returncode == 0
    assert path.read_bytes() == original


NASTY = [
    "echo 'single' \"double\" $HOME `date` \\ back",
    "python3 -c 'import sys; print(sys.stdin.read()[:0] or \"{}\")'",
    "a && b || c; d | e > /dev/null 2>&1",
    "echo café \t tab",
    "",
]


@pytest.mark.parametrize("command", NASTY)
def test_shell_wrap_round_trips(command):
    opts = inst.Options(
        runtime="claude-code", hooktui="/opt/hook tui/bin/hooktui", stream="/tmp/a b.jsonl"
    )
    wrapped = inst.wrap_shell(command, opts, "Pre:Bash", 1000)
    assert unwrap_shell(wrapped) == command
    assert unwrap_shell(command) is None


def hook_script(tmp_path: Path) -> Path:
    script = tmp_path / "hook.py"
    script.write_text(
        "import json, sys\n"
        "req = json.load(sys.stdin)\n"
        "sys.stderr.write('checked ' + req['tool_input']['command'] + '\\n')\n"
        "print(json.dumps({'hookSpecificOutput': {'hookEventName': 'PreToolUse',"
        " 'permissionDecision': 'deny', 'permissionDecisionReason': 'no \\'rm\\''}}))\n"
    )
    return script


def test_an_installed_command_runs_through_the_tap(tmp_path):
    script = hook_script(tmp_path)
    original_cmd = f"{shlex.quote(sys.executable)} {shlex.quote(str(script))} && true"
    stream = tmp_path / "stream.jsonl"
    settings = tmp_path / "settings.json"
    write(
        settings,
        json.dumps(
            {
                "hooks": {
                    "PreToolUse": [
                        {
                            "matcher": "Bash",
                            "hooks": [
                                {"type": "command", "command": original_cmd, "timeout": 5},
                                {
                                    "type": "command",
                                    "command": sys.executable,
                                    "args": [str(script)],
                                },
                            ],
                        }
                    ]
                }
            },
            indent=2,
        ),
    )
    result = run(
        ["install", "claude-code", "--settings", str(settings), "--stream", str(stream)], tmp_path
    )
    assert result.returncode == 0, result.stderr
    hooks = json.loads(settings.read_text())["hooks"]["PreToolUse"][0]["hooks"]
    request = json.dumps(
        {
            "session_id": "s1",
            "cwd": str(tmp_path),
            "hook_event_name": "PreToolUse",
            "tool_name": "Bash",
            "tool_input": {"command": "rm -rf build"},
            "tool_use_id": "t1",
        }
    )

    def answer(argv):
        p = subprocess.run(argv, input=request.encode(), capture_output=True, timeout=30)
        return p.stdout, p.stderr, p.returncode

    bare = answer(["sh", "-c", original_cmd])
    assert answer(["sh", "-c", hooks[0]["command"]]) == bare  # as the runtime runs it
    assert answer([hooks[1]["command"], *hooks[1]["args"]]) == bare  # exec form
    records = wait_for_records(stream, 2)
    for record in records:
        assert record["runtime"] == "claude-code"
        assert record["hook"]["label"] == "PreToolUse:Bash"
        assert record["decision"] == "deny"
        assert record["request"]["tool_input"] == {"command": "rm -rf build"}
    assert sorted(r["hook"]["timeout_ms"] for r in records) == [5000, 600000]


def test_gemini_settings_with_comments_keep_them(tmp_path):
    text = (
        "// Gemini CLI reads this through strip-json-comments\n"
        "{\n"
        '  "hooks": {\n'
        '    /* block */ "AfterTool": [{"hooks": [\n'
        '      {"type": "command", "command": "echo \'// not a comment\'"} // trailing\n'
        "    ]}]\n"
        "  }\n"
        "}\n"
    )
    path = tmp_path / ".gemini" / "settings.json"
    original = write(path, text)
    assert run(["install", "gemini-cli"], tmp_path).returncode == 0
    new = path.read_text()
    assert new.count("//") == 3 and "/* block */" in new and "// trailing" in new
    line = [x for x in new.splitlines() if "hooktui" in x][0]
    command = json.loads(line[line.index('"command": ') + 11 : line.rindex("}")])
    assert parsed(command).original == "echo '// not a comment'"
    assert run(["uninstall", "gemini-cli"], tmp_path).returncode == 0
    assert path.read_bytes() == original
    # Claude Code's settings are strict JSON: comments there are an error.
    claude = write(tmp_path / ".claude" / "settings.json", text)
    assert run(["install", "claude-code"], tmp_path).returncode == 2
    assert (tmp_path / ".claude" / "settings.json").read_bytes() == claude


def test_bom_and_symlinked_settings(tmp_path):
    real = tmp_path / "dotfiles" / "claude.json"
    original = write(
        real, '\ufeff{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "echo é"}]}]}}\n'
    )
    link = tmp_path / "project" / ".claude" / "settings.json"
    link.parent.mkdir(parents=True)
    link.symlink_to(real)
    assert run(["install", "claude-code"], tmp_path / "project").returncode == 0
    assert link.is_symlink()  # the link stays a link; its target is rewritten
    stop = json.loads(real.read_text(encoding="utf-8-sig"))["hooks"]["Stop"][0]["hooks"][0]
    assert parsed(stop["command"]).original == "echo é"
    assert real.read_bytes().startswith(b"\xef\xbb\xbf")
    assert run(["uninstall", "claude-code"], tmp_path / "project").returncode == 0
    assert link.is_symlink() and real.read_bytes() == original


def test_installed_codex_toml_commands_answer_as_before(tmp_path):
    script = hook_script(tmp_path)
    stream = tmp_path / "codex.jsonl"
    exe, hook = sys.executable, str(script)
    text = (
        "[[hooks.PreToolUse]]\n"
        'matcher = "Bash"\n'
        "[[hooks.PreToolUse.hooks]]\n"
        'type = "command"\n'
        f"command = '''{exe} {hook} | cat; echo \"done $((1+1))\" >&2'''\n"
        "timeout = 7\n"
    )
    path = tmp_path / ".codex" / "config.toml"
    write(path, text)
    original = tomllib.loads(text)["hooks"]["PreToolUse"][0]["hooks"][0]["command"]
    assert run(["install", "codex", "--stream", str(stream)], tmp_path).returncode == 0
    wrapped = tomllib.loads(path.read_text())["hooks"]["PreToolUse"][0]["hooks"][0]["command"]
    request = json.dumps(
        {
            "session_id": "c1",
            "cwd": str(tmp_path),
            "hook_event_name": "PreToolUse",
            "model": "gpt-5-codex",
            "turn_id": "t1",
            "tool_name": "Bash",
            "tool_input": {"command": "rm -rf build"},
        }
    ).encode()
    bare = subprocess.run(["sh", "-c", original], input=request, capture_output=True, timeout=60)
    tapped = subprocess.run(["sh", "-c", wrapped], input=request, capture_output=True, timeout=60)
    assert (tapped.stdout, tapped.stderr, tapped.returncode) == (
        bare.stdout,
        bare.stderr,
        bare.returncode,
    )
    assert b"done 2" in bare.stderr
    (record,) = wait_for_records(stream, 1)
    assert record["runtime"] == "codex" and record["decision"] == "deny"
    assert record["hook"]["timeout_ms"] == 7000


def test_relative_stream_is_made_absolute(tmp_path):
    project, path, _ = claude_project(tmp_path)
    assert run(["install", "claude-code", "--stream", "logs/s.jsonl"], project).returncode == 0
    command = json.loads(path.read_text())["hooks"]["Stop"][0]["hooks"][1]["command"]
    assert option(parsed(command), "--stream") == str(project / "logs" / "s.jsonl")
