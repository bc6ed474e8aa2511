"""An http hook of GitHub Copilot CLI 1.0.102 as the command install makes of it: whether
it posts at all, the POST, and the answer as Copilot reads the reply (real local server,
real subprocess), and install / uninstall of such hooks in `.github/hooks/*.json`."""

from __future__ import annotations

import gzip
import json
import os
import subprocess
import sys
import zlib
from pathlib import Path

import pytest
from hooktui.tap.httphook.spec import HttpSpec, from_line, to_argv
from hooktui.tap.install.wrapper import read_shell
from hooktui.tap.runtimes.copilot import http as copilot_http

from tests.tap.test_httphook import answering_server, free_port, run_spec

REQUEST = b'{"sessionId":"s","timestamp":1,"cwd":"/w","toolName":"bash","toolArgs":{}}'
DENY = {"permissionDecision": "deny", "permissionDecisionReason": "no"}
DENY_BYTES = b'{"permissionDecision":"deny","permissionDecisionReason":"%s"}'
LOCAL = {"COPILOT_HOOK_ALLOW_LOCALHOST": "1"}
ANSWERS = {
    "/deny": {"body": json.dumps(DENY)},
    "/created": {"status": 201, "body": json.dumps(DENY)},
    "/as-text": {"body": json.dumps(DENY), "type": "text/plain"},  # any type is read
    "/bom": {"body": "\ufeff \n" + json.dumps(DENY) + "\n "},
    "/progress": {"body": json.dumps({"type": "progress", **DENY})},  # read whole
    "/progress-line": {"body": '{"type":"progress"}\n' + json.dumps(DENY)},  # not JSON
    "/empty": {"body": ""},
    "/text": {"body": "plain words", "type": "text/plain"},
    "/array": {"body": "[1]"},
    "/trailing": {"body": json.dumps(DENY) + " x"},
    "/nan": {"body": '{"permissionDecision": NaN}'},
    "/fail": {"status": 500, "body": json.dumps(DENY)},  # never read
    "/moved": {"status": 302, "body": json.dumps(DENY), "location": "/deny"},
    # bytes that are not UTF-8 (U+FFFD), compressed replies (exact coding names only)
    "/not-utf8": {"hex": (DENY_BYTES % b"bad \xff \xe2\x82 \xc0\xaf").hex(), "type": "text/plain"},
    "/not-utf8-after": {"hex": (DENY_BYTES % b"x" + b"\xff").hex()},
    "/gzip": {"hex": gzip.compress(DENY_BYTES % b"gz").hex(), "headers": [["Content-Encoding", "gzip"]]},
    "/deflate": {"hex": zlib.compress(DENY_BYTES % b"zl").hex(), "headers": [["Content-Encoding", "deflate"]]},
    "/raw-deflate": {"hex": zlib.compress(DENY_BYTES % b"r")[2:-4].hex(), "headers": [["Content-Encoding", "deflate"]]},
    "/not-gzip": {"body": json.dumps(DENY), "headers": [["Content-Encoding", "gzip"]]},
    "/empty-gzip": {"body": "", "headers": [["Content-Encoding", "gzip"]]},
    "/GZIP": {"hex": gzip.compress(DENY_BYTES % b"up").hex(), "headers": [["Content-Encoding", "GZIP"]]},
    "/x-gzip": {"hex": gzip.compress(DENY_BYTES % b"x").hex(), "headers": [["Content-Encoding", "x-gzip"]]},
    "/identity": {"body": json.dumps(DENY), "headers": [["Content-Encoding", "identity"]]},
}  # fmt: skip


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    yield from answering_server(tmp_path_factory, ANSWERS)


def call(spec: HttpSpec, env: dict[str, str] | None = None) -> subprocess.CompletedProcess:
    return run_spec(spec, REQUEST, env)


def posts(log: Path) -> list[dict]:
    return [json.loads(x) for x in log.read_text().splitlines()] if log.exists() else []


def spec(port: int, path: str, event: str = "postToolUse", headers=(), allow=()) -> HttpSpec:
    return HttpSpec("copilot", f"http://127.0.0.1:{port}{path}", headers, allow, event)


@pytest.mark.parametrize(
    ("path", "stdout"),
    [
        ("/deny", DENY),
        ("/created", DENY),
        ("/as-text", DENY),
        ("/bom", DENY),
        ("/progress", {"type": "progress", **DENY}),
        ("/progress-line", None),
        ("/empty", None),
        ("/text", None),
        ("/array", None),
        ("/trailing", None),
        ("/nan", None),
        ("/not-utf8", {**DENY, "permissionDecisionReason": "bad \ufffd \ufffd \ufffd\ufffd"}),
        ("/not-utf8-after", None),
        ("/gzip", {**DENY, "permissionDecisionReason": "gz"}),
        ("/deflate", {**DENY, "permissionDecisionReason": "zl"}),
        ("/empty-gzip", None),
        ("/GZIP", None),  # only the exact name decodes: read as it came, not JSON
        ("/x-gzip", None),
        ("/identity", DENY),
    ],
)
def test_a_2xx_reply_is_read_as_copilot_reads_it(server, path, stdout):
    port, log = server
    result = call(spec(port, path, "preToolUse"), LOCAL)
    assert result.returncode == 0, result.stderr
    if stdout is None:  # no answer: the tool runs, as with an empty command stdout
        assert result.stdout == b""
    else:
        assert json.loads(result.stdout) == stdout
    post = posts(log)[-1]
    assert post["method"] == "POST" and post["path"] == path
    assert post["body"] == REQUEST.decode()


def test_a_progress_shaped_answer_is_not_a_progress_line_for_the_command_reader(server):
    """Copilot's command reader skips a one-line {"type": "progress"} object, its http
    reader does not: the command prints it over several lines, which is read whole."""
    port, _log = server
    result = call(spec(port, "/progress", "preToolUse"), LOCAL)
    assert len(result.stdout.splitlines()) > 1
    from hooktui.tap.runtimes.copilot.answers import read_stdout

    assert read_stdout(result.stdout) == ("json", {"type": "progress", **DENY})


@pytest.mark.parametrize(
    ("path", "says"),
    [
        ("/fail", "500"),
        ("/moved", "redirect 302"),
        ("/not-gzip", "gzip body does not decode"),  # Copilot: "HTTP hook fetch failed"
        ("/raw-deflate", "deflate body does not decode"),  # deflate is zlib's format
    ],
)
def test_a_non_2xx_reply_is_a_hook_error(server, path, says):
    """exit 1, as Copilot reads an http error: preToolUse fails closed, others ignore it."""
    port, log = server
    before = [p["path"] for p in posts(log)]
    result = call(spec(port, path), LOCAL)
    assert (result.returncode, result.stdout) == (1, b"")
    assert says in result.stderr.decode()
    assert [p["path"] for p in posts(log)] == [*before, path]  # no redirect followed


def test_no_server_is_a_hook_error():
    result = call(HttpSpec("copilot", f"http://127.0.0.1:{free_port()}/x"), LOCAL)
    assert (result.returncode, result.stdout) == (1, b"")
    assert "refused" in result.stderr.decode().lower()


def test_headers_interpolate_allowed_variables_as_copilot_does(server):
    port, log = server
    headers = (
        ("X-A", "$HOOK_USER/${HOOK_USER}/${HOOK_USER:-other}"),
        ("X-B", "[$SECRET][$UNSET][$HOOK_USERX][${ HOOK_USER }]"),
        ("X-C", "caf\u00e9 $low"),  # names are case-sensitive; UTF-8 on the wire
        ("Content-Type", "text/plain"),  # Copilot always sends application/json
    )
    allow = ("HOOK_USER", "UNSET", "low")
    env = {**LOCAL, "HOOK_USER": "ada", "SECRET": "s3", "low": "lo", "HOOKUSER": "x"}
    result = call(spec(port, "/empty", headers=headers, allow=allow), env)
    assert result.returncode == 0, result.stderr
    raw = posts(log)[-1]["headers"]
    got = {k.lower(): v for k, v in raw.items()}
    assert got["x-a"] == "ada/ada/ada"
    assert got["x-b"] == "[][][][${ HOOK_USER }]"
    assert got["x-c"].encode("latin-1").decode("utf-8") == "caf\u00e9 lo"
    assert got["content-type"] == "application/json"


def test_the_post_carries_copilots_headers_in_its_order(server):
    """Names lower case; the hook's first (Accept and Host too, Content-Type aside), then
    Copilot's own: measured from 1.0.102's POST (ORACLE.md)."""
    port, log = server
    headers = (("X-Hook-User", "u"), ("Content-Type", "text/plain"), ("Accept", "text/x"))
    env = {**LOCAL, "COPILOT_CLI_BINARY_VERSION": "1.0.102"}
    result = call(spec(port, "/empty", headers=headers), env)
    assert result.returncode == 0, result.stderr
    got = list(posts(log)[-1]["headers"].items())
    assert got == [
        ("x-hook-user", "u"),
        ("accept", "text/x"),
        ("content-type", "application/json"),
        ("user-agent", f"copilot/1.0.102 ({sys.platform} v24.20.0) term/unknown"),
        ("accept-encoding", copilot_http.ACCEPT_ENCODING),
        ("host", f"127.0.0.1:{port}"),
        ("content-length", str(len(REQUEST))),
    ]
    # Copilot offers zstd,gzip,deflate,br: the tap only what it can decode
    assert copilot_http.ACCEPT_ENCODING in ("gzip,deflate", "zstd,gzip,deflate")


@pytest.mark.parametrize(
    ("term", "says"), [(None, "term/unknown"), ("", "term/"), ("WezTerm", "term/WezTerm")]
)
def test_the_user_agent_names_the_terminal_program(server, term, says):
    port, log = server
    env = {**LOCAL, "COPILOT_CLI_BINARY_VERSION": "1.0.102"}
    if term is not None:
        env["TERM_PROGRAM"] = term
    assert call(spec(port, "/empty"), env).returncode == 0
    assert posts(log)[-1]["headers"]["user-agent"].endswith(f") {says}")


def test_a_numeric_host_is_sent_as_its_address(server):
    port, log = server
    url = f"http://2130706433:{port}/empty"  # 127.0.0.1, as a URL parser reads it
    assert run_spec(HttpSpec("copilot", url), REQUEST, LOCAL).returncode == 0
    assert posts(log)[-1]["headers"]["host"] == f"127.0.0.1:{port}"


def test_no_proxy_is_used(server):
    """Copilot's hook POST ignores HTTP_PROXY (measured): the tap's goes straight to the
    URL (here refused), never to the proxy (the server, which would log it)."""
    port, log = server
    before = len(posts(log))
    proxy = f"http://127.0.0.1:{port}"
    env = {**LOCAL, "HTTP_PROXY": proxy, "http_proxy": proxy}
    result = call(HttpSpec("copilot", f"http://127.0.0.1:{free_port()}/x"), env)
    assert (result.returncode, result.stdout) == (1, b"")
    assert "refused" in result.stderr.decode().lower()
    assert len(posts(log)) == before


@pytest.mark.parametrize("host", ["localhost.", "foo.localhost", "a.b.localhost", "localhost.x"])
def test_only_localhost_itself_passes_the_localhost_gate(server, host):
    """`localhost.` and `*.localhost` are not localhost to COPILOT_HOOK_ALLOW_LOCALHOST:
    a plain-http preToolUse hook to them is skipped when loading (nothing posted)."""
    port, log = server
    before = len(posts(log))
    result = call(HttpSpec("copilot", f"http://{host}:{port}/deny", event="preToolUse"), LOCAL)
    assert (result.returncode, result.stdout) == (0, b""), result.stderr
    assert "Copilot skips this hook" in result.stderr.decode()
    assert len(posts(log)) == before


def test_localhost_with_a_trailing_dot_is_looked_up_as_written():
    """`localhost.` is a name for the resolver (through /etc/hosts it does not resolve
    here, as for Copilot); it is never read as `localhost`."""
    import socket

    try:
        found = {i[4][0] for i in socket.getaddrinfo("localhost.", None)}
    except OSError:
        found = None
    if found is not None:
        pytest.skip(f"this resolver answers for localhost.: {found}")
    why = copilot_http.refusal("http://localhost.:8080/x", LOCAL)
    assert why.startswith("failed to lookup address information"), why


def test_a_control_character_in_a_header_fails_the_request_unposted(server):
    port, log = server
    before = len(posts(log))
    env = {**LOCAL, "V": "a\nb"}
    result = call(spec(port, "/empty", headers=(("X-V", "$V"),), allow=("V",)), env)
    assert (result.returncode, result.stdout) == (1, b"")
    assert len(posts(log)) == before


@pytest.mark.parametrize(
    ("event", "allow", "env", "posted"),
    [
        ("preToolUse", (), {}, False),  # plain http at a guard: skipped...
        ("permissionRequest", (), {}, False),
        ("preToolUse", (), LOCAL, True),  # ...unless localhost is allowed
        ("postToolUse", ("V",), {}, False),  # plain http with allowedEnvVars: skipped
        ("postToolUse", ("V",), LOCAL, True),
        ("preToolUse", (), {"COPILOT_HOOK_ALLOW_LOCALHOST": "true"}, False),  # only "1"
    ],
)
def test_a_hook_copilot_skips_when_loading_answers_nothing(server, event, allow, env, posted):
    port, log = server
    before = len(posts(log))
    result = call(spec(port, "/deny", event, allow=allow), env)
    assert len(posts(log)) == before + posted
    if not posted:
        assert (result.returncode, result.stdout) == (0, b"")
        assert "Copilot skips this hook" in result.stderr.decode()


def test_a_loopback_url_is_refused_without_allow_localhost(server):
    """Allowed to load (COPILOT_HOOK_ALLOW_HTTP_AUTH_HOOKS), but 127.0.0.1 is a blocked
    address: a hook error (at preToolUse, a deny), and nothing posted."""
    port, log = server
    before = len(posts(log))
    env = {"COPILOT_HOOK_ALLOW_HTTP_AUTH_HOOKS": "1"}
    result = call(spec(port, "/deny", "preToolUse"), env)
    assert (result.returncode, result.stdout) == (1, b"")
    assert "resolves to blocked address 127.0.0.1" in result.stderr.decode()
    assert len(posts(log)) == before


@pytest.mark.parametrize(
    ("host", "blocked", "with_local"),
    [
        ("127.0.0.1", True, False),
        ("127.1", True, False),  # a URL parser's IPv4 forms
        ("2130706433", True, False),
        ("[::1]", True, False),
        ("[::ffff:127.0.0.1]", True, True),  # never lifted
        ("0.1.2.3", True, True),
        ("10.0.0.1", True, True),
        ("100.64.0.1", True, True),
        ("100.128.0.1", False, False),
        ("169.254.169.254", True, True),
        ("172.16.0.1", True, True),
        ("172.32.0.1", False, False),
        ("192.168.1.1", True, True),
        ("198.19.255.1", True, True),
        ("198.20.0.1", False, False),
        ("192.0.2.1", False, False),
        ("8.8.8.8", False, False),
        ("[::]", False, False),
        ("[fd00::1]", True, True),
        ("[fe00::1]", False, False),
        ("[febf::1]", True, True),
        ("[fec0::1]", False, False),
        ("[64:ff9b::808:808]", True, True),
        ("[64:ff9b::1:0:1]", False, False),
        ("[100::1:0:0:1]", True, True),
        ("[100:0:0:1::1]", False, False),
        ("[::ffff:8.8.8.8]", False, False),
        ("[::ffff:192.168.0.1]", True, True),
    ],
)
def test_blocked_addresses_are_copilots(host, blocked, with_local):
    url = f"http://{host}:8080/x"
    assert bool(copilot_http.refusal(url, {})) is blocked
    assert bool(copilot_http.refusal(url, LOCAL)) is with_local


# ------------------------------------------------------------------ install / uninstall


def _hooktui(tmp_path: Path, *args: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "HOME": str(tmp_path / "home")}
    env.pop("COPILOT_HOME", None)
    hooktui = Path(sys.executable).with_name("hooktui")
    return subprocess.run(
        [str(hooktui), *args], capture_output=True, text=True, cwd=tmp_path, env=env, timeout=60
    )


def test_install_wraps_copilot_http_hooks_and_uninstall_restores(tmp_path):
    path = tmp_path / ".github" / "hooks" / "h.json"
    path.parent.mkdir(parents=True)
    hooks = {
        "preToolUse": [
            {
                "type": "http",
                "url": "http://127.0.0.1:9/pre",
                "headers": {"X-U": "u $HOOK_USER"},
                "allowedEnvVars": ["HOOK_USER"],
                "timeoutSec": 5,
            },
            {"type": "command", "bash": "./g.sh"},
        ],
        "postToolUse": [
            {"type": "http", "url": "ftp://h/x"},
            {"type": "http", "url": "https://h/x"},
        ],
    }
    path.write_text(json.dumps({"version": 1, "hooks": hooks}, indent=2) + "\n")
    original = path.read_bytes()
    run = _hooktui(tmp_path, "install", "copilot", "--stream", str(tmp_path / "s.jsonl"))
    assert run.returncode == 0, run.stderr
    listed = [x for x in run.stdout.splitlines() if x.startswith("not wrapped:")]
    assert len(listed) == 1 and "postToolUse[0]" in listed[0], run.stdout
    assert "not http: or https:" in listed[0]
    wrapped = json.loads(path.read_text())["hooks"]
    pre = wrapped["preToolUse"][0]
    assert pre["type"] == "command" and pre["url"] == "http://127.0.0.1:9/pre"
    assert "--timeout-ms 5000" in pre["bash"]
    got = from_line(read_shell(pre["bash"]).original)
    assert got is not None and got.event == "preToolUse" and got.allow_env == ("HOOK_USER",)
    post = wrapped["postToolUse"][1]
    assert "--event postToolUse" in post["bash"] and "--timeout-ms 30000" in post["bash"]
    run = _hooktui(tmp_path, "uninstall", "copilot")
    assert run.returncode == 0 and "byte for byte" in run.stdout, run.stdout + run.stderr
    assert path.read_bytes() == original


def test_claude_codes_http_hook_run_by_copilot_posts_and_reads_as_copilot(server):
    """Copilot runs the http hooks of `.claude/settings.json` (wrapped by install
    claude-code): its environment says it called, so its rules apply, not Claude's."""
    port, log = server
    claude = HttpSpec("claude-code", f"http://127.0.0.1:{port}/text")
    request = json.dumps(
        {"hook_event_name": "PreToolUse", "session_id": "s", "timestamp": "2026-01-01T00:00:00Z"}
    ).encode()
    env = {"PATH": os.environ["PATH"]}
    as_claude = subprocess.run(to_argv(claude, sys.executable), input=request, env=env,
                               capture_output=True, timeout=30)  # fmt: skip
    assert as_claude.returncode == 1  # Claude Code: a non-JSON body is a hook error
    env |= {"COPILOT_CLI": "1", **LOCAL}
    as_copilot = subprocess.run(to_argv(claude, sys.executable), input=request, env=env,
                                capture_output=True, timeout=30)  # fmt: skip
    assert (as_copilot.returncode, as_copilot.stdout) == (0, b"")  # Copilot: no answer
    before = len(posts(log))  # and Copilot's load-time rule for PreToolUse holds too
    del env["COPILOT_HOOK_ALLOW_LOCALHOST"]
    skipped = subprocess.run(to_argv(claude, sys.executable), input=request, env=env,
                             capture_output=True, timeout=30)  # fmt: skip
    assert (skipped.returncode, skipped.stdout) == (0, b"") and len(posts(log)) == before


# ------------------------------------------------------------------ preMcpToolCall

MCP_REQUEST = json.dumps(
    {
        "sessionId": "s",
        "timestamp": 1,
        "cwd": "/w",
        "toolCallId": "c1",
        "serverName": "srv",
        "toolName": "echo",
        "arguments": {"text": "hi"},
    }
).encode()  # as 1.0.102 sends it (ORACLE.md)


def test_pre_mcp_tool_call_is_told_and_never_blocks():
    """Its payload names no event: `serverName` tells it. Copilot ignores a deny there
    and an error fails open (measured), so the record says so."""
    from hooktui.tap.canonical import Outcome
    from hooktui.tap.runtimes import get_adapter

    copilot = get_adapter("copilot")
    call = copilot.parse(json.loads(MCP_REQUEST))
    assert (call.native_event, call.event) == ("preMcpToolCall", "other")
    assert (call.tool_name, call.tool_input) == ("echo", {"text": "hi"})
    deny = copilot.judge(call, Outcome(exit_code=0, stdout=json.dumps(DENY).encode()))
    assert deny.decision == "allow"
    error = copilot.judge(call, Outcome(exit_code=1))
    assert (error.decision, error.effect) == ("failure", "proceeds")
    assert copilot.fails_closed(call) is False


def test_a_pre_mcp_tool_call_http_hook_posts_and_answers_its_reply(server):
    """An authorization event for the plain-http gate (skipped unless localhost is
    allowed); posted, its reply is the answer as it came (`metaToUse`)."""
    port, log = server
    hook = spec(port, "/deny", "preMcpToolCall")
    before = len(posts(log))
    skipped = run_spec(hook, MCP_REQUEST, {})
    assert (skipped.returncode, skipped.stdout) == (0, b"") and len(posts(log)) == before
    posted = run_spec(hook, MCP_REQUEST, LOCAL)
    assert posted.returncode == 0 and json.loads(posted.stdout) == DENY
    assert posts(log)[-1]["body"] == MCP_REQUEST.decode()
