"""The drift report's PyPI side: a release of a PyPI CLI (Mistral Vibe) installed into
a venv of its own beside the pinned one, so its e2e cases run against it.

As .ci/e2e-setup installs the pin: a venv on Python 3.12 (its wheels are cp312),
named after the harness key under `<prefix>/venvs` (what HOOKTUI_E2E_VENVS points
at for its cases). The release is installed as pip resolves it; when pip cannot (the
pin 3.0.3 names certifi==2026.10.19, which the registry has only as
2026.10.19.post1), its wheel's own requirements go in without resolving, each exact
pin allowed its post-releases, then the wheel.
"""

from __future__ import annotations

import fcntl
import re
import shutil
import subprocess
import tempfile
import time
import zipfile
from collections.abc import Callable
from pathlib import Path

from tests.e2e.harness import CLIS, unshare_argv

Run = Callable[..., subprocess.CompletedProcess]
_EXACT = re.compile(r"==\s*([0-9][0-9A-Za-z.]*)\s*(;|$)")


def python312() -> str:
    """A Python 3.12 that runs: the newest pyenv build, else one on PATH ("" when none)."""
    builds = sorted(Path.home().glob(".pyenv/versions/3.12.*/bin/python3.12"), reverse=True)
    for candidate in [*map(str, builds), "python3.12"]:
        try:
            probe = subprocess.run(
                [candidate, "-c", "import sys; assert sys.version_info[:2] == (3, 12)"],
                capture_output=True,
                timeout=30,
            )
        except (OSError, subprocess.TimeoutExpired):
            continue
        if probe.returncode == 0:
            return candidate
    return ""


def installed(venv: Path, package: str) -> str:
    """The version of `package` in `venv` ("" when it holds none)."""
    dist = package.replace("-", "_")
    found = sorted(venv.glob(f"lib/python*/site-packages/{dist}-*.dist-info"))
    return found[0].name.removesuffix(".dist-info").split("-")[-1] if found else ""


def install(cli: str, version: str, prefix: Path, timeout: float, run: Run) -> str:
    """Install CLI `cli` (a PyPI one of harness.CLIS) at `version` into
    prefix/venvs/<cli>; "" when it is there and runs its program, else why not.
    `run(argv, timeout, env=...)` runs a step in a session of its own, killed at its
    timeout (drift.run_bounded)."""
    end = time.monotonic() + timeout
    prefix.mkdir(parents=True, exist_ok=True)
    with open(prefix / ".lock", "w") as lock:
        # One install at a time into one venv (two test runs on one machine share the
        # cache): the second waits for the first, then finds the release there.
        while True:
            try:
                fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                if time.monotonic() > end:
                    return f"another install into {prefix} held it past the time box"
                time.sleep(0.5)
        return _install(cli, version, prefix / "venvs" / cli, _Steps(run, end))


def _install(cli: str, version: str, venv: Path, steps: _Steps) -> str:
    package, program = CLIS[cli].package, CLIS[cli].program
    if installed(venv, package) == version and runs(venv / program, steps.run):
        return ""
    python = python312()
    if not python:
        return "no Python 3.12 here for its cp312 wheel"
    run = steps.run
    shutil.rmtree(venv, ignore_errors=True)
    pip = [str(venv / "bin" / "python"), "-m", "pip", "-q", "--disable-pip-version-check"]
    error = steps.do([python, "-m", "venv", str(venv)], "python3.12 -m venv")
    error = error or steps.do([*pip, "install", f"{package}=={version}"], "pip install")
    if error and "not done in" not in error:
        error = _without_resolving(pip, package, version, steps, error)
    if error:
        return error
    if installed(venv, package) != version or not runs(venv / program, run):
        return f"pip install {package}=={version}: {venv / program} does not run after it"
    return ""


def runs(program: Path, run: Run) -> bool:
    """Does `program --version` run (offline, when a network namespace can be had)? A
    venv moved from where it was made does not (its scripts name its old python)."""
    if not program.exists():
        return False
    try:
        return run([*(unshare_argv() or []), str(program), "--version"], 120).returncode == 0
    except subprocess.TimeoutExpired:
        return False


class _Steps:
    def __init__(self, run: Run, end: float):
        self.run, self.end = run, end

    def do(self, argv: list[str], what: str) -> str:
        left = self.end - time.monotonic()
        if left < 1:
            return f"{what}: out of time"
        try:
            res = self.run(argv, left)
        except subprocess.TimeoutExpired:
            return f"{what}: not done in its time box"
        if res.returncode != 0:
            return f"{what}: {(res.stderr.strip() or 'failed')[-300:]}"
        return ""


def _without_resolving(pip: list[str], package: str, version: str, steps: _Steps, why: str) -> str:
    """The wheel's own requirements, each exact pin allowed its post-releases, without
    resolving; then the wheel. "" when that worked, else both reasons."""
    with tempfile.TemporaryDirectory() as tmp:
        error = steps.do(
            [*pip, "download", "--no-deps", "-d", tmp, f"{package}=={version}"], "pip download"
        )
        wheels = sorted(Path(tmp).glob("*.whl"))
        if error or not wheels:
            return f"{why}; then {error or 'no wheel'}"
        requirements = Path(tmp) / "requirements.txt"
        requirements.write_text("\n".join(requires(wheels[0])) + "\n")
        error = steps.do([*pip, "install", "--no-deps", "-r", str(requirements)], "pip install -r")
        error = error or steps.do([*pip, "install", "--no-deps", str(wheels[0])], "pip install")
    return f"{why}; then without resolving: {error}" if error else ""


def requires(wheel: Path) -> list[str]:
    """A wheel's requirements outside its extras, an exact `==V` written `==V.*` (which
    admits V's post-releases, as the registry may hold only those)."""
    with zipfile.ZipFile(wheel) as z:
        meta = next(n for n in z.namelist() if n.endswith(".dist-info/METADATA"))
        lines = z.read(meta).decode().splitlines()
    found = []
    for line in lines:
        if line.startswith("Requires-Dist: ") and "extra ==" not in line:
            spec = line.removeprefix("Requires-Dist: ")
            found.append(_EXACT.sub(lambda m: f"=={m.group(1)}.*{m.group(2) and ' ;'}", spec))
    return found
