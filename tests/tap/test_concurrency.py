"""Many taps at once into one stream: every line whole, none lost, ids unique."""

from __future__ import annotations

import json
import subprocess

from tests.conftest import HOOKTUI, wait_for_lines

TAPS = 48


def test_parallel_taps_with_64k_requests(tmp_path):
    stream = tmp_path / "stream.jsonl"
    requests = [
        json.dumps(
            {
                "hook_event_name": "PreToolUse",
                "tool_name": "Write",
                "tool_input": {"file_path": f"/tmp/f{i}", "content": chr(65 + i % 26) * 65536},
                "session_id": f"session-{i}",
            }
        ).encode()
        for i in range(TAPS)
    ]
    procs = [
        subprocess.Popen(
            [HOOKTUI, "tap", "--stream", str(stream), "--", "cat"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )
        for _ in requests
    ]
    for proc, request in zip(procs, requests, strict=True):
        out, err = proc.communicate(request, timeout=120)
        assert (out, err, proc.returncode) == (request, b"", 0)

    lines = wait_for_lines(stream, TAPS, timeout=120)
    assert len(lines) == TAPS
    assert stream.read_bytes().endswith(b"\n")
    records = [json.loads(line) for line in lines]  # every line whole and valid
    assert len({r["id"] for r in records}) == TAPS
    by_session = {r["request"]["session_id"]: r for r in records}
    assert set(by_session) == {f"session-{i}" for i in range(TAPS)}
    for i in range(TAPS):
        record = by_session[f"session-{i}"]
        assert record["request"] == json.loads(requests[i])
        assert record["stdout"]["length"] == len(requests[i])
