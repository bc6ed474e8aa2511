"""Running selected records against a policy: jobs, repeats, timeouts.

Each record's hook runs through the tap's own runner (see `procs`: its process group
is killed on timeout and after it ends, and strays are reaped) and its answer is
judged by the adapter of the runtime that recorded it, as is the recorded outcome
(`baseline`): the replay is compared with today's reading of the recording. Threads
are enough for --jobs: the work happens in the subprocesses.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable, Iterable
from concurrent.futures import ThreadPoolExecutor

import msgspec
from hooktui.replay import compare, procs
from hooktui.replay.baseline import baseline, judge
from hooktui.replay.machine import needs_text
from hooktui.replay.policy import Plan, build_plan, skip_reason
from hooktui.replay.report import Report, Result
from hooktui.replay.session import SessionRecord
from hooktui.tap.canonical import Outcome


class Options(msgspec.Struct, kw_only=True):
    policy: str | None = None  # a shell command line; None: each record's own hook
    timeout_s: float | None = None  # None: the record's timeout, else the default
    jobs: int = 0  # 0: one per CPU
    repeat: int = 1
    base_env: dict[str, str] | None = None  # None: this process's environment


def _here() -> str:
    try:
        return os.getcwd()
    except OSError:  # the current directory was removed
        return ""


def default_jobs() -> int:
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not on Linux
        return max(1, os.cpu_count() or 1)


def _skipped(index: int, recorded: SessionRecord, why: str) -> Result:
    return Result(
        index=index,
        line=recorded.line,
        record=recorded.record,
        cls=compare.SKIPPED,
        skip_reason=why,
    )


def replay_record(
    index: int, recorded: SessionRecord, options: Options, *, generation: int | None = None
) -> Result:
    """Replay one record (options.repeat times) and classify it; never raises for
    what a session holds (a record nested too deep to handle is skipped).
    `generation`: see procs.run."""
    try:
        return _replay_record(index, recorded, options, generation)
    except RecursionError:
        return _skipped(
            index,
            recorded,
            "nested too deep to replay (about 1,000 levels deep or more; 10,000 on Python 3.13)",
        )


def _replay_record(
    index: int, recorded: SessionRecord, options: Options, generation: int | None
) -> Result:
    plan = plan_for(recorded, options)
    if isinstance(plan, str):
        return _skipped(index, recorded, plan)
    return classify(index, recorded, plan, execute(plan, options, generation))


def plan_for(recorded: SessionRecord, options: Options) -> Plan | str:
    """What to run for `recorded`, or why it is not run (the skip reason)."""
    why = skip_reason(recorded.record, options.policy)
    if why:
        return why
    plan = build_plan(recorded.record, options.policy, options.timeout_s, options.base_env)
    return needs_text(plan.needs) if plan.needs else plan


def execute(plan: Plan, options: Options, generation: int | None = None) -> list[Outcome]:
    """Run `plan` options.repeat times; the outcomes in order."""
    # When the hook would get this very process's cwd and environment, say so
    # (None): the runner then spawns directly instead of fork + chdir + exec,
    # which costs a few ms per hook (see hooktui replay's main, which sets
    # HOOKTUI_REPLAY=1 on its own process so that this is the common case).
    cwd = None if plan.cwd == _here() else plan.cwd
    env: dict[str, str] | None = plan.env
    if options.base_env is None and plan.env == os.environ:
        env = None
    return [
        procs.run(
            plan.argv,
            plan.stdin,
            cwd=cwd,
            env=env,
            timeout_s=plan.timeout_s,
            generation=generation,
        )
        for _ in range(max(1, options.repeat))
    ]


def classify(
    index: int, recorded: SessionRecord, plan: Plan | Ran, outcomes: list[Outcome]
) -> Result:
    """The Result of `recorded` whose hook, run as `plan` said, gave `outcomes`: each judged
    by the record's runtime and compared with today's reading of the recording."""
    record = recorded.record
    base = baseline(record)
    runs = [judge(record, outcome) for outcome in outcomes]
    cls, differs, direction, deciding = compare.classify_runs(base.verdict, runs)
    return Result(
        index=index,
        line=recorded.line,
        record=record,
        cls=cls,
        differs=differs,
        direction=direction,
        after=runs[deciding],
        outcome=outcomes[deciding],
        runs=runs,
        run_index=deciding,
        flaky=len({compare.verdict_key(v) for v in runs}) > 1,
        argv=list(plan.argv),
        baseline=base.verdict if base.rejudged else None,
        rules_changed=base.rules_changed,
        notes=list(plan.notes),
    )


class Ran(msgspec.Struct, kw_only=True):
    """What `classify` needs of a run made elsewhere (another record's, the same
    request: see replay.digest): its command and notes."""

    argv: list[str]
    notes: list[str] = []


def replay(
    records: Iterable[SessionRecord],
    options: Options,
    *,
    session: str = "",
    bad_lines: int = 0,
    on_result: Callable[[Result], None] | None = None,
    cancel: threading.Event | None = None,
) -> Report:
    """Replay `records`; the report keeps their order whatever finishes first.

    `on_result` is called once per record, in order, from the calling thread.
    Setting `cancel` stops starting new records (the running ones finish).
    """
    records = list(records)
    procs.start()
    jobs = options.jobs or default_jobs()
    results: list[Result] = []
    stop = cancel if cancel is not None else threading.Event()

    def one(item: tuple[int, SessionRecord]) -> Result | None:
        # Read before the stop check: on Ctrl-C, `stop` is set before kill_running()
        # (the CLI calls it once this function has raised), so a worker that saw no
        # stop read the count from before the kill, and its hook is killed as it
        # starts instead of running on while the exit waits for this thread.
        generation = procs.generation()
        if stop.is_set():
            return None
        return replay_record(item[0], item[1], options, generation=generation)

    def collect(produced: Iterable[Result | None]) -> None:
        for result in produced:
            if result is None:
                continue
            results.append(result)
            if on_result is not None:
                on_result(result)

    try:
        if jobs <= 1 or len(records) <= 1:
            collect(map(one, enumerate(records)))
        else:
            pool = ThreadPoolExecutor(max_workers=jobs, thread_name_prefix="replay")
            try:
                collect(pool.map(one, enumerate(records)))
            except BaseException:  # Ctrl-C: start nothing new, let the running hooks end
                stop.set()
                pool.shutdown(wait=False, cancel_futures=True)
                raise
            pool.shutdown()
    finally:
        # On Ctrl-C too: what the hooks left outside their groups (a `setsid` daemon)
        # is only ever killed by a sweep. (With hooks still running in the pool, it
        # does nothing: the last of them sweeps as it ends, see kill_running.)
        procs.sweep()
    return Report(
        session=session,
        policy=options.policy,
        repeat=max(1, options.repeat),
        bad_lines=bad_lines,
        results=results,
    )
