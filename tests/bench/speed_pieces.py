"""What quick.py and sre_cache.py each save, against this tree without them (issue 23).

Plain script, run on demand (not collected by pytest):

    .venv/bin/python tests/bench/speed_pieces.py [ROUNDS] [--venvs DIR]

It builds three regular venvs from this tree (in DIR, rebuilt each run, or in a
temporary directory): `as-is`; `no-quick`, whose tap never runs the first
stretch (tap/hotpath/quick.py), so every call goes through the pump and
`select`; `no-cache`, whose rules compile their patterns with `re` (no
tap/record/sre_cache.py). Then, interleaved so machine noise hits all alike:

- the tap as the line `install` writes starts it, as-is and no-quick: wall and
  CPU time (wait4) of the tap process, as `(tapped - bare) / python -c pass`,
  and each one's instructions (callgrind, steady under load);
- tests/bench/recorder_cpu.py on as-is and no-cache: the detached recorder's
  CPU per call, as a multiple of `python -c pass`.

A piece that saves less than it costs to keep goes (issue 23): docs/speed.md
has the figures.
"""

from __future__ import annotations

import ctypes
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO))  # the tap bench's helpers

from tests.bench.tap_install_kinds import (  # noqa: E402
    HOOK,
    PR_SET_CHILD_SUBREAPER,
    instructions,
    line,
    run,
)
from tests.bench.tap_install_kinds import settle as settled  # noqa: E402

# Each variant: (file, the text it holds, what it becomes). A text that moved
# fails the build loudly, rather than measuring the tree as it is.
VARIANTS = {
    "as-is": [],
    "no-quick": [
        ("tap/hotpath/shim.py", "stretch = first_stretch(", "stretch = None and first_stretch("),
        ("tap/hotpath/shim.py", "if stretch.done:", "if stretch is not None and stretch.done:"),
    ],
    "no-cache": [
        ("tap/record/rules.py", "from hooktui.tap.record import sre_cache", "import re"),
        ("tap/record/rules.py", "sre_cache.compile(", "re.compile("),
    ],
}


def build(home: Path, name: str) -> Path:
    """A regular venv of this tree with `name`'s edits."""
    src, venv = home / f"src-{name}", home / name
    shutil.rmtree(src, ignore_errors=True)
    src.mkdir(parents=True)
    archive = subprocess.run(["git", "-C", str(REPO), "archive", "HEAD"], capture_output=True)
    subprocess.run(["tar", "-x", "-C", str(src)], input=archive.stdout, check=True)
    for path, old, new in VARIANTS[name]:
        text = (src / path).read_text()
        if old not in text:
            raise SystemExit(f"{path} no longer holds {old!r}: update VARIANTS")
        (src / path).write_text(text.replace(old, new))
    pip = [str(venv / "bin/python3"), "-m", "pip", "install", "-q", "--disable-pip-version-check"]
    if not (venv / "bin/python3").exists():
        subprocess.run([sys._base_executable, "-m", "venv", str(venv)], check=True)
        subprocess.run([*pip, "msgspec"], check=True)
    subprocess.run([*pip, "--no-deps", "--force-reinstall", str(src)], check=True)
    return venv


def tap_times(venvs: dict[str, Path], rounds: int, tmp: str) -> None:
    stream = f"{tmp}/stream.jsonl"
    tap = ["tap", "--timeout-ms", "600000", "--stream", stream, "--", *HOOK]
    cases = {"python -c pass": [str(venvs["as-is"] / "bin/python3"), "-c", "pass"], "bare": HOOK}
    cases |= {name: line(venvs[name], tap) for name in ("as-is", "no-quick")}
    times: dict[str, list[tuple[float, float]]] = {name: [] for name in cases}
    tapped = 0
    for i in range(rounds + 1):  # the first round warms the caches
        for name, argv in cases.items():
            spent = run(argv)
            if name in venvs:
                tapped += 1
                settled(stream, tapped)
            if i:
                times[name].append(spent)
    for which, label in ((0, "wall"), (1, "CPU")):
        med = {n: statistics.median(t[which] for t in ts) for n, ts in times.items()}
        for name in ("as-is", "no-quick"):
            ratio = (med[name] - med["bare"]) / med["python -c pass"]
            print(f"tap {label:>4}, {name:>8}: {ratio:.3f}x python -c pass (median of {rounds})")
    for name in ("as-is", "no-quick"):
        print(f"tap instructions, {name:>8}: {instructions(cases[name]) / 1e6:.2f} M")


def main() -> int:
    args = sys.argv[1:]
    home = None
    if "--venvs" in args:
        i = args.index("--venvs")
        home = Path(args[i + 1])
        del args[i : i + 2]
    rounds = int(args[0]) if args else 60
    if ctypes.CDLL(None, use_errno=True).prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) != 0:
        print("cannot become a child subreaper (Linux only)", file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory() as tmp:
        venvs = {name: build(home or Path(tmp), name) for name in VARIANTS}
        tap_times(venvs, rounds, tmp)
        bench = [sys.executable, str(REPO / "tests/bench/recorder_cpu.py"), "--rounds", "20"]
        hooktuis = [str(venvs[name] / "bin/hooktui") for name in ("as-is", "no-cache")]
        subprocess.run([*bench, *hooktuis], check=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
