"""Fleet replay on a Dask cluster: three rounds of tasks over the parts.

1. scan every part (its hooks, its distinct requests);
2. give each request to the first part that holds it, and run the parts' requests;
3. judge every part's records against the runs, and merge (replay.merge).

So a request made a thousand times across the fleet runs once, wherever it is.
The tasks are replay.partrun's functions, sent by name: hooktui must be installed on
the workers (the same version: the part's results are judged by its rules).
"""

from __future__ import annotations

import argparse
import logging
import os
import sys
import time
from collections.abc import Iterable

import msgspec
from hooktui.replay.hooks import keep_hooks
from hooktui.replay.merge import merge
from hooktui.replay.partrun import Job, Scan, judge, run_requests, scan
from hooktui.replay.parts import Part, split
from hooktui.replay.report import Report
from hooktui.tui.cli.args import UsageError
from hooktui.tui.cli.fleet.extras import need
from hooktui.tui.cli.fleet.streams import expand, open_stream

CONNECT_TIMEOUT_S = 60
PARTS_PER_THREAD = 4
LOCAL = "local"


def _local_workers(address: str) -> int:
    _, _, n = address.partition(":")
    if not n:
        return max(1, len(os.sched_getaffinity(0)))
    if not n.isdigit() or not 1 <= int(n) <= 256:
        raise UsageError(f"--cluster local:N needs N from 1 to 256: {address!r}")
    return int(n)


def _spawnable_main() -> None:
    """Let multiprocessing's spawn start LocalCluster's workers from `hooktui`.

    A spawned child first runs the parent's main module again, found by its path
    unless it names a module: `bin/hooktui` would replay all over again in each
    worker. Naming the dispatcher's module instead makes the child import it, which
    does nothing (it runs only as __main__)."""
    import importlib.util

    main = sys.modules["__main__"]
    if getattr(main, "__spec__", None) is None:
        main.__spec__ = importlib.util.find_spec("hooktui.tui.cli.main")


def connect(address: str):
    """(client, the LocalCluster started here or None)."""
    need("distributed")
    import dask
    from distributed import Client, LocalCluster

    # A loaded machine (or a busy scheduler) can take longer than Dask's 30 s to
    # connect; a replay would rather wait than fail.
    dask.config.set({"distributed.comm.timeouts.connect": f"{CONNECT_TIMEOUT_S}s"})

    if address == LOCAL or address.startswith(LOCAL + ":"):
        n = _local_workers(address)
        _spawnable_main()
        cluster = LocalCluster(
            n_workers=n,
            threads_per_worker=1,
            processes=True,
            dashboard_address=None,
            silence_logs=logging.ERROR,
        )
        return Client(cluster, timeout=CONNECT_TIMEOUT_S), cluster
    try:
        return Client(address, timeout=CONNECT_TIMEOUT_S), None
    except (OSError, TimeoutError, ValueError) as exc:
        raise UsageError(f"--cluster {address}: cannot reach the scheduler ({exc})") from None


class Progress:
    """`replaying: parts 3/8 · 412 records/s · ETA 0:42` on stderr when it is a terminal."""

    def __init__(self, phase: str, total_parts: int, total_records: int, stream=None) -> None:
        self.phase, self.parts, self.records = phase, total_parts, total_records
        self.done_parts = self.done_records = 0
        self.start = time.monotonic()
        self.stream = stream if stream is not None else sys.stderr
        self.on = self.stream.isatty()

    def step(self, records: int) -> None:
        self.done_parts += 1
        self.done_records += records
        if not self.on:
            return
        self.stream.write(f"\r\x1b[K{self.line(time.monotonic() - self.start)}")
        self.stream.flush()

    def line(self, elapsed: float) -> str:
        """`replaying: parts 3/8 · 412 records/s · ETA 0:42` after `elapsed` seconds."""
        rate = self.done_records / max(elapsed, 1e-6)
        text = f"{self.phase}: parts {self.done_parts}/{self.parts}"
        if self.records:
            left = (self.records - self.done_records) / rate if rate else 0.0
            eta = f"{int(left) // 3600}:{int(left) // 60 % 60:02d}:{int(left) % 60:02d}"
            text += f" · {rate:,.0f} records/s · ETA {eta}"
        return text

    def clear(self) -> None:
        if self.on:
            self.stream.write("\r\x1b[K")
            self.stream.flush()


def _gather(client, futures: list, progress: Progress, weights: list[int]) -> list:
    """The futures' results in submission order, progress stepped as each lands."""
    from distributed import as_completed

    index = {f.key: i for i, f in enumerate(futures)}
    out: list = [None] * len(futures)
    try:
        for future, result in as_completed(futures, with_results=True):
            i = index[future.key]
            out[i] = result
            progress.step(weights[i])
    finally:
        progress.clear()
    return out


def _owners(parts: list[Part], scans: list[Scan], keep) -> dict[int, frozenset[bytes]]:
    """Each request to the first part that holds it."""
    owner: dict[bytes, int] = {}
    for part, found in zip(parts, scans, strict=True):
        for name, requests in found.requests.items():
            if keep is None or name in keep:
                for digest in requests:
                    owner.setdefault(digest, part.index)
    mine: dict[int, set[bytes]] = {p.index: set() for p in parts}
    for digest, index in owner.items():
        mine[index].add(digest)
    return {k: frozenset(v) for k, v in mine.items()}


def _needed(found: Scan, keep) -> set[bytes]:
    return {d for name, ds in found.requests.items() if keep is None or name in keep for d in ds}


def _check_policy_on_workers(client, job: Job) -> None:
    from hooktui.replay.policy import watch_paths

    for path in watch_paths(job.policy, []) if job.policy else []:
        found = client.run(os.path.exists, path)
        lacking = [worker for worker, ok in found.items() if not ok]
        if lacking:
            raise UsageError(
                f"the policy's file {path} is not on worker {lacking[0]} "
                f"({len(lacking)} of {len(found)} lack it): put it where every worker reads it"
            )


def _replay(client, args: argparse.Namespace, job: Job) -> Report:
    streams = expand(args.streams)
    threads = max(1, sum(client.nthreads().values()))
    parts = split(streams, args.parts or PARTS_PER_THREAD * threads)
    _check_policy_on_workers(client, job)
    scans: list[Scan] = _gather(
        client,
        client.map(scan, parts, job=job, opener=open_stream, pure=False),
        Progress("scanning", len(parts), 0),
        [0] * len(parts),
    )
    seen: dict[str, tuple[set[str], int]] = {}
    for found in scans:
        for name, hook in found.hooks.items():
            names, n = seen.get(name, (set(hook.names), 0))
            seen[name] = (names, n + hook.records)
    keep, _ = keep_hooks(seen, job.policy, args.hook, whole=True)
    job = msgspec.structs.replace(job, keep=keep)
    mine = _owners(parts, scans, keep)
    weights = [sum(s.hooks[n].records for n in s.hooks if keep is None or n in keep) for s in scans]
    tables = _gather(
        client,
        [
            client.submit(run_requests, p, job, open_stream, mine[p.index], pure=False)
            for p in parts
        ],
        Progress("replaying", len(parts), sum(weights)),
        weights,
    )
    table = {digest: run for t in tables for digest, run in t.items()}
    ran = [sum(1 for run in t.values() if not run.skip) for t in tables]
    judged = [
        client.submit(
            judge, p, job, open_stream, _subset(table, _needed(s, keep)), streams, n, pure=False
        )
        for p, s, n in zip(parts, scans, ran, strict=True)
    ]
    outputs = _gather(client, judged, Progress("judging", len(parts), sum(weights)), weights)
    return merge(outputs)


def _subset(table: dict, keys: Iterable[bytes]) -> dict:
    return {k: table[k] for k in keys if k in table}


def run_on_cluster(args: argparse.Namespace, job: Job) -> Report:
    client, cluster = connect(args.cluster)
    try:
        return _replay(client, args, job)
    finally:
        client.close()
        if cluster is not None:
            cluster.close()
