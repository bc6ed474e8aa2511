"""The cells: every form of forms.FORMS under every condition of conditions.CONDITIONS.

`cells(family)` gives the test modules their parameters; `run_cell` is one cell:
prepare the condition, install the form, spoil, then run the handler bare (the
oracle) and wrapped, as the runtime runs it, and compare.
"""

from __future__ import annotations

import os
import shlex
import shutil
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from tests.conftest import wait_for_records
from tests.guarantee import dashboards, network
from tests.guarantee.conditions import CONDITIONS, Condition
from tests.guarantee.forms import FORMS, Form
from tests.guarantee.harness import (
    Cell,
    Result,
    handler_for,
    install,
    judged,
    new_cell,
    request_of,
    run_handler,
    write_guard,
)
from tests.guarantee.network import Network

# The runtime's timeout in the cells of 80 calls at once: the load is the condition,
# not a slow machine.
LOAD_TIMEOUT_MS = 60_000
# Cells that cannot mean anything, with why (docs/guarantee.md lists them).
NOT_APPLICABLE: dict[tuple[str, str], str] = {
    ("tap", "venv-gone"): "a line written by hand (`tap`, `tap-wait`), or `hooktui try`'s, "
    "names hooktui itself: nothing of ours runs",
}
# Cells that fail today, each naming its finding (issue 19), until its fix lands.
KNOWN: dict[tuple[str, str], str] = {}


def applies(form: Form, condition: Condition) -> bool:
    if form.kind in condition.replaces or condition.only and form.id not in condition.only:
        return False
    return _not_applicable(form, condition) is None


def _not_applicable(form: Form, condition: Condition) -> str | None:
    kind = "tap" if form.kind in ("tap", "tap-wait", "try") else form.kind
    return NOT_APPLICABLE.get((kind, condition.name))


def cells(family: str) -> list:
    """pytest parameters (form, condition) of one family of conditions."""
    params = []
    for condition in CONDITIONS:
        if condition.family != family:
            continue
        for form in FORMS:
            if not applies(form, condition):
                continue
            marks = []
            known = KNOWN.get((form.id, condition.name)) or KNOWN.get(("*", condition.name))
            if known:
                marks.append(pytest.mark.xfail(strict=True, reason=known))
            params.append(
                pytest.param(form, condition, id=f"{form.id}~{condition.name}", marks=marks)
            )
    return params


def family_test(family: str):
    """The test of one family's cells (a module per family: `pytest
    tests/guarantee/test_matrix_dashboard.py` runs one); pytest's workers take the
    cells one by one."""

    @pytest.mark.parametrize(("form", "condition"), cells(family))
    def test_cell(form, condition, tmp_path):
        run_cell(form, condition, tmp_path, network.shared())

    return test_cell


def cell_root(condition: Condition, tmp_path: Path) -> Path:
    if not condition.outside_tmp:
        return tmp_path
    root = Path(tempfile.mkdtemp(prefix="hkg", dir="/var/tmp"))
    return root


def build(cell: Cell, net: Network, tls: bool) -> tuple[dict | None, dict]:
    """(the handler as written, or None for an http hook; the handler the runtime runs)."""
    form = cell.form
    argv = write_guard(cell)
    if form.installed:
        url = net.url(form.runtime, tls)
        bare = handler_for(cell, form.kind, argv, url)
        (wrapped,) = install(cell, [bare])
        return (None if form.kind == "http" else bare), wrapped
    bare = handler_for(cell, "command", argv)
    if form.kind == "held":
        (wrapped,) = install(cell, [bare])
        return bare, wrapped
    if form.kind == "try":
        return bare, dict(bare, **{cell.runtime.settings.command_key: try_line(cell, argv)})
    wait = " --wait" if form.kind == "tap-wait" else ""
    command_key = cell.runtime.settings.command_key
    line = f"{shlex.quote(str(cell.venv.hooktui))} tap{wait} --timeout-ms {cell.timeout_ms} -- "
    return bare, dict(bare, **{command_key: line + shlex.join(argv)})


def try_line(cell: Cell, argv: list[str]) -> str:
    """The tap line `hooktui try` builds for the guard as a configured hook (trial.py)."""
    from hooktui.tap.inventory.model import Hook
    from hooktui.tap.inventory.trial import tap_argv

    from tests.guarantee.harness import guard_event

    hook = Hook(
        runtime=cell.form.runtime,
        scope="project",
        path="",
        where="",
        position=0,
        event=guard_event(cell.runtime),
        command=shlex.join(argv),
        label="try",
        timeout_ms=cell.timeout_ms,
    )
    return shlex.join(
        tap_argv(cell.runtime, hook, str(cell.venv.hooktui), str(cell.stream), cell.project)
    )


def http_oracle(cell: Cell, base_env: dict[str, str], net: Network, tls: bool) -> Result:
    """What the runtime's own POST gets: the same POST, made from a clean place (its
    own process reads no project file), trusting the CA as the runtime would."""
    env = dict(base_env)
    if tls:
        env["SSL_CERT_FILE"] = net.ca_file
    clean = cell.root / "clean"
    clean.mkdir(exist_ok=True)
    argv = [sys.executable, "-I", "-m", "hooktui.tap.httphook", "--runtime", cell.form.runtime]
    argv += ["--url", net.url(cell.form.runtime, tls)]
    if cell.runtime.settings.http.checks_event:
        from tests.guarantee.harness import guard_event

        argv += ["--event", guard_event(cell.runtime)]
    p = subprocess.run(
        argv, input=request_of(cell), capture_output=True, env=env, cwd=clean, timeout=60
    )
    return Result(p.stdout, p.stderr, p.returncode)


def run_cell(form: Form, condition: Condition, tmp_path: Path, net: Network) -> None:
    cell = new_cell(form, cell_root(condition, tmp_path))
    with cell.stack:
        if condition.outside_tmp:
            cell.stack.callback(_rmtree, cell.root)
        base_env = dict(cell.env)
        cell.ca_file = net.ca_file
        condition.prepare(cell)
        tls = "NODE_EXTRA_CA_CERTS" in cell.env
        dashboard = "healthy" if form.kind == "held" else condition.dashboard
        if dashboard:
            dashboards.start(cell, dashboard)
        bare, wrapped = build(cell, net, tls)
        condition.spoil(cell)
        request = request_of(cell)
        if bare is None:
            expected = http_oracle(cell, base_env, net, tls)
        else:
            expected = run_handler(cell, bare, request)
        if condition.parallel > 1:
            cell.cpus = two_cpus()
            cell.timeout_ms = LOAD_TIMEOUT_MS
        with ThreadPoolExecutor(condition.parallel) as pool:
            calls = [
                pool.submit(run_handler, cell, wrapped, request) for _ in range(condition.parallel)
            ]
            results = [call.result(timeout=120) for call in calls]
        for got in results:
            check(cell, condition, expected, got)
        if form.kind in ("held", "tap-wait", "try") and condition.recorded:
            check_recorded(cell, len(results))


def two_cpus() -> str:
    cpus = sorted(os.sched_getaffinity(0))
    return ",".join(map(str, cpus[:2]))


def check_recorded(cell: Cell, count: int) -> None:
    """A --wait call is recorded before it answers; a held call is recorded as held.

    Or, on a machine loaded enough that the dashboard's first word missed the
    offer window, as let by unheld for that reason: the tap passes the hook's answer
    on rather than wait (by design), and the record must say why. A hold path that
    broke (a pass, a torn frame, no offer at all) records neither.
    """
    records = wait_for_records(cell.stream, count, timeout=30)
    if cell.form.kind in ("tap-wait", "try"):
        return
    for record in records:
        held = record.get("held") or {}
        assert held.get("released_by") in ("person", "dashboard-slow"), record


def check(cell: Cell, condition: Condition, expected: Result, got: Result) -> None:
    assert not got.timed_out, f"killed at the runtime's timeout; stderr: {got.stderr[-500:]!r}"
    if cell.form.kind in condition.closed:
        verdict = judged(cell, got)
        assert not verdict.lets_through, f"failed open: {verdict!r} from {got.answer!r}"
        lines = got.stderr.decode(errors="replace").splitlines()
        assert len(lines) == 1 and lines[0].startswith("hooktui"), got.stderr
        assert "uninstall" in lines[0] or "reinstall" in lines[0], "it names no fix"
        return
    assert not expected.timed_out and expected.code is not None, expected
    assert got.answer == expected.answer


def _rmtree(path: Path) -> None:
    shutil.rmtree(path, ignore_errors=True)
