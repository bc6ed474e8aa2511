"""The drift report: each watched runtime's newest release beside its pin.

    python -m tests.e2e.drift [--runtime CLI ...] [--budget S] [--report FILE]

For every row of drift_table.WATCHED (or the `--runtime`s named):
1. asks the registry for the package's newest release (and the `also` packages');
2. reads the hook surface the pinned install ships, and says which of its events
   hooktui's adapter for that runtime does not know;
3. when the newest release is not the pin: installs it beside the pin (under
   `--dir`, cached), reads what it ships (new events, fields, and the release
   notes a build embeds), and runs the runtime's e2e cases against it
   (HOOKTUI_E2E_DRIFT: the tests accept that version), time-boxed; every case
   that fails there is one whose verdict changed, whose record no longer agrees,
   or that no longer runs. A PyPI CLI's release goes into a venv of its own
   (drift_venv.py), which its cases run against (HOOKTUI_E2E_VENVS).

It prints the report (and writes it to `--report`, JSON to `--json`). Exit
status: 0 no drift, 1 drift found, 2 it could not make a report. CI runs it
after the suite and prints the report without gating on it (.ci/run).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import signal
import subprocess
import sys
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path

from tests.e2e import drift_venv
from tests.e2e.drift_table import WATCHED, Watched
from tests.e2e.harness import CLIS, REPO, cli_version, node_modules, venvs
from tests.e2e.shipped import Shipped

_VERSION = re.compile(r"^\d+\.\d+\.\d+\S*$")


@dataclass
class Cases:
    """What the runtime's e2e cases did against the newest release."""

    passed: int = 0
    skipped: int = 0
    failed: list[dict] = field(default_factory=list)  # {test, message}
    skips: list[str] = field(default_factory=list)  # distinct skip reasons
    stopped: str = ""  # why the run did not finish ("" when it did)
    against: str = ""  # the version the tests found installed (drift_outcomes.py)
    seconds: float = 0.0


@dataclass
class Finding:
    cli: str
    runtime: str
    package: str
    pin: str
    installed_pin: str = ""  # what the pinned folder holds ("" when it is not installed)
    newest: str = ""
    newest_error: str = ""
    also: dict[str, str] = field(default_factory=dict)
    unknown_events: list[str] = field(default_factory=list)  # shipped, adapter knows not
    left_alone: list[str] = field(default_factory=list)  # shipped, left alone on purpose
    why_left: str = ""
    new_events: list[str] = field(default_factory=list)
    gone_events: list[str] = field(default_factory=list)
    new_fields: dict[str, list[str]] = field(default_factory=dict)  # "input Event" -> fields
    gone_fields: dict[str, list[str]] = field(default_factory=dict)
    notes: dict[str, list[str]] = field(default_factory=dict)  # newer versions' hook lines
    problems: list[str] = field(default_factory=list)
    shipped_pin: str = ""  # what was read: "N events, inputs of M, answers of K"
    shipped_newest: str = ""
    cases: Cases | None = None
    not_run: str = ""  # why the cases did not run against the newest release
    seconds: float = 0.0

    @property
    def drifted(self) -> bool:
        failed = bool(self.cases and (self.cases.failed or self.cases.stopped))
        failed = failed or bool(self.cases and self.cases.against != self.newest)
        return bool(
            self.unknown_events
            or self.new_events
            or self.gone_events
            or self.new_fields
            or self.gone_fields
            or self.problems
            or self.newest_error
            or failed
            or (self.newest and self.newest != self.pin and self.cases is None)
        )


class Clock:
    def __init__(self, budget: float):
        self.end = time.monotonic() + budget

    def left(self, cap: float | None = None) -> float:
        left = max(0.0, self.end - time.monotonic())
        return left if cap is None else min(left, cap)


# --- the registry ----------------------------------------------------------------------


def newest_version(package: str, timeout: float, registry: str = "npm") -> tuple[str, str]:
    """(version, "") of the package's `latest` release, or ("", why not)."""
    if registry == "pypi":
        return _newest_on_pypi(package, timeout)
    try:
        res = subprocess.run(
            ["npm", "view", package, "version", "--no-update-notifier"],
            capture_output=True,
            text=True,
            timeout=max(1.0, timeout),
        )
    except (OSError, subprocess.TimeoutExpired) as exc:
        return "", f"npm view {package}: {type(exc).__name__}"
    version = res.stdout.strip().splitlines()[-1] if res.stdout.strip() else ""
    if res.returncode != 0 or not _VERSION.match(version):
        why = (res.stderr.strip().splitlines() or ["no version"])[-1]
        return "", f"npm view {package}: {why[:200]}"
    return version, ""


def _newest_on_pypi(package: str, timeout: float) -> tuple[str, str]:
    # Its wheels are for Python 3.12 (harness.CLIS): asked for them whatever runs this.
    argv = [sys.executable, "-m", "pip", "index", "versions", package, "--python-version"]
    argv += ["3.12", "--only-binary=:all:", "--disable-pip-version-check"]
    try:
        res = subprocess.run(argv, capture_output=True, text=True, timeout=max(1.0, timeout))
    except (OSError, subprocess.TimeoutExpired) as exc:
        return "", f"pip index versions {package}: {type(exc).__name__}"
    found = re.search(r"^\S+ \((\S+)\)", res.stdout, re.M)  # "mistral-vibe (3.0.3)"
    if res.returncode != 0 or not found or not _VERSION.match(found.group(1)):
        why = (res.stderr.strip().splitlines() or ["no version"])[-1]
        return "", f"pip index versions {package}: {why[:200]}"
    return found.group(1), ""


def unpack_wheel(package: str, version: str, prefix: Path, timeout: float) -> str:
    """Download package==version's wheel (no dependencies) and unpack it under
    prefix/wheel, where what it ships is read; "" when it is there."""
    import zipfile

    target = prefix / "wheel"
    if (target / ".done").exists():
        return ""
    prefix.mkdir(parents=True, exist_ok=True)
    argv = [sys.executable, "-m", "pip", "download", "-q", "--no-deps", "--only-binary=:all:"]
    argv += ["--python-version", "3.12", "-d", str(prefix), f"{package}=={version}"]
    try:
        res = run_bounded(argv, timeout, env=os.environ.copy())
    except subprocess.TimeoutExpired:
        return f"pip download {package}=={version}: not done in {timeout:.0f} s"
    wheels = sorted(prefix.glob("*.whl"))
    if res.returncode != 0 or not wheels:
        return f"pip download {package}=={version}: {(res.stderr.strip() or 'failed')[-300:]}"
    with zipfile.ZipFile(wheels[-1]) as wheel:
        wheel.extractall(target)
    (target / ".done").touch()
    return ""


def install(package: str, version: str, prefix: Path, timeout: float) -> str:
    """Install package@version under prefix/node_modules; "" when it is there."""
    manifest = prefix / "node_modules" / package / "package.json"
    if manifest.exists() and json.loads(manifest.read_text()).get("version") == version:
        return ""
    prefix.mkdir(parents=True, exist_ok=True)
    argv = ["npm", "install", "--prefix", str(prefix), "--no-audit", "--no-fund"]
    argv += ["--no-update-notifier", "--loglevel=error", f"{package}@{version}"]
    try:
        res = run_bounded(argv, timeout, env=os.environ.copy())
    except subprocess.TimeoutExpired:
        return f"npm install {package}@{version}: not done in {timeout:.0f} s"
    if res.returncode != 0:
        return f"npm install {package}@{version}: {(res.stderr.strip() or 'failed')[-300:]}"
    return ""


def run_bounded(argv: list[str], timeout: float, **kw) -> subprocess.CompletedProcess:
    """Run argv in a session of its own; on timeout kill that whole session, then raise."""
    proc = subprocess.Popen(
        argv,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
        **kw,
    )
    try:
        out, err = proc.communicate(timeout=max(1.0, timeout))
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.communicate()
        raise
    return subprocess.CompletedProcess(argv, proc.returncode, out, err)


# --- reading and comparing what a release ships ------------------------------------------


def read_shipped(row: Watched, modules: Path) -> Shipped:
    """What the package under `modules` ships (a PyPI CLI's: its venv's site-packages,
    or an unpacked wheel, `modules` naming either)."""
    package = _site_packages(row, modules) if row.registry == "pypi" else modules / row.package
    try:
        found = row.shipped(package)
    except Exception as exc:  # a package laid out otherwise: drift to report, not a crash
        found = Shipped(problems=[f"could not read {package}: {type(exc).__name__}: {exc}"])
    manifest = package / "package.json"
    if manifest.exists():
        found.version = json.loads(manifest.read_text()).get("version", "")
    dist = sorted(package.glob(f"{row.package.replace('-', '_')}-*.dist-info"))
    if row.registry == "pypi" and dist:
        found.version = dist[0].name.removesuffix(".dist-info").split("-")[-1]
    return found


def pinned_home(row: Watched) -> Path:
    """Where .ci/e2e-setup installed the pin: node_modules, or the PyPI CLIs' venvs."""
    return venvs() if row.registry == "pypi" else node_modules()


def _site_packages(row: Watched, where: Path) -> Path:
    found = sorted(where.glob(f"{row.cli}/lib/python*/site-packages"))
    return found[0] if found else where


def compare(finding: Finding, pinned: Shipped, latest: Shipped | None) -> None:
    from hooktui.tap.runtimes import ADAPTERS

    known = set(ADAPTERS[finding.runtime].events) if finding.runtime in ADAPTERS else set()
    finding.shipped_pin = _sizes(pinned)
    finding.shipped_newest = _sizes(latest) if latest else ""
    newest = latest or pinned
    finding.unknown_events = (
        sorted(newest.events - known - set(finding.left_alone)) if known else []
    )
    finding.problems += pinned.problems + (latest.problems if latest else [])
    if latest is None:
        return
    finding.new_events = sorted(latest.events - pinned.events)
    finding.gone_events = sorted(pinned.events - latest.events)
    for kind, before, after in (
        ("input", pinned.inputs, latest.inputs),
        ("output", pinned.outputs, latest.outputs),
    ):
        for event in sorted(set(before) | set(after)):
            added = after.get(event, set()) - before.get(event, set())
            removed = before.get(event, set()) - after.get(event, set())
            if added and event in before:
                finding.new_fields[f"{kind} {event}"] = sorted(added)
            if removed and event in after:
                finding.gone_fields[f"{kind} {event}"] = sorted(removed)
    finding.notes = {
        v: lines
        for v, lines in latest.notes.items()
        if _key(v) > _key(finding.pin) and v not in pinned.notes
    }


def _sizes(found: Shipped) -> str:
    if not found.events:
        return ""
    if not found.inputs and not found.outputs:
        return f"{len(found.events)} events (their fields: not in what it ships)"
    return (
        f"{len(found.events)} events, the request fields of {len(found.inputs)}, "
        f"the answer fields of {len(found.outputs)}"
    )


def _key(version: str) -> tuple[int, ...]:
    return tuple(int(p) for p in re.findall(r"\d+", version)[:3])


# --- running the cases against the newest release ----------------------------------------


def run_cases(row: Watched, modules: Path, timeout: float, select: str = "") -> Cases:
    """The row's e2e tests against the CLI installed in `modules`, time-boxed."""
    cases = Cases()
    out = modules.parent / f"outcomes-{row.cli}.jsonl"
    out.unlink(missing_ok=True)
    # A pytest of its own: not a worker of the one that may have started this.
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTEST_", "PYTEST_XDIST"))}
    env |= {
        "HOOKTUI_E2E": "1",
        "HOOKTUI_E2E_DRIFT": row.cli,
        "HOOKTUI_DRIFT_OUTCOMES": str(out),
    }
    if row.registry == "pypi":  # `modules`: the venvs folder; the npm CLIs stay pinned
        env |= {"HOOKTUI_E2E_VENVS": str(modules), "HOOKTUI_E2E_NODE_MODULES": str(node_modules())}
    else:
        env["HOOKTUI_E2E_NODE_MODULES"] = str(modules)
    env.setdefault("HOOKTUI_E2E_CACHE", str(node_modules().parent / "xdg-cache"))
    argv = [sys.executable, "-m", "pytest", *row.tests, "-p", "tests.e2e.drift_outcomes"]
    argv += ["-p", "no:cacheprovider", "-q", "--no-header", "-o", "console_output_style=classic"]
    if select:
        argv += ["-k", select]
    start = time.monotonic()
    try:
        res = run_bounded(argv, timeout, env=env, cwd=REPO)
        if res.returncode not in (0, 1):  # 1: tests failed, which the outcomes say
            tail = (res.stdout + res.stderr).strip().splitlines()[-3:]
            cases.stopped = f"pytest exited {res.returncode}: {' / '.join(tail)[:400]}"
    except subprocess.TimeoutExpired:
        cases.stopped = f"stopped at its time box ({timeout:.0f} s): the cases below ran"
    cases.seconds = time.monotonic() - start
    for line in out.read_text().splitlines() if out.exists() else []:
        entry = json.loads(line)
        if "against" in entry:
            cases.against = entry["against"].get(row.cli, "")
        elif entry["outcome"] == "passed":
            cases.passed += 1
        elif entry["outcome"] == "skipped":
            cases.skipped += 1
            if entry["message"] and entry["message"] not in cases.skips:
                cases.skips.append(entry["message"])
        else:
            cases.failed.append({"test": entry["test"], "message": entry["message"]})
    return cases


# --- one runtime -------------------------------------------------------------------------


def check(row: Watched, clock: Clock, drift_dir: Path, opts: argparse.Namespace) -> Finding:
    start = time.monotonic()
    cli = CLIS[row.cli]
    finding = Finding(row.cli, row.runtime, row.package, cli.pin)
    finding.left_alone, finding.why_left = list(row.left_alone), row.why_left
    finding.installed_pin = cli_version(row.cli) or ""
    forced = dict(v.split("=", 1) for v in opts.newest)
    if row.cli in forced:
        finding.newest = forced[row.cli]
    else:
        finding.newest, finding.newest_error = newest_version(
            row.package, clock.left(60), row.registry
        )
    for package in row.also:
        version, _ = newest_version(package, clock.left(60))
        finding.also[package] = version or "?"
    home = pinned_home(row)
    pinned = read_shipped(row, home) if finding.installed_pin == cli.pin else None
    if pinned is None:
        finding.problems.append(f"the pin {cli.pin} is not installed under {home} (.ci/e2e-setup)")
        pinned = Shipped()
    latest = None
    if finding.newest and finding.newest != cli.pin:
        modules = _newest_install(row, finding, clock, drift_dir, opts)
        if modules is not None and finding.not_run:  # read from its wheel: no venv to run
            latest = read_shipped(row, modules)
        elif modules is not None:
            latest = read_shipped(row, modules)
            left = clock.left(opts.per_runtime)
            if left < 30:
                finding.not_run = "out of time (the report's budget is spent)"
            else:
                finding.cases = run_cases(row, modules, left, opts.cases)
    elif finding.newest:
        finding.not_run = "the newest release is the pin: the suite ran its cases against it"
    compare(finding, pinned, latest)
    finding.seconds = time.monotonic() - start
    return finding


def _newest_install(
    row: Watched, finding: Finding, clock: Clock, drift_dir: Path, opts: argparse.Namespace
) -> Path | None:
    given = dict(v.split("=", 1) for v in opts.installed)
    if row.cli in given:
        return Path(given[row.cli])
    prefix = drift_dir / row.cli
    if row.registry == "pypi":
        error = drift_venv.install(row.cli, finding.newest, prefix, clock.left(300), run_bounded)
        if not error:
            return prefix / "venvs"
        # No venv (no Python 3.12, or pip could not install it): what it ships is
        # still read, from its wheel; its cases do not run.
        finding.not_run = f"not run: its venv was not made ({error})"
        error = unpack_wheel(row.package, finding.newest, prefix, clock.left(300))
        if error:
            finding.not_run += f"; {error}"
            return None
        return prefix / "wheel"
    error = install(row.package, finding.newest, prefix, clock.left(600))
    if error:
        finding.not_run = error
        return None
    return prefix / "node_modules"


# --- the report --------------------------------------------------------------------------


def render(findings: list[Finding], seconds: float) -> str:
    drifted = [f for f in findings if f.drifted]
    lines = [
        f"# Drift report ({time.strftime('%Y-%m-%d')}): newest releases beside the pins",
        "",
        "| runtime | pin | newest | shipped events hooktui does not know | cases | drift |",
        "|---|---|---|---|---|---|",
    ]
    for f in findings:
        cases = _cases_cell(f)
        unknown = ", ".join(f.unknown_events) or "none"
        newest = f.newest or f"? ({f.newest_error})"
        lines.append(
            f"| {f.cli} | {f.pin} | {newest} | {unknown} | {cases} | "
            f"{'**yes**' if f.drifted else 'no'} |"
        )
    for f in findings:
        lines += ["", f"## {f.cli} (`{f.package}`): pin {f.pin}, newest {f.newest or '?'}"]
        lines += _details(f)
    lines += [
        "",
        f"{len(drifted)} of {len(findings)} runtimes drifted; made in {seconds:.0f} s.",
    ]
    return "\n".join(lines) + "\n"


def _cases_cell(f: Finding) -> str:
    if f.cases is None:
        return "not run" if f.newest != f.pin else "= pin"
    c = f.cases
    cell = f"{c.passed} passed, {len(c.failed)} failed, {c.skipped} skipped"
    return cell + (" (stopped)" if c.stopped else "")


def _details(f: Finding) -> list[str]:
    out = [f"- the pin ships {f.shipped_pin}" if f.shipped_pin else "- the pin ships: not read"]
    if f.shipped_newest:
        out.append(f"- {f.newest} ships {f.shipped_newest}")
    for package, version in f.also.items():
        out.append(f"- `{package}` newest: {version}")
    if f.installed_pin and f.installed_pin != f.pin:
        out.append(f"- installed pin folder holds {f.installed_pin}, not {f.pin}")
    if f.unknown_events:
        out.append(
            f"- events its package ships that the `{f.runtime}` adapter does not know: "
            + ", ".join(f.unknown_events)
        )
    if f.left_alone:
        out.append(f"- left alone on purpose ({f.why_left}): " + ", ".join(f.left_alone))
    if f.new_events:
        out.append("- new events since the pin: " + ", ".join(f.new_events))
    if f.gone_events:
        out.append("- events gone since the pin: " + ", ".join(f.gone_events))
    for where, names in f.new_fields.items():
        out.append(f"- new {where} fields: " + ", ".join(names))
    for where, names in f.gone_fields.items():
        out.append(f"- {where} fields gone: " + ", ".join(names))
    for version, notes in sorted(f.notes.items(), key=lambda kv: _key(kv[0])):
        out.append(f"- release notes {version}, hook lines:")
        out += [f"  - {line}" for line in notes] or ["  - (none)"]
    for problem in f.problems:
        out.append(f"- problem: {problem}")
    if f.not_run:
        out.append(f"- cases: {f.not_run}")
    if f.cases is not None:
        c = f.cases
        out.append(f"- cases against {f.newest}: {_cases_cell(f)} in {c.seconds:.0f} s")
        if c.against != f.newest:
            out.append(f"  - but the tests found {c.against or 'no release'} installed")
        if c.stopped:
            out.append(f"  - {c.stopped}")
        for failure in c.failed:
            kind = "record" if "record" in failure["test"] else "behaviour"
            out.append(f"  - {kind}: `{failure['test']}`: {failure['message']}")
        if not c.passed and not c.failed:
            out += [f"  - skipped: {why}" for why in c.skips[:3]]
    return out


# --- the command -------------------------------------------------------------------------


def parse_args(argv: list[str]) -> argparse.Namespace:
    ap = argparse.ArgumentParser(
        prog="python -m tests.e2e.drift", description=__doc__.split("\n")[0]
    )
    ap.add_argument("--runtime", action="append", default=[], help="a CLI of drift_table.WATCHED")
    ap.add_argument("--budget", type=float, default=600, help="seconds for the whole report")
    ap.add_argument("--per-runtime", type=float, default=300, help="seconds of cases per runtime")
    ap.add_argument("--dir", type=Path, default=None, help="where newest releases are installed")
    ap.add_argument("--report", type=Path, help="also write the report here")
    ap.add_argument("--json", type=Path, help="write the findings as JSON here")
    ap.add_argument(
        "--newest",
        action="append",
        default=[],
        metavar="CLI=VERSION",
        help="take VERSION as the newest release (no registry question)",
    )
    ap.add_argument(
        "--installed",
        action="append",
        default=[],
        metavar="CLI=NODE_MODULES",
        help="the newest release is already installed in NODE_MODULES",
    )
    ap.add_argument("--cases", default="", metavar="EXPR", help="only cases matching (pytest -k)")
    return ap.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    opts = parse_args(sys.argv[1:] if argv is None else argv)
    rows = {row.cli: row for row in WATCHED}
    unknown = [name for name in opts.runtime if name not in rows]
    for value in (*opts.newest, *opts.installed):
        name = value.split("=", 1)[0]
        if "=" not in value or name not in rows:
            unknown.append(value)
    if unknown:
        print(
            f"drift: not a watched CLI (or not CLI=VALUE): {', '.join(unknown)} "
            f"(watched: {', '.join(rows)})",
            file=sys.stderr,
        )
        return 2
    chosen = [rows[name] for name in opts.runtime] or list(WATCHED)
    drift_dir = opts.dir or node_modules().parent / "drift"
    clock = Clock(opts.budget)
    start = time.monotonic()
    findings = []
    for row in chosen:
        if clock.left() < 5:
            finding = Finding(row.cli, row.runtime, row.package, CLIS[row.cli].pin)
            finding.not_run = "out of time (the report's budget is spent)"
            finding.problems.append("not checked: out of time")
            findings.append(finding)
            continue
        findings.append(check(row, clock, drift_dir, opts))
    report = render(findings, time.monotonic() - start)
    print(report, end="")
    if opts.report:
        opts.report.parent.mkdir(parents=True, exist_ok=True)
        opts.report.write_text(report)
    if opts.json:
        opts.json.parent.mkdir(parents=True, exist_ok=True)
        opts.json.write_text(json.dumps([asdict(f) for f in findings], indent=1) + "\n")
    return 1 if any(f.drifted for f in findings) else 0


if __name__ == "__main__":
    sys.exit(main())
