"""Realistic hooktui streams of any size for the scale benchmarks, written fast.

Records have the shape `hooktui tap` writes (taken from real records of
`hooktui demo --no-ui`): six runtimes in sessions of their own, pre/post tool
calls, prompts and stops, allow/deny/modify/replace, failures (a crashing
guard's traceback, timeouts, invalid JSON), long commands (heredoc scripts,
pipelines) and tool output blobs: 1.7 KB a record on average, as the demo's.

Speed: a pool of a few thousand record bodies is built once and encoded with
sentinels in place of what differs per call (id, time, duration, session,
tool-call id, a number in some commands); each record is then a handful of
byte replacements: a million records (1.7 GB) take under 20 s of CPU.

The last record is the newest by start and by end time (both within the same
second, `Stream.clock`), and carries a marker (`Stream.marker`) in its id (the
first columns of the raw line, what lnav and Toolong show) and in its command
and summary (what `hooktui watch` lists). `Stream.shows_newest(screen)` is true
when one line of a screen holds both: a row of the newest call, not a detail
pane that names it (there the time and the summary are on lines of their own).

    python tests/bench/streams.py 10k,100k,1m [--dir DIR]   # make (or reuse) files

A file is named for its parameters (count, seed, generator version) and written
under a temporary name then renamed, so a file of that name is complete and is
reused. Not collected by pytest (no test_ prefix); nothing here is committed data.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

import msgspec
from stream_bodies import RUNTIME_WEIGHTS, body_pool  # a sibling module: run as a script

GENERATOR = 2  # bump when the records change: files of an older generator are not reused
DEFAULT_DIR = Path(tempfile.gettempdir()) / "hooktui-bench-streams"
START = 1772323200.0  # 2026-03-01T00:00:00Z
SPACING_S = 2.6  # a million calls in about a month: one busy agent
POOL_PER_RUNTIME = 700
PLAIN = (b'"event":"pre_tool_use"', b'"decision":"allow"', b'"tool_name":"Bash"')


@dataclass(frozen=True)
class Stream:
    path: Path
    records: int
    marker: str  # unique to the newest (last) record; appears nowhere else
    clock: str  # HH:MM:SS (UTC) when the newest call started and ended
    generated: bool  # written by this call (False: an existing file was reused)

    def shows_newest(self, screen: str) -> bool:
        return any(self.marker in line and self.clock in line for line in screen.splitlines())

    @property
    def size(self) -> int:
        return self.path.stat().st_size


def parse_count(text: str) -> int:
    """'10k' → 10000, '1m' → 1000000, '2500' → 2500."""
    t = text.strip().lower().replace("_", "")
    scale = {"k": 1_000, "m": 1_000_000}.get(t[-1:], 1)
    number = t[:-1] if scale > 1 else t
    if not number.isdigit() or int(number) * scale < 1:
        raise ValueError(f"not a record count: {text!r} (e.g. 10k, 100k, 1m)")
    return int(number) * scale


def parse_counts(text: str) -> list[int]:
    """'10k,1m' → [10000, 1000000], sorted; argparse reports a bad one in one line."""
    try:
        return sorted(parse_count(part) for part in text.split(","))
    except ValueError as e:
        raise argparse.ArgumentTypeError(str(e)) from None


def label(n: int) -> str:
    if n % 1_000_000 == 0:
        return f"{n // 1_000_000}M"
    return f"{n // 1000}k" if n % 1000 == 0 else str(n)


def marker_for(n: int, seed: int) -> str:
    return f"NEWEST-CALL-{n}-S{seed}"


def ensure_stream(n: int, directory: Path = DEFAULT_DIR, seed: int = 7) -> Stream:
    """The stream of `n` records for `seed`, generated unless a complete one exists."""
    directory.mkdir(parents=True, exist_ok=True)
    path = directory / f"hooktui-bench-{n}-s{seed}-g{GENERATOR}.jsonl"
    if path.exists():
        return _described(path, n, generated=False)
    part = path.with_name(f".{path.name}.{os.getpid()}.part")
    try:
        write_stream(part, n, seed)
        check_shape(part)
        os.replace(part, path)
    finally:
        part.unlink(missing_ok=True)
    return _described(path, n, generated=True)


def _described(path: Path, n: int, generated: bool) -> Stream:
    """The stream with its newest record's marker and clock, read back from its last line."""
    with path.open("rb") as f:
        f.seek(max(0, path.stat().st_size - (1 << 16)))
        last = msgspec.json.decode(f.read().splitlines()[-1])
    return Stream(path, n, last["id"], last["ts"][11:19], generated)


def write_stream(path: Path, n: int, seed: int) -> None:
    rng = random.Random(seed)
    pools = {
        rt: body_pool(rt, random.Random(f"{seed}-{rt}"), POOL_PER_RUNTIME) for rt in RUNTIME_WEIGHTS
    }
    runtimes, weights = zip(*RUNTIME_WEIGHTS.items(), strict=True)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "wb", buffering=8 << 20) as out:
        session_left, pool, session, end_max = 0, pools[runtimes[0]], b"", 0.0
        t = START
        for i in range(n - 1):
            if session_left == 0:
                runtime = rng.choices(runtimes, weights)[0]
                pool, session = pools[runtime], _session_id(runtime, rng)
                session_left = rng.randint(20, 600)
            session_left -= 1
            t = START + i * SPACING_S + rng.random() * 0.8
            body, lo, hi = pool[rng.randrange(len(pool))]
            duration = rng.uniform(lo, hi)
            end_max = max(end_max, t + duration / 1000)
            out.write(_fill(body, t, duration, session, rng.getrandbits(48), i))
        newest = int(max(end_max, t)) + 30.25  # starts and ends within one second
        out.write(_newest(pools["claude-code"], newest, rng, marker_for(n, seed)))


def _fill(body: bytes, t: float, duration: float, session: bytes, bits: int, i: int) -> bytes:
    stamp = _ts(t)
    return (
        body.replace(b"@@ID@@", b"%016x%010x" % (int(t * 1e9), bits & 0xFFFFFFFFFF))
        .replace(b"@@TS@@", stamp)
        .replace(b'"@@DUR@@"', b"%.3f" % duration)
        .replace(b"@@SID@@", session)
        .replace(b"@@TCID@@", b"%012x" % bits)
        .replace(b"@@N@@", b"%d" % (i % 997 + 1))
    )


def _newest(
    pool: list[tuple[bytes, float, float]], t: float, rng: random.Random, marker: str
) -> bytes:
    """A plain allowed Bash call whose id, command and summary carry the marker."""
    body = next(b for b, _, _ in pool if all(k in b for k in PLAIN))
    line = _fill(body, t, 12.5, _session_id("claude-code", rng), rng.getrandbits(48), 0)
    record = msgspec.json.decode(line)
    record["id"] = marker
    record["summary"] = f"echo {marker}"
    record["request"]["tool_input"] = {"command": f"echo {marker}", "description": "bench marker"}
    return msgspec.json.encode(record) + b"\n"


def _ts(t: float) -> bytes:
    whole = int(t)
    return time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(whole)).encode() + b".%06dZ" % int(
        (t - whole) * 1e6
    )


def _session_id(runtime: str, rng: random.Random) -> bytes:
    h = f"{rng.getrandbits(128):032x}"
    if runtime == "fastpace":
        return f"fp-{h[:12]}".encode()
    return f"{h[:8]}-{h[8:12]}-4{h[13:16]}-a{h[17:20]}-{h[20:32]}".encode()


def check_shape(path: Path, sample: int = 2000) -> None:
    """Decode the first lines and the last as hooktui's Record (when importable).

    A record shape that drifts from the contract fails here, loudly, instead of
    being measured as bad lines.
    """
    try:
        from hooktui.tap.model import Record
    except ImportError:
        return
    decoder = msgspec.json.Decoder(Record)
    with path.open("rb") as f:
        for _, line in zip(range(sample), f, strict=False):
            decoder.decode(line)
        f.seek(max(0, path.stat().st_size - (1 << 16)))
        decoder.decode(f.read().splitlines()[-1])


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("sizes", type=parse_counts, help="comma-separated counts, e.g. 10k,100k,1m")
    ap.add_argument("--dir", type=Path, default=DEFAULT_DIR)
    ap.add_argument("--seed", type=int, default=7)
    args = ap.parse_args()
    for n in args.sizes:
        t0 = time.perf_counter()
        stream = ensure_stream(n, args.dir, args.seed)
        how = "generated" if stream.generated else "reused"
        took = time.perf_counter() - t0
        print(
            f"{label(n):>5}: {stream.path} ({stream.size / 1e6:,.0f} MB, "
            f"{stream.size / n:,.0f} B/record, {how} in {took:.1f} s), marker {stream.marker}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
