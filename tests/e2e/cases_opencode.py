"""What OpenCode 1.18.33 did with each command hook's answer, through hooktui's plugin.

The plugin (tap/runtimes/opencode/plugin.js) runs the commands of
`.opencode/command-hooks.json`; each list runs as ONE `opencode run` session
(batch.py), bare and then with the commands wrapped by `hooktui install opencode`
(test_e2e_opencode.py). Seen on the real binary here (2026-12-07, ORACLE.md): a
refusal is the plugin's throw, whose message is what the model reads as the tool's
result; a rewrite is the plugin changing `output.args` in place. A failing hook
refuses the call (the plugin fails closed) unless its settings say
`"onFailure": "continue"`.
"""

from __future__ import annotations

import json

from tests.e2e.cases_chat import chat_case, chat_runs
from tests.e2e.cases_common import RAN
from tests.e2e.drivers import REWRITTEN

J = json.dumps
FAILED_CLOSED = {"decision": "failure", "effect": "blocks"}
FAILED_OPEN = {"decision": "failure", "effect": "proceeds"}
REFUSED = "command hook failed ("  # how the plugin's refusal of a failed hook starts
TIMEOUT_S = 5  # the before hook's timeout in every session; the timeout case sleeps past it
_RW = {"command": REWRITTEN, "description": "leave a marker"}


def _refused(name: str, answer: dict, failure: str, **more):
    return chat_case(
        name, answer, None, REFUSED, record={**FAILED_CLOSED, "failure": failure}, **more
    )


OPENCODE = [
    chat_runs("allow-empty", {}, record={"decision": "allow"}),
    chat_case(
        "deny",
        {"stdout": J({"decision": "deny", "reason": "E2E-DENY"})},
        None,
        "E2E-DENY",
        record={"decision": "deny", "reason": "E2E-DENY"},
    ),
    chat_case(
        "exit2",
        {"stderr": "E2E-EXIT2", "exit": 2},
        None,
        "E2E-EXIT2",
        record={"decision": "deny", "reason": "E2E-EXIT2", "exit_code": 2},
    ),
    chat_case(
        "rewrite",
        {"stdout": J({"tool_input": _RW})},
        "marker-rewritten",
        "rewritten-ran",
        record={"decision": "modify", "updated_input": _RW},
    ),
    chat_runs("allow", {"stdout": J({"decision": "allow"})}, record={"decision": "allow"}),
    _refused("exit1", {"stderr": "E2E-EXIT1", "exit": 1}, "exit_code"),
    _refused("not-json", {"stdout": "E2E-TEXT"}, "invalid_json"),
    _refused("ask-means-nothing-here", {"stdout": J({"decision": "ask"})}, "wrong_decision"),
    # A shell line: `sh -c` outlives the killed hook and exits 137.
    _refused("crash", {"signal": 9}, "exit_code"),
    _refused("timeout", {"sleep": 2 * TIMEOUT_S}, "timeout"),
    chat_case(
        "after-replaces-output",
        {},
        RAN,
        "E2E-MASKED",
        absent=("original-ran",),
        record={"decision": "allow"},
        post_answer={"stdout": J({"tool_output": "E2E-MASKED"})},
        post_record={"decision": "replace", "updated_output": "E2E-MASKED"},
    ),
    chat_case(
        "after-deny-replaces-output",
        {},
        RAN,
        "E2E-PDENY",
        absent=("original-ran",),
        record={"decision": "allow"},
        post_answer={"stdout": J({"decision": "deny", "reason": "E2E-PDENY"})},
        post_record={"decision": "replace", "updated_output": "E2E-PDENY"},
    ),
    chat_runs(
        "after-failure-changes-nothing",
        {},
        post_answer={"stderr": "E2E-PX1", "exit": 1},
        record={"decision": "allow"},
        post_record={**FAILED_OPEN, "failure": "exit_code"},
    ),
]

# The before hook says "onFailure": "continue": its failures let the call through.
_CONTINUE = {"pre_handler": {"onFailure": "continue"}}
OPENCODE_CONTINUE = [
    chat_runs(
        "continue-exit1",
        {"stderr": "E2E-CX1", "exit": 1},
        record={**FAILED_OPEN, "failure": "exit_code"},
        **_CONTINUE,
    ),
    chat_runs(
        "continue-not-json",
        {"stdout": "E2E-CTEXT"},
        record={**FAILED_OPEN, "failure": "invalid_json"},
        **_CONTINUE,
    ),
    # A deny is no failure: it refuses whatever onFailure says.
    chat_case(
        "continue-deny",
        {"stdout": J({"decision": "deny", "reason": "E2E-CDENY"})},
        None,
        "E2E-CDENY",
        record={"decision": "deny", "reason": "E2E-CDENY"},
        **_CONTINUE,
    ),
]
