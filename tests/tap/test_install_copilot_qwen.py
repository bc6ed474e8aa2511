"""`hooktui install copilot|qwen-code` and uninstall: the same guarantees as the others
(every byte but the wrapped commands kept, byte-exact round trips), on real files
through the real command line; and the wrapped hooks answer as before, recorded."""

from __future__ import annotations

import json
import subprocess

from hooktui.tap.install.jsonedit import json_view

from tests.conftest import wait_for_records
from tests.tap.fixtures import request as fixture
from tests.tap.test_install import argv_label, argv_timeout, option, parsed, run, write

# Copilot: every `.github/hooks/*.json`, flat lists of handlers, `bash`, `timeoutSec`.
COPILOT_A = """{
  "version": 1,
  "hooks": {
    "preToolUse": [
      {"type": "command", "bash": "./scripts/guard.sh 'a b'", "powershell": "./scripts/guard.ps1", "cwd": "scripts", "timeoutSec": 10},
      {"type": "prompt", "prompt": "Is it safe? café"}
    ],
    "sessionStart": [{"type": "command", "bash": "echo hi >> /tmp/log", "env": {"X": "1"}}]
  }
}"""
COPILOT_B = '{"version":1,"hooks":{"postToolUse":[{"type":"command","bash":"audit"}]}}\n'


def test_copilot_wraps_every_hooks_file_and_restores_them_byte_for_byte(tmp_path):
    hooks = tmp_path / "repo" / ".github" / "hooks"
    a = write(hooks / "a.json", COPILOT_A, 0o600)
    b = write(hooks / "b.json", COPILOT_B)
    write(hooks / "notes.txt", "not a hooks file")
    result = run(["install", "copilot"], tmp_path / "repo")
    assert result.returncode == 0, result.stderr
    assert "not wrapped" in result.stdout and "'prompt'" in result.stdout
    assert "trust" in result.stdout  # the after-install note
    first = json.loads((hooks / "a.json").read_text())["hooks"]
    pre = first["preToolUse"][0]
    assert parsed(pre["bash"]).original == "./scripts/guard.sh 'a b'"
    assert pre["powershell"] == "./scripts/guard.ps1"  # only the bash line is ours
    assert option(parsed(pre["bash"]), "--runtime") == "copilot"
    assert (argv_label(pre["bash"]), argv_timeout(pre["bash"])) == ("preToolUse", "10000")
    start = first["sessionStart"][0]["bash"]
    assert argv_timeout(start) == "30000" and "--timeout-default" in parsed(start).args
    post = json.loads((hooks / "b.json").read_text())["hooks"]["postToolUse"][0]["bash"]
    assert parsed(post).original == "audit"
    result = run(["uninstall", "copilot"], tmp_path / "repo")
    assert result.returncode == 0, result.stderr
    assert (hooks / "a.json").read_bytes() == a and (hooks / "b.json").read_bytes() == b
    assert (hooks / "a.json").stat().st_mode & 0o777 == 0o600


def test_copilot_user_hooks_under_copilot_home(tmp_path):
    home = tmp_path / "copilot-home"
    original = write(home / "hooks" / "mine.json", COPILOT_B)
    env = {"COPILOT_HOME": str(home)}
    assert run(["install", "copilot", "--user"], tmp_path, env).returncode == 0
    assert (home / "hooks" / "mine.json").read_bytes() != original
    assert run(["uninstall", "copilot", "--user"], tmp_path, env).returncode == 0
    assert (home / "hooks" / "mine.json").read_bytes() == original


def test_copilot_without_hooks_names_where_it_looked(tmp_path):
    result = run(["install", "copilot"], tmp_path)
    assert result.returncode == 1
    assert ".github/hooks/*.json" in result.stderr and "Traceback" not in result.stderr


QWEN = """{
  // Qwen Code's settings
  "model": {"name": "qwen3-coder"},
  "hooks": {
    "PreToolUse": [
      {"matcher": "run_shell_command", "hooks": [{"type": "command", "command": "python3 guard.py", "timeout": 5}]}
    ],
    "Stop": [{"hooks": [{"type": "command", "command": "notify done", "timeout": 2000}, {"type": "http", "url": "http://127.0.0.1:9/"}]}],
    "UserPromptSubmit": [{"hooks": [{"type": "command", "command": "log-prompt"}]}]
  }
}
"""


def test_qwen_code_install_round_trip_and_timeouts_in_seconds(tmp_path):
    path = tmp_path / ".qwen" / "settings.json"
    original = write(path, QWEN)
    result = run(["install", "qwen-code"], tmp_path)
    assert result.returncode == 0, result.stderr
    text = path.read_text()
    assert "// Qwen Code's settings" in text  # comments kept
    data = json.loads(json_view(text, True))
    hooks = data["hooks"]
    pre = hooks["PreToolUse"][0]["hooks"][0]["command"]
    assert option(parsed(pre), "--runtime") == "qwen-code"
    assert (argv_label(pre), argv_timeout(pre)) == ("PreToolUse:run_shell_command", "5000")
    assert argv_timeout(hooks["Stop"][0]["hooks"][0]["command"]) == "2000"  # legacy ms
    prompt = hooks["UserPromptSubmit"][0]["hooks"][0]["command"]
    assert argv_timeout(prompt) == "60000" and "--timeout-default" in parsed(prompt).args
    assert run(["uninstall", "qwen-code"], tmp_path).returncode == 0
    assert path.read_bytes() == original


def test_installed_qwen_hook_answers_as_before_and_is_recorded_as_qwen(tmp_path):
    stream = tmp_path / "stream.jsonl"
    settings = tmp_path / "settings.json"
    # exit 2 with the reason on stderr: Qwen Code blocks with it.
    bare = "echo 'no rm' >&2; exit 2"
    write(
        settings,
        json.dumps({"hooks": {"PreToolUse": [{"hooks": [{"type": "command", "command": bare}]}]}}),
    )
    cmd = ["install", "qwen-code", "--settings", str(settings), "--stream", str(stream)]
    assert run(cmd, tmp_path).returncode == 0
    wrapped = json.loads(settings.read_text())["hooks"]["PreToolUse"][0]["hooks"][0]["command"]
    request = json.dumps(fixture("qwen_pre_shell")).encode()

    def answer(command):
        p = subprocess.run(["sh", "-c", command], input=request, capture_output=True, timeout=30)
        return p.stdout, p.stderr, p.returncode

    assert answer(wrapped) == answer(bare)
    (record,) = wait_for_records(stream, 1)
    assert (record["runtime"], record["decision"], record["reason"]) == (
        "qwen-code",
        "deny",
        "no rm",
    )
    assert record["hook"]["timeout_ms"] == 60_000 and record["hook"]["timeout_source"] == "default"


def test_copilot_timeout_key_is_read_when_timeoutsec_is_absent(tmp_path):
    """Copilot 1.0.102 reads `timeout` (seconds) when `timeoutSec` is absent, and
    `timeoutSec` when both are set (seen 2026-12-07): the tap is told that timeout."""
    hooks = tmp_path / ".github" / "hooks" / "t.json"
    handlers = [
        {"type": "command", "bash": "a", "timeout": 5},
        {"type": "command", "bash": "b", "timeout": 20, "timeoutSec": 3},
        {"type": "command", "bash": "c"},
    ]
    original = write(hooks, json.dumps({"version": 1, "hooks": {"preToolUse": handlers}}))
    assert run(["install", "copilot"], tmp_path).returncode == 0
    wrapped = [h["bash"] for h in json.loads(hooks.read_text())["hooks"]["preToolUse"]]
    assert [argv_timeout(w) for w in wrapped] == ["5000", "3000", "30000"]
    assert ["--timeout-default" in parsed(w).args for w in wrapped] == [False, False, True]
    assert run(["uninstall", "copilot"], tmp_path).returncode == 0
    assert hooks.read_bytes() == original
