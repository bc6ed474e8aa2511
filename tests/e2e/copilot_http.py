"""What the e2e tests of GitHub Copilot CLI's `http` hooks share: the hooks' server's
port, the session's environment, reply builders, and what a POST is compared by.

Three files drive one Copilot session per mode (bare, then installed) each:
test_e2e_copilot_http.py (replies and records), test_e2e_copilot_mcp_http.py
(preMcpToolCall), test_e2e_copilot_http_url.py (the request target).
"""

from __future__ import annotations

import json

from tests.e2e.batch import tagged
from tests.e2e.drivers import ORIGINAL
from tests.e2e.drivers_chat import COPILOT as DRIVER
from tests.e2e.harness import Sandbox

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
