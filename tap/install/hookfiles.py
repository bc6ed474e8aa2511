"""Install for runtimes whose hooks are files, one per event, in folders (`Layout.hook_files`).

There is no command line to rewrite: the hook IS the file. Install renames each
hook file to `<event>.hooktui-original<ext>` beside it (a name the runtime does not
run) and puts a small `#!/bin/sh` wrapper under the event's name, with the
original's mode and owner. The wrapper starts the original exactly as the runtime
started it bare (the argv the runtime's `hook_file_argv` gives, the renamed file
last) through `hooktui tap`; when the tap's Python or hooktui is gone it starts the
original itself, as before install: a guard never fails open because of hooktui.

Never a moment without a hook: the original gets its second name first (a hard
link; a copy where links are refused), then the wrapper replaces the first name in
one rename. Uninstall renames the original back over the wrapper: the very file,
its bytes, mode, owner and times. A file whose wrapper or original was changed by
hand since is left alone, with a warning.
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
from pathlib import Path

from hooktui.tap.command import script_name
from hooktui.tap.install.edit import Change, diff
from hooktui.tap.install.files import InstallError, write_atomic
from hooktui.tap.install.gitignore import keep_out_of_git
from hooktui.tap.install.hooks import Skipped
from hooktui.tap.install.settings import Options, Report, runtime_of, what_next
from hooktui.tap.install.tapargs import tap_of
from hooktui.tap.install.wrapper import interpreter_of, read_script_line, script_line
from hooktui.tap.runtimes.descriptor import Runtime

MARK = ".hooktui-original"
_HEAD = "#!/bin/sh\n# hooktui: "
_ORIGINAL = re.compile(r"^# original: (?P<name>[^/\n]+)$", re.M)
_ARGV = re.compile(r"^set -- (?P<argv>.*) \"\$1/(?P<name>[^\"/\n]+)\"$", re.M)


# ------------------------------------------------------------------ which files


def split_name(runtime: Runtime, name: str) -> tuple[str, str]:
    """(event part, extension) of a file name, the extension as the runtime reads it
    ("" when the name has none it runs)."""
    stem, dot, ext = name.rpartition(".")
    if dot and stem and "." + ext.lower() in runtime.settings.hook_files.extensions:
        return stem, "." + ext
    return name, ""


def event_of(runtime: Runtime, name: str) -> str | None:
    """The event a file of this name is the hook of (its canonical spelling), or None."""
    stem, _ = split_name(runtime, name)
    for event in runtime.settings.hook_files.names:
        if event.lower() == stem.strip().lower():
            return event
    return None


def original_name(runtime: Runtime, name: str) -> str:
    stem, ext = split_name(runtime, name)
    return f"{stem}{MARK}{ext}"


def hook_files(path: Path, runtime: Runtime) -> tuple[list[Path], list[Skipped]]:
    """The hook files at `path` (a folder, or one file), and those the runtime never runs."""
    found, skipped = [], []
    entries = [path] if not path.is_dir() else sorted(path.iterdir(), key=lambda p: p.name)
    for entry in entries:
        event = event_of(runtime, entry.name)
        if event is None or MARK in entry.name:
            continue
        if entry.is_symlink():
            why = f"a symbolic link: {runtime.title} runs only regular files, so never this one"
            skipped.append(Skipped(entry.name, why))
        elif not entry.is_file():
            continue
        elif not runtime.settings.hook_files.names[event]:
            skipped.append(Skipped(entry.name, f"{runtime.title} never runs a {event} hook"))
        else:
            found.append(entry)
    return found, skipped


def has_hooks(path: Path, runtime: Runtime) -> bool:
    files, skipped = hook_files(path, runtime)
    return bool(files or skipped)


# ------------------------------------------------------------------ the wrapper


def wrapper_text(runtime: Runtime, opts: Options, event_path: Path, argv: list[str]) -> str:
    """The wrapper for the hook file at `event_path`, which the runtime starts as `argv`."""
    original = original_name(runtime, event_path.name)
    event = event_of(runtime, event_path.name) or event_path.name
    waited = event in runtime.settings.hook_files.waited
    timeout = runtime.timeouts.default_ms if waited else None
    label = event if opts.label_from == "matcher" else script_name(argv) or event
    facts = ("--timeout-default",) if timeout is not None else ()
    tap = tap_of(opts, interpreter_of(opts.hooktui), label, timeout, facts)
    words = " ".join(shlex.quote(word) for word in argv[:-1])
    return (
        f"{_HEAD}this {runtime.title} hook runs through `hooktui tap`, which records each "
        "call.\n"
        f"# The hook itself is {original} beside this file: edit that one.\n"
        f"# `hooktui uninstall {runtime.name}` puts it back here.\n"
        f"# original: {original}\n"
        'case $0 in */*) set -- "${0%/*}" ;; *) set -- . ;; esac\n'
        f'set -- {words} "$1/{original}"\n'
        f"{script_line(tap)}\n"
    )


def read_wrapper(path: Path) -> tuple[str, list[str], list[str]] | None:
    """(the original's name, the interpreter words, the tap's options) of one of our
    wrappers, or None when the file is not one (or was edited past reading)."""
    try:
        with open(path, "rb") as f:
            head = f.read(64 * 1024)
    except OSError:
        return None
    text = head.decode("utf-8", "replace")
    if not text.startswith(_HEAD):
        return None
    named, argv = _ORIGINAL.search(text), _ARGV.search(text)
    tap = read_script_line(text.rstrip("\n").rsplit("\n", 1)[-1])
    if named is None or argv is None or tap is None or argv["name"] != named["name"]:
        return None
    try:
        words = shlex.split(argv["argv"])
    except ValueError:
        return None
    return named["name"], words, tap.args


# ------------------------------------------------------------------ install / uninstall


def install(path: Path, opts: Options, *, dry_run: bool = False) -> Report:
    runtime = runtime_of(opts.runtime)
    files, skipped = hook_files(path, runtime)
    report = Report(path, skipped=skipped)
    if not files:
        report.messages.append(f"{path}: no {runtime.title} hook files to wrap")
        report.code = 1
        return report
    diffs = []
    for file in files:
        change, new = _wrap_one(runtime, opts, file, dry_run)
        if change is None:
            continue
        report.changes.append(change)
        diffs.append(new)
    if not report.changes:
        report.messages.append(f"{path}: every hook file is already wrapped; nothing to do")
        return report
    n = len(report.changes)
    if dry_run:
        report.diff = "".join(diffs)
        report.messages.append(f"dry run: {n} hook file(s) would be wrapped; nothing written")
        return report
    report.messages.append(f"{path}: wrapped {n} hook file(s) in the tap")
    for change in report.changes:
        report.messages.append(f"{change.where}: the hook itself is now {change.before}")
    report.messages += what_next(opts, runtime, interpreter_of(opts.hooktui))
    return report


def _wrap_one(runtime: Runtime, opts: Options, file: Path, dry_run: bool):
    """(Change, diff text) for one hook file, or (None, "") when it stays as it is."""
    found = read_wrapper(file)
    if found is not None:  # wrapped already: the same original, the options of now
        name, words, _ = found
        original = file.with_name(name)
        if not original.is_file():
            raise InstallError(
                f"{file}: hooktui's wrapper, but its original {name} is missing; "
                "restore it (or remove the wrapper) first"
            )
        argv = [*words, str(original)]
    else:
        original = file.with_name(original_name(runtime, file.name))
        argv = runtime.hook_file_argv(str(file))
    text = wrapper_text(runtime, opts, file, argv)
    old = file.read_bytes()
    if old == text.encode():
        return None, ""
    change = Change(str(file), "", original.name, f"{file.name} (the wrapper)")
    if dry_run:
        return change, diff(file, old.decode("utf-8", "replace"), text)
    if found is not None:
        write_atomic(file, text.encode(), follow=False, expect=old)
        return change, ""
    _second_name(file, original, old)
    try:
        write_atomic(file, text.encode(), os.stat(file), follow=False, expect=old)
    except BaseException:
        original.unlink(missing_ok=True)  # the first name still holds the hook
        raise
    keep_out_of_git(file, original)
    return change, ""


def _second_name(file: Path, original: Path, data: bytes) -> None:
    """Give the hook file its `original` name too: a hard link to the very file, or a
    copy (bytes, mode, owner, times) where the filesystem refuses links."""
    if original.exists() or original.is_symlink():
        same = original.is_file() and not original.is_symlink() and original.read_bytes() == data
        if not same:
            raise InstallError(
                f"{original} exists and is not {file.name}'s copy: move it away first; "
                "left untouched"
            )
        original.unlink()  # left by an install that stopped half-way: the same hook
    try:
        os.link(file, original, follow_symlinks=False)
        return
    except OSError:
        pass
    shutil.copy2(file, original, follow_symlinks=False)
    st = os.stat(file)
    try:
        os.chown(original, st.st_uid, st.st_gid, follow_symlinks=False)
    except PermissionError:
        pass


def uninstall(path: Path, runtime_name: str, *, dry_run: bool = False) -> Report:
    runtime = runtime_of(runtime_name)
    files, _ = hook_files(path, runtime)
    report = Report(path)
    for file in files:
        found = read_wrapper(file)
        if found is None:
            if file.with_name(original_name(runtime, file.name)).exists():
                report.messages.append(
                    f"warning: {file}: not hooktui's wrapper (edited since install?) though "
                    f"{original_name(runtime, file.name)} is beside it: restore by hand"
                )
            continue
        original = file.with_name(found[0])
        if not original.is_file() or original.is_symlink():
            report.messages.append(
                f"warning: {file}: hooktui's wrapper, but its original {found[0]} is gone: "
                "left as it is"
            )
            continue
        report.changes.append(Change(str(file), "", f"{file.name} (the wrapper)", original.name))
        if not dry_run:
            os.replace(original, file)
    if not report.changes:
        report.messages.append(f"{path}: no hooktui-wrapped hook files; nothing to do")
        return report
    n = len(report.changes)
    if dry_run:
        report.messages.append(f"dry run: would put back {n} hook file(s); nothing written")
        return report
    report.messages.append(f"{path}: put back {n} hook file(s) as they were")
    return report
