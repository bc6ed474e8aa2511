"""While a dashboard may hold calls, a failure in offering one never loses the answer.

With a dashboard's socket in place the tap keeps the hook's output until the
dashboard has had its say (tap/hold/client.py). A hook run in a directory that
has since been deleted (the runtime's worktree removed under it) made building
the offer raise (getcwd: ENOENT) in the tap after the hook had answered: the
tap died with a traceback and the runtime got nothing of the denying answer.
"""

from __future__ import annotations

import json
import subprocess
import sys

from hooktui.tap.hold.server import HoldServer

from tests.conftest import HOOKTUI, wait_for_records
from tests.hold_helpers import REQUEST, private_runtime_dir

DENY = ["sh", "-c", 'cat >/dev/null; echo \'{"decision": "block"}\'; echo why >&2; exit 2']
# The caller enters a directory and deletes it, then runs the command there.
IN_A_DELETED_DIR = ["sh", "-c", 'cd "$1" && rmdir "$1" && shift && exec "$@"', "sh"]


def test_a_failure_to_offer_the_call_sends_the_hooks_own_answer(tmp_path, monkeypatch):
    runtime_dir = private_runtime_dir()
    monkeypatch.setenv("XDG_RUNTIME_DIR", runtime_dir)
    server = HoldServer()
    server.set_breakpoint("tool:Bash")  # the call's tool: it would be held
    stream = tmp_path / "s.jsonl"
    line = [sys.executable, "-I", "-S", "-X", "utf8", HOOKTUI, "tap", "--stream", str(stream)]
    results = []
    try:
        for n, argv in enumerate((DENY, [*line, "--", *DENY])):
            where = tmp_path / f"gone{n}"
            where.mkdir()
            done = subprocess.run(
                [*IN_A_DELETED_DIR, str(where), *argv],
                input=json.dumps(REQUEST).encode(),
                capture_output=True,
                timeout=60,
            )
            assert not where.exists()
            results.append((done.stdout, done.stderr, done.returncode))
    finally:
        server.close()
    assert results[0] == results[1]
    assert results[0][0] == b'{"decision": "block"}\n' and results[0][2] == 2
    (record,) = wait_for_records(stream, 1)
    assert record["exit_code"] == 2 and record["decision"] == "deny"
    log = (tmp_path / "s.jsonl.errors.log").read_text()
    assert "the hook's answer went through unheld: FileNotFoundError" in log
