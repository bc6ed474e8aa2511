"""What the e2e tests of GitHub Copilot CLI's `http` hooks share: the hooks' server's
port, the session's environment, reply builders, and what a POST is compared by.

Three files drive one Copilot session per mode (bare, then installed) each:
test_e2e_copilot_http.py (replies and records), test_e2e_copilot_mcp_http.py
(preMcpToolCall), test_e2e_copilot_http_url.py (the request target).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

from tests.conftest import wait_for_records
from tests.e2e.batch import tagged
from tests.e2e.drivers import ORIGINAL
from tests.e2e.drivers_chat import COPILOT as DRIVER
from tests.e2e.harness import Sandbox, hooktui

PORT = 38602  # the hooks' server, beside the fake model (harness.PORT) in the namespace
ENV = {"COPILOT_HOOK_ALLOW_LOCALHOST": "1", "HOOK_USER": "ada"}


def reply(value: dict, status: int = 200, **more) -> dict:
    """The hooks' server answers `value` as JSON."""
    return {"status": status, "body": json.dumps(value), **more}


def deny(reason: str) -> dict:
    return {"permissionDecision": "deny", "permissionDecisionReason": reason}


def handler(path: str, **more) -> dict:
    return {"type": "http", "url": f"http://127.0.0.1:{PORT}{path}", "timeoutSec": 10, **more}


def write_hooks(sb: Sandbox, hooks: dict) -> bytes:
    """The project's .github/hooks file holding `hooks`, as written (its bytes)."""
    path = DRIVER.settings_path(sb)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps({"version": 1, "hooks": hooks}, indent=2) + "\n")
    return path.read_bytes()


def tool_input(tag: str) -> dict:
    """The shell call of the case tagged `tag`."""
    return json.loads(tagged(json.dumps(DRIVER.tool_input(ORIGINAL)), tag))


def brief(post: dict) -> dict:
    """What the hook's server got, less what differs run to run (ids, times)."""
    headers = {k.lower(): v for k, v in post["headers"].items()}
    body = json.loads(post["body"])
    for key in (*DRIVER.volatile, "session_id"):  # the Claude dialect's too
        body.pop(key, None)
    # Every header, names as sent and in order, but Accept-Encoding's value: the tap
    # offers only the codings it can decode (the tests compare it apart).
    return {
        "method": post["method"],
        "path": post["path"],
        "headers": [(k, v) for k, v in post["headers"].items() if k != "accept-encoding"],
        "names": list(post["headers"]),
        "content-type": headers.get("content-type"),
        "x-hook-user": headers.get("x-hook-user"),
        "body": body,
    }


def bare_then_installed(
    sb: Sandbox,
    write_settings: Callable[[Sandbox], bytes],
    run: Callable[[Sandbox, str], object],
    calls: Callable[[object], int],
    *,
    wrapped: int,
    runtime: str = "copilot",
    settings_path: Callable[[Sandbox], Path] = DRIVER.settings_path,
    all_wrapped: bool = True,
) -> tuple[object, object, list[dict], bytes]:
    """One session bare, then one through hooktui: (bare, tapped, records, the settings
    as written). `install RUNTIME` must wrap `wrapped` hooks (and, with `all_wrapped`,
    leave none unwrapped); the `calls(tapped)` records must come; uninstall must give
    the settings back byte for byte."""
    sb.fresh_run_dirs()
    write_settings(sb)
    bare = run(sb, "bare")
    sb.fresh_run_dirs()
    original = write_settings(sb)
    env = {"HOME": str(sb.home)}
    installed = hooktui("install", runtime, "--stream", str(sb.stream), cwd=sb.project, env=env)
    assert installed.returncode == 0, installed.stderr
    assert f"wrapped {wrapped}" in installed.stdout, installed.stdout
    if all_wrapped:
        assert "not wrapped" not in installed.stdout + installed.stderr
    tapped = run(sb, "tapped")
    records = wait_for_records(sb.stream, calls(tapped))
    restored = hooktui("uninstall", runtime, cwd=sb.project, env=env)
    assert restored.returncode == 0, restored.stderr
    assert settings_path(sb).read_bytes() == original
    return bare, tapped, records, original
