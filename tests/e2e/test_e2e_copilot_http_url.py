"""The request target of GitHub Copilot CLI 1.0.102's `http` hooks, bare and
installed through hooktui: the URL as Copilot's URL parser reads it (measured
2026-12-05, ORACLE.md). One Copilot session per mode, one shell call whose
preToolUse hooks each post to one case's URL.
"""

from __future__ import annotations

import json
import shlex
import sys

import pytest

from tests.e2e.batch import _result
from tests.e2e.copilot_http import (
    DRIVER,
    ENV,
    PORT,
    bare_then_installed,
    reply,
    tool_input,
    write_hooks,
)
from tests.e2e.harness import HERE, Sandbox, skip_reason

_skip = skip_reason("copilot")
pytestmark = pytest.mark.skipif(_skip is not None, reason=str(_skip))

# --- the request target: the URL as Copilot's URL parser reads it ------------------------
# Measured 2026-12-05 (ORACLE.md): WHATWG's rules, but an empty query's `?` is kept.
# name: (the URL as written; the request target sent)
_AT = f"http://127.0.0.1:{PORT}"
URL_CASES = {
    "space-in-path": (f"{_AT}/u/a b", "/u/a%20b"),
    "dot-segments": (f"{_AT}/u/x/../y/./dots", "/u/y/dots"),
    "encoded-dots": (f"{_AT}/u/x/%2e%2e/%2E/enc", "/u/enc"),
    "above-root": (f"{_AT}/../../u/up", "/u/up"),
    "non-ascii": (f"{_AT}/u/caf\u00e9/\U0001f600", "/u/caf%C3%A9/%F0%9F%98%80"),
    "query": (f"{_AT}/u/q?a b&u=\u00e9&k='\"<>`", "/u/q?a%20b&u=%C3%A9&k=%27%22%3C%3E`"),
    "fragment": (f"{_AT}/u/frag?x=1#frag ment", "/u/frag?x=1"),
    "backslash": (f"{_AT}/u\\back\\slash", "/u/back/slash"),
    "empty-query": (f"{_AT}/u/e?#f", "/u/e?"),
    "path-chars": (f'{_AT}/u/p"<>`{{}}|^%zz', "/u/p%22%3C%3E%60%7B%7D|^%zz"),
    # the scheme's slashes, and a backslash right after the port: the host still read
    "no-slashes": (f"http:127.0.0.1:{PORT}/u/noslash", "/u/noslash"),
    "backslashes": (f"http:\\\\127.0.0.1:{PORT}\\u\\bs", "/u/bs"),
    "backslash-after-port": (f"http://LOCALHOST:{PORT}\\u\\lh", "/u/lh"),
}
HOSTS = {"backslash-after-port": f"localhost:{PORT}"}  # else 127.0.0.1:PORT


def _url_settings(sb: Sandbox) -> bytes:
    hooks = {
        "preToolUse": [
            {"type": "http", "url": url, "timeoutSec": 10, "headers": {"X-Url-Case": name}}
            for name, (url, _target) in URL_CASES.items()
        ]
    }
    return write_hooks(sb, hooks)


def _url_run(sb: Sandbox, name: str) -> tuple[dict, dict]:
    """(what the call did, each case's POST as the hooks' server got it)."""
    log = sb.root / f"url-{name}.http.jsonl"
    spec = sb.root / f"url-{name}.http.json"
    # An allow at each expected target only: a POST elsewhere gets a 404, and
    # preToolUse fails closed (the tool is denied, the later hooks never run).
    allow = reply({"permissionDecision": "allow"})
    answers = {target: allow for _written, target in URL_CASES.values()}
    spec.write_text(json.dumps({"port": PORT, "log": str(log), "answers": answers}))
    server = [sys.executable, str(HERE / "http_hook_server.py"), str(spec), "--"]
    steps = [{"text": "case t1", "calls": [{"name": DRIVER.tool, "input": tool_input("t1")}]}]
    run = sb.run(
        f"url-{name}", "copilot", [*server, *DRIVER.argv(sb)], DRIVER.env(sb) | ENV,
        {"steps": steps},
    )  # fmt: skip
    assert run.exit_code == 0, run.describe()
    posts = [json.loads(x) for x in log.read_text().splitlines()] if log.exists() else []
    by_case: dict[str, list[dict]] = {}
    for post in posts:
        headers = {k.lower(): v for k, v in post["headers"].items()}
        by_case.setdefault(headers.get("x-url-case", ""), []).append(
            {"path": post["path"], "host": headers.get("host")}
        )
    did = {
        "markers": sorted(p.name.removesuffix("-t1") for p in sb.project.glob("*-t1")),
        "result": _result(DRIVER, run, "call_e2e_1_0", "t1"),
    }
    return did, by_case


@pytest.fixture(scope="module")
def url_runs(tmp_path_factory) -> tuple[tuple, tuple, list[dict]]:
    sb = Sandbox(tmp_path_factory.mktemp("copilot-http-url"))
    bare, tapped, records, _ = bare_then_installed(
        sb, _url_settings, _url_run, lambda run: sum(len(p) for p in run[1].values()),
        wrapped=len(URL_CASES),
    )  # fmt: skip
    return bare, tapped, records


@pytest.mark.parametrize("case", URL_CASES)
def test_copilot_http_hook_url_is_posted_as_copilot_posts_it(url_runs, case: str) -> None:
    (bare_did, bare), (tapped_did, tapped), records = url_runs
    written, target = URL_CASES[case]
    # Copilot's own request line, one POST per hook; every hook allowed, the tool ran.
    host = HOSTS.get(case, f"127.0.0.1:{PORT}")
    assert bare.get(case) == [{"path": target, "host": host}], bare
    assert bare_did["markers"] == ["marker-original"], bare_did
    # Installed: the same request target and Host, the same call.
    assert tapped.get(case) == bare[case], tapped
    assert tapped_did == bare_did
    assert set(tapped) == set(bare) == set(URL_CASES)  # nothing posted elsewhere
    # The wrapped command names the hook's URL, shell-quoted, and its header.
    mine = [r for r in records if f"X-Url-Case {case} " in " ".join(r["hook"]["argv"])]
    assert len(mine) == 1 and mine[0]["decision"] == "allow", mine
    assert written in shlex.split(mine[0]["hook"]["argv"][-1])
    assert mine[0]["runtime"] == "copilot" and mine[0]["native_event"] == "preToolUse"
