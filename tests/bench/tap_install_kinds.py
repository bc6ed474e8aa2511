"""`hooktui tap` as a whole process, in a regular and an editable install, against Python's start.

Plain script, run on demand (not collected by pytest):

    .venv/bin/python tests/bench/tap_install_kinds.py [ROUNDS] [--venvs DIR] [--before DIR]

It makes two venvs (in DIR, kept for the next run, or in a temporary
directory): one with `pip install .`, one with `pip install -e .` (plus
msgspec, which the recorder needs; pip may fetch it). Each round then runs,
interleaved so machine noise hits all alike: `python -c pass` in each venv,
the bare hook, and the hook through each venv's tap as the line `install`
writes now starts it (`<venv>/bin/python3 -I -S -X utf8 <venv>/bin/hooktui
tap --timeout-ms ...`, no launcher shell step), plus the regular venv's tap as
older lines started it (`<venv>/bin/hooktui tap`, through the launcher's
`/bin/sh` step). It prints the medians and the overhead
`(tapped - bare) / python -c pass`, with the regular venv's `python -c pass`
as the unit for all (the editable venv's own is slower: its `site` imports
setuptools' finder). `--before DIR` adds DIR/regular and DIR/editable, venvs
of an older build left as they are, started as lines before 2026-12-03
(evening) start them (`<venv>/bin/python3 -I -S <venv>/bin/hooktui tap`; `--before-shell` instead through that build's
launcher's shell step, as lines before 2026-12-03 did): a before/after in one
run. `--instructions` also counts each case's instructions once with
`valgrind --tool=callgrind` (the process alone, not the hook it starts): these
do not vary with the machine's load. The goal (issue 12) is at most 0.8x in
both. Wall and CPU time are both shown: on a busy machine the CPU figures (from
wait4) are the steadier. The floor is Python's own start as the line starts it.
"""

from __future__ import annotations

import ctypes
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from hooktui.tap.install.wrapper import START_FLAGS

REPO = Path(__file__).resolve().parents[2]
FLOOR = f"python {START_FLAGS} -c pass"
PR_SET_CHILD_SUBREAPER = 36
REQUEST = (
    b'{"session_id":"bench","hook_event_name":"PreToolUse","cwd":"/tmp","tool_name":"Bash",'
    b'"tool_input":{"command":"git status --short"},"tool_use_id":"toolu_bench"}'
)
HOOK = ["/bin/sh", "-c", 'cat >/dev/null; printf \'{"decision":"allow"}\\n\'']


def make_venv(where: Path, editable: bool) -> Path:
    """A venv with this tree's hooktui installed (the venv itself is reused when kept)."""
    python = where / "bin" / "python3"
    pip = [str(python), "-m", "pip", "install", "-q", "--disable-pip-version-check"]
    if not python.exists():
        base = getattr(sys, "_base_executable", sys.executable)
        subprocess.run([base, "-m", "venv", str(where)], check=True)
        subprocess.run([*pip, "msgspec"], check=True)
    # Always: the launcher and the package as they are in this tree now.
    kind = ["-e"] if editable else []
    subprocess.run([*pip, "--no-deps", "--force-reinstall", *kind, str(REPO)], check=True)
    return where


def line(venv: Path, tap: list[str], flags: str = START_FLAGS) -> list[str]:
    """What the line `install` writes execs (tap/install/wrapper.py): the venv's Python
    on the launcher, isolated, without `site`, in UTF-8 mode (START_FLAGS; lines
    written before 2026-12-03, evening, had `-I -S` alone: `--before` starts those)."""
    return [str(venv / "bin/python3"), *flags.split(), str(venv / "bin/hooktui"), *tap]


def run(argv: list[str]) -> tuple[float, float]:
    """(wall seconds, CPU seconds) of one call; the CPU is the process's and its waited-for
    children's (the hook's), never a detached recorder's."""
    r, w = os.pipe()
    os.write(w, REQUEST)
    os.close(w)
    null = os.open(os.devnull, os.O_WRONLY)
    actions = [(os.POSIX_SPAWN_DUP2, r, 0), (os.POSIX_SPAWN_DUP2, null, 1)]
    actions.append((os.POSIX_SPAWN_DUP2, null, 2))
    t0 = time.perf_counter()
    pid = os.posix_spawn(argv[0], argv, os.environ, file_actions=actions)
    _, _, usage = os.wait4(pid, 0)
    wall = time.perf_counter() - t0
    os.close(r)
    os.close(null)
    return wall, usage.ru_utime + usage.ru_stime


def instructions(argv: list[str]) -> int:
    """Instructions the process runs (callgrind; children it starts are not traced)."""
    with tempfile.TemporaryDirectory() as out:  # a file per process: the one it forks too
        valgrind = ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}/%p"]
        pipes = {"stdout": subprocess.DEVNULL, "stderr": subprocess.DEVNULL}
        with subprocess.Popen([*valgrind, *argv], stdin=subprocess.PIPE, **pipes) as proc:
            proc.communicate(REQUEST)
        text = Path(out, str(proc.pid)).read_text()  # valgrind runs the program in its pid
    return int(next(line for line in text.splitlines() if line.startswith("totals:")).split()[1])


def lines(path: str) -> int:
    try:
        with open(path, "rb") as f:
            return f.read().count(b"\n")
    except FileNotFoundError:
        return 0


def settle(path: str, count: int) -> None:
    """Wait (at most 10 s) for the detached recorders to write and to exit, so that
    their CPU lands on no timing: the bench is their subreaper, and reaps them. (Only
    waiting for the line let the recorder's exit overlap the case after a tapped one.)"""
    deadline = time.monotonic() + 10
    while lines(path) < count and time.monotonic() < deadline:
        time.sleep(0.002)
    while time.monotonic() < deadline:
        try:
            if os.waitpid(-1, os.WNOHANG) == (0, 0):
                time.sleep(0.001)  # a recorder still running
        except ChildProcessError:
            return  # none left


def main() -> int:
    args = sys.argv[1:]
    keep = before = None
    if "--venvs" in args:
        i = args.index("--venvs")
        keep = Path(args[i + 1])
        del args[i : i + 2]
    if "--before" in args:
        i = args.index("--before")
        before = Path(args[i + 1])
        del args[i : i + 2]
    shell = "--before-shell" in args
    count = "--instructions" in args
    args = [a for a in args if a not in ("--before-shell", "--instructions")]
    rounds = int(args[0]) if args else 40
    # The recorders the taps leave behind come back to this process when the tap exits.
    if ctypes.CDLL(None, use_errno=True).prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) != 0:
        print("cannot become a child subreaper (Linux only)", file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory() as tmp:
        home = keep or Path(tmp)
        regular = make_venv(home / "regular", editable=False)
        editable = make_venv(home / "editable", editable=True)
        stream = os.path.join(tmp, "stream.jsonl")
        tap = ["tap", "--timeout-ms", "600000", "--stream", stream, "--", *HOOK]
        cases = {
            "python -c pass (regular venv)": [str(regular / "bin/python3"), "-c", "pass"],
            "python -c pass (editable venv)": [str(editable / "bin/python3"), "-c", "pass"],
            # The floor: Python's own start as the tap starts it.
            FLOOR: [str(regular / "bin/python3"), *START_FLAGS.split(), "-c", "pass"],
            "bare hook": HOOK,
            "tapped (regular)": line(regular, tap),
            "tapped (editable)": line(editable, tap),
            # As lines written before 2026-12-03 start it: the launcher's shell step first.
            "tapped (regular, old line)": [str(regular / "bin/hooktui"), *tap],
        }
        kinds = ["regular", "editable", "regular, old line"]
        for kind in ("regular", "editable") if before else ():
            launcher = [str(before / kind / "bin/hooktui"), *tap]
            old = line(before / kind, tap, "-I -S")
            cases[f"tapped (before, {kind})"] = launcher if shell else old
            kinds.append(f"before, {kind}")
        times: dict[str, list[tuple[float, float]]] = {name: [] for name in cases}
        for argv in cases.values():  # warm the page cache and the bytecode caches
            run(argv)
        expected = sum(name.startswith("tapped") for name in cases)
        settle(stream, expected)
        for _ in range(rounds):
            for name, argv in cases.items():
                times[name].append(run(argv))
                if name.startswith("tapped"):
                    expected += 1
                    settle(stream, expected)
        recorded = lines(stream)
        # Python started directly only: through a shell step, callgrind would count the shell.
        direct = {n: argv for n, argv in cases.items() if "python" in Path(argv[0]).name}
        counted = {n: instructions(argv) for n, argv in direct.items()} if count else {}
    for which, label in ((0, "wall"), (1, "CPU")):
        print(f"-- {label} time (median of {rounds}, interleaved)")
        med = {n: statistics.median(v[which] for v in vs) * 1000 for n, vs in times.items()}
        for name, value in med.items():
            low = min(v[which] for v in times[name]) * 1000
            print(f"{name:>31}: {value:7.2f} ms  (min {low:6.2f})")
        unit = med["python -c pass (regular venv)"]
        floor = med[FLOOR] / unit
        print(f"{'floor':>31}: {FLOOR} is {floor:.2f}x python -c pass")
        for kind in kinds:
            overhead = (med[f"tapped ({kind})"] - med["bare hook"]) / unit
            print(f"{'overhead, ' + kind:>31}: {overhead:.2f}x python -c pass  (goal <= 0.8x)")
    if counted:
        print("-- instructions (callgrind, the process alone)")
        for name, value in counted.items():
            print(f"{name:>31}: {value / 1e6:7.2f} M")
    print(f"{'recorded':>31}: {recorded} lines for {expected} tapped calls")
    return 0


if __name__ == "__main__":
    sys.exit(main())
