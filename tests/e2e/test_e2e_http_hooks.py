"""An `http` PreToolUse hook in the real Claude Code, bare and installed through hooktui.

The hook's server runs beside the CLI in the run's loopback-only namespace
(http_hook_server.py). Installed, the http hook is a command that makes the
same POST in the tap: the tool must run (allow) or be blocked (deny) exactly
as bare, the server must get the same request, and the record must be there,
naming the hook's URL. Uninstall must give the settings back byte for byte.
"""

from __future__ import annotations

import json
import re
import sys

import pytest

from tests.conftest import wait_for_records
from tests.e2e.drivers import DRIVERS, ORIGINAL
from tests.e2e.harness import HERE, Sandbox, hooktui, skip_reason

RUNTIME = "claude-code"
_skip = skip_reason(RUNTIME)
pytestmark = pytest.mark.skipif(_skip is not None, reason=str(_skip))
DRIVER = DRIVERS[RUNTIME]
PORT = 38600  # the hook's server, beside the fake model (harness.PORT) in the namespace

DENY = {
    "hookSpecificOutput": {
        "hookEventName": "PreToolUse",
        "permissionDecision": "deny",
        "permissionDecisionReason": "refused over http",
    }
}
ANSWERS = {
    "/deny": {"status": 200, "body": json.dumps(DENY)},
    "/allow": {"status": 200},
    "/fail": {"status": 500, "body": json.dumps(DENY)},  # a non-2xx body is never read
}
VERDICTS = {"/deny": "deny", "/allow": "allow", "/fail": "failure"}


def _settings(sb: Sandbox, path: str, **more) -> bytes:
    handler = {
        "type": "http",
        "url": f"http://127.0.0.1:{PORT}{path}",
        "headers": {"X-Hook-User": "user $HOOK_USER"},
        "allowedEnvVars": ["HOOK_USER"],
        "timeout": 30,
        **more,
    }
    settings = {"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [handler]}]}}
    file = DRIVER.settings_path(sb)
    file.parent.mkdir(parents=True, exist_ok=True)
    file.write_text(json.dumps(settings, indent=2) + "\n")
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
    return DRIVER.tool_result(run), (sb.project / "marker-original").exists(), posts


@pytest.mark.parametrize("path", sorted(VERDICTS))
def test_http_hook_same_bare_and_installed(sandbox: Sandbox, path: str) -> None:
    sandbox.fresh_run_dirs()
    _settings(sandbox, path)
    bare_result, bare_ran, bare_posts = _run(sandbox, "bare")
    assert bare_ran == (path != "/deny"), bare_result
    if path == "/deny":
        assert bare_result["is_error"] and "refused over http" in bare_result["content"]

    sandbox.fresh_run_dirs()
    original = _settings(sandbox, path)
    installed = hooktui(
        "install", RUNTIME, "--stream", str(sandbox.stream), cwd=sandbox.project,
        env={"HOME": str(sandbox.home)},
    )  # fmt: skip
    assert installed.returncode == 0 and "wrapped 1" in installed.stdout, installed.stderr
    assert "not wrapped" not in installed.stdout + installed.stderr
    tapped_result, tapped_ran, tapped_posts = _run(sandbox, "tapped")

    # The runtime cannot tell: the tool ran or was blocked alike, with the same result.
    assert (tapped_ran, tapped_result) == (bare_ran, bare_result)
    # The hook's server got the same request: one POST, same body but the ids of the
    # run, the header interpolated from allowedEnvVars.
    assert len(bare_posts) == len(tapped_posts) == 1
    for post in (bare_posts[0], tapped_posts[0]):
        assert post["path"] == path and post["headers"]["X-Hook-User"] == "user ada"
        assert post["headers"]["Content-Type"] == "application/json"
    same = ("hook_event_name", "tool_name", "tool_input", "tool_use_id", "permission_mode")
    bare_body, tapped_body = json.loads(bare_posts[0]["body"]), json.loads(tapped_posts[0]["body"])
    assert {k: bare_body[k] for k in same} == {k: tapped_body[k] for k in same}

    # The record: the call, the runtime's verdict, the hook named by its URL.
    (record,) = wait_for_records(sandbox.stream, 1)
    assert record["native_event"] == "PreToolUse" and record["tool_name"] == "Bash"
    assert record["decision"] == VERDICTS[path]
    if path == "/fail":  # a non-blocking error: the tool ran, bare and wrapped alike
        assert record["effect"] == "proceeds" and "HTTP 500 from" in record["stderr"]["data"]
    assert f"--url http://127.0.0.1:{PORT}{path}" in " ".join(record["hook"]["argv"])
    assert record["request"]["tool_input"]["command"] == ORIGINAL

    restored = hooktui("uninstall", RUNTIME, cwd=sandbox.project, env={"HOME": str(sandbox.home)})
    assert restored.returncode == 0, restored.stderr
    assert DRIVER.settings_path(sandbox).read_bytes() == original


def test_a_failed_post_under_onfailure_block_reads_the_same_to_the_model(sandbox: Sandbox):
    """Claude Code's own words for a non-2xx name the URL as written (`HTTP 500 from
    <url>`, measured 2026-12-03): the model reads them under onFailure "block". So the
    wrapped command writes them too; the record's redaction masks credentials in them."""
    url = f"http://127.0.0.1:{PORT}/fail"
    sandbox.fresh_run_dirs()
    _settings(sandbox, "/fail", onFailure="block")
    bare_result, bare_ran, _ = _run(sandbox, "bare")
    assert not bare_ran and bare_result["is_error"]
    assert f'blocking because onFailure is "block"\nHTTP 500 from {url}' in bare_result["content"]

    sandbox.fresh_run_dirs()
    _settings(sandbox, "/fail", onFailure="block")
    installed = hooktui(
        "install", RUNTIME, "--stream", str(sandbox.stream), cwd=sandbox.project,
        env={"HOME": str(sandbox.home)},
    )  # fmt: skip
    assert installed.returncode == 0 and "wrapped 1" in installed.stdout, installed.stderr
    tapped_result, tapped_ran, _ = _run(sandbox, "tapped")
    # Claude quotes the hook between brackets: the URL bare, the wrapping command installed
    # (which holds brackets and newlines of its own: its fail-closed fallback).
    bracket = re.compile(r"^PreToolUse:Bash hook error: \[.*\]: ", re.DOTALL)
    assert not tapped_ran and tapped_result["is_error"] == bare_result["is_error"]
    assert bracket.sub("", tapped_result["content"]) == bracket.sub("", bare_result["content"])
    (record,) = wait_for_records(sandbox.stream, 1)
    assert record["decision"] == "failure" and record["effect"] == "blocks"
    assert record["stderr"]["data"] == f"HTTP 500 from {url}"


# URLs Claude Code 2.1.332 posts to as Node's WHATWG URL parser reads them (axios):
# each (URL's path and after, as written; the request target it sends). Measured
# 2026-12-03, ORACLE.md. The wrapped command must send the same request line.
URL_CASES = {
    "space-in-path": ("/a b", "/a%20b"),
    "query": ("/allow?q=a b&u=\u00e9", "/allow?q=a%20b&u=%C3%A9"),
    "dot-segments": ("/x/../allow", "/allow"),
    "encoded-dots": ("/x/./y/%2E%2e/allow#frag", "/x/allow"),
    "quotes-in-query": ("/allow?k='\"<>`", "/allow?k=%27%22%3C%3E`"),
    "backslash": ("\\a\u00e9{}", "/a%C3%A9%7B%7D"),
}


def _url_settings(sb: Sandbox, url: str, headers: dict) -> bytes:
    handler = {"type": "http", "url": url, "headers": headers, "timeout": 30}
    settings = {"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [handler]}]}}
    file = DRIVER.settings_path(sb)
    file.parent.mkdir(parents=True, exist_ok=True)
    file.write_text(json.dumps(settings, indent=2) + "\n")
    return file.read_bytes()


def _bare_and_tapped(sandbox: Sandbox, url: str, headers: dict) -> tuple[tuple, tuple]:
    sandbox.fresh_run_dirs()
    _url_settings(sandbox, url, headers)
    bare = _run(sandbox, "bare")
    sandbox.fresh_run_dirs()
    _url_settings(sandbox, url, headers)
    installed = hooktui(
        "install", RUNTIME, "--stream", str(sandbox.stream), cwd=sandbox.project,
        env={"HOME": str(sandbox.home)},
    )  # fmt: skip
    assert installed.returncode == 0 and "wrapped 1" in installed.stdout, installed.stdout
    return bare, _run(sandbox, "tapped")


@pytest.mark.parametrize("case", sorted(URL_CASES))
def test_a_url_is_posted_as_the_runtime_posts_it(sandbox: Sandbox, case: str) -> None:
    written, target = URL_CASES[case]
    ANSWERS[target] = {"status": 200, "body": json.dumps(DENY)}
    try:
        bare, tapped = _bare_and_tapped(sandbox, f"http://127.0.0.1:{PORT}{written}", {})
    finally:
        del ANSWERS[target]
    (bare_post,) = bare[2]
    assert bare_post["path"] == target  # Claude's own request line
    assert not bare[1] and "refused over http" in bare[0]["content"]
    (tapped_post,) = tapped[2]
    assert tapped_post["path"] == target
    assert tapped_post["headers"]["Host"] == bare_post["headers"]["Host"]
    assert tapped[:2] == bare[:2]


# User info as written (a name, a $NAME that is not interpolated: nothing install
# refuses as a secret); the Authorization Claude sends: the user info as the URL
# holds it, percent-encoded (not decoded), in base64.
CREDENTIALS = {
    "user": ("ada@", "Basic YWRhOg=="),  # ada:
    "encoded": ("a d:$HOOK_X@", "Basic YSUyMGQ6JEhPT0tfWA=="),  # a%20d:$HOOK_X
    "no-user": (":$HOOK_X@", "Bearer mine"),  # no user name: the hook's own header
}


@pytest.mark.parametrize("case", sorted(CREDENTIALS))
def test_url_credentials_are_sent_as_basic_auth(sandbox: Sandbox, case: str) -> None:
    """A user name in the URL goes out as `Authorization: Basic`, in place of the
    hook's own Authorization; the Host header and the request line never hold it."""
    userinfo, authorization = CREDENTIALS[case]
    ANSWERS["/deny-auth"] = {"status": 200, "body": json.dumps(DENY)}
    try:
        url = f"http://{userinfo}127.0.0.1:{PORT}/deny-auth"
        bare, tapped = _bare_and_tapped(sandbox, url, {"Authorization": "Bearer mine"})
    finally:
        del ANSWERS["/deny-auth"]
    for run in (bare, tapped):
        (post,) = run[2]
        assert post["path"] == "/deny-auth" and post["headers"]["Host"] == f"127.0.0.1:{PORT}"
        assert post["headers"]["Authorization"] == authorization
    assert tapped[:2] == bare[:2]
