"""Many cases in ONE session of a CLI: cheap runs for the slow-starting ones.

The fake model asks for one shell call per case, one after the other; each
case's command carries a tag (`touch marker-original-t3 && echo
original-ran-t3`), and the scripted hook answers each call by its tag
(hook.py `by_tag`). What the runtime did is then read per case: which marker
its command left, what went back to the model for its call, which hooks saw
it, and (through the tap) which records name it.

A case that ends the session (the turn stops) must come last, or run alone.

Staying fast (a CLI session costs 5-30 s; CI runs files on parallel workers,
one file per worker): put a new case in a table that `grouped_batch` or a
module-scoped fixture runs in one session, never one session per test; share a
session between a file's tests through module state (a fixture or a dict like
`_GROUPS`), not across files; let the hook answer at once instead of sleeping
(a timeout case is the exception, and belongs in a group with the same
timeout); keep a file's sessions under a few minutes, as the slowest file sets
the floor.
"""

from __future__ import annotations

import hashlib
import json
import re
from dataclasses import dataclass, field
from typing import Any

import msgspec
import pytest
from hooktui.tap.model import Record

from tests.e2e.drivers import Driver
from tests.e2e.flow import Case, _records, hook_env
from tests.e2e.harness import Run, Sandbox, hook_command, hooktui

_TAG = re.compile(r"marker-(?:original|rewritten)-(t\d+)\b")


def tagged(text: str, tag: str) -> str:
    """`text` (a command, or a hook answer holding one) with its markers tagged."""
    for plain in ("marker-original", "original-ran", "marker-rewritten", "rewritten-ran"):
        text = re.sub(rf"{plain}(?![-\w])", f"{plain}-{tag}", text)
    return text


def tag_of(text: str) -> str | None:
    found = _TAG.search(text)
    return found.group(1) if found else None


@dataclass
class Seen:
    """What the runtime did with one case of a batch."""

    markers: list[str]  # "marker-original" / "marker-rewritten", tag taken off
    result: dict[str, Any] | None  # what went back to the model for its call
    pre_calls: list[dict[str, Any]]
    post_calls: list[dict[str, Any]]
    records: list[dict[str, Any]] = field(default_factory=list)


@dataclass
class Batch:
    run: Run
    seen: dict[str, Seen]  # by case name
    tags: dict[str, str]  # case name -> tag
    settings_before: bytes = b""
    settings_installed: bytes = b""
    installed_commands: list[str] = field(default_factory=list)
    bare_commands: list[str] = field(default_factory=list)
    tap_errors: str = ""


def _answers(cases: list[Case], tags: dict[str, str], key: str) -> dict[str, Any]:
    by_tag = {}
    for case in cases:
        answer = dict(getattr(case, key))
        for k in ("stdout", "stderr"):
            if k in answer:
                answer[k] = tagged(answer[k], tags[case.name])
        by_tag[tags[case.name]] = answer
    return {"by_tag": by_tag}


def _install(driver: Driver, sb: Sandbox) -> None:
    """Wrap the settings' hooks in the tap: the real `hooktui install`."""
    path = driver.settings_path(sb)
    runtime = getattr(driver, "install_runtime", driver.runtime)
    res = hooktui("install", runtime, "--settings", str(path), "--stream", str(sb.stream))
    assert res.returncode == 0, f"hooktui install failed: {res.stderr}"


def run_batch(
    driver: Driver, sb: Sandbox, cases: list[Case], *, tapped: bool, pre_timeout: int
) -> Batch:
    """One session running every case in turn; `tapped`: through the installed tap."""
    tags = {case.name: f"t{i}" for i, case in enumerate(cases, start=1)}
    sb.fresh_run_dirs()
    (sb.hooks / "pre.answer.json").write_text(json.dumps(_answers(cases, tags, "answer")))
    (sb.hooks / "post.answer.json").write_text(json.dumps(_answers(cases, tags, "post_answer")))
    pre, post = hook_command(sb.hooks, "pre"), hook_command(sb.hooks, "post")
    handlers = {}
    if cases[0].pre_handler or cases[0].post_handler:  # one group shares its handlers
        handlers = {"pre_handler": cases[0].pre_handler, "post_handler": cases[0].post_handler}
    driver.write_settings(sb, pre, post, pre_timeout, **handlers)
    before = driver.settings_bytes(sb)
    if tapped:
        sb.stream.unlink(missing_ok=True)
        _install(driver, sb)
    installed = driver.settings_bytes(sb)
    steps = [
        {
            "text": f"case {tags[c.name]}",
            "calls": [{"name": driver.script()["tool"], "input": _input(driver, c, tags[c.name])}],
        }
        for c in cases
    ]
    run = sb.run(
        "tapped" if tapped else "bare",
        driver.runtime,
        driver.argv(sb),
        driver.env(sb),
        {"steps": steps},
        timeout=60 + 15 * len(cases),
    )
    records: list[dict[str, Any]] = []
    errors = ""
    if tapped:
        calls = sum(len(v) for v in run.hook_calls.values())
        records, errors = _records(sb, calls)
    seen = {}
    for index, case in enumerate(cases, start=1):
        tag = tags[case.name]
        seen[case.name] = Seen(
            markers=sorted(
                p.name.removesuffix(f"-{tag}") for p in sb.project.glob(f"marker-*-{tag}")
            ),
            result=_result(driver, run, f"call_e2e_{index}_0", tag),
            pre_calls=[c for c in run.hook_calls.get("pre", []) if tag_of(c["stdin"]) == tag],
            post_calls=[c for c in run.hook_calls.get("post", []) if tag_of(c["stdin"]) == tag],
            records=[r for r in records if tag_of(json.dumps(r.get("request"))) == tag],
        )
    return Batch(
        run=run,
        seen=seen,
        tags=tags,
        settings_before=before,
        settings_installed=installed,
        installed_commands=driver.commands(installed),
        bare_commands=[pre, post],
        tap_errors=errors,
    )


def _input(driver: Driver, case: Case, tag: str) -> dict[str, Any]:
    return json.loads(tagged(json.dumps(driver.script(case.command)["tool_input"]), tag))


def _result(driver: Driver, run: Run, call_id: str, tag: str) -> dict[str, Any] | None:
    """What went back to the model for call `call_id`, tag taken off (None: nothing did)."""
    for request in run.requests:
        if not isinstance(request["body"], dict):
            continue
        found = driver.result_for(request["body"], call_id)  # type: ignore[attr-defined]
        if found is not None:
            found = json.loads(json.dumps(found).replace(f"-{tag}", ""))
            found["content"] = driver.normalize(found["content"])
            return found
    return None


# --- what the tests check of a batch ---------------------------------------------------


def check_seen(seen: Seen, case: Case) -> None:
    """The runtime did with this case's answer what the case pins."""
    assert seen.markers == ([case.ran] if case.ran else []), seen
    assert len(seen.pre_calls) == 1, seen
    assert bool(seen.post_calls) is case.post_fires, seen
    if case.ends_turn:
        return
    assert seen.result is not None, f"nothing went back to the model: {seen}"
    assert case.content_has in seen.result["content"], seen.result
    for text in case.absent:
        assert text not in json.dumps(seen.result), seen.result
    for note in case.notes_have:
        assert any(note in n for n in seen.result["notes"]), seen.result
    assert seen.result["is_error"] is case.is_error, seen.result


def _requests(driver: Driver, calls: list[dict[str, Any]]) -> list[dict[str, Any]]:
    out = []
    for call in calls:
        request = json.loads(call["stdin"])
        for key in driver.volatile:
            request.pop(key, None)
        out.append(driver.normalize_request(request))
    return out


def check_same(driver: Driver, bare: Batch, tapped: Batch, case: Case) -> None:
    """With the tap installed the runtime did exactly what it did without it."""
    b, t = bare.seen[case.name], tapped.seen[case.name]
    assert t.markers == b.markers
    result = t.result
    if result is not None:  # the tap shows only where the runtime quotes the command line
        text = json.dumps(result)
        for wrapped, plain in zip(tapped.installed_commands, tapped.bare_commands, strict=True):
            text = text.replace(json.dumps(wrapped)[1:-1], json.dumps(plain)[1:-1])
        result = json.loads(text)
    assert result == b.result
    for kind in ("pre_calls", "post_calls"):
        bare_calls, tapped_calls = getattr(b, kind), getattr(t, kind)
        assert _requests(driver, tapped_calls) == _requests(driver, bare_calls), kind
        for x, y in zip(bare_calls, tapped_calls, strict=True):
            assert y["cwd"] == x["cwd"]
            assert hook_env(driver, y) == hook_env(driver, x)


def check_records(driver: Driver, tapped: Batch, case: Case) -> None:
    """The tap recorded this case's calls with the verdict the runtime acted on."""
    seen = tapped.seen[case.name]
    pre = [r for r in seen.records if r["native_event"] == driver.pre_event]
    post = [r for r in seen.records if r["native_event"] == driver.post_event]
    found = [(r.get("runtime"), r.get("native_event")) for r in seen.records]
    assert len(pre) == len(seen.pre_calls) == 1, (
        f"{len(pre)} {driver.pre_event} records; the case's records: {found}; "
        f"tap errors: {tapped.tap_errors or '(none)'}"
    )
    assert len(post) == len(seen.post_calls), f"post records: {len(post)}"
    rec = pre[0]
    brief = {k: rec.get(k) for k in ("runtime", "decision", "reason", "failure", "effect")}
    assert rec["runtime"] == driver.runtime, f"recorded as {rec['runtime']}: {brief}"
    assert rec["request"] == json.loads(seen.pre_calls[0]["stdin"])
    tag = tapped.tags[case.name]
    for key, value in case.record.items():
        value = json.loads(tagged(json.dumps(value), tag))  # the case's own command
        assert rec[key] == value, f"record {key}={rec[key]!r}, the runtime acted as {value!r}"
    verdict = msgspec.convert(rec, Record).verdict
    ran = bool(seen.markers)
    assert verdict.lets_through is ran, f"the runtime {'ran' if ran else 'blocked'}: {brief}"
    if seen.markers == ["marker-rewritten"]:
        post_input = json.loads(seen.post_calls[0]["stdin"])
        assert rec["updated_input"] == driver.ran_input(post_input)
    for rec in post:
        for key, value in case.post_record.items():
            assert rec[key] == value, f"post record {key}={rec[key]!r}, runtime: {value!r}"


# --- pinned cases of a fast CLI, grouped into sessions ---------------------------------


def group_key(case: Case) -> str | None:
    """Cases with the same settings share a session; None: the case runs alone (it
    ends the turn, its hook cannot start, or its record needs the whole-run checks)."""
    if case.ends_turn or not case.pre_runs or case.secret:
        return None
    return json.dumps([case.pre_timeout, case.pre_handler, case.post_handler], sort_keys=True)


_GROUPS: dict[tuple[str, str], Batch] = {}


def grouped_batch(driver: Driver, factory, cases: list[Case], case: Case) -> Batch:
    """The tapped session of `case`'s group (run once, shared by the group's tests)."""
    key = group_key(case)
    assert key is not None
    if (driver.cli, key) not in _GROUPS:
        group = [c for c in cases if group_key(c) == key]
        sb = Sandbox(factory.mktemp(f"{driver.cli}-group"))
        _GROUPS[(driver.cli, key)] = run_batch(
            driver, sb, group, tapped=True, pre_timeout=case.pre_timeout
        )
    return _GROUPS[(driver.cli, key)]


def pinned_params(runtime: str, cases: list[Case], *, record: bool = False) -> list[Any]:
    """`cases` as parameters of a pinned test, each in the xdist group of the session it
    shares (its group's batch, else its own tapped pair: flow.pinned_pair), so that the
    verdict test and the record test of a session run on one worker, which runs it once
    (pyproject: --dist loadgroup). With `record`: where the adapter still reads an answer
    otherwise than the runtime did, a strict expected failure (it must flip)."""
    params = []
    for case in cases:
        key = group_key(case)
        shared = case.name if key is None else hashlib.sha256(key.encode()).hexdigest()[:12]
        marks = [pytest.mark.xdist_group(f"{runtime}:{shared}")]
        if record and case.disagreement:
            reason = f"issue 10: adapter: {case.disagreement}"
            marks.append(pytest.mark.xfail(strict=True, reason=reason))
        params.append(pytest.param(case, id=case.name, marks=marks))
    return params


# --- case lists run bare and tapped, one session each, then uninstalled ---------------


@dataclass
class Listed:
    """One case list's two sessions; `sb` holds the settings as `hooktui uninstall` left
    them (driver.settings_bytes(sb))."""

    bare: Batch
    tapped: Batch
    sb: Sandbox


def bare_tapped_uninstalled(
    driver: Driver, factory, lists: dict[str, list[Case]], pre_timeout: int, prepare=None
) -> dict[str, Listed]:
    """Per list: a bare session, a tapped one (the real `hooktui install`), then the real
    `hooktui uninstall`. `prepare(name, sb)` runs first (answers of other hooks)."""
    out = {}
    for name, cases in lists.items():
        sb = Sandbox(factory.mktemp(f"{driver.cli}-{name}"))
        if prepare is not None:
            prepare(name, sb)
        bare = run_batch(driver, sb, cases, tapped=False, pre_timeout=pre_timeout)
        tapped = run_batch(driver, sb, cases, tapped=True, pre_timeout=pre_timeout)
        res = hooktui("uninstall", driver.runtime, "--settings", str(driver.settings_path(sb)))
        assert res.returncode == 0, res.stderr
        out[name] = Listed(bare, tapped, sb)
    return out


def list_params(lists: dict[str, list[Case]]) -> list:
    """(list name, case) parameters of every case of `lists`, by case name."""
    return [
        pytest.param(name, case, id=case.name) for name, cases in lists.items() for case in cases
    ]
