"""What one cell of the matrix does: install a form, run it as its runtime would, compare.

A cell lives in a folder of its own: a project (the hook's cwd), a hooktui of its
own that a condition may delete (a venv whose site-packages is this one's), its
own XDG_STATE_HOME and XDG_RUNTIME_DIR, and the guard: a shell script that reads
the whole request and answers the runtime's deny for its guard event, with one
line on stderr saying how many bytes it read. The same handler runs twice under
the cell's condition: as written (the oracle, "bare") and as `install` wrapped
it; the runtime must get the same bytes and status both times, before its
timeout. Nothing here imports the tap: it is driven as the runtimes drive it.
"""

from __future__ import annotations

import contextlib
import json
import os
import shlex
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

from hooktui.tap.canonical import Call, Outcome, Verdict
from hooktui.tap.install import settings as inst
from hooktui.tap.runtimes import registry

from tests.conftest import HOOKTUI
from tests.guarantee.forms import SPAWN, Form

# The runtime's timeout in every cell (as its settings write it). It only has to
# catch a call that hangs (a deadline of hooktui's own is 2 s at most: the dashboard's
# first word): long enough that a loaded machine (two cores, four workers, load 30)
# never looks like a hang.
TIMEOUT_MS = 30_000
REAL_BIN = Path(HOOKTUI).parent
REPO = Path(__file__).resolve().parents[2]
GUARD = """#!/bin/sh
kind=$(stat -L -c %F /dev/stdin 2>/dev/null)
read -r _ _ _ _ _ sid _ < /proc/$$/stat  # 6: the session (comm, 2, is "guard")
[ "$sid" = $$ ] && role="its session's leader" || role="a member of its session"
n=$(wc -c | tr -d ' ')
cat "$1"
printf 'guard read %s bytes from a %s, %s\\n' "$n" "$kind" "$role" >&2
exit "$(cat "$1.code")"
"""


@dataclass
class Venv:
    """A hooktui install of the cell's own: delete it, or its Python, at will."""

    root: Path

    @property
    def python(self) -> Path:
        return self.root / "bin" / "python3"

    @property
    def hooktui(self) -> Path:
        return self.root / "bin" / "hooktui"

    @property
    def site(self) -> Path:
        return self.root / "lib" / f"python{sys.version_info[0]}.{sys.version_info[1]}"


def make_venv(root: Path) -> Venv:
    """A venv laid out as `pip install` makes one (not editable): this one's
    interpreter, its site-packages entries linked one by one, and `hooktui/` a
    folder of links to this tree's packages (so a condition can delete it)."""
    venv = Venv(root)
    (root / "bin").mkdir(parents=True)
    site = venv.site / "site-packages"
    site.mkdir(parents=True)
    real_venv = REAL_BIN.parent
    shutil.copy(real_venv / "pyvenv.cfg", root / "pyvenv.cfg")
    base = getattr(sys, "_base_executable", sys.executable)
    venv.python.symlink_to(os.path.realpath(base))
    real_site = next((real_venv / "lib").glob("python*/site-packages"))
    for entry in real_site.iterdir():
        if not entry.name.startswith(("__editable__", "hooktui", "agent_hooktui")):
            (site / entry.name).symlink_to(entry)
    (site / "hooktui").mkdir()
    for package in ("tap", "replay", "tui"):
        (site / "hooktui" / package).symlink_to(REPO / package)
    shutil.copy(HOOKTUI, venv.hooktui)
    return venv


@dataclass
class Result:
    stdout: bytes
    stderr: bytes
    code: int | None  # None: killed at the runtime's timeout
    timed_out: bool = False

    @property
    def answer(self) -> tuple[bytes, bytes, int | None]:
        return self.stdout, self.stderr, self.code


@dataclass
class Cell:
    """One form under one condition, in its own folder."""

    form: Form
    root: Path
    env: dict[str, str]
    venv: Venv
    login_shell: str = "/bin/bash"
    # A shell snippet run inside a mount namespace of the cell's own before the
    # runtime's shell starts (a full disk, a /tmp of its own); "" for none.
    namespace: str = ""
    timeout_ms: int = TIMEOUT_MS
    ca_file: str = ""
    cpus: str = ""  # the CPUs the runtime's shell is pinned to ("": any)
    stack: contextlib.ExitStack = field(default_factory=contextlib.ExitStack)

    @property
    def project(self) -> Path:
        return self.root / "project"

    @property
    def runtime(self):
        return registry.get_adapter(self.form.runtime)

    @property
    def stream(self) -> Path:
        return Path(self.env["XDG_STATE_HOME"]) / "hooktui" / "stream.jsonl"


def new_cell(form: Form, root: Path) -> Cell:
    """The cell's folders and environment: nothing of the machine's own state."""
    run_dir = Path(tempfile.mkdtemp(prefix="hkg", dir="/tmp"))  # short: socket paths
    for sub in ("project", "home", "state"):
        (root / sub).mkdir(parents=True, exist_ok=True)
    env = {
        "PATH": "/usr/local/bin:/usr/bin:/bin",
        "HOME": str(root / "home"),
        "LANG": "C.UTF-8",
        "XDG_STATE_HOME": str(root / "state"),
        "XDG_RUNTIME_DIR": str(run_dir),
        "XDG_CACHE_HOME": os.environ.get("XDG_CACHE_HOME", str(root / "cache")),
    }
    cell = Cell(form, root, env, make_venv(root / "venv"))
    cell.stack.callback(shutil.rmtree, run_dir, True)
    env.update(runtime_env(cell))
    return cell


def runtime_env(cell: Cell) -> dict[str, str]:
    """What the runtime sets for its hooks that matters here: its project folder."""
    name = cell.runtime.project_dir_env
    env = {name: str(cell.project)} if name else {}
    env.update(SPAWN[cell.form.runtime].env if cell.form.runtime in SPAWN else {})
    return env


# --- the guard and its request -------------------------------------------------


def guard_event(runtime) -> str:
    """The runtime's native name of a guard before a tool runs (as its settings spell it)."""
    request = runtime.request_for(example_call(runtime, "/"))
    native = request.get("hook_event_name") if isinstance(request, dict) else None
    if native in runtime.guards and runtime.event_of(native) == "pre_tool_use":
        return native
    return next(
        name
        for name in runtime.events
        if name in runtime.guards and runtime.event_of(name) == "pre_tool_use"
    )


def example_call(runtime, cwd: str) -> Call:
    return Call(
        runtime=runtime.name,
        event="pre_tool_use",
        tool_name=runtime.shell_tool or "Bash",
        tool_input={"command": "git push --force"},
        session_id="s-guarantee",
        tool_call_id="call-1",
        cwd=cwd,
    )


def request_of(cell: Cell) -> bytes:
    runtime = cell.runtime
    return json.dumps(runtime.request_for(example_call(runtime, str(cell.project)))).encode()


def deny_answer(cell: Cell) -> tuple[bytes, bytes, int]:
    runtime = cell.runtime
    call = example_call(runtime, str(cell.project))
    return runtime.encode(call, Verdict(decision="deny", reason="guarantee: denied"))


def write_guard(cell: Cell) -> list[str]:
    """The guard's argv: a script and its answer file (paths of plain words, so the
    line reads the same in every shell)."""
    hooks = cell.project / "hooks"
    hooks.mkdir(exist_ok=True)
    guard = hooks / "guard"
    guard.write_text(GUARD)
    guard.chmod(0o755)
    out, _, code = deny_answer(cell)
    (hooks / "answer").write_bytes(out)
    (hooks / "answer.code").write_text(str(code))
    return [str(guard), str(hooks / "answer")]


def judged(cell: Cell, result: Result) -> Verdict:
    """What the runtime makes of an answer (its adapter: pinned to the real CLI by e2e)."""
    outcome = Outcome(stdout=result.stdout, stderr=result.stderr, exit_code=result.code)
    return registry.judge_request(json.loads(request_of(cell)), outcome, cell.form.runtime)[2]


# --- the settings `install` wraps ------------------------------------------------


def handler_for(cell: Cell, kind: str, argv: list[str], url: str = "") -> dict:
    """One handler of `kind` (forms.INSTALL_KINDS) as the runtime's settings spell it."""
    layout = cell.runtime.settings
    if kind == "file":
        return hook_file(cell, argv)
    timeout = cell.timeout_ms / cell.runtime.timeouts.unit_ms
    h: dict = {layout.type_key: "command"} if layout.type_key else {}
    if layout.hooks_list:  # one table per hook: its name and its event in it
        h = {"name": "guard", layout.event_key: guard_event(cell.runtime)}
    h[layout.timeout_key] = int(timeout) if timeout == int(timeout) else timeout
    if kind == "http":
        h[layout.type_key] = layout.http.type
        h[layout.http.url_key] = url
        return h
    if kind == "exec":
        h[layout.command_key], h[layout.exec_args_key] = argv[0], argv[1:]
        return h
    command = shlex.join(argv)
    if kind == "heredoc":  # the guard found through the text the runtime replaces
        token = layout.substitutions[0]
        command = command.replace(str(cell.project), token)
    if kind == "bash":
        h[layout.shell_key] = "bash"
    h[layout.command_key] = command
    return h


def hook_file(cell: Cell, argv: list[str]) -> dict:
    """A runtime whose hooks are files: the guard event's file, starting the guard, and
    the same file under a name the runtime does not run, the bare one to compare with
    (install renames the original). {"file": the bare one, "wraps": what install wraps}."""
    runtime = cell.runtime
    native = guard_event(runtime)
    name = next(f for f, n in runtime.settings.hook_files.names.items() if n == native)
    folder = settings_path(cell)
    folder.mkdir(parents=True, exist_ok=True)
    text = f"#!/bin/sh\nexec {shlex.join(argv)}\n"
    for path in (folder / name, folder / "guard-bare"):
        path.write_text(text)
    return {"file": str(folder / "guard-bare"), "wraps": str(folder / name)}


def settings_path(cell: Cell) -> Path:
    layout = cell.runtime.settings
    name = layout.project_files[0].replace("*", "guarantee")
    return cell.project / name


def settings_text(cell: Cell, handlers: list[dict], event: str) -> str:
    layout = cell.runtime.settings
    if layout.hooks_list:  # TOML: one [[hooks]] table per handler
        return "".join(
            "[[hooks]]\n" + "".join(f"{k} = {_toml(v)}\n" for k, v in h.items()) for h in handlers
        )
    entries = [{"matcher": "*", "hooks": handlers}] if layout.nested else handlers
    doc: dict = {"hooks": {event: entries}}
    if not layout.nested:
        doc = {"version": 1, **doc}
    return json.dumps(doc, indent=2)


def _toml(value) -> str:
    return json.dumps(value)  # strings and numbers: TOML reads JSON's spelling of them


def install(cell: Cell, handlers: list[dict], extra: tuple[str, ...] = ()) -> list[dict]:
    """The handlers as `install` rewrote them (in place, in the cell's settings file)."""
    path = settings_path(cell)
    path.parent.mkdir(parents=True, exist_ok=True)
    event = guard_event(cell.runtime)
    layout = cell.runtime.settings
    if layout.hook_files is None:
        path.write_text(settings_text(cell, handlers, event))
    opts = inst.Options(runtime=cell.form.runtime, hooktui=str(cell.venv.hooktui))
    report = inst.install(path, opts)
    assert report.code == 0 and not report.skipped, (report.messages, report.skipped)
    if layout.hook_files is not None:  # the files handler_for wrote, now wrappers
        return [{"file": h["wraps"]} for h in handlers]
    if layout.hooks_list:
        return tomllib.loads(path.read_text())["hooks"]
    hooks = json.loads(path.read_text())["hooks"][event]
    return hooks[0]["hooks"] if cell.runtime.settings.nested else hooks


# --- running a handler as the runtime does ----------------------------------------


def shell_of(cell: Cell, handler: dict) -> str:
    layout = cell.runtime.settings
    chosen = handler.get(layout.shell_key) if layout.shell_key else None
    spawn = SPAWN[cell.form.runtime]
    if chosen:
        return chosen
    return cell.login_shell if spawn.shell == "login" else spawn.shell


def argv_of(cell: Cell, handler: dict) -> list[str]:
    """What the runtime starts for `handler`: its argv, or `<shell> -c <text>`."""
    layout = cell.runtime.settings
    if "file" in handler:  # a hook file, started as the runtime starts one
        return cell.runtime.hook_file_argv(handler["file"])
    command = handler[layout.command_key]
    if layout.exec_args_key and layout.exec_args_key in handler:
        return [command, *handler[layout.exec_args_key]]
    for token in layout.substitutions:
        command = command.replace(token, shlex.quote(str(cell.project)))
    login = SPAWN[cell.form.runtime].shell == "login" and not handler.get(layout.shell_key or "")
    return [shell_of(cell, handler), "-lc" if login else "-c", command]


def run_argv(
    cell: Cell, argv: list[str], request: bytes, *, stdin: str, leader: bool = False
) -> Result:
    """Start `argv` in the project with the request on a stdin of that kind, and
    collect its answer; killed (the whole group) at the cell's timeout, as a runtime
    would, and then `timed_out`."""
    if cell.cpus:
        argv = ["taskset", "-c", cell.cpus, *argv]
    if cell.namespace:
        script = f'{cell.namespace}\nexec "$@"'
        argv = ["unshare", "-m", "--propagation", "private", "--", "sh", "-c", script, "sh", *argv]
    ours, theirs = _stdin_pair(stdin)
    try:
        proc = subprocess.Popen(
            argv,
            stdin=theirs,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            cwd=cell.project,
            env=cell.env,
            start_new_session=leader,
            process_group=None if leader else 0,
        )
    finally:
        os.close(theirs)
    feeder = threading.Thread(target=_feed, args=(ours, request, stdin), daemon=True)
    feeder.start()
    try:
        out, err = proc.communicate(timeout=cell.timeout_ms / 1000)
        timed_out = False
    except subprocess.TimeoutExpired:
        _kill_group(proc.pid)
        out, err = proc.communicate(timeout=30)
        timed_out = True
    feeder.join(timeout=30)
    return Result(out, err, None if timed_out else proc.returncode, timed_out)


def run_handler(cell: Cell, handler: dict, request: bytes) -> Result:
    spawn = SPAWN[cell.form.runtime]
    return run_argv(cell, argv_of(cell, handler), request, stdin=spawn.stdin, leader=spawn.leader)


def _stdin_pair(kind: str) -> tuple[int, int]:
    """(our end, the hook's end) of its stdin."""
    if kind == "socket":
        a, b = socket.socketpair()
        return a.detach(), b.detach()
    r, w = os.pipe()
    return w, r


def _feed(fd: int, request: bytes, kind: str) -> None:
    try:
        view = memoryview(request)
        while view:
            view = view[os.write(fd, view) :]
        if kind == "socket":
            with contextlib.suppress(OSError):
                socket.socket(fileno=os.dup(fd)).shutdown(socket.SHUT_WR)
    except OSError:
        pass  # the hook stopped reading: as with the runtime
    finally:
        os.close(fd)


def _kill_group(pgid: int) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(pgid, signal.SIGKILL)
