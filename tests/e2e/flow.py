"""One scenario, run twice: with the bare hook, then through `hooktui install`.

`run_pair` returns everything the tests compare: both runs (what the model was
sent back, which marker the tool left, what the hooks received), the stream
the tap wrote, and the settings file before install, installed, and after
uninstall.
"""

from __future__ import annotations

import json
import os
import re
from dataclasses import dataclass, field
from typing import Any

import msgspec
from hooktui.tap.model import Record

from tests.conftest import wait_for_records
from tests.e2e.drivers import MARKERS, ORIGINAL, Driver
from tests.e2e.harness import Run, Sandbox, hook_command, hooktui


@dataclass(frozen=True)
class Case:
    """A hook answer, and what the real runtime was seen to do with it (the oracle)."""

    name: str
    answer: dict[str, Any]  # {"stdout", "stderr", "exit"} of the PreToolUse hook
    ran: str | None  # the marker the tool leaves: "marker-original", "marker-rewritten", None
    is_error: bool  # the tool_result the model gets back is an error
    content_has: str  # a substring of that tool_result
    record: dict[str, Any]  # fields the tap's record of the pre call must hold
    post_answer: dict[str, Any] = field(default_factory=dict)  # the PostToolUse hook's
    post_record: dict[str, Any] = field(default_factory=lambda: {"decision": "allow"})
    post_fires: bool = True
    notes_have: tuple[str, ...] = ()  # substrings of what rides along with the result
    absent: tuple[str, ...] = ()  # never in what the model gets back
    pre_timeout: int = 30  # seconds, the PreToolUse hook's configured timeout
    command: str = ORIGINAL  # the shell command the model asks to run
    secret: str = ""  # a secret inside `command`: the hooks get it, the stream must not
    ends_turn: bool = False  # the runtime stops after the tool: no tool result goes back
    # Set when the tap's record reads this answer differently from what the
    # runtime did (the runtime wins): the case's record check is a strict expected
    # failure (see batch.pinned_params) until the adapter agrees.
    disagreement: str = ""
    # More keys for the PreToolUse / PostToolUse handler (`onFailure`, `args`, a
    # `command` that cannot start); drivers that take them: Claude Code.
    pre_handler: dict[str, Any] = field(default_factory=dict)
    post_handler: dict[str, Any] = field(default_factory=dict)
    pre_runs: bool = True  # False: the pre hook's command never starts


@dataclass
class Pair:
    bare: Run | None  # None when only the tapped run was made
    tapped: Run
    bare_markers: list[str]
    tapped_markers: list[str]
    records: list[dict[str, Any]]
    settings_before: bytes
    settings_installed: bytes
    settings_after: bytes
    installed_commands: list[str]
    bare_commands: list[str]
    install_output: str = ""
    uninstall_output: str = ""
    extra: dict[str, Any] = field(default_factory=dict)


def _answer(sb: Sandbox, name: str, answer: dict[str, Any]) -> None:
    """The scripted hook's answer file (hook.py reads every key, `signal` included)."""
    (sb.hooks / f"{name}.answer.json").write_text(json.dumps(answer))


def _markers(sb: Sandbox) -> list[str]:
    return sorted(m for m in MARKERS if (sb.project / m).exists())


def _project_files(sb: Sandbox) -> list[str]:
    """What is in the project, but install's backup of the settings beside them."""
    files = (str(p.relative_to(sb.project)) for p in sb.project.rglob("*"))
    return sorted(f for f in files if not f.endswith(".hooktui-backup"))


def _records(sb: Sandbox, count: int) -> tuple[list[dict[str, Any]], str]:
    """The stream's records once `count` are there (or what is there after waiting),
    and the tap's own error log, for the failure message when some are missing."""
    errors = sb.stream.with_name(sb.stream.name + ".errors.log")
    if not count:
        return [], ""
    try:
        records = wait_for_records(sb.stream, count)
    except AssertionError:
        data = sb.stream.read_bytes() if sb.stream.exists() else b""
        records = [json.loads(line) for line in data.split(b"\n")[:-1]]
    return records, errors.read_text() if errors.exists() else ""


def run_pair(
    driver: Driver, sb: Sandbox, case: Case, *, with_bare: bool = True, discover: bool = False
) -> Pair:
    """Run `case` with the bare hook (unless `with_bare` is false), then tapped.

    `discover`: install finds the settings itself, as for a user, instead of
    being given --settings.
    """
    _answer(sb, "pre", case.answer)
    _answer(sb, "post", case.post_answer)
    pre, post = hook_command(sb.hooks, "pre"), hook_command(sb.hooks, "post")
    settings = driver.settings_path(sb)
    handlers = {}
    if case.pre_handler or case.post_handler:
        handlers = {"pre_handler": case.pre_handler, "post_handler": case.post_handler}

    # 1. The bare hook.
    bare, bare_markers, bare_files = None, [], []
    if with_bare:
        sb.fresh_run_dirs()
        driver.write_settings(sb, pre, post, case.pre_timeout, **handlers)
        before = settings.read_bytes()
        bare = driver.run(sb, "bare", case.command)
        bare_markers = _markers(sb)
        bare_files = _project_files(sb)

    # 2. The same settings, same paths, wrapped in the tap.
    sb.fresh_run_dirs()
    driver.write_settings(sb, pre, post, case.pre_timeout, **handlers)
    if with_bare:
        assert settings.read_bytes() == before
    before = settings.read_bytes()
    if discover:  # as a user would: no --settings, from the project folder
        where, env = driver.where(sb)
    else:
        where, env = ["--settings", str(settings)], {}
    stream = ["--stream", str(sb.stream)]
    res = hooktui("install", driver.runtime, *where, *stream, env=env, cwd=sb.project)
    assert res.returncode == 0, f"hooktui install failed: {res.stderr}"
    install_out = res.stdout + res.stderr
    assert str(settings) in install_out  # it edited the file the runtime reads
    installed = settings.read_bytes()
    installed_commands = driver.commands(installed)
    tapped = driver.run(sb, "tapped", case.command)
    tapped_markers = _markers(sb)
    project_files = _project_files(sb)
    calls = sum(len(v) for v in tapped.hook_calls.values())
    # A hook that cannot start is still one call of the tap (which recorded it).
    records, tap_errors = _records(sb, calls + (0 if case.pre_runs else 1))

    # 3. Uninstall restores the settings byte for byte.
    res = hooktui("uninstall", driver.runtime, *where, env=env, cwd=sb.project)
    assert res.returncode == 0, f"hooktui uninstall failed: {res.stderr}"
    uninstall_out = res.stdout + res.stderr
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
        install_output=install_out,
        uninstall_output=uninstall_out,
        extra={
            "tap_errors": tap_errors,
            "stream_bytes": sb.stream.read_bytes() if sb.stream.exists() else b"",
            "project_files": project_files,
            "bare_project_files": bare_files if with_bare else None,
            "pre_timeout": case.pre_timeout,
        },
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


def _strings(value: Any, fn) -> Any:
    """`value` with `fn` applied to every string inside it."""
    if isinstance(value, str):
        return fn(value)
    if isinstance(value, list):
        return [_strings(v, fn) for v in value]
    if isinstance(value, dict):
        return {k: _strings(v, fn) for k, v in value.items()}
    return value


def hook_requests(driver: Driver, run: Run, name: str) -> list[dict[str, Any]]:
    """What the hook `name` got on stdin, parsed, without the per-run ids and noise."""
    out = []
    for call in run.hook_calls.get(name, []):
        request = json.loads(call["stdin"])
        for key in driver.volatile:
            request.pop(key, None)
        out.append(_strings(request, driver.normalize))
    return out


def tool_result(driver: Driver, pair: Pair, run: Run) -> dict[str, Any] | None:
    """What the model got back for the tool call (None: the turn ended there).

    Per-run noise is taken out (driver.normalize) and, for the tapped run, the
    wrapped hook commands are put back to the bare ones (see unwrap_text).
    """
    if not run.of_kind("final"):
        return None
    result = driver.tool_result(run)

    def clean(text: str) -> str:
        text = driver.normalize(text)
        return unwrap_text(pair, text) if run is pair.tapped else text

    return _strings(result, clean)


# Set by the shell that runs the hook's command line: the tap's command line
# adds a shell level (`sh -c`), which is all these tell.
SHELL_VARS = ("PWD", "OLDPWD", "SHLVL", "_")


def hook_env(driver: Driver, call: dict[str, Any]) -> dict[str, str]:
    """The environment a hook saw, with this run's session id and the values that
    differ on every run (driver.volatile_env: pids, sockets) made generic."""
    request = json.loads(call["stdin"])
    session = request.get("session_id") or request.get("sessionId") or "\0"
    return {
        k: "<per-run>" if k in driver.volatile_env else v.replace(session, "<session>")
        for k, v in call["env"].items()
        if k not in SHELL_VARS
    }


def assert_runtime_did(driver: Driver, pair: Pair, run: Run, markers: list[str], case: Case):
    """The runtime did with the hook's answer what `case` pins."""
    assert run.exit_code == 0 and not run.timed_out, run.describe()
    result = tool_result(driver, pair, run)
    if case.ends_turn:
        assert result is None, run.describe()
    else:
        assert result is not None, run.describe()
        assert case.content_has in result["content"], result
        for note in case.notes_have:
            assert any(note in n for n in result.get("notes", [])), result
        for text in case.absent:
            assert text not in json.dumps(result), result
        assert result["is_error"] is case.is_error, result
    assert markers == ([case.ran] if case.ran else []), run.describe()
    assert ("post" in run.hook_calls) is case.post_fires, run.describe()
    assert len(run.hook_calls.get("pre", [])) == int(case.pre_runs), run.describe()


def assert_same_behaviour(driver: Driver, pair: Pair, case: Case) -> None:
    """The runtime did the same thing with and without the tap, and what the case pins."""
    bare, tapped = pair.bare, pair.tapped
    assert bare is not None
    assert_runtime_did(driver, pair, bare, pair.bare_markers, case)
    assert_runtime_did(driver, pair, tapped, pair.tapped_markers, case)
    # What the model was sent back, whether (and which) tool ran.
    assert tool_result(driver, pair, tapped) == tool_result(driver, pair, bare)
    assert pair.tapped_markers == pair.bare_markers
    # The tap leaves nothing behind in the project (its stream lives elsewhere).
    assert pair.extra["project_files"] == pair.extra["bare_project_files"]
    # The same model conversation shape, the same hooks fired with the same requests.
    assert [r["kind"] for r in tapped.requests] == [r["kind"] for r in bare.requests]
    assert sorted(tapped.hook_calls) == sorted(bare.hook_calls)
    for name in bare.hook_calls:
        assert hook_requests(driver, tapped, name) == hook_requests(driver, bare, name)
        # The hook ran where it would have, and saw the same runtime variables.
        for b, t in zip(bare.hook_calls[name], tapped.hook_calls[name], strict=True):
            assert t["cwd"] == b["cwd"]
            assert hook_env(driver, t) == hook_env(driver, b)


_MASK = re.compile(r"\[REDACTED:[a-z0-9_]+:[0-9a-f]{8}\]")


def _unmask(request: Any, secret: str) -> Any:
    """A recorded request with its redaction markers put back to `secret`."""
    if not secret:
        return request
    return _strings(request, lambda text: _MASK.sub(secret, text))


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
    missing = f"tap error log: {pair.extra.get('tap_errors') or '(empty)'}"
    assert len(pre_records) == 1, f"{len(pre_records)} {driver.pre_event} record(s); {missing}"
    if not case.pre_runs:  # the tap ran; the hook it was to start did not
        _assert_unstarted(pre_records[0], pair, case)
        return
    assert len(tapped.hook_calls.get("pre", [])) == 1
    assert len(post_records) == len(tapped.hook_calls.get("post", [])), missing

    pre = pre_records[0]
    brief = {k: pre[k] for k in ("decision", "reason", "failure", "effect", "exit_code")}
    # The record is about the call the hook really got (secrets masked).
    got = tapped.hook_calls["pre"][0]["stdin"]
    assert _unmask(pre["request"], case.secret) == json.loads(got)
    # Which hook ran: the original command, under the shell the runtime started
    # (install runs it with "$0" -c), and install's default label.
    shell, *rest = pre["hook"]["argv"]
    assert rest == ["-c", pair.bare_commands[0]] and os.path.basename(shell) in ("sh", "bash")
    assert pre["hook"]["label"] == f"{driver.pre_event}:{driver.matcher}"
    assert pre["hook"]["timeout_ms"] == pair.extra["pre_timeout"] * 1000
    if case.secret:
        assert case.secret in got  # the hook saw the real thing...
        assert case.secret.encode() not in pair.extra["stream_bytes"]  # ...the disk never
        assert any(r["pointer"].startswith("/request/tool_input") for r in pre["redactions"])
    assert pre["tool_name"] == driver.tool
    assert pre["event"] == "pre_tool_use"
    for key, value in case.record.items():
        assert pre[key] == value, (
            f"record {key}={pre[key]!r}, the runtime acted as {value!r}: {brief}"
        )
    # The verdict's reading agrees with what the runtime did.
    verdict = msgspec.convert(pre, Record).verdict
    ran = bool(pair.tapped_markers)
    assert verdict.lets_through is ran, (
        f"the runtime {'ran' if ran else 'blocked'} the tool: {brief}"
    )
    if pair.tapped_markers == ["marker-rewritten"]:
        assert pre["decision"] == "modify"
        # The input the tool really ran with is the record's updated_input.
        post_request = json.loads(tapped.hook_calls["post"][0]["stdin"])
        assert pre["updated_input"] == post_request["tool_input"]
    for rec in post_records:
        assert rec["event"] == "post_tool_use"
        post_got = json.loads(tapped.hook_calls["post"][0]["stdin"])
        assert _unmask(rec["request"], case.secret) == post_got
        brief = {k: rec[k] for k in ("decision", "reason", "failure", "effect", "exit_code")}
        for key, value in case.post_record.items():
            assert rec[key] == value, f"post record {key}={rec[key]!r}, runtime: {value!r}: {brief}"


def _assert_unstarted(pre: dict[str, Any], pair: Pair, case: Case) -> None:
    brief = {k: pre[k] for k in ("decision", "reason", "failure", "effect", "exit_code")}
    for key, value in case.record.items():
        assert pre[key] == value, f"record {key}={pre[key]!r}, the runtime acted as {value!r}"
    verdict = msgspec.convert(pre, Record).verdict
    ran = bool(pair.tapped_markers)
    assert verdict.lets_through is ran, f"the runtime {'ran' if ran else 'blocked'}: {brief}"


def check_main(driver: Driver, sb: Sandbox, case: Case, *, discover: bool = False) -> Pair:
    """Bare vs tapped: same behaviour, true records, settings restored byte for byte."""
    pair = run_pair(driver, sb, case, discover=discover)
    assert_same_behaviour(driver, pair, case)
    assert_records(driver, pair, case)
    assert pair.settings_installed != pair.settings_before
    assert driver.install_note in pair.install_output
    assert pair.settings_after == pair.settings_before
    return pair


# One tapped run per pinned case, shared by its two tests (what the runtime did;
# what the record says), so an expected failure of the second costs no second run.
_PINNED: dict[tuple[str, str], Pair] = {}


def pinned_pair(driver: Driver, sb: Sandbox, case: Case) -> Pair:
    key = (driver.cli, case.name)
    if key not in _PINNED:
        _PINNED[key] = run_pair(driver, sb, case, with_bare=False)
    return _PINNED[key]


def check_pinned(driver: Driver, sb: Sandbox, case: Case) -> Pair:
    """Tapped only: the runtime does what is pinned (the record: check_pinned_record)."""
    pair = pinned_pair(driver, sb, case)
    assert_runtime_did(driver, pair, pair.tapped, pair.tapped_markers, case)
    assert pair.settings_after == pair.settings_before
    return pair


def check_pinned_record(driver: Driver, sb: Sandbox, case: Case) -> None:
    """The tap's record of a pinned case reads the answer as the runtime did."""
    assert_records(driver, pinned_pair(driver, sb, case), case)


def check_replay(driver: Driver, sb: Sandbox, case: Case) -> None:
    """A real runtime's recorded traffic replays to the same verdicts; after the
    policy is edited (the hook's answer file), the pre call's verdict changes."""
    pair = run_pair(driver, sb, case, with_bare=False)
    assert_records(driver, pair, case)
    sb.fresh_run_dirs()  # empty hook call logs, an empty project (the recorded cwd)

    res = hooktui("replay", str(sb.stream), "--format", "json")
    assert res.returncode == 0, res.stdout + res.stderr
    report = json.loads(res.stdout)
    assert report["total"] == report["unchanged"] == len(pair.records)
    # The hooks got the recorded requests again, flagged as a replay; no tool ran.
    calls = sb.hook_calls()
    recorded = [json.loads(c["stdin"]) for c in pair.tapped.hook_calls["pre"]]
    assert [json.loads(c["stdin"]) for c in calls["pre"]] == recorded
    assert all(c["env"].get("HOOKTUI_REPLAY") == "1" for v in calls.values() for c in v)
    assert _markers(sb) == []

    sb.answer("pre")  # the edited policy: answer nothing, which lets the call through
    res = hooktui("replay", str(sb.stream), "--format", "json")
    assert res.returncode == 1, res.stdout + res.stderr  # something changed
    report = json.loads(res.stdout)
    [change] = report["changes"]
    assert change["event"] == "pre_tool_use"
    assert change["direction"] == "loosened"
    assert change["before"]["decision"] == case.record["decision"]
    assert change["after"]["decision"] == "allow"
