"""One scenario, run twice: with the bare hook, then through `hooktui install`.

`run_pair` returns everything the tests compare: both runs (what the model was
sent back, which marker the tool left, what the hooks received), the stream
the tap wrote, and the settings file before install, installed, and after
uninstall.
"""

from __future__ import annotations

import json
import warnings
from dataclasses import dataclass, field
from typing import Any

from tests.conftest import wait_for_records
from tests.e2e.drivers import MARKERS, Driver
from tests.e2e.harness import Run, Sandbox, hook_command, hooktui, install_available, tap_wrap


@dataclass(frozen=True)
class Case:
    """A hook answer, and what the real runtime was seen to do with it (the oracle)."""

    name: str
    answer: dict[str, Any]  # {"stdout", "stderr", "exit"} of the PreToolUse hook
    ran: str | None  # the marker the tool leaves: "marker-original", "marker-rewritten", None
    is_error: bool  # the tool_result the model gets back is an error
    content_has: str  # a substring of that tool_result
    record: dict[str, Any]  # fields the tap's record of the pre call must hold
    post_fires: bool = True
    note: str = ""


@dataclass
class Pair:
    bare: Run
    tapped: Run
    bare_markers: list[str]
    tapped_markers: list[str]
    records: list[dict[str, Any]]
    settings_before: bytes
    settings_installed: bytes
    settings_after: bytes
    installed_commands: list[str]
    bare_commands: list[str]
    wrapped_by: str
    install_output: str = ""
    uninstall_output: str = ""
    extra: dict[str, Any] = field(default_factory=dict)


def _markers(sb: Sandbox) -> list[str]:
    return sorted(m for m in MARKERS if (sb.project / m).exists())


def _records(sb: Sandbox, count: int) -> list[dict[str, Any]]:
    if not count:
        return []
    try:
        return wait_for_records(sb.stream, count)
    except AssertionError as exc:
        errors = sb.stream.with_name(sb.stream.name + ".errors.log")
        log = errors.read_text() if errors.exists() else "(no tap error log)"
        raise AssertionError(f"{exc}\ntap error log:\n{log}") from None


def run_pair(driver: Driver, sb: Sandbox, case: Case) -> Pair:
    sb.answer("pre", **case.answer)
    pre, post = hook_command(sb.hooks, "pre"), hook_command(sb.hooks, "post")

    # 1. The bare hook.
    sb.fresh_run_dirs()
    driver.write_settings(sb, pre, post)
    settings = driver.settings_path(sb)
    before = settings.read_bytes()
    bare = driver.run(sb, "bare")
    bare_markers = _markers(sb)

    # 2. The same settings, same paths, wrapped in the tap.
    sb.fresh_run_dirs()
    driver.write_settings(sb, pre, post)
    assert settings.read_bytes() == before
    install_out = uninstall_out = ""
    if install_available():
        wrapped_by = "install"
        res = hooktui(
            "install", driver.runtime, "--settings", str(settings), "--stream", str(sb.stream)
        )
        assert res.returncode == 0, f"hooktui install failed: {res.stderr}"
        install_out = res.stdout + res.stderr
    else:
        wrapped_by = "hand"
        warnings.warn("hooktui install is not available: hooks wrapped by hand", stacklevel=2)
        driver.write_settings(
            sb,
            tap_wrap(pre, driver.runtime, f"{driver.pre_event}:{driver.tool}", sb.stream),
            tap_wrap(post, driver.runtime, f"{driver.post_event}:{driver.tool}", sb.stream),
        )
    installed = settings.read_bytes()
    installed_commands = driver.commands(installed)
    tapped = driver.run(sb, "tapped")
    tapped_markers = _markers(sb)
    calls = sum(len(v) for v in tapped.hook_calls.values())
    records = _records(sb, calls)

    # 3. Uninstall restores the settings byte for byte.
    if wrapped_by == "install":
        res = hooktui("uninstall", driver.runtime, "--settings", str(settings))
        assert res.returncode == 0, f"hooktui uninstall failed: {res.stderr}"
        uninstall_out = res.stdout + res.stderr
        after = settings.read_bytes()
    else:
        driver.write_settings(sb, pre, post)
        after = settings.read_bytes()
    return Pair(
        bare=bare,
        tapped=tapped,
        bare_markers=bare_markers,
        tapped_markers=tapped_markers,
        records=records,
        settings_before=before,
        settings_installed=installed,
        settings_after=after,
        installed_commands=installed_commands,
        bare_commands=[pre, post],
        wrapped_by=wrapped_by,
        install_output=install_out,
        uninstall_output=uninstall_out,
    )


def unwrap_text(pair: Pair, text: str) -> str:
    """`text` with each installed (wrapped) hook command put back to the bare one.

    Some runtimes quote the hook's command line in what they tell the model
    (Claude Code: "PreToolUse:Bash hook error: [<command>]: <stderr>"); that
    is the one place the tap is visible, and these are the only bytes mapped.
    """
    for wrapped, bare in zip(pair.installed_commands, pair.bare_commands, strict=True):
        text = text.replace(wrapped, bare)
    return text


def hook_requests(run: Run, name: str, volatile: tuple[str, ...]) -> list[dict[str, Any]]:
    """What the hook `name` got on stdin, parsed, without the per-run ids."""
    out = []
    for call in run.hook_calls.get(name, []):
        request = json.loads(call["stdin"])
        for key in volatile:
            request.pop(key, None)
        out.append(request)
    return out


def assert_same_behaviour(driver: Driver, pair: Pair, case: Case) -> None:
    """The runtime did the same thing with and without the tap, and what the case pins."""
    bare, tapped = pair.bare, pair.tapped
    assert bare.exit_code == 0 and not bare.timed_out, bare.describe()
    assert tapped.exit_code == 0 and not tapped.timed_out, tapped.describe()
    # What the model was sent back.
    bare_result = driver.tool_result(bare)
    tapped_result = driver.tool_result(tapped)
    assert case.content_has in bare_result["content"], bare_result
    assert bare_result["is_error"] is case.is_error, bare_result
    tapped_result["content"] = unwrap_text(pair, tapped_result["content"])
    assert tapped_result == bare_result
    # Whether (and which) tool ran.
    expected_markers = [case.ran] if case.ran else []
    assert pair.bare_markers == expected_markers, bare.describe()
    assert pair.tapped_markers == pair.bare_markers
    # The same model conversation shape, the same hooks fired with the same requests.
    assert [r["kind"] for r in tapped.requests] == [r["kind"] for r in bare.requests]
    assert sorted(tapped.hook_calls) == sorted(bare.hook_calls)
    assert ("post" in bare.hook_calls) is case.post_fires
    for name in bare.hook_calls:
        assert hook_requests(tapped, name, driver.volatile) == hook_requests(
            bare, name, driver.volatile
        )
        # The hook ran where it would have, and saw the same runtime variables.
        for b, t in zip(bare.hook_calls[name], tapped.hook_calls[name], strict=True):
            assert t["cwd"] == b["cwd"]
            assert sorted(t["env"]) == sorted(b["env"])
            for key, value in b["env"].items():
                if "SESSION" not in key:
                    assert t["env"][key] == value, key


def assert_records(driver: Driver, pair: Pair, case: Case) -> None:
    """Each call is in the stream, with the verdict the runtime itself acted on."""
    tapped = pair.tapped
    by_event: dict[str, list[dict[str, Any]]] = {}
    for rec in pair.records:
        assert rec["runtime"] == driver.runtime, rec
        by_event.setdefault(rec["native_event"], []).append(rec)
    pre_records = by_event.pop(driver.pre_event, [])
    post_records = by_event.pop(driver.post_event, [])
    assert not by_event, f"unexpected records: {sorted(by_event)}"
    assert len(pre_records) == len(tapped.hook_calls.get("pre", [])) == 1
    assert len(post_records) == len(tapped.hook_calls.get("post", []))

    pre = pre_records[0]
    # The record is about the call the hook really got.
    assert pre["request"] == json.loads(tapped.hook_calls["pre"][0]["stdin"])
    assert pre["tool_name"] == driver.tool
    assert pre["event"] == "pre_tool_use"
    for key, value in case.record.items():
        assert pre[key] == value, f"record {key}={pre[key]!r}, runtime acted as {value!r}: {pre}"
    # The verdict's reading agrees with what the runtime did.
    ran = case.ran is not None
    lets_through = (
        pre["decision"] in ("allow", "modify", "replace")
        if pre["decision"] != "failure"
        else pre["effect"] != "blocks"
    )
    assert lets_through is ran, pre
    if case.ran == "marker-rewritten":
        assert pre["decision"] == "modify"
        # The input the tool really ran with is the record's updated_input.
        post_request = json.loads(tapped.hook_calls["post"][0]["stdin"])
        assert pre["updated_input"] == post_request["tool_input"]
    for rec in post_records:
        assert rec["event"] == "post_tool_use"
        assert rec["decision"] == "allow", rec
