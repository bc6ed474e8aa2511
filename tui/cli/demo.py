"""`hooktui demo`: real traffic through the real tap, for a first look with no agent installed."""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import threading
from collections import Counter
from pathlib import Path

from hooktui.tui.cli.args import OneLineParser, app_exit_code, number
from hooktui.tui.cli.demo_traffic import Generator, demo_runtimes
from hooktui.tui.present.format import count_of

_positive = number(float, "a number", lambda v: v > 0, "must be more than 0, not {text}")
_count = number(int, "a whole number", lambda v: v >= 0, "must be 0 (forever) or more, not {text}")


def _parser() -> argparse.ArgumentParser:
    p = OneLineParser(
        prog="hooktui demo",
        description="Run example guards through the real tap on realistic requests from "
        f"{demo_runtimes()}, and watch the traffic.",
    )
    p.add_argument("--no-ui", action="store_true", help="only generate traffic (for scripts)")
    p.add_argument("--rate", type=_positive, default=4.0, help="calls per second (default 4)")
    p.add_argument(
        "--count",
        type=_count,
        default=None,
        help="calls to make; 0 = until stopped (default: 0 with the UI, 40 with --no-ui)",
    )
    p.add_argument("--stream", metavar="PATH", help="stream to write (default: a new temp file)")
    return p


def _tally_line(stream: Path, offset: int, calls: int, errors: int) -> str:
    decisions: Counter[str] = Counter()
    runtimes: set[str] = set()
    try:
        with stream.open("rb") as f:
            f.seek(offset)
            for line in f.read().split(b"\n")[:-1]:
                try:
                    record = json.loads(line)
                except ValueError:
                    continue
                decisions[record.get("decision", "?")] += 1
                runtimes.add(record.get("runtime", "?"))
    except OSError:
        pass
    parts = ", ".join(f"{d} {n}" for d, n in sorted(decisions.items()))
    line = f"{count_of(calls, 'call')}, {sum(decisions.values()):,} recorded ({parts or 'none'})"
    line += f" from {count_of(len(runtimes), 'runtime')} into {stream}"
    if errors:
        line += f"; {count_of(errors, 'call')} could not run"
    errors_log = stream.with_name(stream.name + ".errors.log")
    if sum(decisions.values()) < calls and errors_log.exists():
        line += f"; the tap's errors are in {errors_log}"
    return line


def watch_app(stream: Path):
    """The watch screen on the demo's stream (ImportError when watch is not available)."""
    from hooktui.tui.cli.launch import watch_app as launch

    return launch([str(stream.absolute())])


def main(argv: list[str]) -> int:
    try:
        args = _parser().parse_args(argv)
    except SystemExit as exc:
        return int(exc.code or 0)
    count = args.count if args.count is not None else (40 if args.no_ui else 0)

    if not args.no_ui:
        if not (sys.stdin.isatty() and sys.stdout.isatty()):
            sys.stderr.write(
                "hooktui demo: the watch screen needs a terminal; use `hooktui demo --no-ui`\n"
            )
            return 2

    if args.stream:
        stream = Path(args.stream)
        if stream.is_dir():
            sys.stderr.write(f"hooktui demo: {stream} is a directory, not a stream file\n")
            return 2
    else:
        stream = Path(tempfile.mkdtemp(prefix="hooktui-demo-")) / "stream.jsonl"
    offset = stream.stat().st_size if stream.is_file() else 0
    gen = Generator(str(stream), rate=args.rate, count=count, wait=args.no_ui)

    if args.no_ui:
        print(f"hooktui demo: writing to {stream}", flush=True)
        try:
            tally = gen.run()
        except KeyboardInterrupt:
            gen.stop.set()
            tally = gen.tally
        print(_tally_line(stream, offset, tally.calls, tally.errors))
        return 0 if tally.calls else 1

    app = watch_app(stream)
    thread = threading.Thread(target=gen.run, name="demo-traffic", daemon=True)
    thread.start()
    try:
        code = app.run()
    finally:
        gen.stop.set()
        thread.join(timeout=10)
    print(f"hooktui demo: the stream is kept at {stream} (`hooktui watch {stream}`)")
    return app_exit_code(app, code)
