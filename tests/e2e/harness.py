"""Test-side harness: find the pinned CLIs, lay out a sandbox, run a CLI in it.

A sandbox is one temp folder holding everything a run touches: HOME, the
CLI's config dir, the project (its cwd), the scripted hook's answers and its
call log, the fake model's request log. `run()` starts the CLI under
`unshare -n` with the fake model server beside it (netns_run.py), so no run
can reach anything but 127.0.0.1.
"""

from __future__ import annotations

import functools
import json
import os
import shlex
import shutil
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tests.conftest import HOOKTUI

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
HOOK_SCRIPT = HERE / "hook.py"
LAUNCHER = HERE / "netns_run.py"

# Any port will do: each run has its own network namespace, so nothing else
# can hold it and the test knows it before the server starts.
PORT = 38517


@dataclass(frozen=True)
class Cli:
    """One pinned CLI: its package, its version, the program to run (relative to
    node_modules, or for a PyPI package to its own venv under venvs())."""

    package: str
    pin: str
    program: str
    registry: str = "npm"  # or "pypi"


CLIS = {
    # The platform package: its file `claude` runs as it is (the npm wrapper skipped
    # 2.1.333-2.1.336; 2.1.337 is on both).
    "claude-code": Cli(
        "@anthropic-ai/claude-code-linux-x64",
        "2.1.337",
        "@anthropic-ai/claude-code-linux-x64/claude",
    ),
    "codex": Cli("@openai/codex", "0.171.0", ".bin/codex"),
    "gemini-cli": Cli("@google/gemini-cli", "0.61.0", ".bin/gemini"),
    "copilot": Cli("@github/copilot", "1.0.102", ".bin/copilot"),
    "qwen-code": Cli("@qwen-code/qwen-code", "0.24.4", ".bin/qwen"),
    # Run with `node` (it declares Node 20+); its hook runner is driven from its sources.
    "continue-cli": Cli("@continuedev/cli", "1.5.47", "@continuedev/cli/dist/cn.js"),
    "cline": Cli("cline", "3.0.65", ".bin/cline"),
    "opencode": Cli("opencode-ai", "1.18.33", ".bin/opencode"),
    # A cp312 wheel: its own venv on Python 3.12 (.ci/e2e-setup makes it).
    "mistral-vibe": Cli("mistral-vibe", "3.0.3", "bin/vibe", registry="pypi"),
    # The first pin, kept to show where 2.1.332 changed (ORACLE.md); installed only
    # on request (`.ci/e2e-setup --with-old`), under an npm alias.
    "claude-code@2.1.197": Cli(
        "@anthropic-ai/claude-code-197", "2.1.197", "@anthropic-ai/claude-code-197/bin/claude.exe"
    ),
}
# The CLIs CI installs (.ci/e2e-setup): every one but the old pin.
CURRENT = tuple(name for name in CLIS if "@" not in name)


def node_modules() -> Path:
    return Path(os.environ.get("HOOKTUI_E2E_NODE_MODULES") or REPO / ".ci-e2e" / "node_modules")


def venvs() -> Path:
    """Where the PyPI CLIs live, one venv each (named after the harness key)."""
    return Path(os.environ.get("HOOKTUI_E2E_VENVS") or node_modules().parent / "venvs")


def cli_path(name: str) -> Path:
    cli = CLIS[name]
    if cli.registry == "pypi":
        return venvs() / name / cli.program
    return node_modules() / cli.program


def cli_version(name: str) -> str | None:
    cli = CLIS[name]
    if cli.registry == "pypi":  # the installed distribution's own record
        found = sorted((venvs() / name).glob(f"lib/python*/site-packages/{_dist(cli)}-*.dist-info"))
        return found[0].name.removesuffix(".dist-info").split("-")[-1] if found else None
    manifest = node_modules() / cli.package / "package.json"
    if not manifest.exists():
        return None
    return json.loads(manifest.read_text()).get("version")


def _dist(cli: Cli) -> str:
    """A distribution's name as its .dist-info folder spells it."""
    return cli.package.replace("-", "_")


def skip_reason(name: str) -> str | None:
    """Why the e2e test for CLI `name` cannot run here, or None when it can."""
    if os.environ.get("HOOKTUI_E2E") != "1":
        return "end-to-end tests against the real CLIs run only with HOOKTUI_E2E=1"
    cli = CLIS[name]
    version = cli_version(name)
    if not cli_path(name).exists() or version is None:
        flag = " --with-old" if name not in CURRENT else ""
        where = venvs() / name if cli.registry == "pypi" else node_modules()
        return f"{cli.package} is not installed under {where} (run .ci/e2e-setup{flag})"
    if version != cli.pin and name not in drifting():
        return f"{cli.package} {version} found, the tests are pinned to {cli.pin}"
    if shutil.which("unshare") is None or shutil.which("ip") is None:
        return "needs `unshare` and `ip` to keep the CLI on loopback"
    if unshare_argv() is None:
        return "cannot create a network namespace here (`unshare -n` needs root or user namespaces)"
    return None


def drifting() -> tuple[str, ...]:
    """The CLIs whose tests run against whatever version is installed, not the pin:
    the drift report (drift.py) runs a newer release's cases this way."""
    return tuple(filter(None, os.environ.get("HOOKTUI_E2E_DRIFT", "").split(",")))


@functools.cache
def unshare_argv() -> list[str] | None:
    """How to start a process in a new, empty network namespace here, if at all.

    As root, `unshare -n`; otherwise a user namespace mapped to root (`-r`), where
    the kernel allows unprivileged ones.
    """
    for argv in (["unshare", "-n"], ["unshare", "-r", "-n"]):
        probe = subprocess.run(
            [*argv, "ip", "link", "set", "lo", "up"],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            timeout=60,
        )
        if probe.returncode == 0:
            return argv
    return None


def hook_command(hook_dir: Path, name: str) -> str:
    """The bare hook, as a user would configure it: a shell command line."""
    return shlex.join([sys.executable, str(HOOK_SCRIPT), str(hook_dir), name])


def hooktui(
    *args: str, env: dict[str, str] | None = None, cwd: Path | None = None
) -> subprocess.CompletedProcess:
    return subprocess.run(
        [HOOKTUI, *args],
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ, **(env or {})},
        cwd=cwd,
    )


@dataclass
class Run:
    exit_code: int | None
    timed_out: bool
    stdout: str
    stderr: str
    requests: list[dict[str, Any]]
    hook_calls: dict[str, list[dict[str, Any]]] = field(default_factory=dict)

    def of_kind(self, kind: str) -> list[dict[str, Any]]:
        return [r for r in self.requests if r["kind"] == kind]

    def describe(self) -> str:
        kinds = [r["kind"] for r in self.requests]
        return (
            f"exit={self.exit_code} timed_out={self.timed_out} requests={kinds}\n"
            f"stdout: {self.stdout[-2000:]}\nstderr: {self.stderr[-2000:]}"
        )


class Sandbox:
    """One temp folder per test; `fresh_run_dirs()` resets what a run may change."""

    def __init__(self, root: Path):
        self.root = root
        self.hooks = root / "hooks"  # answers + call logs of the scripted hook
        self.home = root / "home"
        self.project = root / "project"
        self.stream = root / "stream.jsonl"
        self.hooks.mkdir(parents=True, exist_ok=True)

    def answer(
        self,
        name: str,
        stdout: str = "",
        stderr: str = "",
        exit: int = 0,
        sleep: float = 0,
        **more: Any,
    ) -> None:
        """The scripted hook's answer (hook.py: `signal`, `once` and `by_tag` too)."""
        answer = {"stdout": stdout, "stderr": stderr, "exit": exit, "sleep": sleep, **more}
        (self.hooks / f"{name}.answer.json").write_text(json.dumps(answer))

    def fresh_run_dirs(self) -> None:
        """Empty HOME and project (markers, config) and the hook call logs."""
        for d in (self.home, self.project):
            shutil.rmtree(d, ignore_errors=True)
            d.mkdir(parents=True)
        for log in self.hooks.glob("*.calls.jsonl"):
            log.unlink()

    def hook_calls(self) -> dict[str, list[dict[str, Any]]]:
        calls = {}
        for log in sorted(self.hooks.glob("*.calls.jsonl")):
            name = log.name.removesuffix(".calls.jsonl")
            calls[name] = [json.loads(line) for line in log.read_text().splitlines()]
        return calls

    def run(
        self,
        name: str,
        runtime: str,
        argv: list[str],
        env: dict[str, str],
        script: dict[str, Any],
        timeout: float = 120,
        stdin: str | None = None,
        interrupt_after: float | None = None,
        stdin_feed: list[dict[str, Any]] | None = None,
    ) -> Run:
        run_dir = self.root / "runs" / name
        shutil.rmtree(run_dir, ignore_errors=True)
        run_dir.mkdir(parents=True)
        spec = {
            "runtime": runtime,
            "port": PORT,
            "script": script,
            "requests_log": str(run_dir / "requests.jsonl"),
            "result": str(run_dir / "result.json"),
            "argv": argv,
            "env": env,
            "cwd": str(self.project),
            "timeout": timeout,
            "stdin": stdin,
            "interrupt_after": interrupt_after,
            "stdin_feed": stdin_feed,  # netns_run._feed_later: text sent mid-run
        }
        spec_path = run_dir / "spec.json"
        spec_path.write_text(json.dumps(spec, indent=1))
        unshare = unshare_argv()
        assert unshare is not None, "no network namespace: the test should have been skipped"
        proc = subprocess.run(
            [*unshare, sys.executable, str(LAUNCHER), str(spec_path)],
            capture_output=True,
            text=True,
            timeout=timeout + 30,
        )
        result_file = run_dir / "result.json"
        if not result_file.exists():
            raise AssertionError(f"the launcher wrote no result: {proc.stderr}")
        result = json.loads(result_file.read_text())
        if "error" in result:
            raise AssertionError(f"launcher: {result['error']}")
        log = run_dir / "requests.jsonl"
        requests = [json.loads(x) for x in log.read_text().splitlines()] if log.exists() else []
        return Run(
            exit_code=result["exit_code"],
            timed_out=result["timed_out"],
            stdout=result["stdout"],
            stderr=result["stderr"],
            requests=requests,
            hook_calls=self.hook_calls(),
        )


def base_env(home: Path) -> dict[str, str]:
    """A minimal environment: no proxies, no credentials, nothing from the caller's HOME."""
    node_dir = str(Path(shutil.which("node") or "/usr/bin/node").parent)
    path = os.pathsep.join(dict.fromkeys([node_dir, "/usr/local/bin", "/usr/bin", "/bin"]))
    return {
        "PATH": path,
        "HOME": str(home),
        "XDG_CONFIG_HOME": str(home / ".config"),
        "XDG_CACHE_HOME": str(home / ".cache"),
        "XDG_STATE_HOME": str(home / ".local" / "state"),
        "XDG_DATA_HOME": str(home / ".local" / "share"),
        "LANG": "C.UTF-8",
        "TERM": "dumb",
        "NO_COLOR": "1",
        "CI": "1",
    }
