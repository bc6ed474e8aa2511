"""`http` hooks in the real GitHub Copilot CLI 1.0.102, bare and installed through hooktui.

One Copilot session per mode (bare, then installed), one shell call per case
(batch.py's tags); the hooks' server (http_hook_server.py) answers each call by
its tag. Installed, each http hook is a command that makes the same POST in the
tap: every case must leave the same marker and send the model the same tool
result, the server must get the same POSTs (path, body, content type, the
interpolated header), and each call must have a record that agrees with what
Copilot did. Uninstall gives the settings back byte for byte.

Copilot posts a preToolUse hook over plain http only to localhost with
COPILOT_HOOK_ALLOW_LOCALHOST=1 (set here); a plain-http preToolUse hook to
another host is skipped when loading; wrapped, it answers nothing (`/skipped`,
whose host this namespace cannot reach: had the wrapped command posted, the call
would fail closed).

preMcpToolCall hooks: test_e2e_copilot_mcp_http.py; the request target a hook's
URL becomes: test_e2e_copilot_http_url.py (what they share: copilot_http.py).
"""

from __future__ import annotations

import gzip
import json
import sys
import zlib

import pytest
from hooktui.tap.runtimes.copilot.http import ACCEPT_ENCODING

from tests.e2e.batch import _result, tag_of, tagged
from tests.e2e.copilot_http import (
    DRIVER,
    ENV,
    PORT,
    bare_then_installed,
    brief,
    deny,
    handler,
    reply,
    tool_input,
    write_hooks,
)
from tests.e2e.drivers import REWRITTEN
from tests.e2e.harness import HERE, Sandbox, skip_reason

_skip = skip_reason("copilot")
pytestmark = pytest.mark.skipif(_skip is not None, reason=str(_skip))


def _bytes(body: bytes, **more) -> dict:
    """A reply of these exact bytes (not UTF-8, compressed)."""
    return {"status": 200, "hex": body.hex(), **more}


def _deny_bytes(reason: bytes) -> bytes:
    return b'{"permissionDecision":"deny","permissionDecisionReason":"' + reason + b'"}'


def _coded(coding: str, body: bytes) -> dict:
    return _bytes(body, headers=[["Content-Encoding", coding]])


REWRITE = {"command": REWRITTEN, "description": "leave a marker"}
# name: (preToolUse reply, postToolUse reply, marker left, tool result holds, record says)
CASES = {
    "deny": (reply(deny("E2E-HDENY")), None, None, "Denied by preToolUse hook: E2E-HDENY", "deny"),
    "allow": (reply({"permissionDecision": "allow"}), None, "marker-original", "original-ran", "allow"),
    "rewrite": (reply({"modifiedArgs": REWRITE}), None, "marker-rewritten", "rewritten-ran", "modify"),
    "status-500": (reply(deny("E2E-500"), 500), None, None, "(hook errored)", "failure"),
    "no-reply": ({"drop": True}, None, None, "(hook errored)", "failure"),
    "text": ({"status": 200, "body": "plain words", "type": "text/plain"}, None, "marker-original", "original-ran", "allow"),
    "json-as-text": (reply(deny("E2E-TDENY"), type="text/plain"), None, None, "E2E-TDENY", "deny"),
    "progress-object": (reply({"type": "progress", **deny("E2E-PDENY")}), None, None, "E2E-PDENY", "deny"),
    "post-context": (reply({}), reply({"additionalContext": "E2E-HCTX"}), "marker-original", "E2E-HCTX", "allow"),
    "post-modifiedResult": (reply({}), reply({"modifiedResult": {"resultType": "success", "textResultForLlm": "E2E-HREPL"}}), "marker-original", "E2E-HREPL", "allow"),
    "post-block": (reply({}), reply({"decision": "block", "reason": "E2E-HBLOCK"}), "marker-original", "Tool result blocked: E2E-HBLOCK", "allow"),
    # Not UTF-8: read as U+FFFD, whatever the type or charset; garbage after the object: no answer.
    "not-utf8": (_bytes(_deny_bytes(b"E2E-\xff-U8")), None, None, "Denied by preToolUse hook: E2E-\ufffd-U8", "deny"),
    "not-utf8-latin1": (_bytes(_deny_bytes(b"E2E-caf\xe9"), type="text/plain; charset=iso-8859-1"), None, None, "Denied by preToolUse hook: E2E-caf\ufffd", "deny"),
    "not-utf8-after": (_bytes(_deny_bytes(b"E2E-X") + b"\xff"), None, "marker-original", "original-ran", "allow"),
    # Content-Encoding: exactly gzip / deflate (zlib) decoded; a body that does not decode
    # is an error; another spelling is read as it came (here: not JSON, no answer).
    "gzip": (_coded("gzip", gzip.compress(_deny_bytes(b"E2E-GZ"))), None, None, "Denied by preToolUse hook: E2E-GZ", "deny"),
    "deflate": (_coded("deflate", zlib.compress(_deny_bytes(b"E2E-ZL"))), None, None, "Denied by preToolUse hook: E2E-ZL", "deny"),
    "gzip-not-gzip": (_coded("gzip", _deny_bytes(b"E2E-NOTGZ")), None, None, "(hook errored)", "failure"),
    "GZIP": (_coded("GZIP", gzip.compress(_deny_bytes(b"E2E-UPGZ"))), None, "marker-original", "original-ran", "allow"),
}  # fmt: skip
POST_RECORDS = {"post-context": "allow", "post-block": "deny", "post-modifiedResult": "replace"}
TAGS = {name: f"t{i}" for i, name in enumerate(CASES, start=1)}


# preToolUse hooks Copilot skips when loading (plain http, not localhost; nothing is
# posted, the tool runs): another host; `localhost.` and `foo.localhost`, which are
# not localhost to COPILOT_HOOK_ALLOW_LOCALHOST (neither resolves in this namespace).
SKIPPED = {
    "/skipped": f"http://198.51.100.7:{PORT}/skipped",
    "/dot": f"http://localhost.:{PORT}/dot",
    "/sub": f"http://foo.localhost:{PORT}/sub",
}


def _settings(sb: Sandbox) -> bytes:
    header = {"headers": {"X-Hook-User": "user $HOOK_USER"}, "allowedEnvVars": ["HOOK_USER"]}
    skipped = [{"type": "http", "url": url, "timeoutSec": 10} for url in SKIPPED.values()]
    hooks = {
        "preToolUse": [handler("/pre", **header), *skipped],
        "postToolUse": [handler("/post")],
    }
    return write_hooks(sb, hooks)


def _answers() -> dict:
    pre, post = {}, {}
    for name, (pre_reply, post_reply, *_) in CASES.items():
        tag = TAGS[name]  # a rewritten command keeps the case's tag
        pre[tag] = json.loads(tagged(json.dumps(pre_reply), tag))
        post[tag] = post_reply or {"status": 200, "body": ""}
    return {"/pre": {"by_tag": pre}, "/post": {"by_tag": post}}


def _run(sb: Sandbox, name: str) -> dict:
    log = sb.root / f"{name}.http.jsonl"
    spec = sb.root / f"{name}.http.json"
    spec.write_text(json.dumps({"port": PORT, "log": str(log), "answers": _answers()}))
    server = [sys.executable, str(HERE / "http_hook_server.py"), str(spec), "--"]
    steps = [
        {"text": f"case {tag}", "calls": [{"name": DRIVER.tool, "input": tool_input(tag)}]}
        for tag in TAGS.values()
    ]
    run = sb.run(
        name, "copilot", [*server, *DRIVER.argv(sb)], DRIVER.env(sb) | ENV, {"steps": steps}
    )
    assert run.exit_code == 0, run.describe()
    posts = [json.loads(x) for x in log.read_text().splitlines()] if log.exists() else []
    seen = {}
    for index, (case, tag) in enumerate(TAGS.items(), start=1):
        seen[case] = {
            "markers": sorted(p.name.removesuffix(f"-{tag}") for p in sb.project.glob(f"*-{tag}")),
            "result": _result(DRIVER, run, f"call_e2e_{index}_0", tag),
            "posts": [brief(p) for p in posts if tag_of(p["body"]) == tag],
            "accept-encoding": _encodings([p for p in posts if tag_of(p["body"]) == tag]),
        }
    seen["_untagged"] = [p for p in posts if tag_of(p["body"]) is None]
    return seen


def _encodings(posts: list[dict]) -> set[str | None]:
    return {p["headers"].get("accept-encoding") for p in posts}


@pytest.fixture(scope="module")
def runs(tmp_path_factory) -> tuple[dict, dict, list[dict], bytes, Sandbox]:
    sb = Sandbox(tmp_path_factory.mktemp("copilot-http"))
    bare, tapped, records, original = bare_then_installed(sb, _settings, _run, _calls, wrapped=5)
    return bare, tapped, records, original, sb


def _calls(tapped: dict) -> int:
    """The records a tapped session leaves: one per POST, and one per skipped hook run."""
    calls = sum(len(s["posts"]) for k, s in tapped.items() if k != "_untagged")
    # The skipped hooks, wrapped, run (and post nothing) after /pre let the call on:
    # Copilot runs a call's preToolUse hooks in turn and stops at a deny or an error.
    return calls + len(SKIPPED) * sum(1 for case in CASES.values() if case[2])


@pytest.mark.parametrize("case", CASES)
def test_copilot_http_hook_same_bare_and_installed(runs, case: str) -> None:
    bare, tapped, *_ = runs
    _pre, post_reply, marker, holds, _verdict = CASES[case]
    assert bare[case]["markers"] == ([marker] if marker else []), bare[case]
    assert holds in bare[case]["result"]["content"], bare[case]["result"]
    assert tapped[case]["markers"] == bare[case]["markers"]
    assert tapped[case]["result"] == bare[case]["result"]
    assert tapped[case]["posts"] == bare[case]["posts"]
    paths = [p["path"] for p in bare[case]["posts"]]
    assert paths == (["/pre", "/post"] if marker else ["/pre"]), paths
    for post in bare[case]["posts"]:
        assert post["method"] == "POST" and post["content-type"] == "application/json"
        assert post["body"]["toolName"] == "bash" and "hookName" not in post["body"]
        assert dict(post["headers"])["user-agent"].startswith("copilot/1.0.102 (linux v")
    assert bare[case]["accept-encoding"] == {"zstd,gzip,deflate,br"}
    assert tapped[case]["accept-encoding"] == {ACCEPT_ENCODING}
    assert bare[case]["posts"][0]["x-hook-user"] == "user ada"
    assert bare[case]["posts"][0]["names"][:2] == ["x-hook-user", "content-type"]
    assert bare["_untagged"] == tapped["_untagged"] == []  # nothing reached a skipped hook


@pytest.mark.parametrize("case", CASES)
def test_copilot_http_hook_record_agrees(runs, case: str) -> None:
    _bare, _tapped, records, _original, _sb = runs
    tag = TAGS[case]
    mine = [r for r in records if tag_of(json.dumps(r.get("request"))) == tag]
    pre = [r for r in mine if "/pre" in " ".join(r["hook"]["argv"])]
    skipped = [r for r in mine if any(u in " ".join(r["hook"]["argv"]) for u in SKIPPED.values())]
    post = [r for r in mine if "/post" in " ".join(r["hook"]["argv"])]
    assert len(pre) == 1 and len(skipped) == (len(SKIPPED) if CASES[case][2] else 0), mine
    assert all(r["runtime"] == "copilot" for r in mine)
    assert pre[0]["native_event"] == "preToolUse" and pre[0]["decision"] == CASES[case][4], pre
    if pre[0]["decision"] == "failure":  # Copilot denied the call: the record says it blocks
        assert pre[0]["effect"] == "blocks", pre[0]
    for record in skipped:  # no answer, as if absent; the record says why
        assert record["decision"] == "allow", record
        assert "Copilot skips this hook" in record["stderr"]["data"], record
    if case in POST_RECORDS:
        assert len(post) == 1 and post[0]["decision"] == POST_RECORDS[case], post


# --- Claude Code's http hooks, which Copilot runs too ------------------------------------
# Installed by `hooktui install claude-code`, the command is Claude Code's; run by
# Copilot (its environment says so), it posts and reads the reply by Copilot's rules.
# A text reply tells them apart: no answer for Copilot (the tool runs), a hook error
# for Claude Code (which Copilot, at PreToolUse, would read as a deny).
CLAUDE_DENY = {
    "hookSpecificOutput": {
        "hookEventName": "PreToolUse",
        "permissionDecision": "deny",
        "permissionDecisionReason": "E2E-CDENY",
    }
}
CLAUDE_CASES = {
    "claude-deny": (reply(CLAUDE_DENY), "Denied by preToolUse hook: E2E-CDENY", "deny"),
    "claude-text": ({"status": 200, "body": "plain", "type": "text/plain"}, "original-ran", "allow"),
    "claude-500": (reply(CLAUDE_DENY, 500), "(hook errored)", "failure"),
}  # fmt: skip
CLAUDE_TAGS = {name: f"t{i}" for i, name in enumerate(CLAUDE_CASES, start=1)}


def _claude_run(sb: Sandbox, name: str) -> tuple[dict, list[dict]]:
    log = sb.root / f"claude-{name}.http.jsonl"
    spec = sb.root / f"claude-{name}.http.json"
    answers = {"/cpre": {"by_tag": {CLAUDE_TAGS[c]: v[0] for c, v in CLAUDE_CASES.items()}}}
    spec.write_text(json.dumps({"port": PORT, "log": str(log), "answers": answers}))
    server = [sys.executable, str(HERE / "http_hook_server.py"), str(spec), "--"]
    steps = [
        {"text": f"case {tag}", "calls": [{"name": DRIVER.tool, "input": tool_input(tag)}]}
        for tag in CLAUDE_TAGS.values()
    ]
    run = sb.run(
        f"claude-{name}", "copilot", [*server, *DRIVER.argv(sb)], DRIVER.env(sb) | ENV,
        {"steps": steps},
    )  # fmt: skip
    assert run.exit_code == 0, run.describe()
    posts = [json.loads(x) for x in log.read_text().splitlines()] if log.exists() else []
    seen = {}
    for index, (case, tag) in enumerate(CLAUDE_TAGS.items(), start=1):
        seen[case] = {
            "markers": sorted(p.name.removesuffix(f"-{tag}") for p in sb.project.glob(f"*-{tag}")),
            "result": _result(DRIVER, run, f"call_e2e_{index}_0", tag),
            "posts": [brief(p) for p in posts if tag_of(p["body"]) == tag],
        }
    return seen, posts


def _claude_settings(sb: Sandbox) -> bytes:
    claude_hook = {"type": "http", "url": f"http://127.0.0.1:{PORT}/cpre", "timeout": 10}
    path = sb.project / ".claude" / "settings.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    hooks = {"PreToolUse": [{"matcher": "Bash", "hooks": [claude_hook]}]}
    path.write_text(json.dumps({"hooks": hooks}, indent=2) + "\n")
    return path.read_bytes()


@pytest.fixture(scope="module")
def claude_runs(tmp_path_factory) -> tuple[dict, dict, list[dict]]:
    sb = Sandbox(tmp_path_factory.mktemp("copilot-claude-http"))
    (bare, _), (tapped, _), records, _ = bare_then_installed(
        sb, _claude_settings, _claude_run, lambda run: len(run[1]), wrapped=1,
        runtime="claude-code", settings_path=lambda sb: sb.project / ".claude" / "settings.json",
        all_wrapped=False,
    )  # fmt: skip
    return bare, tapped, records


@pytest.mark.parametrize("case", CLAUDE_CASES)
def test_copilot_runs_claude_http_hooks_alike_bare_and_installed(claude_runs, case: str) -> None:
    bare, tapped, records = claude_runs
    _reply, holds, verdict = CLAUDE_CASES[case]
    assert holds in bare[case]["result"]["content"], bare[case]
    assert (tapped[case]["markers"], tapped[case]["result"]) == (
        bare[case]["markers"],
        bare[case]["result"],
    )
    assert tapped[case]["posts"] == bare[case]["posts"] and len(bare[case]["posts"]) == 1
    assert bare[case]["posts"][0]["body"]["hook_event_name"] == "PreToolUse"
    (record,) = [r for r in records if tag_of(json.dumps(r.get("request"))) == CLAUDE_TAGS[case]]
    assert record["runtime"] == "copilot" and record["decision"] == verdict, record
