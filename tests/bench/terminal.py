"""A real terminal of fixed size for benchmarks: a private tmux server read in control mode.

One control-mode client (`tmux -C`) stays attached, so starting a program and
reading the screen are lines on a pipe (about 0.1 ms a capture) instead of one
`tmux` process per poll, which on a two-core machine would steal CPU from the
program being timed. The client sets the window size; the status line is off,
so the program gets exactly the size asked for. `ProcessTree` reads a
program's memory and CPU from /proc (the program and any children it starts).
"""

from __future__ import annotations

import contextlib
import os
import shlex
import signal
import subprocess
import time
from dataclasses import dataclass


class TerminalError(RuntimeError):
    pass


class Terminal:
    def __init__(self, width: int, height: int, env: dict[str, str]) -> None:
        self.socket = f"hooktui-bench-{os.getpid()}"
        self.base = ["tmux", "-L", self.socket, "-f", "/dev/null"]
        self.size = (width, height)
        self.pids: list[int] = []
        subprocess.run(
            [*self.base, "new-session", "-d", "-s", "bench", "-x", str(width), "-y", str(height)],
            env=env,
            check=True,
        )
        for option in (
            "status off",
            "remain-on-exit on",  # a program that dies leaves its last screen to report
            "default-terminal screen-256color",
            "history-limit 0",
        ):
            subprocess.run([*self.base, "set", "-g", *option.split()], check=True)
        self.client = subprocess.Popen(
            [*self.base, "-C", "attach-session", "-t", "bench"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
        )
        self._block()  # the attach itself answers with an empty block
        self.socket_path = self.command("display -p '#{socket_path}'")[0]
        self.command(f"refresh-client -C {width}x{height}")
        self.command("refresh-client -f no-output")  # no copy of every byte the programs draw

    def command(self, line: str) -> list[str]:
        assert self.client.stdin is not None
        self.client.stdin.write(line.encode() + b"\n")
        self.client.stdin.flush()
        ok, out = self._block()
        if not ok:
            raise TerminalError(f"tmux {line.split()[0]}: {' '.join(out)}")
        return out

    def _block(self) -> tuple[bool, list[str]]:
        """The lines between %begin and %end (or %error); notifications outside are skipped."""
        assert self.client.stdout is not None
        out: list[str] = []
        inside = False
        while True:
            raw = self.client.stdout.readline()
            if not raw:
                raise TerminalError("the tmux server went away")
            line = raw.decode("utf-8", "replace").rstrip("\n")
            if line.startswith("%begin"):
                inside, out = True, []
            elif inside and line.startswith(("%end", "%error")):
                return line.startswith("%end"), out
            elif inside:
                out.append(line)

    def start(self, argv: list[str]) -> Pane:
        """Run `argv` in a new window; the pane's pid is the program's (exec)."""
        shell = "exec " + shlex.join(argv)
        fmt = "#{pane_pid} #{pane_id} #{window_width}x#{window_height}"
        out = self.command(f"new-window -d -P -F {shlex.quote(fmt)} {shlex.quote(shell)}")
        pid, pane, size = out[0].split()
        if size != f"{self.size[0]}x{self.size[1]}":
            raise TerminalError(f"window is {size}, not {self.size[0]}x{self.size[1]}")
        self.pids.append(int(pid))
        return Pane(self, int(pid), pane)

    def close(self) -> None:
        for pid in self.pids:
            _kill(pid)
        try:
            if self.client.stdin:
                self.client.stdin.close()
            self.client.wait(timeout=5)
        except (OSError, subprocess.TimeoutExpired):
            self.client.kill()
        subprocess.run([*self.base, "kill-server"], capture_output=True, check=False)
        with contextlib.suppress(OSError):  # tmux leaves its socket file behind
            os.unlink(self.socket_path)


@dataclass
class Pane:
    term: Terminal
    pid: int
    id: str

    def screen(self) -> str:
        return "\n".join(self.term.command(f"capture-pane -p -t {self.id}"))

    def dead(self) -> bool:
        return self.term.command(f"display -p -t {self.id} '#{{pane_dead}}'") == ["1"]

    def close(self) -> None:
        """Hang up on the program (as closing a terminal does), then make sure it is gone."""
        self.term.command(f"kill-pane -t {self.id}")
        _kill(self.pid)


def _kill(pid: int, grace: float = 5.0) -> None:
    deadline = time.monotonic() + grace
    while _alive(pid):
        if time.monotonic() > deadline:
            for child in ProcessTree(pid).pids():
                _signal(child, signal.SIGKILL)
            _signal(pid, signal.SIGKILL)
            deadline += 5
        time.sleep(0.02)


def _signal(pid: int, sig: int) -> None:
    try:
        os.kill(pid, sig)
    except ProcessLookupError:
        pass


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat", "rb") as f:
            state = f.read().rsplit(b")", 1)[1].split()[0]
    except (FileNotFoundError, ProcessLookupError, IndexError):
        return False
    return state not in (b"Z", b"X")


class ProcessTree:
    """A program and its descendants, read from /proc (children are looked up at most twice a second)."""

    TICK = os.sysconf("SC_CLK_TCK")

    def __init__(self, root: int) -> None:
        self.root = root
        self._members = [root]
        self._looked = 0.0

    def pids(self) -> list[int]:
        now = time.monotonic()
        if now - self._looked > 0.5:
            self._looked = now
            self._members = [self.root, *_descendants(self.root)]
        return self._members

    def cpu_s(self) -> float:
        """User + system CPU seconds used so far (all threads)."""
        total = 0
        for pid in self.pids():
            try:
                with open(f"/proc/{pid}/stat", "rb") as f:
                    fields = f.read().rsplit(b")", 1)[1].split()
                total += int(fields[11]) + int(fields[12])
            except (OSError, IndexError):
                pass
        return total / self.TICK

    def memory_kib(self) -> tuple[int, int]:
        """(sum of peak RSS (VmHWM), sum of current anonymous RSS) over the tree."""
        peak = anon = 0
        for pid in self.pids():
            try:
                with open(f"/proc/{pid}/status", "rb") as f:
                    for line in f:
                        if line.startswith(b"VmHWM:"):
                            peak += int(line.split()[1])
                        elif line.startswith(b"RssAnon:"):
                            anon += int(line.split()[1])
            except OSError:
                pass
        return peak, anon


def _descendants(root: int) -> list[int]:
    parent: dict[int, int] = {}
    for name in os.listdir("/proc"):
        if name.isdigit():
            try:
                with open(f"/proc/{name}/stat", "rb") as f:
                    parent[int(name)] = int(f.read().rsplit(b")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                pass
    found, frontier = [], [root]
    while frontier:
        frontier = [pid for pid, ppid in parent.items() if ppid in frontier]
        found += frontier
    return found
