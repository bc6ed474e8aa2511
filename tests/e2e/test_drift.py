"""The drift report's parts, on the real installed packages: every pinned CLI is
watched; each reader finds the hook surface its package ships; the pins ship no event
hooktui's adapters do not know; and a release that acts otherwise than the pin shows
up as the cases it changed (the first pin, 2.1.197, taken for a newer release); a
PyPI CLI's release is installed into a venv of its own and its cases run there (an
older Mistral Vibe, 3.0.2, taken for a newer release)."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from tests.e2e import drift, drift_venv
from tests.e2e.drift_table import WATCHED
from tests.e2e.harness import CLIS, CURRENT, cli_version, node_modules, skip_reason, venvs
from tests.e2e.shipped import (
    Shipped,
    py_str_enum,
    release_notes,
    triggered,
    zod,
    zod_enum_type,
)

ROWS = {row.cli: row for row in WATCHED}


def test_every_pinned_cli_is_watched_and_installs_what_its_e2e_runs():
    assert set(ROWS) == set(CURRENT)
    for row in WATCHED:
        assert row.package == CLIS[row.cli].package
        assert row.tests and all(Path(drift.REPO, t).is_file() for t in row.tests)


def _pinned(cli: str) -> Shipped:
    reason = skip_reason(cli)
    if reason:
        pytest.skip(reason)
    found = drift.read_shipped(ROWS[cli], drift.pinned_home(ROWS[cli]))
    assert not found.problems, found.problems
    return found


def test_claude_code_binary_ships_its_events_fields_and_notes():
    found = _pinned("claude-code")
    assert {"PreToolUse", "Interrupt", "PreSkillShellCommand"} <= found.events
    assert found.inputs["Interrupt"] == {"source", "reason", "via"}
    assert "hookSpecificOutput.updatedInput" in found.outputs["PreToolUse"]
    # The build embeds the release notes of the releases before it.
    assert any("Interrupt" in line for line in found.notes.get("2.1.335", []))


def test_codex_binary_ships_a_json_schema_per_event():
    found = _pinned("codex")
    assert {"PreToolUse", "Stop", "Interrupt"} <= found.events
    assert {"tool_use_id", "turn_id", "model"} <= found.inputs["PreToolUse"]
    assert "hookSpecificOutput.updatedInput" in found.outputs["PreToolUse"]


def test_enums_and_types_of_the_js_clis():
    assert {"BeforeTool", "AfterModel"} <= _pinned("gemini-cli").events
    assert {"PreToolUse", "TodoCreated"} <= _pinned("qwen-code").events
    copilot = _pinned("copilot")
    assert {"toolName", "toolArgs"} <= copilot.inputs["preToolUse"]
    assert "modifiedArgs" in copilot.outputs["preToolUse"]
    assert len(_pinned("continue-cli").events) == 17


def test_cline_opencode_and_vibe_ship_their_hook_names():
    assert {"tool_call", "tool_result", "pre_compact"} <= _pinned("cline").events
    assert {"tool.execute.before", "tool.execute.after"} <= _pinned("opencode").events
    assert _pinned("mistral-vibe").events == {"pre_tool", "post_tool", "post_agent"}


@pytest.mark.parametrize("cli", sorted(ROWS))
def test_the_adapters_know_every_event_the_pins_ship(cli):
    finding = drift.Finding(cli, ROWS[cli].runtime, ROWS[cli].package, CLIS[cli].pin)
    finding.left_alone = list(ROWS[cli].left_alone)
    drift.compare(finding, _pinned(cli), None)
    assert finding.unknown_events == []
    if finding.left_alone:  # each one the pin still ships, and the report says why
        assert set(finding.left_alone) <= _pinned(cli).events and ROWS[cli].why_left


def test_enum_and_trigger_readers_on_small_sources():
    dts = b'export declare const HookEventNameSchema: z.ZodEnum<{\n    tool_call: "tool_call";\n    agent_end: "agent_end";\n}>;'
    assert zod_enum_type(dts, "HookEventNameSchema") == {"tool_call", "agent_end"}
    bundle = b'yield*i.trigger("tool.execute.before",{tool:k},{args:b});d.trigger("chat.params",x)'
    assert triggered(bundle) == {"tool.execute.before", "chat.params"}
    py = b'class HookType(StrEnum):\n    POST_AGENT = auto()\n    PRE_TOOL = "pre_tool"\n\n\nclass Other(StrEnum):\n    X = auto()\n'
    assert py_str_enum(py, "HookType") == {"post_agent", "pre_tool"}


def test_zod_keys_and_notes_readers_on_a_small_bundle():
    bundle = (
        b'u({hook_event_name:x("Interrupt"),source:B(["user","a,b"]).describe(`x: y,'
        b' z`),reason:n(),via:B(["terminal"]).optional()})),other:1'
        b' function e(){return"## 9.9.2\\n\\n- Added a `Foo` hook event\\n- Fixed a thing\\n'
        b'\\n## 9.9.1\\n\\n- Changed hooks: \\"quoted\\"\\n"}'
    )
    assert zod(bundle, "hook_event_name") == {"Interrupt": {"source", "reason", "via"}}
    assert release_notes(bundle) == {
        "9.9.2": ["Added a `Foo` hook event"],
        "9.9.1": ['Changed hooks: "quoted"'],
    }


def test_a_release_that_acts_otherwise_shows_as_the_cases_it_changed(tmp_path):
    """2.1.197 stands in for a newer Claude Code: the cases where it behaved otherwise
    than the pin fail there, the one where it did not passes, and the report says so."""
    old = node_modules() / CLIS["claude-code@2.1.197"].package
    reason = skip_reason("claude-code") or skip_reason("claude-code@2.1.197")
    if reason:
        pytest.skip(reason)
    modules = tmp_path / "node_modules"
    fake = modules / CLIS["claude-code"].package
    fake.mkdir(parents=True)
    (fake / "package.json").write_text((old / "package.json").read_text())
    (fake / "claude").symlink_to(old / "bin" / "claude.exe")
    out = tmp_path / "drift.json"
    select = (
        "pinned_verdict and (deny-and-continue-false or invalid-answer-with-exit2 "
        "or onfailure-block-exit1 or allow-json-with-exit1)"
    )
    code = drift.main(
        [
            "--runtime", "claude-code",
            "--newest", "claude-code=2.1.197",
            "--installed", f"claude-code={modules}",
            "--cases", select,
            "--budget", "400",
            "--json", str(out),
        ]
    )  # fmt: skip
    assert code == 1  # drift found
    [finding] = json.loads(out.read_text())
    assert finding["newest"] == "2.1.197"
    assert "Interrupt" in finding["gone_events"]  # what 2.1.197 does not ship
    cases = finding["cases"]
    failed = sorted(f["test"].rsplit("[", 1)[1].rstrip("]") for f in cases["failed"])
    # ORACLE.md: what 2.1.197 did otherwise (it went on after a deny with continue:
    # false, read schema-invalid JSON on exit 2 as an error, and knew no onFailure).
    assert failed == [
        "deny-and-continue-false",
        "invalid-answer-with-exit2",
        "onfailure-block-exit1",
        "post-onfailure-block-exit1",  # -k matches it too
    ], cases
    assert cases["passed"] == 1 and not cases["stopped"]  # allow-json-with-exit1: alike
    assert cli_version("claude-code") == CLIS["claude-code"].pin  # the pin is untouched
    assert os.environ.get("HOOKTUI_E2E_DRIFT") is None


def test_a_pypi_release_gets_a_venv_of_its_own_and_its_cases_run_there():
    """Mistral Vibe 3.0.2 stands in for a newer release: the report installs it into a
    venv beside the pinned one (cached under `drift-old` beside the pinned venvs: a
    warm checkout installs it once), runs the case chosen against it, and says so."""
    if skip_reason("mistral-vibe"):
        pytest.skip(skip_reason("mistral-vibe"))
    if not drift_venv.python312():
        pytest.skip("no Python 3.12 here for Mistral Vibe's cp312 wheels")
    where = venvs().parent / "drift-old"
    out = where / "drift.json"
    code = drift.main(
        [
            "--runtime", "mistral-vibe",
            "--newest", "mistral-vibe=3.0.2",
            "--dir", str(where),
            "--cases", "post_agent_deny_asks_for_a_revision",
            "--budget", "600",
            "--per-runtime", "300",
            "--json", str(out),
        ]
    )  # fmt: skip
    [finding] = json.loads(out.read_text())
    assert finding["not_run"] == "", finding
    cases = finding["cases"]
    assert cases["against"] == "3.0.2"  # what the tests found: not the pin
    assert (cases["passed"], cases["failed"], cases["stopped"]) == (1, [], ""), cases
    assert finding["shipped_newest"]  # read from the venv's site-packages
    assert (
        drift_venv.installed(where / "mistral-vibe" / "venvs" / "mistral-vibe", "mistral-vibe")
        == "3.0.2"
    )
    assert code == 0  # the case passed; 3.0.2 ships the pin's three hook types
    assert cli_version("mistral-vibe") == CLIS["mistral-vibe"].pin  # the pin is untouched
    assert os.environ.get("HOOKTUI_E2E_DRIFT") is None


def test_a_wheels_exact_pins_admit_their_post_releases(tmp_path):
    """When pip cannot resolve a release (3.0.3 pins a certifi the registry holds only
    as a .post1), its own requirements go in as `==V.*`; extras are left out."""
    import zipfile

    wheel = tmp_path / "x-1.0-py3-none-any.whl"
    meta = "\n".join(
        [
            "Name: x",
            "Requires-Dist: certifi==2026.10.19",
            'Requires-Dist: anyio>=4; python_version >= "3.12"',
            'Requires-Dist: pywin32==311; sys_platform == "win32"',
            'Requires-Dist: pytest==9.0; extra == "test"',
        ]
    )
    with zipfile.ZipFile(wheel, "w") as z:
        z.writestr("x-1.0.dist-info/METADATA", meta)
    assert drift_venv.requires(wheel) == [
        "certifi==2026.10.19.*",
        'anyio>=4; python_version >= "3.12"',
        'pywin32==311.* ; sys_platform == "win32"',
    ]


def test_an_install_waits_for_another_into_the_same_venv(tmp_path):
    """Two runs on one machine share the cache: the second install waits for the first
    (here: held past its time box, so it says so and touches nothing)."""
    import fcntl

    ran = []
    with open(tmp_path / ".lock", "w") as held:
        fcntl.flock(held, fcntl.LOCK_EX)
        why = drift_venv.install(
            "mistral-vibe", "3.0.2", tmp_path, 1.0, lambda *a, **k: ran.append(a)
        )
    assert why == f"another install into {tmp_path} held it past the time box"
    assert ran == [] and not (tmp_path / "venvs").exists()
