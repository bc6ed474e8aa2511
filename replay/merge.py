"""The parts of a fleet replay merged into the one report a local replay gives.

Each part (replay.partrun) sent its counts, the records the report shows (their
lines as read, with the run of their request) and how many lines it owned. The
merge numbers every line as the whole stream would, judges the shown records again
with the same engine (replay.run.classify: deterministic, and cheap next to running
hooks), and adds the rest up. Parts of different replays, or a set with a part
missing or given twice, are refused.
"""

from __future__ import annotations

from collections import Counter

from hooktui.replay.compare import SKIPPED
from hooktui.replay.partrun import PartOutput, Shown
from hooktui.replay.report import Report, Result
from hooktui.replay.run import Ran, classify
from hooktui.replay.session import BAD_DETAIL, SessionError, SessionRecord, decode_line, plural


def _check(outputs: list[PartOutput]) -> None:
    if not outputs:
        raise SessionError("no parts to merge")
    first = outputs[0]
    for out in outputs[1:]:
        if (out.streams, out.part.of, out.policy, out.repeat) != (
            first.streams,
            first.part.of,
            first.policy,
            first.repeat,
        ):
            raise SessionError(
                f"part {out.part.index} and part {first.part.index} come from different "
                "replays (other streams, sizes, number of parts, policy or --repeat)"
            )
    have = Counter(out.part.index for out in outputs)
    twice = sorted(k for k, n in have.items() if n > 1)
    if twice:
        raise SessionError(f"part {twice[0]} of {first.part.of} is given twice")
    alone = {name for out in outputs for name in out.alone}
    replayed = alone | {name for out in outputs if not out.alone for name in out.hooks}
    if alone and len(replayed) > 1:
        names = ", ".join(sorted(replayed))
        raise SessionError(
            f"the parts replayed different hooks ({names}): say which one --policy replaces "
            "with --hook NAME, or --hook all for every record"
        )
    missing = [k for k in range(1, first.part.of + 1) if k not in have]
    if missing:
        shown = ", ".join(map(str, missing[:10])) + (", …" if len(missing) > 10 else "")
        raise SessionError(f"{plural(len(missing), 'part')} of {first.part.of} missing: {shown}")


def _line_bases(outputs: list[PartOutput]) -> dict[tuple[int, int], int]:
    """(part index, segment) -> lines of its stream owned by the parts before it."""
    before: Counter = Counter()
    bases: dict[tuple[int, int], int] = {}
    for out in outputs:
        for s, segment in enumerate(out.part.segments):
            bases[(out.part.index, s)] = before[segment.stream]
            before[segment.stream] += out.lines[s] if s < len(out.lines) else 0
    return bases


def _result(index: int, line: int, item: Shown, source: str) -> Result:
    record = decode_line(item.raw)
    if isinstance(record, str):  # the part read it as a record: a part file was altered
        raise SessionError(f"a part holds a line that is not a record ({record})")
    recorded = SessionRecord(line=line, record=record)
    if item.skip or item.run is None:
        result = Result(index=index, line=line, record=record, cls=SKIPPED, skip_reason=item.skip)
    else:
        outcomes = [o.outcome() for o in item.run.outcomes]
        result = classify(index, recorded, Ran(argv=item.run.argv, notes=item.run.notes), outcomes)
    result.source = source
    return result


def merge(outputs: list[PartOutput]) -> Report:
    """One report from every part of one replay."""
    _check(outputs)
    outputs = sorted(outputs, key=lambda out: out.part.index)
    first = outputs[0]
    order = {stream: n for n, (stream, _) in enumerate(first.streams)}
    several = len(first.streams) > 1
    bases = _line_bases(outputs)
    placed: list[tuple[int, int, Shown, str]] = []
    bad: list[tuple[int, int, str]] = []
    left: Counter = Counter()
    for out in outputs:
        left.update(out.left_out)
        for item in out.shown:
            stream = out.part.segments[item.segment].stream
            line = bases[(out.part.index, item.segment)] + item.line
            placed.append((order[stream], line, item, stream if several else ""))
        for s, line, why in out.bad_errors:
            stream = out.part.segments[s].stream
            bad.append((order[stream], bases[(out.part.index, s)] + line, why))
    placed.sort(key=lambda p: (p[0], p[1]))
    results = [_result(i, line, item, source) for i, (_, line, item, source) in enumerate(placed)]
    return Report(
        session=", ".join(stream for stream, _ in first.streams),
        policy=first.policy,
        repeat=first.repeat,
        bad_lines=sum(out.bad_lines for out in outputs),
        bad_line_errors=[(line, why) for _, line, why in sorted(bad)[:BAD_DETAIL]],
        results=results,
        left_out=dict(left.most_common()),
        left_out_hint="--hook all" if left else "",
        unlisted=sum(out.unlisted for out in outputs),
        fleet=fleet_figures(outputs, results),
    )


def fleet_figures(outputs: list[PartOutput], results: list[Result]) -> dict[str, int]:
    """How the work was shared out: parts, records, requests run, runs saved."""
    records = sum(out.records for out in outputs)
    skipped = sum(1 for r in results if r.cls == SKIPPED)
    runs = sum(out.runs for out in outputs)
    return {
        "parts": len(outputs),
        "records": records,
        "requests_run": runs,
        "runs_saved": max(0, records - skipped - runs),
    }
