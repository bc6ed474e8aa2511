"""The inventory of a hook folder: runtimes whose hooks are files, one per event
(`Layout.hook_files`), listed as the runtime runs them.

A folder is one source; each file named for an event is one hook, started with the
argv the runtime starts it with (`hook_file_argv`: its `#!` line or extension). A
hook file `hooktui install` wrapped is listed as the original it runs (the file
beside it, its argv as the wrapper holds it) so its records count toward it. Files
the runtime never runs (a symbolic link, an event it knows but never fires) are
named with why.
"""

from __future__ import annotations

import shlex
from pathlib import Path

from hooktui.tap.canonical import Call
from hooktui.tap.install.hookfiles import event_of, hook_files, read_wrapper
from hooktui.tap.install.tapargs import label_of
from hooktui.tap.inventory.model import Hook, Problem, SourceFile
from hooktui.tap.runtimes.descriptor import Runtime


def read_folder(runtime: Runtime, sf: SourceFile, path: Path, first: int) -> list[Hook]:
    """The hooks of the folder `path` (`sf` is its entry, filled in); numbered from `first`."""
    if not path.is_dir():
        sf.state = "missing"
        return []
    try:
        found, skipped = hook_files(path, runtime)
    except OSError as exc:
        sf.state = "unreadable"
        sf.problems.append(Problem(why=f"cannot list it: {exc.strerror}", effect="file"))
        return []
    for skip in skipped:
        sf.problems.append(Problem(where=skip.where, why=skip.why, effect="hook"))
    if skipped:
        sf.state = "partial"
    hooks = [_hook(runtime, sf, file, first + i) for i, file in enumerate(found)]
    sf.hooks = len(hooks)
    return hooks


def _hook(runtime: Runtime, sf: SourceFile, file: Path, position: int) -> Hook:
    files = runtime.settings.hook_files
    name = event_of(runtime, file.name) or file.name
    event = files.names.get(name, "")
    waited = name in files.waited
    command, label, wrapped = _command(runtime, file, name)
    timeout = runtime.timeouts.applied(None, event) if waited else None
    return Hook(
        runtime=runtime.name,
        scope=sf.scope,
        path=sf.path,
        where=file.name,
        position=position,
        event=event,
        command=command,
        label=label,
        wrapped=wrapped,
        timeout_ms=timeout,
        timeout_source="default" if timeout else "",
        fails=fails_of(runtime, event),
        is_async=not waited,
    )


def _command(runtime: Runtime, file: Path, name: str) -> tuple[str, str, bool]:
    """(the argv the hook runs with, as one line; the label its records carry; wrapped)."""
    wrapper = read_wrapper(file)
    if wrapper is None:
        return shlex.join(runtime.hook_file_argv(str(file))), name, False
    original, words, tap_args = wrapper
    argv = [*words, str(file.with_name(original))]
    return shlex.join(argv), label_of(tap_args) or name, True


def fails_of(runtime: Runtime, event: str, configured: bool = False) -> str:
    """What a failure of a hook on `event` does: "open", "closed" ("" for an event the
    runtime does not know); `configured`: the hook's own fail-closed switch is on."""
    if event not in runtime.events:
        return ""
    call = Call(runtime=runtime.name, event=runtime.event_of(event), native_event=event)
    return "closed" if runtime.fails_closed(call, configured) else "open"
