"""A record stays bounded in size, time and memory whatever the hook sends (issue 19:
a 50 MB request took the recorder 50 s and 725 MB and wrote a 100 MB line). Each body
keeps its head and tail around a marker, with its full size and sha256, listed in
`cut`; stdout and stderr keep head and tail, marked truncated; HOOKTUI_BODY_CAP sets
the cap; replay will not run a cut request."""

from __future__ import annotations

import hashlib
import json
import os
import subprocess

from hooktui.tap.record.cut import DEFAULT_CAP

from tests.conftest import HOOKTUI, wait_for_lines
from tests.replay.helpers import replay_cli

BIG = 12 << 20


def tapped(tmp_path, request: bytes, hook: str, cap: int | None = None) -> tuple[bytes, dict]:
    stream = tmp_path / "s.jsonl"
    env = dict(os.environ)
    if cap is not None:
        env["HOOKTUI_BODY_CAP"] = str(cap)
    done = subprocess.run(
        [HOOKTUI, "tap", "--wait", "--stream", str(stream), "--", "sh", "-c", hook],
        input=request, capture_output=True, env=env, timeout=120,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    (line,) = wait_for_lines(stream, 1)
    return line, json.loads(line)


def post_tool_use(output: str) -> bytes:
    return json.dumps({
        "session_id": "s", "hook_event_name": "PostToolUse", "tool_name": "Bash",
        "tool_input": {"command": "cat big.log"}, "tool_response": {"stdout": output},
    }).encode()  # fmt: skip


def test_a_huge_request_is_kept_head_and_tail_with_its_size_and_hash(tmp_path):
    output = "head-" + "x" * BIG + "-tail"
    line, record = tapped(tmp_path, post_tool_use(output), "cat >/dev/null")
    assert len(line) < 8 * DEFAULT_CAP  # not the 25 MB the request and its output would be
    cuts = {c["pointer"]: c for c in record["cut"]}
    kept = record["tool_output"]["stdout"]
    assert kept.startswith("head-") and kept.endswith("-tail") and "…[cut " in kept
    whole = cuts["/tool_output/stdout"]
    assert whole["length"] == len(output)
    assert whole["sha256"] == hashlib.sha256(output.encode()).hexdigest()
    assert record["decision"] == "allow" and record["event"] == "post_tool_use"  # judged whole


def test_output_keeps_head_and_tail_and_the_cap_is_the_users(tmp_path):
    hook = "cat >/dev/null; printf START; head -c 3000000 /dev/zero | tr '\\\\0' y; printf END"
    _, record = tapped(tmp_path, b"{}", hook, cap=64 * 1024)
    out = record["stdout"]
    assert out["truncated"] and out["length"] == 3_000_008
    assert out["data"].startswith("START") and out["tail"].endswith("END")
    assert len(out["data"]) + len(out["tail"]) == 64 * 1024


def test_replay_says_a_cut_request_cannot_be_replayed(tmp_path):
    tapped(tmp_path, post_tool_use("z" * (2 * DEFAULT_CAP)), "cat >/dev/null")
    done = replay_cli(str(tmp_path / "s.jsonl"), "--policy", "cat")
    assert done.returncode != 0
    assert "longer than the record keeps (HOOKTUI_BODY_CAP): it was cut" in done.stderr
