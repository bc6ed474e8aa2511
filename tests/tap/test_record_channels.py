"""Secrets planted in every channel of a call reach the hook and the caller, never the stream.

Through the real `hooktui tap` and a real hook: the request (values and keys),
the hook's stdout (a rewriting guard's JSON answer) and stderr (a Python
traceback), its argv, its label, a runtime variable and its cwd.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

from tests.conftest import HOOKTUI
from tests.tap.secrets import KINDS
from tests.tap.test_redact import leaks

# The hook: echo the request back as a Claude Code rewrite (updatedInput, JSON-escaped),
# then die in a traceback that shows a secret in a repr.
GUARD = r"""
import json, sys
request = json.load(sys.stdin)
command = request["tool_input"]["command"]
print(json.dumps({"hookSpecificOutput": {
    "hookEventName": "PreToolUse",
    "permissionDecision": "allow",
    "updatedInput": {"command": "export T=\"%s\"\n" % sys.argv[1] + command},
}}))
sys.stdout.flush()
raise ValueError("cannot use\n" + sys.argv[2])
"""


def planted(*names: str) -> list[str]:
    return [KINDS[n][1] for n in names]


def run_tap(
    tmp_path, argv, request: dict, env: dict, cwd
) -> tuple[bytes, subprocess.CompletedProcess]:
    stream = tmp_path / "s.jsonl"
    out = subprocess.run(
        [HOOKTUI, "tap", "--wait", "--stream", str(stream), *argv],
        input=json.dumps(request).encode(),
        capture_output=True,
        env=env,
        cwd=cwd,
        timeout=60,
    )
    (line,) = stream.read_bytes().splitlines()
    return line, out


def test_no_channel_leaks(tmp_path):
    request_secret, key_secret, nested_key = planted("github_pat", "gitlab_pat", "npm_access_token")
    stdout_secret, stderr_secret = planted("slack_bot_token", "stripe_access_token")
    argv_secret, label_secret = planted("sendgrid_api_token", "gcp_api_key")
    env_secret = KINDS["url_credentials"][0].split()[-1]  # https://deploy:<pw>@git.example.com/…
    cwd_secret = KINDS["huggingface_access_token"][1]
    cwd = tmp_path / cwd_secret
    cwd.mkdir()
    request = {
        "session_id": "s1",
        "hook_event_name": "PreToolUse",
        "cwd": str(cwd),
        "tool_name": "Bash",
        "tool_input": {"command": f"deploy\n{request_secret}", key_secret: {nested_key: 1}},
    }
    env = dict(os.environ, CLAUDE_PROJECT_DIR=env_secret)
    argv = ["--label", f"guard {label_secret}", "--", sys.executable, "-c", GUARD]
    argv += [stdout_secret, f"token {argv_secret}\n{stderr_secret}"]
    line, out = run_tap(tmp_path, argv, request, env, cwd)

    # The caller got the hook's answer untouched, the hook the request untouched.
    assert stdout_secret.encode() in out.stdout and request_secret.encode() in out.stdout
    assert stderr_secret.encode() in out.stderr
    secrets = [request_secret, key_secret, nested_key, stdout_secret, stderr_secret]
    secrets += [argv_secret, label_secret, KINDS["url_credentials"][1], cwd_secret]
    text = line.decode()
    for secret in secrets:
        assert not leaks(secret, text), secret
    record = json.loads(line)
    pointers = {r["pointer"].split("/")[1] for r in record["redactions"]}
    assert {"request", "updated_input", "stdout", "stderr", "hook", "summary", "cwd"} <= pointers
    hook_pointers = {r["pointer"] for r in record["redactions"] if r["pointer"].startswith("/hook")}
    assert {"/hook/label", "/hook/cwd", "/hook/env/CLAUDE_PROJECT_DIR"} <= hook_pointers
    assert any(p.startswith("/hook/argv/") for p in hook_pointers)
    assert record["exit_code"] == 1  # the traceback


def test_escaped_secrets_in_a_rewriting_guards_answer(tmp_path):
    # Every kind, right after a JSON escape in updatedInput: the case that leaked
    # for every command-rewriting guard.
    names = [n for n in KINDS if n not in ("private_key",)]
    secrets = [KINDS[n][0] if KINDS[n][0] != f"x {KINDS[n][1]} y" else KINDS[n][1] for n in names]
    answer = {
        "hookSpecificOutput": {
            "hookEventName": "PreToolUse",
            "permissionDecision": "allow",
            "updatedInput": {"command": "\n".join(["set -e", *secrets])},
        }
    }
    hook = ["sh", "-c", f"cat >/dev/null; printf '%s\\n' {json.dumps(json.dumps(answer))}"]
    request = {"hook_event_name": "PreToolUse", "tool_name": "Bash", "tool_input": {"command": "x"}}
    line, out = run_tap(tmp_path, ["--", *hook], request, dict(os.environ), tmp_path)
    assert json.loads(out.stdout) == answer
    text = line.decode()
    for name in names:
        assert not leaks(KINDS[name][1], text), name
