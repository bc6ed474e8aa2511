"""The command an http hook becomes: the POST it makes, and its answer as the runtime
reads the reply (real local server, real subprocess)."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
from pathlib import Path

import pytest
from hooktui.tap.httphook.spec import HttpSpec, from_line, to_argv, to_line

from tests.conftest import wait_for_records
from tests.e2e.http_hook_server import serve

REQUEST = b'{"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"ls"}}'
DENY = '{"decision":"block","reason":"no"}'
ANSWERS = {
    "/deny": {"status": 200, "body": DENY},
    "/empty": {"status": 200, "body": ""},
    "/text": {"status": 200, "body": "plain words"},
    "/broken": {"status": 200, "body": '{"decision": '},
    "/fail": {"status": 500, "body": DENY},
    "/moved": {"status": 302, "body": DENY},
}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def answering_server(tmp_path_factory, answers: dict):
    """A real local server answering each path as `answers` says: yields (port, its log)."""
    log = tmp_path_factory.mktemp("http") / "log.jsonl"
    port = free_port()
    srv = serve({"port": port, "log": str(log), "answers": answers})
    yield port, log
    srv.shutdown()


def run_spec(spec: HttpSpec, request: bytes, env=None) -> subprocess.CompletedProcess:
    """The http hook command for `spec`, run as a runtime would, on `request`."""
    return subprocess.run(
        to_argv(spec, sys.executable),
        input=request,
        capture_output=True,
        timeout=30,
        env={"PATH": os.environ["PATH"], **(env or {})},
    )


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    yield from answering_server(tmp_path_factory, ANSWERS)


def call(spec: HttpSpec, env: dict[str, str] | None = None) -> subprocess.CompletedProcess:
    return run_spec(spec, REQUEST, env)


def last_post(log: Path) -> dict:
    return json.loads(log.read_text().splitlines()[-1])


@pytest.mark.parametrize(
    ("path", "stdout", "stderr", "code"),
    [
        ("/deny", DENY, "", 0),  # JSON: the command's stdout, read by the same schema
        ("/empty", "", "", 0),  # empty: {} (a plain success)
        ("/text", "", "HTTP hook must return JSON, but got non-JSON response body: plain", 1),
        ("/broken", "", "HTTP hook must return valid JSON", 1),
        ("/fail", "", "HTTP 500 from http://127.0.0.1:{port}/fail", 1),  # body ignored
        ("/moved", "", "HTTP 302 from", 1),  # no redirect followed
    ],
)
def test_reply_read_as_the_runtime_reads_it(server, path, stdout, stderr, code):
    port, log = server
    result = call(HttpSpec("claude-code", f"http://127.0.0.1:{port}{path}"))
    assert result.returncode == code, result.stderr
    assert result.stdout.decode() == stdout
    assert stderr.format(port=port) in result.stderr.decode()
    post = last_post(log)
    assert post["path"] == path and post["body"] == REQUEST.decode()
    assert post["headers"]["Content-Type"] == "application/json"


def test_no_server_is_a_failure_not_an_answer():
    result = call(HttpSpec("claude-code", f"http://127.0.0.1:{free_port()}/x"))
    assert result.returncode == 1 and result.stdout == b""
    assert "refused" in result.stderr.decode().lower()


def test_headers_interpolate_only_allowed_variables(server):
    port, log = server
    headers = (
        ("Authorization", "Bearer ${TOKEN}"),
        ("X-Other", "[$OTHER]"),
        ("X-Key", "[$ANTHROPIC_API_KEY]"),  # never sent, even when allowed
        ("X-Split", "a\r\nb$TOKEN"),
        ("Content-Length", "999"),  # dropped, as the runtime does
    )
    spec = HttpSpec(
        "claude-code",
        f"http://127.0.0.1:{port}/empty",
        headers,
        ("TOKEN", "ANTHROPIC_API_KEY"),
    )
    env = {"TOKEN": "t0k", "OTHER": "x", "ANTHROPIC_API_KEY": "sk-test"}
    assert call(spec, env).returncode == 0
    got = last_post(log)["headers"]
    assert got["Authorization"] == "Bearer t0k"
    assert got["X-Other"] == "[]" and got["X-Key"] == "[]" and got["X-Split"] == "abt0k"
    assert got["Content-Length"] == str(len(REQUEST))


def test_command_line_round_trip_and_bad_arguments():
    spec = HttpSpec("claude-code", "http://h/x?a=1", (("X-A", "it's $V"),), ("V",))
    assert from_line(to_line(spec, "/py")) == spec
    with_event = spec._replace(event="preToolUse")
    assert "--event preToolUse" in to_line(with_event, "/py")
    assert from_line(to_line(with_event, "/py")) == with_event
    assert "--event" not in to_line(spec, "/py")  # only runtimes that need it
    assert from_line("python3 guard.py") is None
    bad = subprocess.run(
        [sys.executable, "-m", "hooktui.tap.httphook", "--url"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert bad.returncode == 1 and bad.stderr.count("\n") == 1 and "Traceback" not in bad.stderr


def test_install_lists_what_it_cannot_wrap_and_restores_http_hooks(tmp_path):
    secret = "Bearer sk-ant-api03-" + "abcdefghij" * 8
    hooks = [
        {"type": "http", "url": "http://127.0.0.1:9/a", "headers": {"Authorization": secret}},
        {"type": "http", "url": 7},
        {"type": "command", "command": "./wake.sh", "asyncRewake": True},  # implies async
        {"type": "http", "url": "http://127.0.0.1:9/b", "allowedEnvVars": ["T"]},
        {"type": "command", "command": "Write-Host hi", "shell": "powershell"},
        {"type": "command", "command": "./guard.sh", "shell": "bash"},
    ]
    path = tmp_path / ".claude" / "settings.json"
    path.parent.mkdir()
    path.write_text(json.dumps({"hooks": {"PreToolUse": [{"hooks": hooks}]}}, indent=1))
    original = path.read_bytes()
    hooktui = Path(sys.executable).with_name("hooktui")
    env = {**os.environ, "HOME": str(tmp_path)}
    run = subprocess.run(
        [hooktui, "install", "claude-code"],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert run.returncode == 0, run.stderr
    listed = [x for x in run.stdout.splitlines() if x.startswith("not wrapped:")]
    assert len(listed) == 4 and "wrapped 2 command hook(s)" in run.stdout
    assert "hooks[0]: an 'http' hook" in listed[0] and "secret" in listed[0]
    assert "hooks[1]: an 'http' hook" in listed[1] and "'url' is not a string" in listed[1]
    assert "hooks[2]: async" in listed[2]
    assert "hooks[4]: a command hook: it runs under shell 'powershell'" in listed[3]
    assert secret not in json.loads(path.read_text())["hooks"]["PreToolUse"][0]["hooks"][0].get(
        "command", ""
    )
    run = subprocess.run(
        [hooktui, "uninstall", "claude-code"],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert run.returncode == 0 and "byte for byte" in run.stdout, run.stdout + run.stderr
    assert path.read_bytes() == original


# Each runtime's settings, with hooks of every kind it has beside one command hook:
# (settings file, its text, how many hooks install must list as not wrapped).
OTHER_RUNTIMES = {
    "codex": (
        ".codex/hooks.json",
        {
            "hooks": {
                "PreToolUse": [
                    {
                        "hooks": [
                            {"type": "prompt", "prompt": "safe?"},
                            {"type": "agent", "prompt": "check"},
                            {"type": "mcp_tool", "server": "s", "tool": "t"},
                            {"type": "command", "command": "./n.sh", "async": True},
                            {"type": "http", "url": "http://127.0.0.1:9/x"},
                            {"type": "command", "command": "./guard.sh"},
                        ]
                    }
                ]
            }
        },
        ["'prompt'", "'agent'", "'mcp_tool'", "async", "'http' hook: not a handler type Codex"],
    ),
    "gemini-cli": (
        ".gemini/settings.json",
        {
            "hooks": {
                "BeforeTool": [
                    {
                        "hooks": [
                            {"type": "function", "name": "f"},
                            {"type": "command", "command": "./guard.sh"},
                        ]
                    }
                ]
            }
        },
        ["'function'"],
    ),
    "cursor": (
        ".cursor/hooks.json",
        {
            "version": 1,
            "hooks": {"preToolUse": [{"type": "prompt", "prompt": "safe?"}, {"command": "./g.sh"}]},
        },
        ["'prompt'"],
    ),
}


@pytest.mark.parametrize("runtime", sorted(OTHER_RUNTIMES))
def test_every_runtime_lists_each_hook_it_cannot_wrap(tmp_path, runtime):
    rel, data, words = OTHER_RUNTIMES[runtime]
    path = tmp_path / rel
    path.parent.mkdir(parents=True)
    path.write_text(json.dumps(data, indent=2))
    hooktui = Path(sys.executable).with_name("hooktui")
    env = {**os.environ, "HOME": str(tmp_path)}
    run = subprocess.run(
        [hooktui, "install", runtime, "--settings", str(path)],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert run.returncode == 0 and "wrapped 1 command hook(s)" in run.stdout, run.stderr
    listed = [x for x in run.stdout.splitlines() if x.startswith("not wrapped:")]
    assert len(listed) == len(words)
    for line, word in zip(listed, words, strict=True):
        assert word in line, line
        assert word == "async" or "the runtime" in line or "not a handler type" in line


def test_http_hooks_under_the_runtimes_own_http_policy_are_left_alone(tmp_path):
    hooks = [{"type": "http", "url": "http://127.0.0.1:9/a"}, {"type": "command", "command": "x"}]
    settings = {
        "allowedHttpHookUrls": ["http://127.0.0.1:*"],
        "hooks": {"Stop": [{"hooks": hooks}]},
    }
    path = tmp_path / ".claude" / "settings.json"
    path.parent.mkdir()
    path.write_text(json.dumps(settings))
    hooktui = Path(sys.executable).with_name("hooktui")
    run = subprocess.run(
        [hooktui, "install", "claude-code"],
        cwd=tmp_path,
        env={**os.environ, "HOME": str(tmp_path)},
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert run.returncode == 0 and "wrapped 1 command hook(s)" in run.stdout, run.stderr
    (listed,) = [x for x in run.stdout.splitlines() if x.startswith("not wrapped:")]
    assert "hooks[0]: an 'http' hook: these settings set allowedHttpHookUrls" in listed
    assert json.loads(path.read_text())["hooks"]["Stop"][0]["hooks"][0] == hooks[0]


PASSWORD = "Zq8vPw3mKx7Ln"  # no secret rule knows it: only keeping it out of stderr helps


@pytest.mark.parametrize(
    ("url", "path"),
    [
        # Python's words quoted "{pw}@127.0.0.1"; now it posts, as Claude Code does.
        ("http://ada:{pw}@127.0.0.1:{port}/fail", "/fail"),
        # Python quoted the path; now it posts, the space as %20 (no such path: 404).
        ("http://127.0.0.1:{port}/fail?key={pw} x", "/fail?key={pw}%20x"),
    ],
)
def test_a_password_in_the_url_or_a_header_never_reaches_the_stream(server, tmp_path, url, path):
    port, log = server
    stream = tmp_path / "stream.jsonl"
    spec = HttpSpec(
        "claude-code",
        url.format(pw=PASSWORD, port=port),
        (("Authorization", "Basic $HOOK_PW"),),
        ("HOOK_PW",),
    )
    hooktui = Path(sys.executable).with_name("hooktui")
    result = subprocess.run(
        [str(hooktui), "tap", "--stream", str(stream), "--", *to_argv(spec, sys.executable)],
        input=REQUEST,
        capture_output=True,
        timeout=30,
        env={"PATH": os.environ["PATH"], "HOOK_PW": PASSWORD},
    )
    assert last_post(log)["path"] == path.format(pw=PASSWORD)
    # A failed hook (a non-blocking error), Claude's one line (`HTTP <status> from
    # <url>`), the secret in it masked as the record masks it: never in stderr.
    assert result.returncode == 1 and result.stdout == b"", result.stderr
    assert result.stderr.startswith(b"HTTP 5") or result.stderr.startswith(b"HTTP 404")
    assert PASSWORD.encode() not in result.stderr and b"REDACTED" in result.stderr
    (record,) = wait_for_records(stream, 1)
    assert record["decision"] == "failure" and record["effect"] == "proceeds"
    assert PASSWORD.encode() not in stream.read_bytes()


# What Claude Code 2.1.332 sends for a URL, as Node's WHATWG parser reads it (axios),
# measured with the real CLI (tests/e2e/test_e2e_http_hooks.py, ORACLE.md): the URL's
# path and after as written, the request target sent.
TARGETS = [
    ("/deny x", "/deny%20x"),
    ("/deny?q=a b&u=\u00e9&k='\"<>`", "/deny?q=a%20b&u=%C3%A9&k=%27%22%3C%3E`"),
    ("/x/../deny", "/deny"),
    ("/x/./y/%2E%2e/deny#frag", "/x/deny"),
    ("\\deny\u00e9{}", "/deny%C3%A9%7B%7D"),
]


@pytest.mark.parametrize(("written", "sent"), TARGETS)
def test_the_url_is_sent_as_claude_codes_url_parser_reads_it(tmp_path_factory, written, sent):
    for port, log in answering_server(tmp_path_factory, {sent: {"status": 200, "body": DENY}}):
        url = f"http://127.0.0.1:{port}{written}"
        result = call(HttpSpec("claude-code", url))
        assert (result.returncode, result.stdout, result.stderr) == (0, DENY.encode(), b"")
        post = last_post(log)
        assert post["path"] == sent and post["headers"]["Host"] == f"127.0.0.1:{port}"


@pytest.mark.parametrize(
    ("userinfo", "authorization"),
    [
        ("ada@", "Basic YWRhOg=="),  # "ada:"
        ("a d:$HOOK_X@", "Basic YSUyMGQ6JEhPT0tfWA=="),  # "a%20d:$HOOK_X": not decoded
        (":pw@", "Bearer mine"),  # no user name: axios sends no Basic auth
    ],
)
def test_user_info_in_the_url_is_sent_as_basic_auth(server, userinfo, authorization):
    port, log = server
    spec = HttpSpec(
        "claude-code",
        f"http://{userinfo}127.0.0.1:{port}/empty",
        (("authorization", "Bearer mine"),),
    )
    result = call(spec)
    assert (result.returncode, result.stdout, result.stderr) == (0, b"", b"")
    post = last_post(log)
    assert post["path"] == "/empty" and post["headers"]["Host"] == f"127.0.0.1:{port}"
    auth = [v for k, v in post["headers"].items() if k.lower() == "authorization"]
    assert auth == [authorization]


def test_urls_the_parser_would_rewrite_beyond_this_reading_are_sent_as_written():
    """What whatwg.target reads (the rest of WHATWG, not measured against Claude Code:
    IPv4 shorthands, IDNA, uncompressed IPv6) it leaves alone: None, sent as written."""
    from hooktui.tap.base.whatwg import Target, target

    assert target("HTTP://Example.COM:0080/a/./b/..") == Target("http://example.com/a/", "")
    assert target(" http://h:443/x?\t") == Target("http://h:443/x", "")
    assert target("https://[::1]:8443") == Target("https://[::1]:8443/", "")
    for url in ("http://127.1/", "http://0x7f.0.0.1/", "http://b\u00fccher.de/", "http://[0::1]/"):
        assert target(url) is None, url
    assert target("ftp://h/") is None and target("http://h:99999/") is None
    assert target("http://h/\udcff") is None  # a byte argv could not decode
