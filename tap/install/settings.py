"""`hooktui install` / `uninstall`: wrap a runtime's configured command hooks in the tap.

The settings file is edited in place, textually: only the command (and, for
an exec-form hook, its argv) values change; every other byte (indentation,
key order, comments, trailing newline) stays as it was. Each edit is checked
by parsing the result and comparing it with the intended data, so a layout
this module does not understand is refused rather than damaged. Everything
about a runtime (where its files are, their kind and layout, its timeouts, its
shell) comes from its descriptor in `hooktui.tap.runtimes`. Stdlib only.
"""

from __future__ import annotations

import os
import re
import shlex
import sys
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from hooktui.tap.base.stream import default_stream_path
from hooktui.tap.command import split_words
from hooktui.tap.httphook.spec import HttpSpec
from hooktui.tap.httphook.spec import from_line as http_from_line
from hooktui.tap.httphook.spec import to_line as http_line
from hooktui.tap.install.anyshell import wrap_any_shell
from hooktui.tap.install.edit import DELETE, Change, diff, edit, tokens_of
from hooktui.tap.install.files import (
    InstallError,
    Settings,
    backup_path,
    candidate_groups,
    file_stat,
    load_settings,
    write_atomic,
)
from hooktui.tap.install.gitignore import keep_out_of_git, shared_warning
from hooktui.tap.install.hooks import Handler, Skipped, Walk, walk, where
from hooktui.tap.install.refusal import http_module, http_refusal
from hooktui.tap.install.tapargs import hook_facts as _hook_facts
from hooktui.tap.install.tapargs import label as _label
from hooktui.tap.install.tapargs import tap_of as _tap
from hooktui.tap.install.tapargs import timeout_ms as _timeout_ms
from hooktui.tap.install.wrapper import (
    TooLong,
    Wrapped,
    interpreter_of,
    read_exec,
    read_shell,
    wrap_exec,
)
from hooktui.tap.install.wrapper import wrap_shell as _wrap_shell
from hooktui.tap.runtimes import get_adapter, installable, suggest
from hooktui.tap.runtimes.descriptor import Runtime

__all__ = ["Options", "find_settings", "install", "uninstall", "wrap_shell"]


@dataclass
class Options:
    runtime: str
    hooktui: str  # absolute path of the hooktui command to put in the settings
    stream: str | None = None
    label_from: str = "matcher"  # "matcher" | "command"


@dataclass
class Report:
    path: Path
    changes: list[Change] = field(default_factory=list)
    skipped: list[Skipped] = field(default_factory=list)
    diff: str = ""
    messages: list[str] = field(default_factory=list)
    code: int = 0


# --------------------------------------------------------------------------- runtimes


def runtime_of(name: str) -> Runtime:
    """The runtime whose settings `install` edits; InstallError naming the choices."""
    choices = installable()
    if name in choices:
        return get_adapter(name)
    guess = suggest(name, choices)
    hint = f"did you mean {guess}? " if guess else ""
    raise InstallError(f"unknown runtime {name!r} ({hint}choose from {', '.join(choices)})")


def hooktui_path() -> str:
    """Absolute path of this hooktui, so hooks work whatever PATH the runtime has."""
    beside = os.path.join(os.path.dirname(sys.executable), "hooktui")
    if os.path.exists(beside):
        return beside
    return os.path.realpath(sys.argv[0])


def find_settings(
    runtime: str,
    *,
    settings: str | None = None,
    user: bool = False,
    cwd: Path | None = None,
    environ: dict | None = None,
) -> list[Path]:
    """The settings files to edit: each file with hooks in the nearest folder that has any
    (`.claude/settings.json` and `.claude/settings.local.json` both, say). A folder
    whose files hold no hooks gives its first file, for a clear "no hooks" message."""
    layout = runtime_of(runtime).settings
    assert layout is not None
    if settings:
        path = Path(settings)
        if not (path.is_file() or (layout.hook_files is not None and path.is_dir())):
            raise InstallError(f"{path}: no such settings file", code=1)
        return [path]
    groups = candidate_groups(layout, user=user, cwd=cwd, environ=environ)
    # Hooks that are files live in folders; settings are files.
    present = Path.is_dir if layout.hook_files is not None else Path.is_file
    for group in groups:
        with_hooks = [p for p in group if present(p) and _has_hooks(p, runtime)]
        if with_hooks:
            return with_hooks
    for group in groups:
        for path in group:
            if present(path):
                return [path]
    looked = ", ".join(str(p) for group in groups for p in group)
    what = "hook files" if layout.hook_files is not None else "settings with hooks"
    raise InstallError(
        f"no {runtime} {what} found (looked for {looked}); "
        "use --settings PATH for another file, or --user",
        code=1,
    )


def _has_hooks(path: Path, runtime: str) -> bool:
    layout = get_adapter(runtime).settings
    if layout.hook_files is not None:
        from hooktui.tap.install import hookfiles

        return hookfiles.has_hooks(path, get_adapter(runtime))
    try:
        return "hooks" in load_settings(path, layout).data
    except InstallError:
        return True  # let install report the bad file


# ------------------------------------------------------------------ the tap's options


def wrap_shell(command: str, opts: Options, label: str, timeout_ms: int | None) -> str:
    """The wrapped shell-form line for `command` under `opts` (the runtime's substitutions)."""
    runtime = runtime_of(opts.runtime)
    tap = _tap(opts, interpreter_of(opts.hooktui), label, timeout_ms)
    login = runtime.settings.login_shell and wrap_any_shell(command, tap)
    return login or _wrap_shell(command, tap, runtime.settings.substitutions)


# ------------------------------------------------------------------ one hook


def _exec_args(runtime: Runtime, handler: dict) -> list[str] | None:
    key = runtime.settings.exec_args_key
    args = handler.get(key) if key else None
    if isinstance(args, list) and all(isinstance(a, str) for a in args):
        return args
    return None


def read_handler(runtime: Runtime, handler: dict) -> Wrapped | None:
    """The hook as we wrapped it, or None when it is not wrapped."""
    command = handler.get(runtime.settings.command_key)
    if not isinstance(command, str):  # an http hook as it was written
        return None
    args = _exec_args(runtime, handler)
    return read_exec(command, args) if args is not None else read_shell(command)


def _http_spec(runtime: Runtime, opts: Options, h: Handler) -> HttpSpec:
    http = runtime.settings.http
    headers = h.handler.get(http.headers_key) or {}
    env = h.handler.get(http.env_key) or []
    event = h.event if http.checks_event else ""
    url = h.handler[http.url_key]
    return HttpSpec(opts.runtime, url, tuple(headers.items()), tuple(env), event)


def _python_beside(hooktui: str) -> str:
    """The Python hooktui runs on: the one beside it (its launcher's choice), else ours."""
    beside = os.path.join(os.path.dirname(hooktui), "python3")
    return beside if os.access(beside, os.X_OK) else sys.executable


def _wrap_http(runtime: Runtime, opts: Options, python: str | None, h: Handler):
    """An http hook becomes a command hook (its other keys kept, so uninstall can put
    it back) that makes the same POST behind the tap. Its POST needs hooktui: when
    that is gone the line refuses (http_refusal), it cannot run bare."""
    layout = runtime.settings
    http_python = _python_beside(opts.hooktui)
    child = http_line(_http_spec(runtime, opts, h), http_python)
    tap = _tap(opts, python, _label(opts, h, []), _timeout_ms(runtime, h), _hook_facts(runtime, h))
    tap = replace(tap, requires=(http_module(http_python),))
    refusal = http_refusal(runtime, h.event, opts.hooktui)
    after = _wrap_shell(child, tap, layout.substitutions, refusal)
    values = {layout.type_key: "command", layout.command_key: after}
    before = f"{h.handler[layout.type_key]} {h.handler[runtime.settings.http.url_key]}"
    return values, Change(where(h.path), tap.args[1], before, after)


def _unwrap_http(runtime: Runtime, h: Handler, found: Wrapped):
    """A wrapped http hook back to itself: its type again, the command gone."""
    layout = runtime.settings
    http = layout.http
    if http is None or found.original is None or http.url_key not in h.handler:
        return None
    if http_from_line(found.original) is None:
        return None
    values = {layout.type_key: http.type, layout.command_key: DELETE}
    after = f"{http.type} {h.handler[http.url_key]}"
    return values, Change(where(h.path), "", h.handler[layout.command_key], after)


def _wrap_one(runtime: Runtime, opts: Options, python: str | None, h: Handler):
    """(new values, Change) for one handler, or None when it stays as it is."""
    if h.is_async:
        return None
    if h.http:
        return _wrap_http(runtime, opts, python, h)
    layout = runtime.settings
    current = h.handler[layout.command_key]
    args = _exec_args(runtime, h.handler)
    found = read_handler(runtime, h.handler)
    if found is not None and _unwrap_http(runtime, h, found) is not None:
        values, change = _wrap_http(runtime, opts, python, h)  # an http hook wrapped before
        return None if _unchanged(h, values) else (values, change)
    if args is not None:
        argv = found.argv if found and found.argv is not None else [current, *args]
    else:
        original = found.original if found and found.original is not None else current
        argv = split_words(original)
    tap = _tap(
        opts, python, _label(opts, h, argv), _timeout_ms(runtime, h), _hook_facts(runtime, h)
    )
    if args is not None:
        command, new_args = wrap_exec(argv, tap)
        values: dict[str, Any] = {layout.command_key: command, layout.exec_args_key: new_args}
        before, after = shlex.join(argv), shlex.join([command, *new_args])
    else:
        after = layout.login_shell and wrap_any_shell(original, tap)
        after = after or _wrap_shell(original, tap, layout.substitutions)
        values, before = {layout.command_key: after}, original
    if _unchanged(h, values):
        return None
    return values, Change(where(h.path), tap.args[1], before, after)


def _unchanged(h: Handler, values: dict[str, Any]) -> bool:
    return all(h.handler.get(k) == v for k, v in values.items())


def _unwrap_one(runtime: Runtime, h: Handler):
    found = read_handler(runtime, h.handler)
    if found is None:
        return None
    layout = runtime.settings
    if found.original is not None and layout.http is not None:
        http = _unwrap_http(runtime, h, found)
        if http is not None:
            return http
    if found.argv is not None:
        values = {layout.command_key: found.argv[0], layout.exec_args_key: found.argv[1:]}
        before = shlex.join([h.handler[layout.command_key], *h.handler[layout.exec_args_key]])
        return values, Change(where(h.path), "", before, shlex.join(found.argv))
    before = h.handler[layout.command_key]
    return {layout.command_key: found.original}, Change(where(h.path), "", before, found.original)


# ------------------------------------------------------------------ install / uninstall


def _read(path: Path, runtime: Runtime) -> tuple[Settings, Walk]:
    settings = load_settings(path, runtime.settings)
    try:
        return settings, walk(settings.data, runtime)
    except RecursionError:
        raise InstallError(f"{path}: nested too deeply to read; left untouched") from None


def install(path: Path, opts: Options, *, dry_run: bool = False) -> Report:
    runtime = runtime_of(opts.runtime)
    if runtime.settings.hook_files is not None:
        from hooktui.tap.install import hookfiles

        return hookfiles.install(path, opts, dry_run=dry_run)
    settings, hooks = _read(path, runtime)
    report = Report(path, skipped=hooks.skipped)
    report.messages += [f"warning: {w}" for w in hooks.warnings]
    if hooks.problems:
        what = "; ".join(hooks.problems)
        if not hooks.handlers:
            raise InstallError(f"{path}: {runtime.title} cannot read its hooks here: {what}")
        report.messages.append(f"warning: {runtime.title} cannot read part of the hooks: {what}")
    if not hooks.handlers or all(h.is_async for h in hooks.handlers):
        report.messages.append(f"{path}: no command hooks to wrap")
        report.code = 1
        return report
    python = interpreter_of(opts.hooktui)

    def wrap(h: Handler):
        try:
            return _wrap_one(runtime, opts, python, h)
        except TooLong as exc:
            report.skipped.append(Skipped(where(h.path), f"a command hook: {exc}"))
            return None

    new_text, report.changes = edit(settings, runtime, hooks.handlers, wrap)
    if not report.changes:
        report.messages.append(f"{path}: every command hook is already wrapped; nothing to do")
        report.messages += place_runner(path, runtime, dry_run=dry_run)
        return report
    n = len(report.changes)
    twins = dict(runtime.settings.local_twins)
    report.messages += shared_warning(path, runtime.name, twins, opts.hooktui)
    if dry_run:
        report.diff = diff(path, settings.text, new_text)
        report.messages.append(f"dry run: {n} hook(s) would be wrapped; nothing written")
        report.messages += place_runner(path, runtime, dry_run=True)
        return report
    links = file_stat(path).st_nlink
    backup = _write_with_backup(path, settings, runtime, hooks, new_text)
    report.messages.append(f"{path}: wrapped {n} command hook(s) in the tap")
    report.messages.append(f"backup of the original: {backup}")
    if excluded := keep_out_of_git(path, backup):
        report.messages.append(excluded)
    if links > 1:
        report.messages.append(
            f"note: {path} had {links - 1} other hard link(s); written as a new file (so no "
            "reader ever sees half of it), this name is no longer linked to them, and they "
            "keep the original"
        )
    report.messages += place_runner(path, runtime)
    if runtime.settings.after_install:
        report.messages.append(f"note: {runtime.settings.after_install}")
    report.messages += what_next(opts, runtime, python)
    return report


def place_runner(path: Path, runtime: Runtime, *, dry_run: bool = False) -> list[str]:
    """Put the file that runs these hooks (`settings.runner`: a plugin, for a runtime
    with no command hooks of its own) beside the settings, or bring ours up to date;
    a file there that is not ours stays as it is. What to tell the user."""
    rel = runtime.settings.runner
    if not rel:
        return []
    target = path.parent / rel
    ours = runtime.runner_text()
    try:
        current = target.read_bytes()
    except FileNotFoundError:
        current = None
    except OSError as exc:
        return [f"warning: {target}: cannot read: {exc.strerror or exc}"]
    if current == ours:
        return []
    what = f"the {runtime.title} plugin that runs these hooks"
    if current is not None and current.split(b"\n", 1)[0] != ours.split(b"\n", 1)[0]:
        head = ours.split(b"\n", 1)[0].split(b" (", 1)[0]
        if not current.startswith(head):
            return [f"warning: {target} is not hooktui's; left as it is ({what} is not there)"]
    verb = "update" if current is not None else "write"
    if dry_run:
        return [f"dry run: would {verb} {target}, {what}"]
    target.parent.mkdir(parents=True, exist_ok=True)
    try:
        write_atomic(target, ours, follow=False)
    except OSError as exc:
        raise _unwritable(target, exc) from None
    return [f"{target}: {verb}d {what}" if verb == "update" else f"{target}: wrote {what}"]


def _write_with_backup(
    path: Path, settings: Settings, runtime: Runtime, hooks: Walk, new_text: str
) -> Path:
    """Back up the original, then write; a write that fails leaves no new backup behind."""
    backup = backup_path(path)
    like = file_stat(path)
    data = new_text.encode("utf-8")
    # Keep the first install's original; refresh only a stale backup of a file
    # that has since been restored (no wrapped hook in it now).
    fresh = not backup.exists() or not any(read_handler(runtime, h.handler) for h in hooks.handlers)
    try:
        if fresh:
            write_atomic(backup, settings.raw, like, follow=False)
        try:
            write_atomic(path, data, like, expect=settings.raw)
        except Exception:
            if fresh and not _holds_wrapped(path, runtime):
                backup.unlink(missing_ok=True)  # (another install's write needs it)
            raise
    except OSError as exc:
        raise _unwritable(path, exc) from None
    return backup


def _holds_wrapped(path: Path, runtime: Runtime) -> bool:
    """Whether the file as it is now has a wrapped hook (or cannot be read to tell)."""
    try:
        _, hooks = _read(path, runtime)
    except InstallError:
        return True
    return any(read_handler(runtime, h.handler) for h in hooks.handlers)


def _unwritable(path: Path, exc: OSError) -> InstallError:
    return InstallError(f"{path}: cannot write: {exc.strerror or exc}; left untouched", code=1)


def what_next(opts: Options, runtime: Runtime, python: str | None) -> list[str]:
    stream = opts.stream or default_stream_path()
    where_ = f"calls will be recorded in {stream}"
    if not opts.stream:
        where_ += f" (unless HOOKTUI_STREAM is set where {runtime.title} runs)"
    on = f" on {python}" if python else ""
    watch = f"hooktui watch {shlex.quote(opts.stream)}" if opts.stream else "hooktui watch"
    return [
        where_,
        f"the wrapped hooks depend on {opts.hooktui}{on}; if it goes away they run "
        "as before install, unrecorded",
        f"next: run `{watch}`, then use {runtime.title} as usual "
        f"(`hooktui uninstall {opts.runtime}` undoes this)",
    ]


_TAP_CALL = re.compile(r"hooktui['\"]?\s+['\"]?tap\b")


def _calls_the_tap(runtime: Runtime, handler: dict) -> bool:
    """Whether a hook's command line (or argv) still starts `hooktui tap` somewhere."""
    words = [handler.get(runtime.settings.command_key), *(_exec_args(runtime, handler) or [])]
    return any(isinstance(w, str) and _TAP_CALL.search(w) for w in words)


def uninstall(path: Path, runtime_name: str, *, dry_run: bool = False) -> Report:
    runtime = runtime_of(runtime_name)
    if runtime.settings.hook_files is not None:
        from hooktui.tap.install import hookfiles

        return hookfiles.uninstall(path, runtime_name, dry_run=dry_run)
    settings, hooks = _read(path, runtime)
    report = Report(path)
    backup = backup_path(path)
    saved = None
    if backup.exists():
        try:
            saved = load_settings(backup, runtime.settings)
        except InstallError:
            saved = None
    tokens = tokens_of(saved, runtime) if saved is not None else {}
    new_text, report.changes = edit(
        settings, runtime, hooks.handlers, lambda h: _unwrap_one(runtime, h), tokens
    )
    unwrapped = {change.where for change in report.changes}
    for h in hooks.handlers:
        if where(h.path) not in unwrapped and _calls_the_tap(runtime, h.handler):
            report.messages.append(
                f"warning: {path}: {where(h.path)} still runs through `hooktui tap`, in a form "
                "uninstall cannot read back (edited since install?): edit it by hand"
            )
    if not report.changes:
        report.messages.append(f"{path}: no hooktui-wrapped hooks; nothing to do")
        if backup.exists():
            report.messages.append(f"(a backup from an earlier install remains at {backup})")
        return report
    n = len(report.changes)
    new = new_text.encode("utf-8")
    if dry_run:
        report.diff = diff(path, settings.text, new_text)
        report.messages.append(f"dry run: would unwrap {n} hook(s) in place; nothing written")
        return report
    try:
        write_atomic(path, new, expect=settings.raw)
    except OSError as exc:
        raise _unwritable(path, exc) from None
    if runtime.settings.runner:
        report.messages.append(
            f"note: {path.parent / runtime.settings.runner} stays: it runs these hooks "
            "(remove it to stop running them)"
        )
    if saved is not None and new == saved.raw:
        backup.unlink()
        report.messages.append(f"{path}: unwrapped {n} hook(s); restored byte for byte")
        return report
    why = "settings changed since install" if backup.exists() else "no backup found"
    report.messages.append(f"{path}: unwrapped {n} hook(s) in place ({why})")
    if backup.exists():
        report.messages.append(f"the pre-install backup is kept at {backup}")
    return report
