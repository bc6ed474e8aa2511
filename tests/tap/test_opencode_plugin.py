"""hooktui's OpenCode plugin, run in Node as OpenCode runs it, against its commands
wrapped by the real `hooktui install opencode`: every record reads the answer as the
plugin acted on it.

The plugin (tap/runtimes/opencode/plugin.js) is what turns a command's answer into
what OpenCode does (a throw refuses, `output.args` changed in place rewrites,
`output.output` replaced, a permission status); the runtime's judge must agree with
it on every answer. No model, no OpenCode: Node imports the plugin the install
wrote and calls its hooks (opencode_plugin_harness.mjs); the real binary runs the
same plugin in tests/e2e/test_e2e_opencode.py. A guard that is missing, broken or
slow refuses the call unless its settings say otherwise: never fail open.
"""

from __future__ import annotations

import json
import os
import shlex
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import msgspec
import pytest
from hooktui.tap.inventory.read import inventory
from hooktui.tap.model import Record
from hooktui.tap.runtimes import get_adapter

from tests.conftest import HOOKTUI, wait_for_records

HERE = Path(__file__).resolve().parent
HARNESS = HERE / "opencode_plugin_harness.mjs"
HOOK = HERE.parent / "e2e" / "hook.py"  # the scripted hook: answers by the call's tag
pytestmark = pytest.mark.skipif(shutil.which("node") is None, reason="needs node")
J = json.dumps
BEFORE, AFTER, PERMISSION = "tool.execute.before", "tool.execute.after", "permission.ask"
TIMEOUT_S = 1


def _case(name: str, event: str, answer: dict[str, Any], tool: str = "bash", **pin: Any):
    return pytest.param(name, event, answer, tool, pin, id=name)


CASES = [
    _case("empty", BEFORE, {}, threw=None),
    _case("deny", BEFORE, {"stdout": J({"decision": "deny", "reason": "no"})}, threw="no"),
    _case("block", BEFORE, {"stdout": J({"decision": "block"})}, threw="refused by a command hook"),
    _case("exit2", BEFORE, {"stderr": "E2", "exit": 2}, threw="E2"),
    _case("rewrite", BEFORE, {"stdout": J({"tool_input": {"command": "echo new"}})}),
    _case("allow", BEFORE, {"stdout": J({"decision": "allow"})}, threw=None),
    _case("exit1-blocks", BEFORE, {"stderr": "oops", "exit": 1}),
    _case("text-blocks", BEFORE, {"stdout": "hello"}),
    _case("array-blocks", BEFORE, {"stdout": "[]"}),
    _case("ask-blocks", BEFORE, {"stdout": J({"decision": "ask"})}),
    _case("crash-blocks", BEFORE, {"signal": 9}),
    _case("timeout-blocks", BEFORE, {"sleep": 3 * TIMEOUT_S}),
    # A guard that is not there: the shell cannot find it (exit 127), the call is refused.
    _case("guard-missing-blocks", BEFORE, {}, tool="gone"),
    _case("exit1-continue", BEFORE, {"exit": 1}, tool="read", threw=None),
    _case("timeout-continue", BEFORE, {"sleep": 3 * TIMEOUT_S}, tool="read", threw=None),
    _case("deny-continue-hook", BEFORE, {"stdout": J({"decision": "deny"})}, tool="read"),
    _case("after-empty", AFTER, {}),
    _case("after-replace", AFTER, {"stdout": J({"tool_output": "masked"})}),
    _case("after-deny", AFTER, {"stdout": J({"decision": "deny", "reason": "gone"})}),
    _case("after-exit1", AFTER, {"exit": 1}),
    _case("after-rewrite-ignored", AFTER, {"stdout": J({"tool_input": {"command": "x"}})}),
    _case("perm-empty", PERMISSION, {}, status="ask"),
    _case("perm-allow", PERMISSION, {"stdout": J({"decision": "allow"})}, status="allow"),
    _case("perm-ask", PERMISSION, {"stdout": J({"decision": "ask"})}, status="ask"),
    _case("perm-deny", PERMISSION, {"stdout": J({"decision": "deny"})}, status="deny"),
    _case("perm-exit1", PERMISSION, {"exit": 1}, status="deny"),
]


TAGS = {param.id: f"t{i}" for i, param in enumerate(CASES, start=1)}


def _settings(hooks: Path) -> dict[str, Any]:
    def hook(name: str, **more: Any) -> dict[str, Any]:
        line = f"{sys.executable} {HOOK} {hooks} {name}"
        return {"type": "command", "command": line, "timeout": TIMEOUT_S, **more}

    return {
        "hooks": {
            BEFORE: [
                {"matcher": "bash", "hooks": [hook("before")]},
                {"matcher": "read", "hooks": [hook("before", onFailure="continue")]},
                {
                    "matcher": "gone",
                    "hooks": [{"type": "command", "command": "/nonexistent/guard"}],
                },
            ],
            AFTER: [{"matcher": "", "hooks": [hook("after")]}],
            PERMISSION: [{"matcher": "*", "hooks": [hook("permission")]}],
        }
    }


def _call(event: str, tool: str, tag: str) -> dict[str, Any]:
    args = {"command": f"touch marker-original-{tag}", "description": "d"}
    if event == BEFORE:
        return {"input": {"tool": tool, "sessionID": "s1", "callID": tag}, "output": {"args": args}}
    if event == AFTER:
        output = {"title": "t", "output": f"ran {tag}", "metadata": {"exit": 0}}
        return {
            "input": {"tool": tool, "sessionID": "s1", "callID": tag, "args": args},
            "output": output,
        }
    permission = {"type": tool, "pattern": args["command"], "sessionID": "s1", "callID": tag}
    return {"input": permission, "output": {"status": "ask"}}


@pytest.fixture(scope="module")
def plugin_run(tmp_path_factory) -> dict[str, tuple[dict[str, Any], dict[str, Any], dict]]:
    """Every case once through the installed plugin: by tag, (what the plugin did, the
    call as it was before, the record)."""
    root = tmp_path_factory.mktemp("opencode-plugin")
    project, hooks, stream = root / "project", root / "hooks", root / "stream.jsonl"
    (project / ".opencode").mkdir(parents=True)
    hooks.mkdir()
    settings = project / ".opencode" / "command-hooks.json"
    settings.write_text(J(_settings(hooks), indent=2) + "\n")
    done = subprocess.run(
        [HOOKTUI, "install", "opencode", "--stream", str(stream)],
        cwd=project,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    plugin = project / ".opencode" / "plugins" / "hooktui-command-hooks.js"
    assert plugin.read_bytes() == get_adapter("opencode").runner_text()
    answers: dict[str, dict[str, Any]] = {"before": {}, "after": {}, "permission": {}}
    calls, tags = [], []
    for param in CASES:
        name, event, answer, tool, _ = param.values
        tag = TAGS[name]
        answers[{BEFORE: "before", AFTER: "after", PERMISSION: "permission"}[event]][tag] = answer
        calls.append({"event": event, **_call(event, tool, tag)})
        tags.append(tag)
    for name, by_tag in answers.items():
        (hooks / f"{name}.answer.json").write_text(J({"by_tag": by_tag}))
    calls_file = root / "calls.json"
    calls_file.write_text(J({"directory": str(project), "calls": calls}))
    ran = subprocess.run(
        ["node", str(HARNESS), str(plugin), str(calls_file)],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=project,
    )
    assert ran.returncode == 0, ran.stderr
    results = [json.loads(line) for line in ran.stdout.splitlines()]
    records = wait_for_records(stream, len(CASES))
    by_tag = {}
    for tag, call, result in zip(tags, calls, results, strict=True):
        [rec] = [r for r in records if f'marker-original-{tag}"' in J(r["request"])]
        by_tag[tag] = (result, _call(call["event"], "", tag), rec)
    return by_tag


@pytest.mark.parametrize(("name", "event", "answer", "tool", "pin"), CASES)
def test_record_reads_the_answer_as_the_plugin_acted(plugin_run, name, event, answer, tool, pin):
    result, before, rec = plugin_run[TAGS[name]]
    assert rec["runtime"] == "opencode" and rec["native_event"] == event
    verdict = msgspec.convert(rec, Record).verdict
    output = result["output"]
    if event == BEFORE:
        assert (result["threw"] is None) is verdict.lets_through, (result, rec["decision"])
        if verdict.decision == "deny":
            assert result["threw"] == verdict.reason
        if verdict.decision == "modify":
            assert output["args"] == verdict.updated_input
        elif result["threw"] is None:
            assert output["args"] == before["output"]["args"]
        if verdict.decision == "failure" and verdict.effect == "blocks":
            assert result["threw"].startswith("command hook failed (")
        if tool == "gone":
            assert rec["exit_code"] == 127 and result["threw"] is not None
    elif event == AFTER:
        assert result["threw"] is None
        expected = (
            verdict.updated_output if verdict.decision == "replace" else before["output"]["output"]
        )
        assert output["output"] == expected, rec["decision"]
    else:
        status = {"allow": "allow", "ask": "ask", "deny": "deny"}.get(verdict.decision)
        if verdict.decision == "failure":
            status = "deny" if verdict.effect == "blocks" else "ask"
        assert output["status"] == status, rec["decision"]
    for key, value in pin.items():
        assert (result if key == "threw" else output)[key] == value


@pytest.mark.parametrize("xdg", ["absolute", "relative"])
def test_the_user_file_is_where_the_plugin_reads_it(tmp_path, xdg) -> None:
    """The plugin reads $XDG_CONFIG_HOME/opencode (an absolute one only, as XDG says),
    else ~/.config/opencode: `hooktui hooks` and `install --user` look there too."""
    home, project = tmp_path / "home", tmp_path / "project"
    moved = tmp_path / "xdg" if xdg == "absolute" else Path("xdg")
    project.mkdir()
    expected = (tmp_path / "xdg" if xdg == "absolute" else home / ".config") / "opencode"
    for folder in (tmp_path / "xdg" / "opencode", home / ".config" / "opencode"):
        folder.mkdir(parents=True)
        answer = J({"decision": "deny", "reason": f"from {folder}"})
        hook = {"type": "command", "command": f"echo {shlex.quote(answer)}"}
        (folder / "command-hooks.json").write_text(J({"hooks": {BEFORE: [{"hooks": [hook]}]}}))
    env = {**os.environ, "HOME": str(home), "XDG_CONFIG_HOME": str(moved)}

    inv = inventory(["opencode"], project=project, environ=env)
    assert [f.path for f in inv.files if f.scope == "user"] == [
        str(expected / "command-hooks.json")
    ]
    done = subprocess.run(
        [HOOKTUI, "install", "opencode", "--user", "--stream", str(tmp_path / "s.jsonl")],
        cwd=project,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    plugin = expected / "plugins" / "hooktui-command-hooks.js"
    assert plugin.read_bytes() == get_adapter("opencode").runner_text()

    calls = tmp_path / "calls.json"
    calls.write_text(
        J({"directory": str(project), "calls": [{"event": BEFORE, **_call(BEFORE, "bash", "x")}]})
    )
    ran = subprocess.run(
        ["node", str(HARNESS), str(plugin), str(calls)],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=project,
        env=env,
    )
    assert ran.returncode == 0, ran.stderr
    assert json.loads(ran.stdout)["threw"] == f"from {expected}"
