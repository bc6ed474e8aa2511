"""The captured fixtures (tests/tap/fixtures/captured): well formed, and still what the
real CLIs send (capture.py made them; a fresh capture must match their shape)."""

from __future__ import annotations

import dataclasses
import json
import os
import re
from pathlib import Path

import pytest
from hooktui.tap.runtimes import detect

from tests.e2e.capture import CAPTURED, capture, fixture_path
from tests.e2e.capture_specs import SPECS
from tests.e2e.harness import cli_version, drifting, skip_reason

FIXTURES = sorted(CAPTURED.rglob("*.json"))
_LEAKS = re.compile(r"/tmp/(pytest|hooktui-capture|tmp)|/work/|/root/|sk-test|HOOKTUI")


def _spec_of(path: Path):
    folder = path.parent.name
    suffix = path.name.removesuffix(".json")
    suffix = suffix[suffix.index(".") :] if "." in suffix else ""
    return next(s for s in SPECS if s.folder == folder and s.suffix == suffix)


def test_every_runtime_has_fixtures() -> None:
    folders = {p.parent.name for p in FIXTURES}
    assert folders >= {"claude-code", "codex", "gemini-cli", "copilot", "qwen-code"}
    assert folders >= {"mistral-vibe", "cline", "opencode"}


@pytest.mark.parametrize("path", FIXTURES, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_fixture_is_well_formed(path: Path) -> None:
    data = json.loads(path.read_text())
    spec = _spec_of(path)
    assert set(data) == {"runtime", "version", "captured_on", "how", "request", "env"}
    assert data["runtime"] == spec.runtime
    assert data["captured_on"] == spec.captured_on
    assert re.fullmatch(r"\d+\.\d+\.\d+", data["version"])
    event = path.name.removesuffix(".json").removesuffix(spec.suffix)
    request = data["request"]
    named = request.get("hook_event_name") or request.get("hookName")
    # Copilot's camelCase payloads carry no event name (but permissionRequest's
    # hookName, even from .claude/settings.json, and notification's
    # hook_event_name "Notification"): the file name says it.
    # Dotted event names (OpenCode's plugin events) are spelled with dashes.
    assert named is None or named.lower().replace(".", "-") == event.lower(), named
    # Only what the runtime set, with the sandbox's traces gone.
    env = data["env"]
    assert "PATH" not in env and "HOME" not in env
    text = json.dumps(data)
    assert not _LEAKS.search(text), _LEAKS.search(text)
    for key, value in env.items():
        if re.search(r"TOKEN|SECRET|API_KEY", key):
            assert value == "<secret>", key


@pytest.mark.parametrize("spec", SPECS, ids=lambda s: f"{s.folder}{s.suffix}")
def test_fixtures_match_a_fresh_capture(spec, tmp_path: Path) -> None:
    """The CLI still fires each captured event, with the same request fields and the
    same runtime variables (values differ from run to run; names must not).

    To keep CI short this replays each runtime's first session only (its tool
    calls); HOOKTUI_E2E_CAPTURE=all replays every session the fixtures came from."""
    reason = skip_reason(spec.cli)
    if reason:
        pytest.skip(reason)
    if os.environ.get("HOOKTUI_E2E_CAPTURE") != "all":
        spec = dataclasses.replace(spec, scenarios=spec.scenarios[:1])
    fresh = capture(spec, tmp_path)
    chosen = {f"scenario {s.name!r}" for s in spec.scenarios}
    kept = {
        p.name.removesuffix(".json").removesuffix(spec.suffix): json.loads(p.read_text())
        for p in (CAPTURED / spec.folder).glob(f"*{spec.suffix}.json")
        if _spec_of(p).folder == spec.folder and _spec_of(p).suffix == spec.suffix
    }
    kept = {k: v for k, v in kept.items() if v["how"].rsplit("; ", 1)[-1] in chosen}
    assert kept, "no fixtures for this capture: run python -m tests.e2e.capture"
    missing = sorted(set(kept) - set(fresh))
    assert not missing, f"events no longer fired here: {missing}"
    for event, data in kept.items():
        if spec.cli not in drifting():  # the drift report runs a newer release's capture
            assert data["version"] == cli_version(spec.cli)
        got = fresh[event]
        assert sorted(got.request) == sorted(data["request"]), fixture_path(spec, event)
        assert sorted(got.env) == sorted(data["env"]), fixture_path(spec, event)
        # What the CLI sent today is told apart as its own (tests/tap/test_detect_captured.py).
        assert detect(got.request, got.env).name == data["runtime"], fixture_path(spec, event)
