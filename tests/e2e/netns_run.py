"""Run one agent CLI against a fake model server, both inside a loopback-only namespace.

Started by the test as `unshare -n python netns_run.py SPEC.json`. The new
network namespace holds nothing but `lo`, so the CLI, its hooks and the fake
server can reach 127.0.0.1 and nothing else; the port is private to the
namespace, so the test picks it up front with no race. Results go to files
named in the spec (stdlib only: this runs outside pytest).
"""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

# The repository root: the fake server is tests.e2e.fake_models (stdlib only).
sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from tests.e2e.fake_models import FakeModelServer  # noqa: E402


def _fail(result_path: str, message: str) -> int:
    Path(result_path).write_text(json.dumps({"error": message}))
    sys.stderr.write(f"netns_run: {message}\n")
    return 3


def _interrupt_later(proc: subprocess.Popen, seconds: float) -> None:
    def send() -> None:
        if proc.poll() is None:
            os.kill(proc.pid, signal.SIGINT)

    timer = threading.Timer(seconds, send)
    timer.daemon = True
    timer.start()


def _feed_later(proc: subprocess.Popen, feed: list[dict], cwd: str, deadline: float) -> None:
    """Write each step's text to the CLI's stdin once its `wait_for` file (relative to
    the cwd) exists, then wait `then` seconds; close stdin after the last step (a client
    of stream-json input that sends a request mid-turn, then hangs up)."""

    def run() -> None:
        try:
            for step in feed:
                path = Path(cwd, step["wait_for"]) if step.get("wait_for") else None
                while path is not None and not path.exists() and time.time() < deadline:
                    if proc.poll() is not None:
                        return
                    time.sleep(0.05)
                proc.stdin.write(step["text"].encode())
                proc.stdin.flush()
                time.sleep(float(step.get("then", 0)))
        except (BrokenPipeError, OSError):
            pass
        finally:
            try:
                proc.stdin.close()
            except OSError:
                pass

    threading.Thread(target=run, daemon=True).start()


def main(spec_path: str) -> int:
    spec = json.loads(Path(spec_path).read_text())
    result_path = spec["result"]
    # Refuse to run anywhere but a fresh namespace: only `lo` may exist.
    names = sorted(name for _, name in socket.if_nameindex())
    if names != ["lo"]:
        return _fail(result_path, f"not in a loopback-only namespace (interfaces: {names})")
    subprocess.run(["ip", "link", "set", "lo", "up"], check=True, timeout=60)

    server = FakeModelServer(spec["port"], spec["runtime"], spec["script"], spec["requests_log"])
    server.start()
    env = {k: str(v) for k, v in spec["env"].items()}
    # The CLI's stdin: nothing, or the text the spec gives (stream-json input).
    stdin = subprocess.DEVNULL
    if spec.get("stdin_feed"):
        stdin = subprocess.PIPE
    elif spec.get("stdin") is not None:
        stdin_path = Path(spec["result"]).with_name("stdin.txt")
        stdin_path.write_text(spec["stdin"])
        stdin = open(stdin_path, "rb")  # noqa: SIM115 (the child holds it)
    try:
        proc = subprocess.Popen(
            spec["argv"],
            cwd=spec["cwd"],
            env=env,
            stdin=stdin,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            start_new_session=True,
        )
    except OSError as exc:
        return _fail(result_path, f"could not start {spec['argv'][0]}: {exc}")
    started = time.time()
    timed_out = False
    if spec.get("interrupt_after"):  # a user pressing Ctrl-C mid-turn
        _interrupt_later(proc, float(spec["interrupt_after"]))
    if spec.get("stdin_feed"):
        _feed_later(proc, spec["stdin_feed"], spec["cwd"], started + spec.get("timeout", 120))
    try:
        if spec.get("stdin_feed"):  # stdin is the feeder's: read the rest only
            out, err = _communicate_out(proc, spec.get("timeout", 120))
        else:
            out, err = proc.communicate(timeout=spec.get("timeout", 120))
    except subprocess.TimeoutExpired:
        timed_out = True
        os.killpg(proc.pid, signal.SIGKILL)
        out, err = proc.communicate(timeout=60)
    server.shutdown()
    Path(result_path).write_text(
        json.dumps(
            {
                "exit_code": proc.returncode,
                "timed_out": timed_out,
                "started": started,
                "ended": time.time(),
                "stdout": out.decode("utf-8", "replace"),
                "stderr": err.decode("utf-8", "replace"),
            }
        )
    )
    return 0


def _communicate_out(proc: subprocess.Popen, timeout: float) -> tuple[bytes, bytes]:
    """communicate() without touching stdin (another thread writes and closes it)."""
    chunks: dict[str, bytes] = {}

    def drain(name: str, stream) -> None:
        chunks[name] = stream.read()

    readers = [
        threading.Thread(target=drain, args=(n, s), daemon=True)
        for n, s in (("out", proc.stdout), ("err", proc.stderr))
    ]
    for reader in readers:
        reader.start()
    proc.wait(timeout=timeout)
    for reader in readers:
        reader.join(timeout=10)
    return chunks.get("out", b""), chunks.get("err", b"")


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
