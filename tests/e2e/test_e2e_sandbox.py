"""The e2e sandbox itself: the switch, and the loopback-only network every CLI runs in."""

from __future__ import annotations

import errno
import json
import os
import socket
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from tests.e2e import harness
from tests.e2e.harness import LAUNCHER, PORT, Sandbox


def test_without_the_switch_the_e2e_tests_skip_and_say_why(monkeypatch) -> None:
    monkeypatch.delenv("HOOKTUI_E2E", raising=False)
    for name in harness.CLIS:
        assert "HOOKTUI_E2E=1" in harness.skip_reason(name)


def test_missing_clis_skip_with_the_setup_command(monkeypatch, tmp_path: Path) -> None:
    monkeypatch.setenv("HOOKTUI_E2E", "1")
    monkeypatch.setenv("HOOKTUI_E2E_NODE_MODULES", str(tmp_path / "node_modules"))
    for name in harness.CLIS:
        reason = harness.skip_reason(name)
        assert reason is not None and ".ci/e2e-setup" in reason


def test_a_run_reaches_loopback_only(tmp_path: Path) -> None:
    """Inside the launcher's namespace the fake server answers and nothing else routes."""
    sb = Sandbox(tmp_path)
    sb.fresh_run_dirs()
    probe = textwrap.dedent(
        f"""\
        import json, socket, urllib.request
        out = {{"interfaces": [name for _, name in socket.if_nameindex()]}}
        head = urllib.request.Request("http://127.0.0.1:{PORT}/", method="HEAD")
        out["loopback"] = urllib.request.urlopen(head, timeout=5).status
        s = socket.socket()
        s.settimeout(5)
        try:
            s.connect(("192.0.2.1", 80))  # TEST-NET-1: routed nowhere, even outside
            out["outside"] = "connected"
        except OSError as exc:
            out["outside"] = exc.errno
        print(json.dumps(out))
        """
    )
    run = sb.run(
        "probe",
        "claude-code",
        [sys.executable, "-c", probe],
        {"PATH": os.environ.get("PATH", "/usr/bin:/bin")},
        {"tool": "Bash", "tool_input": {}},
        timeout=30,
    )
    assert run.exit_code == 0, run.describe()
    out = json.loads(run.stdout)
    assert out["interfaces"] == ["lo"]
    assert out["loopback"] == 200  # the fake server is there
    assert out["outside"] == errno.ENETUNREACH  # no route out of the namespace
    assert [r["kind"] for r in run.requests] == ["head"]


def test_the_launcher_refuses_to_run_outside_a_namespace(tmp_path: Path) -> None:
    """Run directly (no `unshare -n`), the launcher sees real interfaces and stops."""
    interfaces = [name for _, name in socket.if_nameindex()]
    if interfaces == ["lo"]:
        pytest.skip("this machine itself has only loopback")
    result = tmp_path / "result.json"
    spec = {
        "runtime": "claude-code",
        "port": PORT,
        "script": {},
        "requests_log": str(tmp_path / "requests.jsonl"),
        "result": str(result),
        "argv": ["true"],
        "env": {},
        "cwd": str(tmp_path),
    }
    (tmp_path / "spec.json").write_text(json.dumps(spec))
    proc = subprocess.run(
        [sys.executable, str(LAUNCHER), str(tmp_path / "spec.json")],
        capture_output=True,
        timeout=60,
    )
    assert proc.returncode != 0
    assert "not in a loopback-only namespace" in json.loads(result.read_text())["error"]
    assert not (tmp_path / "requests.jsonl").exists()
