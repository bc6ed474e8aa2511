"""One part of a fleet replay: read it, pick its records, run its requests, judge them.

The per-record engine is replay.run's (plan_for, execute, classify): a part only
decides which records share a run (replay.digest) and keeps what the merge needs.
A part runs in three steps so that a cluster can run each request once across the
whole fleet (see tui/cli/fleet/cluster.py):

1. `scan`: the hooks the part holds and the requests of each (for --hook and for
   choosing which part runs which request);
2. `run_requests`: run the requests this part was given, once each;
3. `judge`: every selected record against the run of its request, compacted to
   what the report shows (replay.merge).

`--part K/N` does the three on one part, its requests all its own.
"""

from __future__ import annotations

import hashlib
import os
from collections import Counter
from collections.abc import Callable
from typing import BinaryIO

import msgspec
from hooktui.replay import compare
from hooktui.replay.digest import request_digest
from hooktui.replay.environ import REPLAY_ENV
from hooktui.replay.hooks import hook_name, keep_hooks
from hooktui.replay.parts import Owned, Part, owned_lines
from hooktui.replay.policy import policy_argv, skip_reason
from hooktui.replay.run import Options, Ran, classify, execute, plan_for
from hooktui.replay.session import BAD_DETAIL, SessionError, SessionRecord, decode_line
from hooktui.tap.canonical import Outcome

Opener = Callable[[str], BinaryIO]  # a stream's path or URL -> a binary file, seekable


class Job(msgspec.Struct, kw_only=True, frozen=True):
    """What every part of one fleet replay does alike."""

    policy: str | None = None
    timeout_s: float | None = None
    repeat: int = 1
    filter: str | None = None
    keep: frozenset[str] | None = None  # hook names to replay; None: every hook
    every_call: bool = False  # run each record, even a request seen before

    def options(self) -> Options:
        # Within a part records run one after another: the cluster runs parts side by side.
        return Options(policy=self.policy, timeout_s=self.timeout_s, jobs=1, repeat=self.repeat)


class OutcomeData(msgspec.Struct, kw_only=True, array_like=True):
    stdout: bytes = b""
    stderr: bytes = b""
    exit_code: int | None = None
    signal: int | None = None
    timed_out: bool = False
    duration_ms: float = 0.0
    spawn_error: str = ""

    @classmethod
    def of(cls, o: Outcome) -> OutcomeData:
        return cls(**{name: getattr(o, name) for name in Outcome.__slots__})

    def outcome(self) -> Outcome:
        return Outcome(**{name: getattr(self, name) for name in Outcome.__slots__})


class RunData(msgspec.Struct, kw_only=True):
    """The one run of a request, or why it could not run on the worker it was given to."""

    argv: list[str] = []
    notes: list[str] = []
    outcomes: list[OutcomeData] = []
    skip: str = ""  # a file of the recorded machine it needs (replay.machine)


class Shown(msgspec.Struct, kw_only=True):
    """A record the report shows: its line as read, and its run (or why it was skipped)."""

    segment: int  # index into the part's segments
    line: int  # within the segment, from 1
    raw: bytes
    run: RunData | None = None
    skip: str = ""


class HookSeen(msgspec.Struct, kw_only=True):
    names: list[str]  # every name it answers to (hooks._names)
    records: int = 0


class Scan(msgspec.Struct, kw_only=True):
    hooks: dict[str, HookSeen] = {}
    # hook name -> the distinct requests of its replayable records, in order
    requests: dict[str, list[bytes]] = {}
    records: int = 0


class Loaded(msgspec.Struct, kw_only=True):
    part: Part
    records: list[SessionRecord] = []
    raw: list[bytes] = []
    where: list[tuple[int, int]] = []  # (segment, line within it) per record
    owned: list[Owned] = []  # per segment
    bad_lines: int = 0
    bad_errors: list[tuple[int, int, str]] = []  # (segment, line, why), the first few


def load(part: Part, opener: Opener) -> Loaded:
    """Every record whose line starts in `part` (bad lines counted, as a session's)."""
    loaded = Loaded(part=part)
    for s, segment in enumerate(part.segments):
        found = Owned()
        loaded.owned.append(found)
        with opener(segment.stream) as f:
            for line in owned_lines(f, segment, found):
                if not line.strip():
                    continue
                record = decode_line(line)
                if isinstance(record, str):
                    loaded.bad_lines += 1
                    if len(loaded.bad_errors) < BAD_DETAIL:
                        loaded.bad_errors.append((s, found.lines, record))
                    continue
                loaded.records.append(SessionRecord(line=found.lines, record=record))
                loaded.raw.append(line)
                loaded.where.append((s, found.lines))
    return loaded


def _names(recorded: SessionRecord) -> list[str]:
    from hooktui.replay.hooks import _names as names_of

    return sorted(names_of(recorded.record))


def _filtered(loaded: Loaded, job: Job) -> list[int]:
    if not job.filter:
        return list(range(len(loaded.records)))
    from hooktui.tap.read.filter import compile_filter
    from hooktui.tap.read.filter_tokens import FilterError

    try:
        predicate = compile_filter(job.filter)
    except FilterError as exc:
        raise SessionError(f"bad --filter: {exc}") from None
    return [i for i, e in enumerate(loaded.records) if predicate(e.record)]


def selected(loaded: Loaded, job: Job) -> tuple[list[int], Counter]:
    """Indexes of the records to replay, and the hooks left out (name -> records)."""
    kept: list[int] = []
    left: Counter = Counter()
    for i in _filtered(loaded, job):
        name = hook_name(loaded.records[i].record)
        if job.keep is None or name in job.keep:
            kept.append(i)
        else:
            left[name] += 1
    return kept, left


def _argv(recorded: SessionRecord, job: Job) -> list[str]:
    return policy_argv(job.policy) if job.policy is not None else list(recorded.record.hook.argv)


def digest_of(loaded: Loaded, i: int, job: Job) -> bytes:
    """The request of recorded `i` (replay.digest); with --every-call, the record itself."""
    recorded = loaded.records[i]
    if not job.every_call:
        try:
            return request_digest(recorded.record, _argv(recorded, job), job.timeout_s)
        except (RecursionError, TypeError, msgspec.EncodeError):
            pass  # a request too odd to name: it stands alone
    s, line = loaded.where[i]
    here = f"{loaded.part.segments[s].stream}\0{loaded.part.segments[s].start}\0{line}"
    return hashlib.blake2b(here.encode("utf-8", "surrogateescape"), digest_size=16).digest()


def scan(part: Part, job: Job, opener: Opener) -> Scan:
    """Step 1: the part's hooks and, per hook, its distinct replayable requests."""
    loaded = load(part, opener)
    out = Scan()
    seen: set[tuple[str, bytes]] = set()
    for i in _filtered(loaded, job):
        recorded = loaded.records[i]
        name = hook_name(recorded.record)
        hook = out.hooks.setdefault(name, HookSeen(names=_names(recorded)))
        hook.records += 1
        out.records += 1
        if skip_reason(recorded.record, job.policy):
            continue
        digest = digest_of(loaded, i, job)
        if (name, digest) not in seen:
            seen.add((name, digest))
            out.requests.setdefault(name, []).append(digest)
    return out


def run_requests(
    part: Part, job: Job, opener: Opener, mine: frozenset[bytes] | None = None
) -> dict[bytes, RunData]:
    """Step 2: run each request of the part that is `mine` (None: all), once."""
    # A worker only replays: with the marker in its own environment, as `hooktui
    # replay` sets it on itself, a hook that needs nothing else is started with
    # posix_spawn, not by forking the worker (large: Dask's) for each call (run.execute).
    os.environ[REPLAY_ENV] = "1"
    loaded = load(part, opener)
    kept, _ = selected(loaded, job)
    return _run(loaded, kept, job, mine)


def _run(
    loaded: Loaded, kept: list[int], job: Job, mine: frozenset[bytes] | None
) -> dict[bytes, RunData]:
    options = job.options()
    done: dict[bytes, RunData] = {}
    for i in kept:
        recorded = loaded.records[i]
        if skip_reason(recorded.record, job.policy):
            continue
        digest = digest_of(loaded, i, job)
        if digest in done or (mine is not None and digest not in mine):
            continue
        plan = plan_for(recorded, options)
        if isinstance(plan, str):
            done[digest] = RunData(argv=_argv(recorded, job), skip=plan)
            continue
        outcomes = execute(plan, options)
        done[digest] = RunData(
            argv=list(plan.argv),
            notes=list(plan.notes),
            outcomes=[OutcomeData.of(o) for o in outcomes],
        )
    return done


class PartOutput(msgspec.Struct, kw_only=True):
    """What one part gives the merge (and what `--part K/N` writes)."""

    format: str = "hooktui-replay-part/1"
    part: Part
    streams: list[tuple[str, int]]  # every stream of the replay and its size, for the merge
    policy: str | None = None
    repeat: int = 1
    lines: list[int] = []  # lines owned, per segment
    bad_lines: int = 0
    bad_errors: list[tuple[int, int, str]] = []
    left_out: dict[str, int] = {}
    unlisted: int = 0  # unchanged records with nothing to show
    shown: list[Shown] = []
    records: int = 0  # records replayed (or skipped) in this part
    runs: int = 0  # requests this part ran (each --repeat times)
    # The hook a part replayed whole for being the only one it held (`--part`, no
    # --hook): the merge refuses parts that did so for different hooks.
    alone: list[str] = []
    hooks: list[str] = []  # the hooks whose records it replayed


def _remarkable(cls: str, result) -> bool:
    return cls != compare.UNCHANGED or bool(result.notes or result.rules_changed or result.flaky)


def judge(
    part: Part,
    job: Job,
    opener: Opener,
    table: dict[bytes, RunData],
    streams: list[tuple[str, int]],
    ran: int = 0,
) -> PartOutput:
    """Step 3: each selected record against the run of its request (`table`)."""
    loaded = load(part, opener)
    kept, left = selected(loaded, job)
    return _judged(loaded, kept, left, job, table, streams, ran)


def _judged(loaded, kept, left, job, table, streams, ran) -> PartOutput:
    out = PartOutput(
        part=loaded.part,
        streams=streams,
        policy=job.policy,
        repeat=max(1, job.repeat),
        lines=[o.lines for o in loaded.owned],
        bad_lines=loaded.bad_lines,
        bad_errors=loaded.bad_errors,
        left_out=dict(left),
        records=len(kept),
        runs=ran,
        hooks=sorted({hook_name(loaded.records[i].record) for i in kept}),
    )
    for i in kept:
        recorded = loaded.records[i]
        s, line = loaded.where[i]
        why = skip_reason(recorded.record, job.policy)
        run = None if why else table.get(digest_of(loaded, i, job))
        if run is None and not why:
            raise SessionError(f"part {loaded.part.index}: no run for the record on line {line}")
        if why or run.skip:
            out.shown.append(Shown(segment=s, line=line, raw=loaded.raw[i], skip=why or run.skip))
            continue
        outcomes = [o.outcome() for o in run.outcomes]
        result = classify(0, recorded, Ran(argv=run.argv, notes=run.notes), outcomes)
        if _remarkable(result.cls, result):
            out.shown.append(Shown(segment=s, line=line, raw=loaded.raw[i], run=run))
        else:
            out.unlisted += 1
    return out


def replay_part(
    part: Part, job: Job, opener: Opener, streams: list[tuple[str, int]], hook: str | None
) -> PartOutput:
    """`--part K/N`: the three steps on one part, every request of it its own. Which
    hook a --policy replaces is decided from this part alone (hooks.keep_hooks)."""
    loaded = load(part, opener)
    seen: dict[str, tuple[set[str], int]] = {}
    for i in _filtered(loaded, job):
        recorded = loaded.records[i]
        name = hook_name(recorded.record)
        names, n = seen.get(name, (set(_names(recorded)), 0))
        seen[name] = (names, n + 1)
    keep, _ = keep_hooks(seen, job.policy, hook, whole=False)
    alone = keep is not None and not keep and hook is None and len(seen) == 1
    if alone:  # as a local replay: a selection of one hook is replayed whole
        keep = None
    job = msgspec.structs.replace(job, keep=keep)
    kept, left = selected(loaded, job)
    table = _run(loaded, kept, job, None)
    ran = sum(1 for r in table.values() if not r.skip)
    out = _judged(loaded, kept, left, job, table, streams, ran)
    out.alone = sorted(seen) if alone else []
    return out
