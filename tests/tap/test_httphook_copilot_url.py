"""The request target of a GitHub Copilot CLI 1.0.102 http hook: the URL's path and query
as Copilot's URL parser reads them, which the tap's POST sends too. Each row was
measured from the real CLI's POST (2026-12-05, tests/e2e/ORACLE.md)."""

from __future__ import annotations

import json

import pytest
from hooktui.tap.base import whatwg
from hooktui.tap.httphook.spec import HttpSpec
from hooktui.tap.runtimes.copilot import http as copilot_http
from hooktui.tap.runtimes.copilot import http_url as copilot_http_url

from tests.tap.test_httphook import answering_server, run_spec

# (the URL after `http://127.0.0.1:P`, as written; the request target Copilot sent)
MEASURED = [
    ("/a b", "/a%20b"),
    ("/x/../dots", "/dots"),
    ("/x/%2e%2e/enc", "/enc"),
    ("/x/%2E%2e/enc2", "/enc2"),
    ("/x/.%2e/a", "/a"),
    ("/x/%2e/b", "/x/b"),
    ("/x/./c", "/x/c"),
    ("/x/%2e%2e", "/"),
    ("/x/./", "/x/"),
    ("/%2e", "/"),
    ("/a/.", "/a/"),
    ("/x/%2E", "/x/"),
    ("/x/..", "/"),
    ("/../../up", "/up"),
    ("/a/b/../../../c/./d/..", "/c/"),
    ("/\u00e9/../f", "/f"),
    ("/dd/..%2e", "/dd/..%2e"),  # three dots: a name
    ("/x/%2e%2e%2fslash", "/x/%2e%2e%2fslash"),  # an encoded slash is no separator
    ("/caf\u00e9", "/caf%C3%A9"),
    ("/\U0001f600", "/%F0%9F%98%80"),
    ("/c\x01d\x7fe", "/c%01d%7Fe"),
    ('/p"<>`{}|^[]', "/p%22%3C%3E%60%7B%7D|^[]"),
    ("/pct%zz%41", "/pct%zz%41"),
    ("/sp%20ace", "/sp%20ace"),
    ("/pa%2Fth", "/pa%2Fth"),
    ("/semi;x=1/y", "/semi;x=1/y"),
    ("/tab\tin", "/tabin"),
    ("/nl\nin", "/nlin"),
    ("/q?a b&u=\u00e9", "/q?a%20b&u=%C3%A9"),
    ("/q2?k='\"<>`", "/q2?k=%27%22%3C%3E`"),
    ("/q?{}|^\x01\x7f", "/q?{}|^%01%7F"),
    ("/q3?a%20b c", "/q3?a%20b%20c"),
    ("/a?b\\c", "/a?b\\c"),  # a backslash in the query stays
    ("/q??x", "/q??x"),
    ("/frag#frag", "/frag"),
    ("/f?x=1#frag", "/f?x=1"),
    ("/ha#sh?no", "/ha"),
    ("/q?a#b#c", "/q?a"),
    ("/u\u00e9?v=\u00e9#\u00e9", "/u%C3%A9?v=%C3%A9"),
    ("/e#", "/e"),
    ("/e?", "/e?"),  # an empty query keeps its `?` (Node's URL would drop it)
    ("/e?#f", "/e?"),
    ("/q?#", "/q?"),
    ("", "/"),
    ("?onlyq", "/?onlyq"),
    ("\\back\\slash", "/back/slash"),
    ("/a\\b", "/a/b"),
]


@pytest.mark.parametrize(("written", "target"), MEASURED)
def test_the_request_target_is_copilots(written, target):
    assert copilot_http_url.request_target(f"http://127.0.0.1:38611{written}") == target


@pytest.mark.parametrize(
    ("url", "target"),
    [
        ("HTTP://127.0.0.1:38611/upper", "/upper"),
        (" http://127.0.0.1:38611/lead ", "/lead"),
        ("http:127.0.0.1:38611/noslash", "/noslash"),
        ("http:\\\\127.0.0.1:38611\\bs2", "/bs2"),
        ("http://127.1:38611/a b", "/a%20b"),  # a host whatwg.target leaves as written
    ],
)
def test_the_request_target_whatever_the_scheme_slashes_and_host(url, target):
    assert copilot_http_url.request_target(url) == target


def test_claude_codes_reading_still_drops_an_empty_query():
    """Node's URL (Claude Code's axios) has no `search` for a bare `?`: the shared
    parser keeps it for Copilot only."""
    assert whatwg.request_target("http://h/e?") == "/e"
    assert whatwg.request_target("http://h/e?", empty_query=True) == "/e?"
    assert whatwg.target("http://h/e?#f").url == "http://h/e"
    assert whatwg.request_target("ftp://h/e") is None


def test_a_url_that_is_not_http_goes_out_as_written():
    """Install never wraps one (Copilot skips the hook): as before, the path as written."""
    assert copilot_http_url.request_target("ftp://h/x/../y?q") == "/x/../y?q"


# A real local server, the real http hook command: the POST's request line.
SENT = {
    "space": ("/u/a b", "/u/a%20b"),
    "dots": ("/u/x/%2e%2e/y/../dots", "/u/dots"),
    "query-fragment": ("/u/q?a b&u=\u00e9#frag", "/u/q?a%20b&u=%C3%A9"),
    "empty-query": ("/u/e?", "/u/e?"),
    "backslash": ("/u\\b", "/u/b"),
}
ALLOW = {"body": json.dumps({"permissionDecision": "allow"})}


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    yield from answering_server(tmp_path_factory, {t: ALLOW for _w, t in SENT.values()})


@pytest.mark.parametrize("case", SENT)
def test_the_tap_posts_to_copilots_request_target(server, case):
    port, log = server
    written, target = SENT[case]
    url = f"http://127.0.0.1:{port}{written}"
    request = b'{"sessionId":"s","timestamp":1,"cwd":"/w","toolName":"bash","toolArgs":{}}'
    env = {"COPILOT_HOOK_ALLOW_LOCALHOST": "1"}
    result = run_spec(HttpSpec("copilot", url, event="preToolUse"), request, env)
    # Answered at the target only (elsewhere a 404: a hook error, exit 1).
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout) == {"permissionDecision": "allow"}
    last = json.loads(log.read_text().splitlines()[-1])
    assert last["path"] == target
    assert last["headers"]["host"] == f"127.0.0.1:{port}"


# The host as Copilot's parser reads it (measured 2026-12-05, preToolUse and
# postToolUse alike): it posts to these, so install wraps them.
FORMS = {
    "no-slashes": ("http:127.0.0.1:{port}/u/noslash", "/u/noslash"),
    "one-slash": ("http:/127.0.0.1:{port}/u/one", "/u/one"),
    "three-slashes": ("http:///127.0.0.1:{port}/u/three", "/u/three"),
    "backslashes": ("http:\\\\127.0.0.1:{port}\\u\\bs", "/u/bs"),
    "backslash-after-port": ("http://127.0.0.1:{port}\\u\\back", "/u/back"),
}


@pytest.fixture(scope="module")
def forms_server(tmp_path_factory):
    yield from answering_server(tmp_path_factory, {t: ALLOW for _w, t in FORMS.values()})


@pytest.mark.parametrize("case", FORMS)
def test_a_url_copilot_reads_with_a_host_is_wrapped_and_posted_there(forms_server, case):
    port, log = forms_server
    written, target = FORMS[case]
    url = written.format(port=port)
    assert copilot_http.problem({"type": "http", "url": url}) == ""
    request = b'{"sessionId":"s","timestamp":1,"cwd":"/w","toolName":"bash","toolArgs":{}}'
    env = {"COPILOT_HOOK_ALLOW_LOCALHOST": "1"}
    result = run_spec(HttpSpec("copilot", url, event="preToolUse"), request, env)
    assert result.returncode == 0, result.stderr
    last = json.loads(log.read_text().splitlines()[-1])
    assert (last["path"], last["headers"]["host"]) == (target, f"127.0.0.1:{port}")


@pytest.mark.parametrize(
    "url", ["http:ada@127.0.0.1:1/x", "http::pw@127.0.0.1:1/x", "http://ada@127.0.0.1:1/x"]
)
def test_user_info_however_written_is_still_not_wrapped(url):
    assert "user name or password" in copilot_http.problem({"type": "http", "url": url})


def test_a_url_without_a_host_is_still_not_wrapped():
    assert "not http: or https:" in copilot_http.problem({"type": "http", "url": "http:///"})
    assert "not http: or https:" in copilot_http.problem({"type": "http", "url": "ftp://h/x"})
