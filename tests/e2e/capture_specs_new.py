"""The capture sessions of Mistral Vibe, the Cline CLI and OpenCode (see capture.py and
capture_specs.py, which lists them with the others). Captured 2026-12-07.

Fixture names are the event names the requests carry (Cline's `hookName`), dots as
dashes (OpenCode's plugin events: `tool-execute-before.json`).
"""

from __future__ import annotations

import json
from typing import Any

from hooktui.tap.runtimes.cline import FILES as CLINE_FILES

from tests.e2e.capture import Scenario, Spec, hook_for
from tests.e2e.drivers_cline import CLINE
from tests.e2e.drivers_opencode import OPENCODE
from tests.e2e.drivers_vibe import VIBE
from tests.e2e.harness import Sandbox

CAPTURED_NEW = "2026-12-07"


def _call(tool: str, /, **tool_input: Any) -> dict[str, Any]:
    return {"text": f"calling {tool}", "calls": [{"name": tool, "input": tool_input}]}


# --- Mistral Vibe ---------------------------------------------------------------------------

VIBE_EVENTS = ["pre_tool", "post_tool", "post_agent"]


def _vibe_hooks(sb: Sandbox, events: list[str]) -> None:
    VIBE.write_settings(sb, hook_for(sb, "pre_tool"), hook_for(sb, "post_tool"))
    path = VIBE.settings_path(sb)
    agent = f'\n[[hooks]]\nname = "agent"\ntype = "post_agent"\ncommand = {json.dumps(hook_for(sb, "post_agent"))}\n'
    path.write_text(path.read_text() + agent)


VIBE_SPEC = Spec(
    runtime="mistral-vibe",
    cli="mistral-vibe",
    folder="mistral-vibe",
    events=VIBE_EVENTS,
    write_hooks=_vibe_hooks,
    env=VIBE.env,
    scenarios=[Scenario("tools", VIBE.argv, steps=[_call("bash", command="echo hi")])],
    how=(
        "vibe -p --output json against a fake Chat Completions model on 127.0.0.1; "
        "pre_tool, post_tool and post_agent hooks in <project>/.vibe/hooks.toml (--trust)"
    ),
    captured_on=CAPTURED_NEW,
)


# --- Cline CLI ------------------------------------------------------------------------------

# The hookName of every file Cline runs (PreCompact names none: it never runs).
CLINE_EVENTS = [name for name in CLINE_FILES.values() if name]


def _cline_hooks(sb: Sandbox, events: list[str]) -> None:
    folder = CLINE.settings_path(sb)
    folder.mkdir(parents=True, exist_ok=True)
    for file, name in CLINE_FILES.items():
        if name in events:
            (folder / file).write_text(f"#!/bin/sh\nexec {hook_for(sb, name)}\n")
    CLINE._auth(sb)


CLINE_SPEC = Spec(
    runtime="cline",
    cli="cline",
    folder="cline",
    events=CLINE_EVENTS,
    write_hooks=_cline_hooks,
    env=CLINE.env,
    scenarios=[
        Scenario("tools", CLINE.argv, steps=[_call("run_commands", commands=["echo hi"])]),
        # A cancel aborts the run: SessionShutdown, not TaskComplete.
        Scenario(
            "cancel",
            CLINE.argv,
            steps=[_call("run_commands", commands=["echo no"])],
            answers=lambda sb: {"tool_call": {"stdout": json.dumps({"cancel": True})}},
        ),
    ],
    how=(
        "cline --json -P openai-compatible against a fake Chat Completions model on "
        "127.0.0.1; a hook file for every event in <project>/.clinerules/hooks"
    ),
    captured_on=CAPTURED_NEW,
)


# --- OpenCode (hooktui's plugin) ------------------------------------------------------------

OPENCODE_EVENTS = ["tool-execute-before", "tool-execute-after"]


def _opencode_hooks(sb: Sandbox, events: list[str]) -> None:
    OPENCODE.write_settings(
        sb, hook_for(sb, "tool-execute-before"), hook_for(sb, "tool-execute-after")
    )


OPENCODE_SPEC = Spec(
    runtime="opencode",
    cli="opencode",
    folder="opencode",
    events=OPENCODE_EVENTS,
    write_hooks=_opencode_hooks,
    env=OPENCODE.env,
    scenarios=[
        Scenario(
            "tools",
            OPENCODE.argv,
            steps=[_call("bash", command="echo hi", description="say hi")],
        )
    ],
    how=(
        "opencode run --format json against a fake Chat Completions model on 127.0.0.1; "
        "hooktui's plugin running <project>/.opencode/command-hooks.json"
    ),
    volatile_env=("OPENCODE_PID",),
    captured_on=CAPTURED_NEW,
)

NEW_SPECS = [VIBE_SPEC, CLINE_SPEC, OPENCODE_SPEC]
