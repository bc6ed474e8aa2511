"""`show`'s in-place line walk prints exactly what its split-and-copy path prints.

`show` walks each chunk's lines in place, copying only the lines a filter
keeps (`Scan.pick_block`); the path before it split every chunk into copies
first (`Scan.pick`, still what `--follow` uses). Both run here on the same
streams, with the same arguments, and must print the same bytes on stdout and
stderr and exit alike: over a stream the real tap recorded (`hooktui demo`,
redacted records included), the v1 records earlier taps wrote, a stream of
torn, garbage, non-UTF-8, blank and mistyped lines, lines longer than a read,
and all of them merged.
"""

from __future__ import annotations

import signal
import subprocess
from pathlib import Path

import pytest
from hooktui.tap import model
from hooktui.tui.cli import show, show_read

from tests.conftest import HOOKTUI
from tests.tui.test_show import env, rec, write

V1 = sorted((Path(__file__).parents[1] / "tap/fixtures/records").glob("v1-*.jsonl"))

FILTERS = [
    "",
    "decision:deny",
    "decision:DENY",
    "decision=deny",
    "decision:block",
    "tool:Bash",
    "tool:mcp__*",
    "runtime:codex",
    "-decision:allow",
    "-decision:deny",
    "echo",
    '"number-1"',
    "latency>15ms",
    "exit!=0",
    "exit:none",
    "hook:guard",
    "event:pre",
    "held:?*",
    "tool:Bash decision:deny or runtime:codex",
]


def _garbage_stream(path: Path) -> None:
    """Records between every kind of line that is not one, across many 64 KiB reads."""
    deny = model.encode_record(rec(7, decision="deny", reason="no"))
    parts: list[model.Record | bytes] = [b"not json at the start\n"]
    for i in range(400):
        parts.append(
            rec(
                i,
                decision=("allow", "deny", "ask", "failure")[i % 4],
                tool_name=("Bash", "Edit", "mcp__github__create_issue")[i % 3],
                runtime=("claude-code", "codex", "gemini-cli")[i % 3],
                summary=f"echo number-{i} " + "é" * (i % 7),
                exit_code=None if i % 9 == 0 else i % 3,
                stdout=model.Blob(data="x" * (i * 37 % 3000)),
            )
        )
        if i % 50 == 3:
            parts += [
                deny[: len(deny) // 2] + b"\n",  # torn: the first half of a record
                b"\xff\xfe not utf-8 \x80\n",
                b"[1, 2, 3]\n",
                b"{}\n",
                b"\n",
                b"  \t\n",
                b"\r\n",
                b"  x\n",  # short, but not blank
                deny.replace(b'"decision":"deny"', b'"decision":"DENY"'),
                deny.replace(b'"decision":"deny"', b'"decision":"d\\u0065ny"'),
                deny.replace(b'"exit_code":0', b'"exit_code":"x"'),  # the head's type is wrong
                deny.replace(b'"ts":', b'"not_ts":'),  # no time: not a record
                deny.replace(b'"ts":"2026', b'"ts":"20x6'),  # a time that is not one
                deny.rstrip(b"\n") + b"\r\n",  # CRLF
                deny.replace(b'{"v":', b'{"decision":"allow","v":'),  # the key twice
            ]
    parts.append(rec(900, decision="deny", reason="r" * 200_000))  # longer than a read
    parts.append(rec(901, decision="deny", stdout=model.Blob(data="y" * 70_000)))
    parts.append(deny[:40])  # a last line still being written: never shown
    write(path, parts)


@pytest.fixture(scope="module")
def streams(tmp_path_factory) -> dict[str, Path]:
    d = tmp_path_factory.mktemp("same")
    demo = d / "demo.jsonl"
    made = subprocess.run(
        [HOOKTUI, "demo", "--no-ui", "--count", "24", "--rate", "50", "--stream", str(demo)],
        capture_output=True,
        timeout=120,
        stdin=subprocess.DEVNULL,
    )
    assert made.returncode == 0, made.stderr
    v1 = d / "v1.jsonl"
    v1.write_bytes(b"".join(p.read_bytes() for p in V1))
    garbage = d / "garbage.jsonl"
    _garbage_stream(garbage)
    return {"demo": demo, "v1": v1, "garbage": garbage}


@pytest.fixture
def run(monkeypatch, capsysbinary):
    """show's main in this process, walking blocks or not: (exit code, stdout, stderr)."""
    for name, value in env(TZ="UTC").items():
        monkeypatch.setenv(name, value)
    sigterm = signal.getsignal(signal.SIGTERM)

    def run(args: list[str], walk: bool) -> tuple[int, bytes, bytes]:
        monkeypatch.setattr(show_read, "WALK_BLOCKS", walk)
        try:
            code = show.main(args)
        finally:
            signal.signal(signal.SIGTERM, sigterm)
        out = capsysbinary.readouterr()
        return code, out.out, out.err

    return run


def _same(run, args: list[str]) -> bytes:
    walked = run(args, True)
    assert walked == run(args, False), args
    return walked[1]


@pytest.mark.parametrize("name", ["demo", "v1", "garbage", "merged"])
@pytest.mark.parametrize("fmt", ["json", "text"])
def test_every_filter_prints_the_same(streams, run, name, fmt):
    paths = [str(p) for p in streams.values()] if name == "merged" else [str(streams[name])]
    printed = 0
    for expr in FILTERS:
        printed += len(_same(run, [*paths, "--format", fmt, "--filter", expr]))
    assert printed  # the filters picked something to compare


@pytest.mark.parametrize(
    "extra",
    [["--last", "5"], ["--last", "0"], ["--group-by", "tool"], ["--group-by", "decision"]],
)
@pytest.mark.parametrize("fmt", ["json", "text"])
def test_last_and_groups_print_the_same(streams, run, extra, fmt):
    for paths in ([streams["garbage"]], list(streams.values())):
        for expr in ("", "decision:deny", "-tool:Bash"):
            _same(run, [*map(str, paths), "--format", fmt, "--filter", expr, *extra])


def test_the_walk_sees_what_the_split_sees_in_the_garbage(streams, run):
    """The garbage stream does exercise both kinds of lines the walk must tell apart."""
    _, out, err = run([str(streams["garbage"]), "--format", "json", "-f", "decision:deny"], True)
    assert out.count(b"\n") > 100
    assert b"DENY" in out and b"d\\u0065ny" in out and b"\r\n" in out  # lines as written
    # Torn, not UTF-8, an array, {}, "  x", a mistyped head, no ts: in 8 places; and the first.
    assert err.count(b"bad line at byte") == 7 * 8 + 1


def test_the_command_prints_what_the_split_path_prints(streams, tmp_path):
    """The real `hooktui show` (stdin and files) against the split path in a second process."""
    split = (
        "import sys\n"
        "from hooktui.tui.cli import show, show_read\n"
        "show_read.WALK_BLOCKS = False\n"
        "sys.exit(show.main(sys.argv[1:]))\n"
    )
    garbage = streams["garbage"]
    for args, stdin in (
        (["-", "--format", "json", "-f", "decision:deny"], garbage),
        ([str(garbage), str(streams["demo"]), "-f", "-decision:allow"], None),
    ):
        runs = [
            subprocess.run(
                cmd + args,
                stdin=stdin.open("rb") if stdin else subprocess.DEVNULL,
                capture_output=True,
                env=env(TZ="UTC"),
                timeout=60,
            )
            for cmd in ([HOOKTUI, "show"], [_python(), "-c", split])
        ]
        walked, split_path = ((r.returncode, r.stdout, r.stderr) for r in runs)
        assert walked == split_path, args
        assert walked[0] == 0 and walked[1]


def _python() -> str:
    import sys

    return sys.executable
