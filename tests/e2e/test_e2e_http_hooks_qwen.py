"""`http` PreToolUse hooks in the real Qwen Code 0.24.4, bare and installed through hooktui.

One Qwen session per mode (bare, then installed), one shell call per case (batch.py's
tags); the hooks' server (http_hook_server.py) answers each call by its tag. Two hooks
run on every call, in parallel as Qwen runs a matcher's hooks: `/pre`, answering the
case, and `/down`, a guard whose server is not running (connection refused).
Installed, each is a command that makes the same POST in the tap: every case must
leave the same marker and send the model the same tool result, the server must get
the same POSTs (path, body, content type, the interpolated header), and each call's
records must say what Qwen did: a guard that failed is a failure that let the tool
run (fail-open), not an allow. Uninstall gives the settings back byte for byte.
"""

from __future__ import annotations

import json
import sys

import pytest

from tests.conftest import wait_for_records
from tests.e2e.batch import _result, tag_of, tagged
from tests.e2e.drivers import ORIGINAL
from tests.e2e.drivers_chat import QWEN as DRIVER
from tests.e2e.harness import HERE, Sandbox, hooktui, skip_reason

RUNTIME = DRIVER.runtime
_skip = skip_reason(RUNTIME)
pytestmark = pytest.mark.skipif(_skip is not None, reason=str(_skip))
PORT = 38601  # the hooks' server, beside the fake model (harness.PORT) in the namespace
DOWN = 38609  # nothing listens there in the run's namespace
TIMEOUT = 5  # the /pre hook's, in seconds: the `timeout` case's reply comes after it

DENY = {
    "hookSpecificOutput": {
        "hookEventName": "PreToolUse",
        "permissionDecision": "deny",
        "permissionDecisionReason": "E2E-HDENY",
    }
}
FAILED = ("failure", "proceeds")


def _json(value, status: int = 200, **more) -> dict:
    return {"status": status, "body": json.dumps(value), **more}


# name: (/pre's reply, the tool ran, the tool result holds, /pre's record: (decision,
# effect), failure, words of failure_detail)
CASES = {
    "deny": (_json(DENY), False, "E2E-HDENY", ("deny", ""), "", ""),
    "status-500": (_json(DENY, 500), True, "original-ran", FAILED, "exit_code", "returned 500"),
    "redirect-302": (
        _json(DENY, 302, location=f"http://127.0.0.1:{PORT}/deny"),
        True, "original-ran", FAILED, "exit_code", "returned 302",
    ),
    "no-reply": ({"drop": True}, True, "original-ran", FAILED, "exit_code", "connection failed"),
    "broken-json": (
        {"status": 200, "body": '{"decision": "block", '},
        True, "original-ran", FAILED, "invalid_json", "not JSON",
    ),
    "json-array": (_json([DENY]), True, "original-ran", FAILED, "invalid_json", "JSON array"),
    "json-string": (_json("deny"), True, "original-ran", FAILED, "invalid_json", "not an object"),
    "timeout": (
        {**_json(DENY), "sleep": TIMEOUT + 3},
        True, "original-ran", FAILED, "timeout", "timeout",
    ),
    # Answers, not failures: an empty JSON body, a text (Qwen's system message).
    "empty-json": ({"status": 200, "body": ""}, True, "original-ran", ("allow", ""), "", ""),
    "text": (
        {"status": 200, "body": "E2E-TEXT", "type": "text/plain"},
        True, "original-ran", ("allow", ""), "", "",
    ),
}  # fmt: skip
TAGS = {name: f"t{i}" for i, name in enumerate(CASES, start=1)}


def _settings(sb: Sandbox) -> bytes:
    pre = {
        "type": "http",
        "url": f"http://127.0.0.1:{PORT}/pre",
        "headers": {"X-Hook-User": "user $HOOK_USER"},
        "allowedEnvVars": ["HOOK_USER"],
        "timeout": TIMEOUT,
    }
    down = {"type": "http", "url": f"http://127.0.0.1:{DOWN}/down", "timeout": 30}
    settings = {"hooks": {"PreToolUse": [{"matcher": DRIVER.matcher, "hooks": [pre, down]}]}}
    settings["$version"] = 4  # what Qwen Code would add (it migrates the file once)
    file = DRIVER.settings_path(sb)
    file.parent.mkdir(parents=True, exist_ok=True)
    file.write_text(json.dumps(settings, indent=2) + "\n")
    DRIVER._user_settings(sb)
    return file.read_bytes()


def _input(tag: str) -> dict:
    return json.loads(tagged(json.dumps(DRIVER.tool_input(ORIGINAL)), tag))


def _brief(post: dict) -> dict:
    """What the hook's server got, less what differs run to run (ids, times)."""
    headers = {k.lower(): v for k, v in post["headers"].items()}
    body = json.loads(post["body"])
    for key in DRIVER.volatile:
        body.pop(key, None)
    return {
        "method": post["method"],
        "path": post["path"],
        "content-type": headers.get("content-type"),
        "x-hook-user": headers.get("x-hook-user"),
        "body": body,
    }


def _run(sb: Sandbox, name: str) -> dict:
    log = sb.root / f"{name}.http.jsonl"
    spec = sb.root / f"{name}.http.json"
    answers = {"/pre": {"by_tag": {TAGS[c]: v[0] for c, v in CASES.items()}}}
    spec.write_text(json.dumps({"port": PORT, "log": str(log), "answers": answers}))
    server = [sys.executable, str(HERE / "http_hook_server.py"), str(spec), "--"]
    steps = [
        {"text": f"case {tag}", "calls": [{"name": DRIVER.tool, "input": _input(tag)}]}
        for tag in TAGS.values()
    ]
    env = DRIVER.env(sb) | {"HOOK_USER": "ada"}
    run = sb.run(name, RUNTIME, [*server, *DRIVER.argv(sb)], env, {"steps": steps}, timeout=240)
    assert run.exit_code == 0, run.describe()
    posts = [json.loads(x) for x in log.read_text().splitlines()] if log.exists() else []
    seen = {}
    for index, (case, tag) in enumerate(TAGS.items(), start=1):
        seen[case] = {
            "markers": sorted(p.name.removesuffix(f"-{tag}") for p in sb.project.glob(f"*-{tag}")),
            "result": _result(DRIVER, run, f"call_e2e_{index}_0", tag),
            "posts": [_brief(p) for p in posts if tag_of(p["body"]) == tag],
        }
    return seen


@pytest.fixture(scope="module")
def runs(tmp_path_factory) -> tuple[dict, dict, list[dict]]:
    sb = Sandbox(tmp_path_factory.mktemp("qwen-http"))
    sb.fresh_run_dirs()
    _settings(sb)
    bare = _run(sb, "bare")
    sb.fresh_run_dirs()
    original = _settings(sb)
    installed = hooktui(
        "install", RUNTIME, "--stream", str(sb.stream), cwd=sb.project,
        env={"HOME": str(sb.home)},
    )  # fmt: skip
    assert installed.returncode == 0 and "wrapped 2" in installed.stdout, installed.stdout
    assert "not wrapped" not in installed.stdout + installed.stderr
    tapped = _run(sb, "tapped")
    records = wait_for_records(sb.stream, 2 * len(CASES))
    restored = hooktui("uninstall", RUNTIME, cwd=sb.project, env={"HOME": str(sb.home)})
    assert restored.returncode == 0, restored.stderr
    assert DRIVER.settings_path(sb).read_bytes() == original
    return bare, tapped, records


@pytest.mark.parametrize("case", CASES)
def test_qwen_http_hook_same_bare_and_installed(runs, case: str) -> None:
    bare, tapped, _records = runs
    _reply, ran, holds, *_ = CASES[case]
    assert bare[case]["markers"] == (["marker-original"] if ran else []), bare[case]
    assert holds in bare[case]["result"]["content"], bare[case]["result"]
    assert tapped[case]["markers"] == bare[case]["markers"]
    assert tapped[case]["result"] == bare[case]["result"]
    assert tapped[case]["posts"] == bare[case]["posts"]
    (post,) = bare[case]["posts"]  # /down's server is not there: only /pre's POST
    assert (post["method"], post["path"]) == ("POST", "/pre")
    assert post["content-type"] == "application/json" and post["x-hook-user"] == "user ada"
    assert post["body"]["tool_name"] == DRIVER.tool
    assert post["body"]["tool_input"]["command"] == tagged(ORIGINAL, TAGS[case])


@pytest.mark.parametrize("case", CASES)
def test_qwen_http_hook_record_says_what_qwen_did(runs, case: str) -> None:
    *_, records = runs
    _reply, _ran, _holds, (decision, effect), failure, words = CASES[case]
    mine = [r for r in records if tag_of(json.dumps(r.get("request"))) == TAGS[case]]
    pre = [r for r in mine if f"--url http://127.0.0.1:{PORT}/pre" in " ".join(r["hook"]["argv"])]
    down = [r for r in mine if f"127.0.0.1:{DOWN}/down" in " ".join(r["hook"]["argv"])]
    assert len(pre) == len(down) == 1, mine
    assert all(r["runtime"] == RUNTIME and r["native_event"] == "PreToolUse" for r in mine)
    assert (pre[0]["decision"], pre[0].get("effect", "")) == (decision, effect), pre[0]
    assert pre[0].get("failure", "") == failure, pre[0]
    assert words in pre[0].get("failure_detail", ""), pre[0]
    # The guard that is down failed, and Qwen ran the tool anyway (or the deny blocked it).
    assert (down[0]["decision"], down[0]["failure"], down[0]["effect"]) == (
        "failure",
        "exit_code",
        "proceeds",
    ), down[0]
    assert "connection failed" in down[0]["failure_detail"], down[0]
