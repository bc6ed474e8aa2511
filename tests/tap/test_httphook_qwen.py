"""An http hook of Qwen Code 0.24.4 as the command install makes of it: the POST it
makes and the answer as Qwen Code reads the reply (real local server, real subprocess),
and install / uninstall of such a hook in `.qwen/settings.json`."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from hooktui.tap.httphook.spec import HttpSpec

from tests.tap.test_httphook import answering_server, free_port, last_post, run_spec

REQUEST = b'{"hook_event_name":"PreToolUse","tool_name":"run_shell_command","tool_input":{}}'
DENY = {"permissionDecision": "deny", "permissionDecisionReason": "no"}
LONG = "x" * 10_005
ANSWERS = {
    # JSON: only the keys Qwen keeps; hookEventName added; long strings cut.
    "/deny": {"body": json.dumps({"hookSpecificOutput": DENY, "extra": 1, "continue": "no"})},
    "/long": {"body": json.dumps({"reason": LONG, "decision": "block"})},
    "/array": {"body": "[1]"},
    "/string": {"body": '"hi"'},
    "/nan": {"body": '{"reason": NaN}'},  # JSON.parse rejects NaN
    "/broken": {"body": '{"decision": '},
    "/empty-json": {"body": ""},
    # Not JSON by its Content-Type: the trimmed text is a system message, JSON or not.
    "/text": {"body": "\ufeff  plain words \n", "type": "text/plain"},
    "/text-json": {"body": json.dumps({"hookSpecificOutput": DENY}), "type": "text/plain"},
    "/blank": {"body": " \n", "type": "text/plain"},
    "/fail": {"status": 500, "body": json.dumps({"hookSpecificOutput": DENY})},
    "/moved": {"status": 302, "body": ""},
}
CONTINUE = '{"continue":true}'


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    yield from answering_server(tmp_path_factory, ANSWERS)


def call(url: str, headers=(), allow=(), env=None) -> subprocess.CompletedProcess:
    return run_spec(HttpSpec("qwen-code", url, tuple(headers), tuple(allow)), REQUEST, env)


def cut(text: str) -> str:
    return text[:10_000] + f"\n... [truncated, {len(text) - 10_000} more characters]"


@pytest.mark.parametrize(
    ("path", "output", "code"),
    [
        ("/deny", {"hookSpecificOutput": {**DENY, "hookEventName": "PreToolUse"}}, 0),
        ("/long", {"decision": "block", "reason": cut(LONG)}, 0),
        ("/array", {}, 0),
        ("/string", {"continue": True}, 0),  # Qwen's normalizing throws: its fallback
        ("/nan", {"continue": True}, 0),
        ("/broken", {"continue": True}, 0),
        ("/empty-json", {"continue": True}, 0),
        ("/text", {"continue": True, "systemMessage": "plain words"}, 0),
        (
            "/text-json",
            {"continue": True, "systemMessage": json.dumps({"hookSpecificOutput": DENY})},
            0,
        ),
        ("/blank", {"continue": True}, 0),
        # A non-2xx (a 3xx too: no redirect followed): a non-blocking error whose
        # output is {continue: true}; exit 1 with that on stdout is read the same.
        ("/fail", {"continue": True}, 1),
        ("/moved", {"continue": True}, 1),
    ],
)
def test_reply_read_as_qwen_reads_it(server, path, output, code):
    port, log = server
    result = call(f"http://127.0.0.1:{port}{path}")
    assert result.returncode == code, result.stderr
    assert json.loads(result.stdout) == output
    post = last_post(log)
    assert post["path"] == path and post["body"] == REQUEST.decode()
    assert post["headers"]["Content-Type"] == "application/json"


def test_no_server_is_a_non_blocking_error_with_its_output():
    result = call(f"http://127.0.0.1:{free_port()}/x")
    assert result.returncode == 1 and result.stdout.decode() == CONTINUE
    assert "refused" in result.stderr.decode().lower()


@pytest.mark.parametrize(
    "url",
    [
        "http://10.1.2.3:9/x",
        "http://169.254.169.254/x",
        "http://[fd00::1]:9/x",
        "http://192.168.0.1/",
    ],
)
def test_private_and_metadata_addresses_are_refused_before_any_post(url):
    # Qwen fails such a hook with no output at all: exit 1 with nothing printed.
    result = call(url)
    assert (result.returncode, result.stdout, result.stderr) == (1, b"", b"")


def test_url_and_headers_interpolate_allowed_variables_in_any_case(server):
    port, log = server
    headers = (
        ("Authorization", "Bearer ${token}"),
        ("X-Half", "[${TOKEN][$TOKEN}]"),  # a brace is optional on either side
        ("X-Other", "[$OTHER]"),
        ("X-Secret", "[$qwen_server_token]"),  # its own token: never, whatever the case
    )
    allow = ("token", "TOKEN", "P", "qwen_server_token")
    env = {"token": "lo", "TOKEN": "UP", "OTHER": "x", "P": "deny", "qwen_server_token": "s"}
    assert call(f"http://127.0.0.1:{port}/$P", headers, allow, env).returncode == 0
    post = last_post(log)
    assert post["path"] == "/deny"
    got = post["headers"]
    assert got["Authorization"] == "Bearer lo" and got["X-Half"] == "[UP][UP]"
    assert got["X-Other"] == "[]" and got["X-Secret"] == "[]"


def _settings(tmp_path: Path, hooks: list, extra: dict | None = None) -> Path:
    path = tmp_path / ".qwen" / "settings.json"
    path.parent.mkdir()
    data = {**(extra or {}), "hooks": {"PreToolUse": [{"matcher": "", "hooks": hooks}]}}
    path.write_text(json.dumps(data, indent=2))
    return path


def _hooktui(tmp_path: Path, *args: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "HOME": str(tmp_path)}
    hooktui = Path(sys.executable).with_name("hooktui")
    return subprocess.run(
        [hooktui, *args], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=60
    )


def test_install_wraps_qwen_http_hooks_and_uninstall_restores_bytes(tmp_path):
    hooks = [
        {"type": "http", "url": "http://127.0.0.1:9/a", "timeout": 20, "name": "gate"},
        {"type": "http", "url": "http://127.0.0.1:9/b"},  # no timeout: 600 s vs 60 s
        {"type": "http", "url": "http://127.0.0.1:9/c", "timeout": 5, "once": True},
    ]
    path = _settings(tmp_path, hooks)
    original = path.read_bytes()
    run = _hooktui(tmp_path, "install", "qwen-code")
    assert run.returncode == 0, run.stderr
    listed = [x for x in run.stdout.splitlines() if x.startswith("not wrapped:")]
    assert len(listed) == 2, run.stdout
    assert "hooks[1]" in listed[0] and "600 s" in listed[0]
    assert "hooks[2]" in listed[1] and "'once'" in listed[1]
    wrapped = json.loads(path.read_text())["hooks"]["PreToolUse"][0]["hooks"][0]
    assert wrapped["type"] == "command" and "hooktui.tap.httphook" in wrapped["command"]
    assert "--runtime qwen-code" in wrapped["command"] and wrapped["timeout"] == 20
    run = _hooktui(tmp_path, "uninstall", "qwen-code")
    assert run.returncode == 0 and "byte for byte" in run.stdout, run.stdout + run.stderr
    assert path.read_bytes() == original


def test_qwen_http_policy_in_its_security_settings_leaves_hooks_alone(tmp_path):
    hooks = [{"type": "http", "url": "http://127.0.0.1:9/a", "timeout": 20}]
    path = _settings(tmp_path, hooks, {"security": {"allowPrivateNetworkHooks": True}})
    original = path.read_bytes()
    run = _hooktui(tmp_path, "install", "qwen-code")  # nothing to wrap: exit 1
    told = (run.stdout + run.stderr).splitlines()
    listed = [x for x in told if x.startswith("not wrapped:")]
    assert len(listed) == 1 and "security.allowPrivateNetworkHooks" in listed[0], told
    assert path.read_bytes() == original
