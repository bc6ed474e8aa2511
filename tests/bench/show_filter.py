"""Benchmark: `hooktui show --filter` against jq and msgspec one-liners, time, CPU and peak RSS.

Issue 12 asks that `show` streams: constant memory whatever the file size, and
a filtered pass within 1.2x of a msgspec one-liner that streams. Each size is
generated here (records of about 2.6 KB, like real ones), never committed, and
every command runs on the same file, interleaved, median of RUNS.

The fair rival of each filter is the narrow one-liner a user would write for
it: a Struct of only the fields it tests, one reusable decoder, the line
written back as read. Each expression is measured against its own one-liner
(the `/narrow` column), and both must print the same bytes (checked first,
untimed). `decision:deny` also runs against a one-liner that decodes whole
records to dicts, jq, show's text table, and with `--split` show's
split-and-copy path (what show did before it walked lines in place). Run:

    .venv/bin/python tests/bench/show_filter.py [--split] [--no-jq] [--runs R] [N ...]   # default: 100k 1M, R=3

(jq takes minutes a run at 1M: `--no-jq` leaves it out.)

Wall time counts on a quiet machine; CPU time (user + system, from GNU time)
is the steadier figure on a loaded one. Not collected by pytest (no test_
prefix); timing goals live here, not in tests.
"""

from __future__ import annotations

import hashlib
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from hooktui.tap import model
from hooktui.tap.runtimes import RUNTIMES

RUNS = 3
TIME = "/usr/bin/time" if os.path.exists("/usr/bin/time") else None
HOOKTUI = str(Path(sys.executable).with_name("hooktui"))
TOOLS = ["Bash", "Edit", "Read", "Write", "mcp__github__create_issue", "apply_patch"]
DECISIONS = ["allow"] * 8 + ["deny", "ask", "modify", "failure"]


def narrow(fields: dict[str, str], test: str) -> str:
    """The one-liner a user writes for one filter: a Struct of `fields`, `test` over `h`."""
    body = "".join(f"  {name}: {kind}\n" for name, kind in fields.items())
    return (
        "import sys,msgspec\n"
        f"class H(msgspec.Struct):\n{body}"
        "d=msgspec.json.Decoder(H).decode;w=sys.stdout.buffer.write\n"
        "for l in sys.stdin.buffer:\n"
        f"  h=d(l)\n  if {test}: w(l)\n"
    )


# (show's filter, its narrow one-liner): each prints the same lines as the other.
EXPRESSIONS: list[tuple[str, str]] = [
    ("decision:deny", narrow({"decision": "str = ''"}, "h.decision=='deny'")),
    ("tool:Bash", narrow({"tool_name": "str = ''"}, "h.tool_name=='Bash'")),
    ("runtime:codex", narrow({"runtime": "str = ''"}, "h.runtime=='codex'")),
    ("-decision:deny", narrow({"decision": "str = ''"}, "h.decision!='deny'")),  # most lines
    (
        "patch",  # free text: the summary, the reason or the tool's name
        narrow(
            {"summary": "str = ''", "reason": "str = ''", "tool_name": "str = ''"},
            "'patch' in h.summary or 'patch' in h.reason or 'patch' in h.tool_name",
        ),
    ),
    (
        "tool:Bash -decision:allow latency>50ms",
        narrow(
            {"tool_name": "str = ''", "decision": "str = ''", "duration_ms": "float = 0.0"},
            "h.tool_name=='Bash' and h.decision!='allow' and h.duration_ms>50",
        ),
    ),
]

# Decoding each line to a dict: what the first one-liners did.
ONE_LINER_DICT = (
    "import sys,msgspec\n"
    "d=msgspec.json.decode;w=sys.stdout.buffer.write\n"
    "for l in sys.stdin.buffer:\n"
    "  if d(l).get('decision')=='deny': w(l)\n"
)
# show before it walked lines in place: the same scan over split copies.
SPLIT_PATH = (
    "import sys\n"
    "from hooktui.tui.cli import show, show_read\n"
    "show_read.WALK_BLOCKS = False\n"
    "sys.exit(show.main(sys.argv[1:]))\n"
)


def as_recorded(request: dict) -> dict:
    """The canonical call a v2 tap stores beside the request (nothing for a v1 model),
    so the same script measures the streams each version writes."""
    if "tool_input" not in model.Record.__struct_fields__:
        return {}
    return {"tool_input": request["tool_input"], "tool_output": request.get("tool_response")}


def make_record(i: int, rng: random.Random) -> model.Record:
    tool = rng.choice(TOOLS)
    command = f"git log --oneline -n {i} && echo " + "x" * rng.randint(10, 200)
    post = rng.random() < 0.5
    request = {
        "session_id": "sess-" + str(i // 500),
        "transcript_path": "/home/user/.claude/projects/p/" + "t" * 40 + ".jsonl",
        "hook_event_name": "PostToolUse" if post else "PreToolUse",
        "tool_name": tool,
        "tool_input": {"command": command, "description": "run it"},
        "tool_response": {"stdout": "ok line of output\n" * rng.randint(10, 40)},
    }
    return model.Record(
        id=f"{i:08x}",
        ts=f"2026-03-01T{(i // 3600) % 24:02d}:{(i // 60) % 60:02d}:{i % 60:02d}.{i % 1000:03d}Z",
        runtime=rng.choice(RUNTIMES[:4]),
        event="post_tool_use" if post else "pre_tool_use",
        native_event="PostToolUse" if post else "PreToolUse",
        tool_name=tool,
        decision=rng.choice(DECISIONS),
        duration_ms=rng.expovariate(1 / 40),
        exit_code=0,
        summary=command[:120],
        session_id="sess-" + str(i // 500),
        cwd="/home/user/project",
        request=request,
        **as_recorded(request),
        hook=model.HookInfo(label="guard.py", argv=["python3", "guard.py"], timeout_ms=60000),
        stdout=model.Blob(data='{"decision":"allow"}', length=20, sha256="0" * 64),
    )


def write_stream(path: Path, n: int) -> None:
    rng = random.Random(7)
    # A few thousand distinct records repeated with fresh ids: generating 1M
    # from scratch would take longer than the benchmark itself.
    base = [model.encode_record(make_record(i, rng)) for i in range(min(n, 5000))]
    with path.open("wb", buffering=1 << 20) as f:
        for i in range(n):
            line = base[i % len(base)]
            f.write(line.replace(b'"id":"', b'"id":"%08x-' % i, 1))


class Run:
    def __init__(self) -> None:
        self.wall: list[float] = []
        self.cpu: list[float] = []
        self.rss = 0  # KiB, the most of any run

    def add(self, wall: float, cpu: float, rss: int) -> None:
        self.wall.append(wall)
        self.cpu.append(cpu)
        self.rss = max(self.rss, rss)


# The commands run as a user's would: with cached bytecode. A session that sets
# PYTHONDONTWRITEBYTECODE would have show compile its modules on every run
# (about 50 ms here), while the one-liners' msgspec has its cache from install.
ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}


def run(cmd: list[str], stdin: Path, out: str = os.devnull) -> tuple[float, float, int]:
    """Wall seconds, CPU seconds and peak RSS (KiB) of one run, output to `out`.

    Peak RSS and CPU come from GNU time when it is there: a child forked from
    this (large) process would report this process's size as its own floor.
    """
    with tempfile.NamedTemporaryFile("r") as report:
        wrap = [TIME, "-f", "%M %U %S", "-o", report.name] if TIME else []
        with stdin.open("rb") as fin, open(out, "wb") as fout:
            t0 = time.perf_counter()
            proc = subprocess.Popen([*wrap, *cmd], stdin=fin, stdout=fout, env=ENV)
            _, status, usage = os.wait4(proc.pid, 0)
            elapsed = time.perf_counter() - t0
        code = os.waitstatus_to_exitcode(status)
        if code not in (0, 1):
            raise SystemExit(f"{cmd[:3]} exited {code}")
        text = report.read().strip().splitlines()
        if not text:
            return elapsed, usage.ru_utime + usage.ru_stime, usage.ru_maxrss
        rss, user, system = text[-1].split()
        return elapsed, float(user) + float(system), int(rss)


def commands(path: Path, split: bool, jq: bool) -> dict[str, tuple[str, list[str]]]:
    """name -> (the one-liner it is compared with, command)."""
    p = str(path)
    cmds: dict[str, tuple[str, list[str]]] = {}
    for expr, one_liner in EXPRESSIONS:
        rival = f"one-liner {expr}"
        cmds[f"show {expr}"] = (rival, [HOOKTUI, "show", "-f", expr, "--format", "json", p])
        cmds[rival] = (rival, [sys.executable, "-c", one_liner])
    deny = "one-liner decision:deny"
    if split:
        cmds["show decision:deny, split path"] = (
            deny,
            [sys.executable, "-c", SPLIT_PATH, "-f", "decision:deny", "--format", "json", p],
        )
    cmds["show decision:deny (text)"] = (deny, [HOOKTUI, "show", "-f", "decision:deny", p])
    cmds["one-liner decision:deny (dict)"] = (deny, [sys.executable, "-c", ONE_LINER_DICT])
    if jq and shutil.which("jq"):
        cmds["jq decision:deny"] = (deny, ["jq", "-c", 'select(.decision=="deny")', p])
    return cmds


def check_same_output(cmds: dict[str, tuple[str, list[str]]], path: Path, tmp: Path) -> None:
    """Each show prints the bytes its one-liner prints (untimed, once)."""
    digests = {}
    for name, (_, cmd) in cmds.items():
        if name.startswith("jq") or name.endswith("(text)"):
            continue  # jq re-encodes; the table is text
        out = tmp / "out"
        run(cmd, path, str(out))
        digests[name] = hashlib.sha256(out.read_bytes()).hexdigest()
    for name, (rival, _) in cmds.items():
        if name in digests and digests[name] != digests[rival]:
            raise SystemExit(f"{name!r} and {rival!r} print different lines")


def bench(n: int, tmp: Path, split: bool, jq: bool) -> None:
    path = tmp / f"stream-{n}.jsonl"
    write_stream(path, n)
    size = path.stat().st_size
    load = os.getloadavg()[0]
    print(f"\n{n:,} records, {size / 1e6:.0f} MB ({size / n:.0f} B each), load {load:.1f}")
    cmds = commands(path, split, jq)
    check_same_output(cmds, path, tmp)  # also writes show's bytecode cache, once
    runs = {name: Run() for name in cmds}
    for _ in range(RUNS):
        for name, (_, cmd) in cmds.items():  # interleaved: drift hits all alike
            runs[name].add(*run(cmd, path))
    med = {name: (statistics.median(r.wall), statistics.median(r.cpu)) for name, r in runs.items()}
    print(
        f"{'command':50} {'wall':>7} {'cpu':>7} {'RSS':>8} {'/narrow wall':>12} {'/narrow cpu':>11}"
    )
    for name, (rival, _) in cmds.items():
        (wall, cpu), (rwall, rcpu) = med[name], med[rival]
        print(
            f"{name:50} {wall:6.2f}s {cpu:6.2f}s {runs[name].rss / 1024:6.1f}Mi"
            f" {wall / rwall:11.2f}x {cpu / rcpu:10.2f}x"
        )


def main() -> int:
    global RUNS
    args = sys.argv[1:]
    if "--runs" in args:  # more runs: steadier medians on a busy machine
        i = args.index("--runs")
        RUNS = int(args[i + 1])
        del args[i : i + 2]
    split, jq = "--split" in args, "--no-jq" not in args
    sizes = [int(a) for a in args if not a.startswith("--")] or [100_000, 1_000_000]
    with tempfile.TemporaryDirectory() as tmp:
        for n in sizes:
            bench(n, Path(tmp), split, jq)
            (Path(tmp) / f"stream-{n}.jsonl").unlink()
    return 0


if __name__ == "__main__":
    sys.exit(main())
