"""Benchmark: open a stream of 10k / 100k / 1M calls to its newest call, hooktui vs lnav and Toolong.

Issue 12: `hooktui watch` must show the newest screenful at once whatever the
stream's size (goal: faster than lnav at every size, the first screen at 1M
within 1.5x of the first screen at 10k, and at most 250 MiB peak at 1M).

Each program runs in a real terminal (a private tmux server, 160x45 by default)
on the same generated file (streams.py: about 1.7 KB a record, like the tap's),
runs interleaved and rotated (hooktui, lnav, toolong, then lnav, toolong,
hooktui ...), medians reported. For each run:

- first screen: from the command that starts the program to the first capture
  of a screen with the newest call's row: one line holding both its marker and
  its time of day (the file's last line carries the marker in its id, which
  lnav and Toolong show in their first columns, and in its command, which
  hooktui lists beside the time; every program runs with TZ=UTC). A detail pane
  naming the newest call while the list still shows the oldest does not count.
  The screen is read through a tmux control-mode client every 10 ms, so polling
  costs no process spawns.
- settled: when the program's CPU use stops (under 3% of a core over a second):
  the end of any indexing after the first screen. `newest kept` says whether
  the newest record is still on screen then.
- peak RSS: VmHWM (what /usr/bin/time -v reports) summed over the process tree
  at the first screen and at settle; anon: the largest anonymous RSS sampled
  (file pages a viewer maps, as Toolong does, count in RSS but not here).

Run (lnav from apt, Toolong's venv is made on demand under ~/.cache/hooktui-bench):

    apt-get install lnav
    python tests/bench/watch_open_scale.py [--sizes 10k,100k,1m] [--runs 3] [--dir DIR] [--keep]
        [--hooktui LABEL=PATH ...] [--tools hooktui,lnav,toolong]

Generated files go to DIR (default: a temporary directory) and are deleted at
the end unless --keep or they were there before (then they are reused).
Not collected by pytest (no test_ prefix); timing goals live here, not in tests.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

from streams import DEFAULT_DIR, Stream, ensure_stream, label, parse_counts
from terminal import Pane, ProcessTree, Terminal, TerminalError
from viewers import Viewer, hooktui_viewers, lnav_viewer, toolong_viewer

GOAL_VS_LNAV = 1.0  # hooktui/lnav first screen, every size
GOAL_GROWTH = 1.5  # first screen at 1M / at 10k
GOAL_PEAK_1M_MIB = 250
QUIET_CPU = 0.03  # a core's share under which a program counts as idle
QUIET_WINDOW_S = 1.0


@dataclass
class Run:
    first_s: float = float("nan")
    settled_s: float = float("nan")
    peak_first_kib: int = 0
    peak_kib: int = 0
    anon_kib: int = 0
    kept: bool = False
    error: str = ""
    screens: tuple[str, str] = ("", "")  # at the first screen and at settle


@dataclass
class Cell:
    runs: list[Run] = field(default_factory=list)

    def ok(self) -> list[Run]:
        return [r for r in self.runs if not r.error]

    def median(self, attr: str) -> float:
        values = [getattr(r, attr) for r in self.ok()]
        return statistics.median(values) if values else float("nan")


def measure(term: Terminal, viewer: Viewer, stream: Stream, args: argparse.Namespace) -> Run:
    run = Run()
    t0 = time.perf_counter()
    pane = term.start(viewer.command(stream.path))
    tree = ProcessTree(pane.pid)
    try:
        if not _wait_first_screen(pane, tree, stream, t0, run, args):
            return run
        run.peak_first_kib, _ = tree.memory_kib()
        _wait_settled(tree, t0, run, args.settle_timeout)
        run.peak_kib, anon = tree.memory_kib()
        run.anon_kib = max(run.anon_kib, anon)
        last = pane.screen()
        run.kept = stream.shows_newest(last)
        run.screens = (run.screens[0], last)
        return run
    finally:
        pane.close()


def _wait_first_screen(
    pane: Pane, tree: ProcessTree, stream: Stream, t0: float, run: Run, args: argparse.Namespace
) -> bool:
    polls = 0
    while True:
        screen = pane.screen()
        now = time.perf_counter()
        if stream.shows_newest(screen):
            run.first_s = now - t0
            run.screens = (screen, "")
            return True
        polls += 1
        if polls % 10 == 0:
            run.anon_kib = max(run.anon_kib, tree.memory_kib()[1])
            dead = pane.dead()
            if dead or now - t0 > args.timeout:
                why = "exited" if dead else f"no newest record after {args.timeout:.0f} s"
                lines = [ln.strip() for ln in screen.splitlines() if ln.strip()]
                run.error = f"{why}; screen ends: {' | '.join(lines[-3:])[:200]}"
                return False
        time.sleep(args.poll_ms / 1000)


def _wait_settled(tree: ProcessTree, t0: float, run: Run, timeout: float) -> None:
    samples = [(time.perf_counter(), tree.cpu_s())]
    while samples[-1][0] - t0 < timeout:
        time.sleep(0.1)
        now, cpu = time.perf_counter(), tree.cpu_s()
        run.anon_kib = max(run.anon_kib, tree.memory_kib()[1])
        samples.append((now, cpu))
        past = [s for s in samples if s[0] <= now - QUIET_WINDOW_S]
        if past and cpu - past[-1][1] < QUIET_CPU * (now - past[-1][0]):
            run.settled_s = past[-1][0] - t0
            return


def run_all(viewers: list[Viewer], streams: list[Stream], args: argparse.Namespace) -> dict:
    results: dict[tuple[str, int], Cell] = {}
    # UTC everywhere: the newest call's row is found by its clock time.
    env = {**os.environ, "LANG": "C.UTF-8", "LC_ALL": "C.UTF-8", "TZ": "UTC"}
    term = Terminal(args.width, args.height, env)
    try:
        for viewer in viewers:  # first runs compile bytecode and write configs: untimed
            warm = measure(term, viewer, streams[0], args)
            if warm.error:
                print(f"warm-up {viewer.name}: {warm.error}", file=sys.stderr)
        for stream in streams:
            _read_through(stream.path)  # every program reads it from the page cache
            for r in range(args.runs):
                order = viewers[r % len(viewers) :] + viewers[: r % len(viewers)]
                for viewer in order:
                    run = measure(term, viewer, stream, args)
                    if args.screens:
                        _save_screens(args.screens, viewer, stream, r, run)
                    results.setdefault((viewer.name, stream.records), Cell()).runs.append(run)
                    _progress(viewer, stream, r, run)
    finally:
        term.close()
    return results


def _save_screens(directory: Path, viewer: Viewer, stream: Stream, r: int, run: Run) -> None:
    directory.mkdir(parents=True, exist_ok=True)
    for when, text in zip(("first", "settled"), run.screens, strict=True):
        name = f"{label(stream.records)}-{viewer.name}-run{r + 1}-{when}.txt"
        (directory / name).write_text(text + "\n")


def _read_through(path: Path) -> None:
    with path.open("rb", buffering=0) as f:
        while f.read(16 << 20):
            pass


def _progress(viewer: Viewer, stream: Stream, r: int, run: Run) -> None:
    what = (
        run.error
        or f"first {run.first_s:.2f} s, settled {run.settled_s:.1f} s, peak {run.peak_kib / 1024:.0f} MiB"
    )
    print(
        f"  {label(stream.records):>5} run {r + 1} {viewer.name:<12} {what}",
        file=sys.stderr,
        flush=True,
    )


def mib(kib: float) -> str:
    return "-" if kib != kib else f"{kib / 1024:,.0f}"


def secs(s: float) -> str:
    return "-" if s != s else f"{s:.2f}"


def report(
    viewers: list[Viewer], streams: list[Stream], results: dict, args: argparse.Namespace
) -> int:
    print(
        f"\nwatch to the newest call, {args.width}x{args.height}, median of {args.runs} interleaved runs"
    )
    print(
        f"{'records':>8} {'file':>8}  {'tool':<12} {'first s':>8} {'(min-max)':>13} {'settled s':>9}"
        f" {'RSS@first':>9} {'peak RSS':>8} {'anon':>6} {'newest kept':>11}"
    )
    for stream in streams:
        for viewer in viewers:
            cell = results.get((viewer.name, stream.records))
            if not cell:
                continue
            ok = cell.ok()
            firsts = [r.first_s for r in ok]
            spread = f"({min(firsts):.2f}-{max(firsts):.2f})" if firsts else ""
            kept = f"{sum(r.kept for r in ok)}/{len(ok)}"
            failed = len(cell.runs) - len(ok)
            print(
                f"{label(stream.records):>8} {stream.size / 1e6:>6,.0f}MB  {viewer.name:<12} "
                f"{secs(cell.median('first_s')):>8} {spread:>13} {secs(cell.median('settled_s')):>9} "
                f"{mib(cell.median('peak_first_kib')):>9} {mib(cell.median('peak_kib')):>8} "
                f"{mib(cell.median('anon_kib')):>6} {kept:>11}"
                + (f"  {failed} failed" if failed else "")
            )
            for r in cell.runs:
                if r.error:
                    print(f"{'':>8} {viewer.name}: {r.error}")
    return _ratios(viewers, streams, results)


def _ratios(viewers: list[Viewer], streams: list[Stream], results: dict) -> int:
    def med(name: str, n: int, attr: str) -> float:
        cell = results.get((name, n))
        return cell.median(attr) if cell else float("nan")

    ours = [v.name for v in viewers if v.family == "hooktui"]
    others = [v for v in viewers if v.family != "hooktui"]
    print("\nratios: first screen [peak RSS, anon]; under 1.0 means hooktui is faster [smaller]")
    for h in ours:
        for o in others:
            cells = [
                f"{label(n)} {med(h, n, 'first_s') / med(o.name, n, 'first_s'):.2f}x"
                f" [{med(h, n, 'peak_kib') / med(o.name, n, 'peak_kib'):.2f}x,"
                f" {med(h, n, 'anon_kib') / med(o.name, n, 'anon_kib'):.2f}x]"
                for n in (s.records for s in streams)
            ]
            print(f"  {h}/{o.name}: " + ", ".join(cells))
        if len(streams) > 1:
            lo, hi = streams[0].records, streams[-1].records
            growth = med(h, hi, "first_s") / med(h, lo, "first_s")
            print(f"  {h} {label(hi)}/{label(lo)} first screen: {growth:.2f}x")
    if not ours:
        return 0
    lnav = next((o.name for o in others if o.family == "lnav"), None)
    checked, missed = _goals(ours[0], lnav, [s.records for s in streams], med)
    if not checked:
        print("goals: none measured (they need lnav, or 1M, or both 10k and 1M)")
    else:
        verdict = "missed: " + "; ".join(missed) if missed else "met"
        print(f"goals for {ours[0]} ({', '.join(checked)}): {verdict}")
    return 1 if missed else 0


def _goals(ours: str, lnav: str | None, sizes: list[int], med) -> tuple[list[str], list[str]]:
    """Issue 12's goals that these runs measured, and those missed."""
    checked, missed = [], []
    if lnav:
        checked.append("faster than lnav")
        for n in sizes:
            ratio = med(ours, n, "first_s") / med(lnav, n, "first_s")
            if not ratio < GOAL_VS_LNAV:
                missed.append(f"{label(n)} {ratio:.2f}x lnav (goal < {GOAL_VS_LNAV}x)")
    if 10_000 in sizes and 1_000_000 in sizes:
        checked.append("1M/10k")
        growth = med(ours, 1_000_000, "first_s") / med(ours, 10_000, "first_s")
        if not growth <= GOAL_GROWTH:
            missed.append(f"1M/10k first screen {growth:.2f}x (goal ≤ {GOAL_GROWTH}x)")
    if 1_000_000 in sizes:
        checked.append("1M peak")
        peak = med(ours, 1_000_000, "peak_kib") / 1024
        if not peak <= GOAL_PEAK_1M_MIB:
            missed.append(f"1M peak {peak:,.0f} MiB (goal ≤ {GOAL_PEAK_1M_MIB} MiB)")
    return checked, missed


def parse_args() -> argparse.Namespace:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", type=parse_counts, default="10k,100k,1m", help="e.g. 10k,100k,1m")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument(
        "--dir", type=Path, default=None, help=f"where streams go (default {DEFAULT_DIR})"
    )
    ap.add_argument("--keep", action="store_true", help="keep generated streams for the next run")
    ap.add_argument(
        "--hooktui",
        action="append",
        default=[],
        metavar="LABEL=PATH",
        help="a hooktui to measure (repeat to compare installs; the first is 'hooktui')",
    )
    ap.add_argument("--tools", default="hooktui,lnav,toolong")
    ap.add_argument("--toolong", help="path of Toolong's `tl` (default: its own venv in the cache)")
    ap.add_argument("--no-install", action="store_true", help="do not make Toolong's venv")
    ap.add_argument("--size", default="160x45", help="terminal WIDTHxHEIGHT")
    ap.add_argument("--screens", type=Path, help="save each run's screens (first, settled) here")
    ap.add_argument("--poll-ms", type=float, default=10.0)
    ap.add_argument(
        "--timeout", type=float, default=300.0, help="give up on a first screen after this"
    )
    ap.add_argument("--settle-timeout", type=float, default=300.0)
    args = ap.parse_args()
    unknown = set(args.tools.split(",")) - {"hooktui", "lnav", "toolong"}
    if unknown:
        ap.error(f"--tools: unknown {', '.join(sorted(unknown))} (hooktui, lnav, toolong)")
    try:
        args.width, args.height = (int(x) for x in args.size.lower().split("x"))
    except ValueError:
        ap.error(f"--size {args.size}: expected WIDTHxHEIGHT, e.g. 160x45")
    return args


def find_viewers(args: argparse.Namespace, lnav_home: Path) -> list[Viewer]:
    """The viewers asked for that are here; each one missing is named with how to get it."""
    tools = set(args.tools.split(","))
    viewers = hooktui_viewers(args.hooktui) if "hooktui" in tools else []
    if "lnav" in tools:
        viewers.append(lnav_viewer(lnav_home))
    if "toolong" in tools:
        viewers.append(toolong_viewer(args.toolong, not args.no_install))
    for missing in [v for v in viewers if isinstance(v, str)]:
        print(missing, file=sys.stderr)
    return [v for v in viewers if isinstance(v, Viewer)]


def make_streams(args: argparse.Namespace, directory: Path, streams: list[Stream]) -> None:
    for n in args.sizes:
        t0 = time.perf_counter()
        streams.append(ensure_stream(n, directory))
        s = streams[-1]
        how = "generated" if s.generated else "reused"
        took = time.perf_counter() - t0
        print(
            f"{label(n)}: {s.path} ({s.size / 1e6:,.0f} MB, {how} in {took:.1f} s)", file=sys.stderr
        )


def main() -> int:
    args = parse_args()
    if not shutil.which("tmux"):
        print("tmux is needed (apt-get install tmux)", file=sys.stderr)
        return 2
    lnav_home = Path(tempfile.mkdtemp(prefix="hooktui-bench-lnav-home-"))
    directory = args.dir or DEFAULT_DIR
    streams: list[Stream] = []
    try:
        viewers = find_viewers(args, lnav_home)
        make_streams(args, directory, streams)
        return report(viewers, streams, run_all(viewers, streams, args), args)
    except TerminalError as e:
        print(f"terminal: {e}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    finally:
        shutil.rmtree(lnav_home, ignore_errors=True)
        if not args.keep:  # files that were there before stay: someone kept them
            for s in streams:
                if s.generated:
                    s.path.unlink(missing_ok=True)
            if args.dir is None and directory.exists() and not any(directory.iterdir()):
                directory.rmdir()


if __name__ == "__main__":
    sys.exit(main())
