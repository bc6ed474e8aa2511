"""Capture what each real CLI gives its hooks: the payload and the environment.

Every event a runtime knows gets a hook (hook.py, which logs its stdin and its
whole environment and answers nothing unless a scenario says so); a few
scripted sessions (capture_specs.py) make the CLI fire as many events as it
will here. The first call of each event becomes a fixture:

    tests/tap/fixtures/captured/<runtime>/<event>.json
    {runtime, version, captured_on, how, request, env}

`env` holds only what the runtime set: the hook's environment less what the
CLI was started with (and less what the hook's shell sets itself); paths of
the sandbox become /home/user..., and values that are secrets or differ on
every run are masked. Regenerate with

    HOOKTUI_E2E=1 python -m tests.e2e.capture [RUNTIME ...]

test_e2e_captured.py checks the fixtures against a fresh capture.
"""

from __future__ import annotations

import json
import re
import shutil
import sys
import tempfile
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tests.e2e.drivers_chat import shared_cache
from tests.e2e.flow import SHELL_VARS
from tests.e2e.harness import (
    REPO,
    Run,
    Sandbox,
    cli_version,
    hook_command,
    node_modules,
    venvs,
)

CAPTURED = REPO / "tests" / "tap" / "fixtures" / "captured"
CAPTURED_ON = "2026-12-03"
HOME, PROJECT = "/home/user", "/home/user/project"
_SECRET_NAME = re.compile(r"TOKEN|SECRET|PASSWORD|API_KEY|APIKEY|CREDENTIAL", re.I)


@dataclass
class Scenario:
    """One session of the CLI: its command line, what the model does, the project."""

    name: str
    argv: Callable[[Sandbox], list[str]]  # the whole command line
    steps: list[dict[str, Any]] = field(default_factory=list)
    files: dict[str, str] = field(default_factory=dict)  # project files (relative path: text)
    answers: Callable[[Sandbox], dict[str, dict[str, Any]]] = lambda sb: {}  # by hook name
    stdin: str | None = None
    env: dict[str, str] = field(default_factory=dict)
    timeout: float = 90
    interrupt_after: float | None = None  # seconds: SIGINT to the CLI, as Ctrl-C
    # stream-json input sent mid-run (netns_run._feed_later): {wait_for, text, then}
    stdin_feed: list[dict[str, Any]] | None = None


@dataclass
class Spec:
    """How to capture one runtime (or one of its dialects)."""

    runtime: str  # the runtime's name in the fixtures
    cli: str  # harness.CLIS key
    folder: str  # the fixture folder under CAPTURED
    events: list[str]
    write_hooks: Callable[[Sandbox, list[str]], None]  # hooks for every event, hook.py NAME=event
    env: Callable[[Sandbox], dict[str, str]]
    scenarios: list[Scenario]
    how: str  # one line: where the hooks were configured, how the CLI ran
    volatile_env: tuple[str, ...] = ()
    suffix: str = ""  # fixture file name suffix (a dialect sharing the folder)
    captured_on: str = CAPTURED_ON  # when this runtime's fixtures were (re)captured


@dataclass
class Captured:
    event: str
    scenario: str
    request: dict[str, Any]
    env: dict[str, str]


def run_scenario(
    spec: Spec, sb: Sandbox, scenario: Scenario, *, fresh: bool = True
) -> tuple[Run, dict[str, str]]:
    """One session; returns the run and the environment the CLI was started with.
    `fresh`: empty HOME and the project and write the hooks first (else they stay)."""
    if fresh:
        sb.fresh_run_dirs()
        spec.write_hooks(sb, spec.events)
    for rel, text in scenario.files.items():
        path = sb.project / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    for name, answer in scenario.answers(sb).items():
        sb.answer(name, **answer)
    env = spec.env(sb) | scenario.env
    run = sb.run(
        f"{spec.folder}{spec.suffix}-{scenario.name}",
        spec.runtime,
        scenario.argv(sb),
        env,
        {"steps": _placed(scenario.steps, sb)},
        timeout=scenario.timeout,
        stdin=scenario.stdin,
        interrupt_after=scenario.interrupt_after,
        stdin_feed=_placed(scenario.stdin_feed, sb) if scenario.stdin_feed else None,
    )
    for answer in sb.hooks.glob("*.answer.json"):
        answer.unlink()
    return run, env


def _placed(steps: list[dict[str, Any]], sb: Sandbox) -> list[dict[str, Any]]:
    """Steps with {project} and {root} (the sandbox, outside the project) filled in."""
    text = json.dumps(steps).replace("{project}", str(sb.project)).replace("{root}", str(sb.root))
    return json.loads(text)


def capture(spec: Spec, root: Path) -> dict[str, Captured]:
    """Every event the CLI fired over the spec's scenarios: its first call."""
    sb = Sandbox(root)
    found: dict[str, Captured] = {}
    for scenario in spec.scenarios:
        run, launch_env = run_scenario(spec, sb, scenario)
        for event in spec.events:
            calls = run.hook_calls.get(event) or []
            if event in found or not calls:
                continue
            call = calls[0]
            found[event] = Captured(
                event=event,
                scenario=scenario.name,
                request=normalized(json.loads(call["stdin"]), sb),
                env=runtime_env(call["env"], launch_env, sb, spec.volatile_env),
            )
    return found


# Where the CLI was installed and how PATH was searched say nothing of the runtime.
_DROPPED = ("PATH", "HOME")


def _paths(text: str, sb: Sandbox) -> str:
    """Sandbox paths as a user's: the project, HOME, the rest of the sandbox, the CLIs."""
    for real, shown in (
        (sb.project, PROJECT),
        (sb.home, HOME),
        (sb.root, "/tmp/e2e"),
        (node_modules(), "/usr/lib/node_modules"),
        (venvs(), "/usr/lib/venvs"),
        (shared_cache(), f"{HOME}/.cache"),
    ):
        text = text.replace(str(real), shown)
        # Claude Code and Qwen Code name a project's folder after its path.
        text = text.replace(re.sub(r"[^A-Za-z0-9]", "-", str(real)), re.sub(r"/", "-", shown))
    return text


def normalized(value: Any, sb: Sandbox) -> Any:
    if isinstance(value, str):
        return _paths(value, sb)
    if isinstance(value, list):
        return [normalized(v, sb) for v in value]
    if isinstance(value, dict):
        return {k: normalized(v, sb) for k, v in value.items()}
    return value


def runtime_env(
    hook_env: dict[str, str], launch: dict[str, str], sb: Sandbox, volatile: tuple[str, ...]
) -> dict[str, str]:
    """What the runtime added to (or changed in) the environment it was given."""
    out = {}
    for key, value in sorted(hook_env.items()):
        if key in SHELL_VARS or key in _DROPPED or launch.get(key) == value:
            continue
        if key.startswith("E2E_"):  # a scenario's own (settings `env` it wrote)
            continue
        if _SECRET_NAME.search(key):
            value = "<secret>"
        elif key in volatile:
            value = "<per-run>"
        out[key] = _paths(value, sb)
    return out


def fixture(spec: Spec, got: Captured, version: str) -> dict[str, Any]:
    return {
        "runtime": spec.runtime,
        "version": version,
        "captured_on": spec.captured_on,
        "how": f"{spec.how}; scenario {got.scenario!r}",
        "request": got.request,
        "env": got.env,
    }


def fixture_path(spec: Spec, event: str) -> Path:
    return CAPTURED / spec.folder / f"{event}{spec.suffix}.json"


def write_fixtures(spec: Spec) -> list[Path]:
    version = cli_version(spec.cli) or "?"
    with tempfile.TemporaryDirectory(prefix="hooktui-capture-") as tmp:
        found = capture(spec, Path(tmp))
    written = []
    for event, got in found.items():
        path = fixture_path(spec, event)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(fixture(spec, got, version), indent=2, sort_keys=True) + "\n")
        written.append(path)
    return written


def main(argv: list[str]) -> int:
    from tests.e2e.capture_specs import SPECS
    from tests.e2e.harness import skip_reason

    chosen = [s for s in SPECS if not argv or s.runtime in argv or s.folder in argv]
    for spec in chosen:
        reason = skip_reason(spec.cli)
        if reason:
            print(f"{spec.folder}{spec.suffix}: skipped: {reason}")
            continue
        if not spec.suffix:
            shutil.rmtree(CAPTURED / spec.folder, ignore_errors=True)
        paths = write_fixtures(spec)
        events = sorted(p.name.removesuffix(".json") for p in paths)
        print(f"{spec.folder}{spec.suffix}: {len(paths)} events: {', '.join(events)}")
    return 0


def hook_for(sb: Sandbox, event: str) -> str:
    """The capturing hook for `event` (hook.py logs under the event's name)."""
    return hook_command(sb.hooks, event)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
