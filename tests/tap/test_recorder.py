"""build_record: judging, blobs, ids and times, capture modes, labels, requests."""

from __future__ import annotations

import base64
import hashlib
import json
import re

import pytest
from hooktui.tap import model
from hooktui.tap.record.blobs import BLOB_CAP
from hooktui.tap.record.digest import digest_marker
from hooktui.tap.record.recorder import (
    build_record,
    default_label,
    encode_line,
    new_id,
    rfc3339,
)
from hooktui.tap.record.request import load_request
from hooktui.tap.record.tapcall import Captured, TapCall

REQUEST = {
    "session_id": "s1",
    "hook_event_name": "UserPromptSubmit",
    "prompt": "rewrite the parser; password=swordfish42",
    "cwd": "/repo",
}


def call(raw: bytes, stdout: bytes = b"", stderr: bytes = b"", **kw) -> TapCall:
    kw.setdefault("exit_code", 0)
    kw.setdefault("started_at", 1_800_000_000.25)
    return TapCall(
        argv=kw.pop("argv", ["t"]),
        label=kw.pop("label", "t"),
        request=raw,
        stdout=kw.pop("out", None) or Captured(stdout),
        stderr=Captured(stderr),
        **kw,
    )


def build(raw: bytes, stdout: bytes = b"", stderr: bytes = b"", **kw) -> model.Record:
    """The record as a reader sees it: written by the recorder, decoded by the model."""
    line = encode_line(build_record(call(raw, stdout, stderr, **kw), tap_version="9.9"))
    assert line.endswith(b"\n") and line.count(b"\n") == 1
    return model.decode_record(line)


def as_json(record: model.Record) -> dict:
    return json.loads(model.encode_record(record))


def test_request_formats():
    assert load_request(b'{"a": [1, 2]}') == ({"a": [1, 2]}, "json")
    assert load_request(b"") == ("", "empty")
    assert load_request(b"hello\n") == ("hello\n", "text")
    assert load_request(b"\xffhi") == ("\ufffdhi", "text")
    assert load_request(b"12") == (12, "json")
    # What the stream's readers (msgspec) could not read back is kept as text.
    for raw in (b"NaN", b"[1e400]", b'"\\ud800"', b"{} {}", b"\xef\xbb\xbf{}"):
        assert load_request(raw) == (raw.decode("utf-8", "replace"), "text")


def test_plain_record_fields():
    raw = json.dumps(REQUEST).encode()
    record = build(raw, b"ok\n", duration_ms=12.3456)
    data = as_json(record)
    assert data["v"] == model.SCHEMA_VERSION
    assert data["ts"] == "2027-01-15T08:00:00.250000Z"
    assert data["exit_code"] == 0 and data["signal"] is None
    assert data["duration_ms"] == pytest.approx(12.346, abs=1e-3)
    assert data["request_format"] == "json"
    assert data["stdout"] == {
        "data": "ok\n",
        "encoding": "utf-8",
        "length": 3,
        "sha256": hashlib.sha256(b"ok\n").hexdigest(),
        "truncated": False,
    }
    assert data["tap_version"] == "9.9" and data["capture"] == "redacted"
    assert "updated_input" not in data and "updated_output" not in data
    assert "escaped" not in data["hook"]
    # The request's password is masked and listed by pointer.
    assert "swordfish42" not in json.dumps(data)
    found = {(r["pointer"], r["kind"]) for r in data["redactions"]}
    assert ("/request/prompt", "secret_assignment") in found
    assert {r["digest"] for r in data["redactions"]} == {
        hashlib.sha256(b"swordfish42").hexdigest()[:8]
    }


def test_the_line_holds_every_record_field_in_order():
    raw = json.dumps({**REQUEST, "permission_mode": "plan"}).encode()
    fields = build_record(call(raw, b'{"decision":"block","reason":"no","systemMessage":"m"}'))
    optional = ("updated_input", "updated_output", "details", "held", "cut")  # absent when unset
    order = [f for f in model.Record.__struct_fields__ if f not in optional or f in fields]
    assert list(fields) == order and "details" in fields
    assert fields["answer_effects"] == {"user_message": "m"}
    assert list(fields["hook"]) == [f for f in model.HookInfo.__struct_fields__ if f != "escaped"]
    assert list(fields["stdout"]) == [f for f in model.Blob.__struct_fields__ if f != "tail"]


def test_ids_are_unique_and_sort_by_time():
    ids = [new_id(1_800_000_000.0 + i / 1000) for i in range(200)]
    assert len(set(ids)) == 200
    assert ids == sorted(ids)
    assert all(re.fullmatch(r"[0-9a-f]{26}", i) for i in ids)
    assert rfc3339(0.0000015) == "1970-01-01T00:00:00.000002Z"


def test_binary_output_is_base64_and_big_output_is_capped():
    binary = b"\x00\xff" * 10
    big = ("é" * (BLOB_CAP)).encode()  # two bytes each: twice the cap
    record = build(b"", binary, big)
    assert record.stdout.encoding == "base64"
    assert base64.b64decode(record.stdout.data) == binary and not record.stdout.truncated
    assert record.stderr.truncated and record.stderr.length == len(big)
    assert record.stderr.sha256 == hashlib.sha256(big).hexdigest()
    cut = record.stderr.data.encode()
    assert len(cut) <= BLOB_CAP and big.startswith(cut) and set(record.stderr.data) == {"é"}


def test_a_head_with_length_and_sha256_describes_all_the_output():
    # What a tap that streams the output through hands over: the first bytes only.
    whole = ("é" * 1000).encode()
    head = whole[:1001]  # cut inside a character
    out = Captured(head, len(whole), hashlib.sha256(whole).hexdigest())
    record = build(b"", out=out)
    assert record.stdout.encoding == "utf-8" and record.stdout.data == "é" * 500
    assert record.stdout.truncated and record.stdout.length == len(whole)
    assert record.stdout.sha256 == hashlib.sha256(whole).hexdigest()


def test_secret_across_the_cap_is_still_masked():
    token = "ghp_" + "R2d2C3poL8k9J7h6G5f4D3s2A1z0Y9x8W7v6"
    out = b"x" * (BLOB_CAP - 11) + b" " + token.encode() + b"\n"
    record = build(b"", out)
    assert record.stdout.truncated
    assert token[:10] not in record.stdout.data and token[:10] not in record.stdout.tail
    # The output's last bytes are kept too (its tail), and masked there as well.
    assert [r.pointer for r in record.redactions] == ["/stdout/data", "/stdout/tail"]


def test_secret_in_binary_output_is_masked_too():
    token = "ghp_R2d2C3poL8k9J7h6G5f4D3s2A1z0Y9x8W7v6"
    out = b"\xff\xfe" + token.encode() + b"\x00"
    record = build(b"", out)
    assert record.stdout.encoding == "base64"
    data = base64.b64decode(record.stdout.data)
    assert token.encode() not in data and data.startswith(b"\xff\xfe[REDACTED:github_pat:")
    assert record.stdout.length == len(out)


def test_capture_full_and_digest():
    raw = json.dumps(REQUEST).encode()
    full = build(raw, raw, capture="full")
    assert full.request == REQUEST and full.redactions == [] and full.stdout.data == raw.decode()
    digest = build(raw, raw, b"e", capture="digest")
    assert digest.request["prompt"] == digest_marker(REQUEST["prompt"])
    assert digest.request["session_id"] == "s1"
    assert digest.stdout.encoding == "digest" and digest.stdout.data == ""
    assert digest.stdout.sha256 == hashlib.sha256(raw).hexdigest()
    assert "swordfish" not in model.encode_record(digest).decode()
    text = build(b"free text prompt", capture="digest")
    assert text.request == digest_marker("free text prompt") and text.request_format == "text"
    compact = b'{"a":1}'
    assert digest_marker({"a": 1}) == f"[digest sha256:{hashlib.sha256(compact).hexdigest()} len:7]"
    with pytest.raises(ValueError):
        build_record(call(raw, capture="everything"))


def test_spawn_error_is_a_failure():
    record = build(b"{}", exit_code=127, spawn_error="nope: command not found")
    assert record.decision == "failure" and record.failure == "spawn_error"
    assert "nope: command not found" in record.failure_detail
    assert record.exit_code == 127


def test_signal_is_recorded():
    record = build(b"{}", exit_code=None, signal=9)
    assert record.signal == 9 and record.exit_code is None and record.decision == "failure"


@pytest.mark.parametrize(
    "killed, note",
    [(True, "at its 5000 ms timeout"), (False, "short of its timeout")],
)
def test_the_watchdog_says_how_the_tap_died(killed, note):
    record = build(b"{}", exit_code=None, signal=9, timeout_ms=5000, killed=killed)
    assert record.timed_out is killed and note in record.failure_detail


@pytest.mark.parametrize(
    "forwarded, duration_ms, startup_ms, timed_out",
    [(True, 960.0, 0.0, True), (True, 900.0, 60.0, True), (True, 900.0, 0.0, False)]
    + [(False, 2000.0, 0.0, False)],
)
def test_a_forwarded_signal_at_the_timeout_is_a_timeout(
    forwarded, duration_ms, startup_ms, timed_out
):
    record = build(
        b"{}",
        exit_code=None,
        signal=15,
        timeout_ms=1000,
        forwarded=forwarded,
        duration_ms=duration_ms,
        startup_ms=startup_ms,
    )
    assert record.timed_out is timed_out


def test_hook_info_is_redacted_too():
    record = build(b"{}", argv=["guard", "--token=abcdef123456"], label="g")
    assert "abcdef123456" not in record.hook.argv[1]
    assert record.redactions[0].pointer == "/hook/argv/1"


def test_an_adapter_that_raises_still_gives_a_record(monkeypatch):
    from hooktui.tap import runtimes

    def broken(*_args):
        raise RuntimeError("adapter bug")

    monkeypatch.setattr(runtimes, "judge_request", broken)
    record = build(b"{}", exit_code=3)
    assert record.decision == "failure" and "adapter bug" in record.tap_error


@pytest.mark.parametrize(
    "argv, label",
    [
        (["/usr/local/bin/gate"], "gate"),
        (["python3", "/x/guard.py", "--strict"], "guard.py"),
        (["sh", "-c", "uv run ~/h/policy.py --strict"], "policy.py"),
        (["bash", "-c", "FOO=1 node ./check.js; echo done"], "check.js"),
        (["sh", "-c", "cat; exit 3"], "cat"),
        (["sh", "-c", "'unbalanced"], "'unbalanced"),
        (["/usr/bin/python3"], "python3"),
        (["python3.11", "hooks/python_guard.py"], "python_guard.py"),  # a script may start "python"
        ([], ""),
    ],
)
def test_default_label(argv, label):
    assert default_label(argv) == label
    assert build(b"{}", argv=argv, label=None).hook.label == label
