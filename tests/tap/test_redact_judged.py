"""Secrets the record kept in clear (issue 19), each through the real tap:

- a value under a key that names a secret (`{"password": ...}`, `api_key`, a Gemini
  hook's own `env` value): judged with its key, as the same text in one string is;
- a secret in argv right beside a byte that is not UTF-8 (the record escapes it);
- a secret written in base64 (decoded and read again, as gitleaks does).
"""

from __future__ import annotations

import base64
import json
import os
import subprocess

from tests.conftest import HOOKTUI, wait_for_lines
from tests.tap.secrets import KINDS

SIX = ("stripe_access_token", "stripe_restricted", "gcp_api_key", "npm_access_token")
SIX += ("huggingface_access_token", "sendgrid_api_token")


def recorded(tmp_path, request: dict, argv: list, env: dict | None = None, extra=()) -> bytes:
    stream = tmp_path / "s.jsonl"
    done = subprocess.run(
        [HOOKTUI, "tap", "--wait", "--stream", str(stream), *extra, "--", *argv],
        input=json.dumps(request).encode(), capture_output=True, timeout=60,
        env={**os.environ, **(env or {})},
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    (line,) = wait_for_lines(stream, 1)
    return line


def pre_tool_use(tool_input: dict) -> dict:
    return {"session_id": "s", "hook_event_name": "PreToolUse", "tool_name": "Bash",
            "tool_input": tool_input}  # fmt: skip


def test_a_value_under_a_secrets_key_is_masked_everywhere(tmp_path):
    tool_input = {"command": "deploy", "password": "hunter2", "api_key": "abc123def",
                  "clientSecret": "s3cr3t-value", "max_tokens": "4096"}  # fmt: skip
    line = recorded(tmp_path, pre_tool_use(tool_input), ["cat"])
    for value in ("hunter2", "abc123def", "s3cr3t-value"):
        assert value.encode() not in line
    record = json.loads(line)
    assert record["tool_input"]["max_tokens"] == "4096"  # a count, not a secret
    pointers = {r["pointer"] for r in record["redactions"]}
    assert {"/tool_input/password", "/request/tool_input/password"} <= pointers


def test_a_hooks_own_env_value_is_masked(tmp_path):
    """Gemini CLI's hook `env`: install tells the tap the names, the record keeps them."""
    line = recorded(
        tmp_path, pre_tool_use({"command": "ls"}), ["true"],
        env={"SERVICE_TOKEN": "tok-live-2b7f1c9e", "GEMINI_PROJECT_DIR": str(tmp_path)},
        extra=("--runtime", "gemini-cli", "--hook-env", "SERVICE_TOKEN"),
    )  # fmt: skip
    assert b"tok-live-2b7f1c9e" not in line
    assert json.loads(line)["hook"]["env"]["SERVICE_TOKEN"].startswith("[REDACTED:")


def test_a_secret_beside_a_byte_that_is_not_utf8_is_masked(tmp_path):
    secrets = [KINDS[kind][1] for kind in SIX]
    argv = ["true", *(os.fsdecode(b"\xff" + s.encode() + b"\xfe") for s in secrets)]
    line = recorded(tmp_path, pre_tool_use({"command": "ls"}), argv)
    leaked = [kind for kind, s in zip(SIX, secrets, strict=True) if s.encode() in line]
    assert not leaked


def test_a_secret_in_base64_is_masked_in_every_channel(tmp_path):
    text, secret = KINDS["aws_secret_key"]
    once = base64.b64encode(text.encode()).decode()
    twice = base64.b64encode(once.encode()).decode()
    hook = ["sh", "-c", f"cat >/dev/null; echo {once}; echo {twice} >&2", once]
    line = recorded(tmp_path, pre_tool_use({"command": f"login --blob {once}"}), hook)
    for shown in (once, twice, secret):
        assert shown.encode() not in line
    kinds = {r["kind"] for r in json.loads(line)["redactions"]}
    assert kinds == {"aws_secret_key"}
