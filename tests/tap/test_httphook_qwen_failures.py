"""A Qwen Code http hook that fails, installed through hooktui: the answer stays what
Qwen Code 0.24.4 reads (`{continue: true}`, the action goes ahead), and the record says
the hook FAILED and Qwen let the action through (fail-open), not that it allowed.

Real local server, real `hooktui install`, the wrapped command run as Qwen runs it
(`sh -c`, a real Qwen request on stdin), the record read from the stream.
"""

from __future__ import annotations

import json
import subprocess

import pytest
from hooktui.tap.httphook.spec import HttpSpec

from tests.conftest import wait_for_records
from tests.tap.fixtures import request as fixture
from tests.tap.test_httphook import answering_server, free_port, run_spec
from tests.tap.test_install import run, write

DENY = {"hookSpecificOutput": {"permissionDecision": "deny", "permissionDecisionReason": "no"}}
ANSWERS = {
    "/fail": {"status": 500, "body": "Traceback: KeyError 'rules'"},
    "/moved": {"status": 302, "body": "", "location": "http://127.0.0.1:9/elsewhere"},
    "/drop": {"drop": True},  # the connection closes without a status line
    "/broken": {"body": '{"decision": '},
    "/nan": {"body": '{"reason": NaN}'},
    "/string": {"body": '"deny"'},
    "/array": {"body": json.dumps([DENY])},
    # Answers, not failures: a deny, an empty body (no answer), a text (a system message).
    "/deny": {"body": json.dumps(DENY)},
    "/empty": {"body": " "},
    "/text": {"body": "E2E words", "type": "text/plain"},
}
CONTINUE = {"continue": True}
# path: (stdout as Qwen reads it, exit code, decision, failure, words of the detail)
CASES = {
    "/fail": (CONTINUE, 1, "failure", "exit_code", "HTTP hook returned 500"),
    "/moved": (CONTINUE, 1, "failure", "exit_code", "HTTP hook returned 302 (a redirect"),
    "/drop": (CONTINUE, 1, "failure", "exit_code", "connection failed: Remote end closed"),
    "/refused": (CONTINUE, 1, "failure", "exit_code", "connection failed: [Errno 111]"),
    "/broken": (CONTINUE, 0, "failure", "invalid_json", "the reply is not JSON"),
    "/nan": (CONTINUE, 0, "failure", "invalid_json", "the reply is not JSON"),
    "/string": (CONTINUE, 0, "failure", "invalid_json", "the reply is JSON but not an object"),
    "/array": ({}, 0, "failure", "invalid_json", "the reply is a JSON array"),
    "/deny": (None, 0, "deny", "", ""),
    "/empty": (CONTINUE, 0, "allow", "", ""),
    "/text": ({"continue": True, "systemMessage": "E2E words"}, 0, "allow", "", ""),
}


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    yield from answering_server(tmp_path_factory, ANSWERS)


@pytest.fixture(scope="module")
def installed(server, tmp_path_factory):
    """{path: (the wrapped command's answer, the http command's own, its record)}."""
    port, _log = server
    tmp = tmp_path_factory.mktemp("qwen-failures")
    closed = free_port()
    urls = {p: f"http://127.0.0.1:{closed if p == '/refused' else port}{p}" for p in sorted(CASES)}
    hooks = [{"type": "http", "url": u, "timeout": 10} for u in urls.values()]
    settings = tmp / "settings.json"
    write(settings, json.dumps({"hooks": {"PreToolUse": [{"matcher": "", "hooks": hooks}]}}))
    stream = tmp / "stream.jsonl"
    cmd = ["install", "qwen-code", "--settings", str(settings), "--stream", str(stream)]
    assert run(cmd, tmp).returncode == 0
    wrapped = json.loads(settings.read_text())["hooks"]["PreToolUse"][0]["hooks"]
    request = json.dumps(fixture("qwen_pre_shell")).encode()
    seen = {}
    for (path, url), hook in zip(urls.items(), wrapped, strict=True):
        tapped = subprocess.run(
            ["sh", "-c", hook["command"]], input=request, capture_output=True, timeout=30
        )
        own = run_spec(HttpSpec("qwen-code", url), request)
        seen[path] = [tapped, own]
    records = wait_for_records(stream, len(urls))
    for path, url in urls.items():
        (record,) = [r for r in records if f"--url {url}" in " ".join(r["hook"]["argv"])]
        seen[path].append(record)
    return seen


@pytest.mark.parametrize("path", CASES)
def test_answer_stays_what_qwen_reads(installed, path):
    tapped, own, _record = installed[path]
    stdout, code, *_ = CASES[path]
    # The tap changes nothing, and the http command answers as Qwen reads the reply.
    assert (tapped.stdout, tapped.stderr, tapped.returncode) == (
        own.stdout,
        own.stderr,
        own.returncode,
    )
    assert tapped.returncode == code, tapped.stderr
    if stdout is not None:
        assert json.loads(tapped.stdout) == stdout


@pytest.mark.parametrize("path", CASES)
def test_record_says_the_hook_failed_and_qwen_went_ahead(installed, path):
    *_, record = installed[path]
    _stdout, _code, decision, failure, words = CASES[path]
    assert record["runtime"] == "qwen-code" and record["decision"] == decision, record
    if decision == "failure":
        assert (record["failure"], record["effect"]) == (failure, "proceeds"), record
        detail = record["failure_detail"]
        assert words in detail and "PreToolUse proceeds (fail-open)" in detail, detail
    else:
        assert not record.get("failure") and not record.get("failure_detail"), record


def test_a_failed_post_keeps_the_start_of_the_body_and_never_the_url(installed, server):
    port, _log = server
    tapped, _own, record = installed["/fail"]
    assert "Traceback: KeyError 'rules'" in record["failure_detail"]
    assert f"127.0.0.1:{port}" not in tapped.stderr.decode()  # its URL may hold a secret


def test_a_url_with_a_password_fails_open_without_telling_it(server):
    # Qwen's fetch refuses a URL holding credentials: a connection failure, {continue:
    # true}. The password, interpolated from an allowed variable, stays off stderr.
    port, _log = server
    spec = HttpSpec("qwen-code", f"http://ada:$PW@127.0.0.1:{port}/deny", (), ("PW",))
    result = run_spec(spec, json.dumps(fixture("qwen_pre_shell")).encode(), {"PW": "s3cret"})
    assert (result.returncode, json.loads(result.stdout)) == (1, CONTINUE)
    assert result.stderr.startswith(b"hooktui http hook: connection failed: fetch failed")
    assert b"s3cret" not in result.stderr
