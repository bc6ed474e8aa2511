"""The recorder's JSON (stdlib `_json`) reads and writes what the stream's readers (msgspec) do."""

from __future__ import annotations

import msgspec
import pytest
from hooktui.tap import model
from hooktui.tap.base import jsonio
from hooktui.tap.record import recorder, tapcall
from hooktui.tap.runtimes import UNKNOWN

VALUES = [
    {"a": [1, -2, 3.5, 1e300, None, True, False], "b": {"": 'é\n\t"\\\u2028\u0000'}},
    [12345678901234567890123, -9223372036854775809, 0.1, -0.0],
    "plain",
    {"emoji": "😀", "cjk": "漢字", "ctrl": "\x01\x1f\x7f"},
]


@pytest.mark.parametrize("value", VALUES)
def test_what_it_writes_msgspec_reads_back_the_same(value):
    line = jsonio.dumps(value)
    assert msgspec.json.decode(line) == value
    assert jsonio.loads(line) == value
    assert jsonio.loads(msgspec.json.encode(value)) == value


@pytest.mark.parametrize(
    "raw",
    [
        b"NaN",
        b"[Infinity]",
        b"-Infinity",
        b"1e400",
        b'"\\udc80"',
        b'{"a": 1} x',
        b"",
        b"  ",
        b"\xff",
    ]
    + [b"[1,]", b"{'a': 1}", b'"\x01"'],
)
def test_what_msgspec_refuses_it_refuses(raw):
    with pytest.raises(jsonio.NotJSON):
        jsonio.loads(raw)
    with pytest.raises((msgspec.DecodeError, msgspec.ValidationError)):
        msgspec.json.decode(raw)


def test_too_deep_is_not_json_either():
    with pytest.raises(jsonio.NotJSON):
        jsonio.loads(b"[" * 100_000 + b"]" * 100_000)


def test_it_refuses_to_write_what_is_not_json():
    for value in (float("nan"), {"a": float("inf")}, "\udc80", {"k": object()}):
        with pytest.raises((ValueError, TypeError)):
            jsonio.dumps(value)


def test_the_recorders_literals_match_the_model():
    assert tapcall.CAPTURES == model.CAPTURES
    assert recorder.SCHEMA_VERSION == model.SCHEMA_VERSION
    assert recorder.UNKNOWN == UNKNOWN


def test_broken_json_is_not_json_where_json_decoder_was_never_imported():
    """The recorder never imports `json`; `_json` alone then fails on an error inside an
    object with a SystemError, which took the whole reading down (a hook printing
    `{not json` was recorded as the unknown runtime's)."""
    import subprocess
    import sys

    code = (
        "from hooktui.tap.base import jsonio\n"
        "import sys\n"
        "assert 'json.decoder' not in sys.modules\n"
        "for raw in (b'{not json', b'[1, x]', b'{\"a\" 1}'):\n"
        "    try:\n"
        "        jsonio.loads(raw)\n"
        "    except jsonio.NotJSON:\n"
        "        continue\n"
        "    raise SystemExit(f'no NotJSON for {raw!r}')\n"
    )
    done = subprocess.run([sys.executable, "-I", "-c", code], capture_output=True, timeout=30)
    assert done.returncode == 0, done.stderr.decode()
