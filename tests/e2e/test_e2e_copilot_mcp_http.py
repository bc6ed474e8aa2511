"""preMcpToolCall `http` hooks in the real GitHub Copilot CLI 1.0.102 (which has the
event), bare and installed through hooktui: an MCP call's `_meta`, posted, never a
block. One Copilot session per mode, one MCP call per case (measured 2026-12-03,
ORACLE.md).
"""

from __future__ import annotations

import json
import re
import sys

import pytest

from tests.e2e.batch import _result, tag_of
from tests.e2e.copilot_http import (
    DRIVER,
    ENV,
    PORT,
    bare_then_installed,
    brief,
    deny,
    handler,
    reply,
    write_hooks,
)
from tests.e2e.harness import HERE, Sandbox, skip_reason

_skip = skip_reason("copilot")
pytestmark = pytest.mark.skipif(_skip is not None, reason=str(_skip))

# --- preMcpToolCall (1.0.102 has it): an MCP call's `_meta`, posted, never a block -------
# A stdio MCP server (below) echoes each call's arguments and `_meta` back to the
# model: what the hook's `metaToUse` did is in the tool result. Copilot fires
# preToolUse (`e2emcp-echo`) first, then preMcpToolCall with the server's own names.
MCP_SERVER = r"""
import json, sys
for line in sys.stdin:
    msg = json.loads(line)
    if msg.get("id") is None:
        continue
    method, result = msg.get("method"), {}
    if method == "initialize":
        result = {"protocolVersion": msg["params"]["protocolVersion"], "capabilities":
                  {"tools": {}}, "serverInfo": {"name": "e2emcp", "version": "1"}}
    elif method == "tools/list":
        schema = {"type": "object", "properties": {"text": {"type": "string"}}}
        result = {"tools": [{"name": "echo", "description": "echo", "inputSchema": schema}]}
    elif method == "tools/call":
        p = msg["params"]
        text = f"echo:{p['arguments']['text']} meta:{json.dumps(p.get('_meta'), sort_keys=True)}"
        result = {"content": [{"type": "text", "text": text}]}
    print(json.dumps({"jsonrpc": "2.0", "id": msg["id"], "result": result}), flush=True)
"""
# name: (preMcpToolCall reply, the `_meta` the server got, record says)
MCP_CASES = {
    "meta": (reply({"metaToUse": {"e2e": "E2E-META"}}), {"e2e": "E2E-META", "progressToken": "N"}, "allow"),
    "meta-null": (reply({"metaToUse": None}), {"progressToken": "N"}, "allow"),
    "meta-progress": (reply({"metaToUse": {"progressToken": "E2E-TOKEN"}}), {"progressToken": "N"}, "allow"),
    "meta-string": (reply({"metaToUse": "text"}), {"progressToken": "N"}, "allow"),  # invalid: ignored
    "deny-ignored": (reply(deny("E2E-MDENY")), {"progressToken": "N"}, "deny-ignored"),
    "status-500": (reply({"metaToUse": {"e2e": "x"}}, 500), {"progressToken": "N"}, "failure"),  # fails open
    "no-reply": ({"drop": True}, {"progressToken": "N"}, "failure"),
}  # fmt: skip
MCP_TAGS = {name: f"t{i}" for i, name in enumerate(MCP_CASES, start=1)}


def _mcp_run(sb: Sandbox, name: str) -> tuple[dict, list[dict]]:
    log = sb.root / f"mcp-{name}.http.jsonl"
    spec = sb.root / f"mcp-{name}.http.json"
    answers = {"/pmcp": {"by_tag": {MCP_TAGS[c]: v[0] for c, v in MCP_CASES.items()}}}
    spec.write_text(json.dumps({"port": PORT, "log": str(log), "answers": answers}))
    (sb.root / "mcp_server.py").write_text(MCP_SERVER)
    server = {"type": "local", "command": sys.executable, "args": [str(sb.root / "mcp_server.py")]}
    config = sb.root / "mcp.json"
    config.write_text(json.dumps({"mcpServers": {"e2emcp": {**server, "tools": ["*"]}}}))
    steps = [
        {"text": f"case {tag}", "calls": [{"name": "e2emcp-echo", "input": {"text": f"marker-original-{tag}"}}]}
        for tag in MCP_TAGS.values()
    ]  # fmt: skip
    argv = [*DRIVER.argv(sb), "--additional-mcp-config", f"@{config}"]
    hook = [sys.executable, str(HERE / "http_hook_server.py"), str(spec), "--"]
    run = sb.run(f"mcp-{name}", "copilot", [*hook, *argv], DRIVER.env(sb) | ENV, {"steps": steps})
    assert run.exit_code == 0, run.describe()
    posts = [json.loads(x) for x in log.read_text().splitlines()] if log.exists() else []
    seen = {}
    for index, (case, tag) in enumerate(MCP_TAGS.items(), start=1):
        result = _result(DRIVER, run, f"call_e2e_{index}_0", tag) or {}
        # Copilot's own progressToken counts its MCP requests (one more, some runs)
        content = re.sub(r'"progressToken": \d+', '"progressToken": "N"', result["content"])
        seen[case] = {
            "result": {**result, "content": content},
            "posts": [brief(p) for p in posts if tag_of(p["body"]) == tag],
        }
    return seen, posts


def _mcp_settings(sb: Sandbox) -> bytes:
    hooks = {"preMcpToolCall": [handler("/pmcp")]}
    return write_hooks(sb, hooks)


@pytest.fixture(scope="module")
def mcp_runs(tmp_path_factory) -> tuple[dict, dict, list[dict]]:
    sb = Sandbox(tmp_path_factory.mktemp("copilot-mcp-http"))
    (bare, _), (tapped, _), records, _ = bare_then_installed(
        sb, _mcp_settings, _mcp_run, lambda run: len(run[1]), wrapped=1, all_wrapped=False
    )
    return bare, tapped, records


@pytest.mark.parametrize("case", MCP_CASES)
def test_copilot_pre_mcp_tool_call_http_hook_same_bare_and_installed(mcp_runs, case: str) -> None:
    bare, tapped, records = mcp_runs
    _reply, meta, verdict = MCP_CASES[case]
    # The MCP call always runs (a deny is not read, an error fails open); the server
    # got the `_meta` the hook chose (Copilot's own progressToken wins over the hook's).
    content = bare[case]["result"]["content"]
    assert content == f"echo:marker-original meta:{json.dumps(meta, sort_keys=True)}", content
    assert tapped[case]["result"] == bare[case]["result"]
    assert tapped[case]["posts"] == bare[case]["posts"] and len(bare[case]["posts"]) == 1
    body = bare[case]["posts"][0]["body"]
    assert (body["serverName"], body["toolName"]) == ("e2emcp", "echo"), body
    assert set(body) == {"cwd", "toolCallId", "serverName", "toolName", "arguments"}, body
    (record,) = [r for r in records if tag_of(json.dumps(r.get("request"))) == MCP_TAGS[case]]
    assert record["native_event"] == "preMcpToolCall" and record["event"] == "other", record
    assert record["tool_input"] == {"text": f"marker-original-{MCP_TAGS[case]}"}
    assert record["decision"] == ("allow" if verdict == "deny-ignored" else verdict), record
    assert record["effect"] != "blocks" and record["hook"]["fails"] == "open", record
