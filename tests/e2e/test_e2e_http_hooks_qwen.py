"""An `http` PreToolUse hook in the real Qwen Code, bare and installed through hooktui
(as test_e2e_http_hooks.py does for Claude Code): the tool runs or is blocked alike,
the hook's server gets the same request, the record is there, uninstall restores."""

from __future__ import annotations

import json
import sys

import pytest

from tests.conftest import wait_for_records
from tests.e2e.drivers import ORIGINAL
from tests.e2e.drivers_chat import QWEN as DRIVER
from tests.e2e.harness import HERE, Sandbox, hooktui, skip_reason

RUNTIME = DRIVER.runtime
_skip = skip_reason(RUNTIME)
pytestmark = pytest.mark.skipif(_skip is not None, reason=str(_skip))
PORT = 38601  # the hook's server, beside the fake model (harness.PORT) in the namespace

DENY = {
    "hookSpecificOutput": {
        "hookEventName": "PreToolUse",
        "permissionDecision": "deny",
        "permissionDecisionReason": "refused over http",
    }
}
ANSWERS = {
    "/deny": {"status": 200, "body": json.dumps(DENY)},
    "/fail": {"status": 500, "body": json.dumps(DENY)},  # a non-2xx body is never read
}
# A non-2xx: Qwen reads {continue: true} with a non-blocking error, which the
# command reproduces as exit 1 with that on stdout; the judge reads the JSON (allow).
VERDICTS = {"/deny": "deny", "/fail": "allow"}


def _settings(sb: Sandbox, path: str) -> bytes:
    handler = {
        "type": "http",
        "url": f"http://127.0.0.1:{PORT}{path}",
        "headers": {"X-Hook-User": "user $HOOK_USER"},
        "allowedEnvVars": ["HOOK_USER"],
        "timeout": 30,
    }
    settings = {"hooks": {"PreToolUse": [{"matcher": DRIVER.matcher, "hooks": [handler]}]}}
    settings["$version"] = 4  # what Qwen Code would add (it migrates the file once)
    file = DRIVER.settings_path(sb)
    file.parent.mkdir(parents=True, exist_ok=True)
    file.write_text(json.dumps(settings, indent=2) + "\n")
    DRIVER._user_settings(sb)
    return file.read_bytes()


def _run(sb: Sandbox, name: str) -> tuple[dict, bool, list[dict]]:
    """(tool result, whether the tool ran, what the hook's server got)."""
    log = sb.root / f"{name}.http.jsonl"
    spec = sb.root / f"{name}.http.json"
    spec.write_text(json.dumps({"port": PORT, "log": str(log), "answers": ANSWERS}))
    server = [sys.executable, str(HERE / "http_hook_server.py"), str(spec), "--"]
    env = DRIVER.env(sb) | {"HOOK_USER": "ada"}
    run = sb.run(name, RUNTIME, [*server, *DRIVER.argv(sb)], env, DRIVER.script(ORIGINAL))
    assert run.exit_code == 0, run.describe()
    posts = [json.loads(x) for x in log.read_text().splitlines()] if log.exists() else []
    result = DRIVER.tool_result(run)
    result["content"] = DRIVER.normalize(result["content"])
    return result, (sb.project / "marker-original").exists(), posts


@pytest.mark.parametrize("path", sorted(VERDICTS))
def test_qwen_http_hook_same_bare_and_installed(sandbox: Sandbox, path: str) -> None:
    sandbox.fresh_run_dirs()
    _settings(sandbox, path)
    bare_result, bare_ran, bare_posts = _run(sandbox, "bare")
    assert bare_ran == (path != "/deny"), bare_result
    if path == "/deny":
        assert "refused over http" in bare_result["content"], bare_result

    sandbox.fresh_run_dirs()
    original = _settings(sandbox, path)
    installed = hooktui(
        "install", RUNTIME, "--stream", str(sandbox.stream), cwd=sandbox.project,
        env={"HOME": str(sandbox.home)},
    )  # fmt: skip
    assert installed.returncode == 0 and "wrapped 1" in installed.stdout, installed.stderr
    assert "not wrapped" not in installed.stdout + installed.stderr
    tapped_result, tapped_ran, tapped_posts = _run(sandbox, "tapped")

    assert (tapped_ran, tapped_result) == (bare_ran, bare_result)
    assert len(bare_posts) == len(tapped_posts) == 1
    for post in (bare_posts[0], tapped_posts[0]):
        assert post["path"] == path and post["headers"]["X-Hook-User"] == "user ada"
        assert post["headers"]["Content-Type"] == "application/json"
    same = ("hook_event_name", "tool_name", "tool_input", "permission_mode")
    bare_body, tapped_body = json.loads(bare_posts[0]["body"]), json.loads(tapped_posts[0]["body"])
    assert {k: bare_body[k] for k in same} == {k: tapped_body[k] for k in same}

    (record,) = wait_for_records(sandbox.stream, 1)
    assert record["native_event"] == "PreToolUse" and record["tool_name"] == DRIVER.tool
    assert record["decision"] == VERDICTS[path], record
    if path == "/fail":  # the tool ran, bare and wrapped alike; the status is kept
        assert "HTTP 500 from" in record["stderr"]["data"]
    assert f"--url http://127.0.0.1:{PORT}{path}" in " ".join(record["hook"]["argv"])
    assert record["request"]["tool_input"]["command"] == ORIGINAL

    restored = hooktui("uninstall", RUNTIME, cwd=sandbox.project, env={"HOME": str(sandbox.home)})
    assert restored.returncode == 0, restored.stderr
    assert DRIVER.settings_path(sandbox).read_bytes() == original
