"""Reading every hook source of every runtime: the inventory (`hooktui hooks`).

For each runtime, in the registry's order, each of its `hook_sources` in the order
the runtime reads them; each file is parsed as that runtime parses it, and each
handler is listed with what the runtime will apply (timeout, failure mode), whether
`hooktui install` wrapped it, and what the runtime refuses or ignores, with why. The
runtime's own knowledge (sources, schema consequences, matcher dialect, dedup)
comes from its descriptor; nothing here names a runtime.
"""

from __future__ import annotations

import os
import shlex
from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path
from typing import Any

from hooktui.tap.install.files import InstallError, load_settings
from hooktui.tap.install.tapargs import label_of
from hooktui.tap.install.wrapper import read_exec, read_shell
from hooktui.tap.inventory import match
from hooktui.tap.inventory.folders import fails_of, read_folder
from hooktui.tap.inventory.model import Hook, Inventory, Problem, SourceFile
from hooktui.tap.inventory.sources import paths_of
from hooktui.tap.runtimes import ADAPTERS, RUNTIMES
from hooktui.tap.runtimes.descriptor import Runtime
from hooktui.tap.runtimes.merge import HookSource


def inventory(
    runtimes: Iterable[str] | None = None,
    *,
    project: Path | None = None,
    environ: Mapping[str, str] | None = None,
    root: Path = Path("/"),
) -> Inventory:
    """Every source and hook of `runtimes` (default: all), for a project folder (`root`
    stands for `/`, where managed settings live)."""
    env = os.environ if environ is None else environ
    here = Path.cwd() if project is None else project
    out = Inventory(runtimes=list(runtimes or RUNTIMES))
    for name in out.runtimes:
        runtime = ADAPTERS[name]
        if not runtime.hook_sources:
            out.notes.append(f"{runtime.title}: {runtime.sources_note or 'no hook sources known'}")
            continue
        _read_runtime(runtime, here, env, out, root)
    return out


def _read_runtime(
    runtime: Runtime, project: Path, env: Mapping[str, str], out: Inventory, root: Path
) -> None:
    hooks: list[Hook] = []
    seen: set[Path] = set()
    for rank, source in enumerate(runtime.hook_sources):
        for path in paths_of(runtime, source, project, env, root):
            if runtime.settings.hook_files is not None and path in seen:
                continue  # a folder named twice (a moved one that is another) is read once
            seen.add(path)
            sf, found = read_file(runtime, source, path, len(hooks))
            sf.rank = rank
            for hook in found:
                hook.rank = rank
            out.files.append(sf)
            hooks += found
    if runtime.settings.hook_files is not None:
        _in_path_order(hooks)
    _mark_duplicates(runtime, hooks)
    out.hooks += hooks


def read_file(
    runtime: Runtime, source: HookSource, path: Path, first: int = 0
) -> tuple[SourceFile, list[Hook]]:
    """One source file as `runtime` reads it; its hooks numbered from `first`."""
    author = ADAPTERS[source.layout] if source.layout else runtime
    sf = SourceFile(
        runtime=runtime.name,
        scope=source.scope,
        path=str(path),
        state="ok",
        needs=source.needs,
        note=source.note,
        layout=source.layout,
    )
    if not source.readable:
        sf.state = "unreadable"
        return sf, []
    if author.settings.hook_files is not None:
        return sf, read_folder(author, sf, path, first)
    if not path.is_file():
        sf.state = "missing"
        return sf, []
    try:
        data = load_settings(path, author.settings).data
    except InstallError as exc:
        reading = source.bad_file or runtime.reading.bad_file
        sf.state = "fatal" if reading.startswith("refuses") else "rejected"
        why = str(exc).removeprefix(f"{path}: ").removesuffix("; left untouched")
        sf.problems.append(Problem(why=f"{why}: {runtime.title} {reading}", effect="file"))
        return sf, []
    hooks = _hooks(runtime, author, source, path, data, sf, first)
    sf.hooks = len(hooks)
    return sf, hooks


# --- the handlers of one file -----------------------------------------------------


def _hooks(runtime, author, source, path, data, sf: SourceFile, first: int) -> list[Hook]:
    hooks: list[Hook] = []
    bad_hooks: list[str] = []
    for where, event, matcher, handler, problem in _walk(data, author):
        if problem:
            bad_hooks.append(where)
            sf.problems.append(Problem(where=where, why=problem, effect=_bad_effect(runtime)))
            continue
        hooks.append(
            _hook(runtime, author, source, path, where, event, matcher, handler, first + len(hooks))
        )
    for where, why, effect in runtime.settings_problems(data):
        sf.problems.append(Problem(where=where, why=why, effect=effect))
        if effect == "hook":
            for hook in hooks:
                if hook.where == where and not hook.ignored:
                    hook.ignored = why
    _event_problems(runtime, author, hooks, sf)
    _matcher_problems(runtime, hooks, sf)
    if any(p.effect == "file" for p in sf.problems):
        sf.state = "rejected"
        why = next(p.why for p in sf.problems if p.effect == "file")
        for hook in hooks:
            hook.ignored = hook.ignored or f"the file is ignored: {why}"
    elif sf.problems and any(p.effect != "warns" for p in sf.problems):
        sf.state = "partial"
    return hooks


def _bad_effect(runtime: Runtime) -> str:
    return "file" if runtime.reading.bad_hook_file else "hook"


def _walk(data: Any, author: Runtime) -> Iterator[tuple[str, str, Any, dict, str]]:
    """(where, event, matcher, handler, problem) for every handler of the document, in
    file order; `problem` says why the runtime's schema refuses it ("" when fine)."""
    layout = author.settings
    hooks = data.get("hooks") if isinstance(data, dict) else None
    if layout.hooks_list:
        yield from _walk_list(hooks, author)
        return
    if not isinstance(hooks, dict):
        if hooks is not None:
            yield "hooks", "", None, {}, "`hooks` is not an object of events"
        return
    for event, entries in hooks.items():
        if event in author.reading.setting_keys:
            continue
        if not isinstance(entries, list):
            yield f"hooks.{event}", event, None, {}, "not a list of hooks"
            continue
        for gi, entry in enumerate(entries):
            where = f"hooks.{event}[{gi}]"
            if not isinstance(entry, dict):
                yield where, event, None, {}, "not an object"
                continue
            if not layout.nested:
                yield where, event, entry.get("matcher"), entry, _handler_problem(author, entry)
                continue
            inner = entry.get("hooks")
            if not isinstance(inner, list):
                yield where, event, entry.get("matcher"), {}, "its `hooks` is not a list"
                continue
            for hi, handler in enumerate(inner):
                hwhere = f"{where}.hooks[{hi}]"
                if not isinstance(handler, dict):
                    yield hwhere, event, entry.get("matcher"), {}, "not an object"
                    continue
                yield (
                    hwhere,
                    event,
                    entry.get("matcher"),
                    handler,
                    _handler_problem(author, handler),
                )


def _walk_list(hooks: Any, author: Runtime) -> Iterator[tuple[str, str, Any, dict, str]]:
    """`hooks = [{<event_key>: event, <matcher_key>: ..., command...}]` (a TOML [[hooks]])."""
    layout = author.settings
    if not isinstance(hooks, list):
        if hooks is not None:
            yield "hooks", "", None, {}, "`hooks` is not a list of hooks"
        return
    for i, entry in enumerate(hooks):
        where = f"hooks[{i}]"
        if not isinstance(entry, dict):
            yield where, "", None, {}, "not an object"
            continue
        event = entry.get(layout.event_key)
        problem = _handler_problem(author, entry)
        if not isinstance(event, str) or event not in author.events:
            problem = problem or f"{layout.event_key} {event!r} is not one {author.title} knows"
        event = event if isinstance(event, str) else ""
        yield where, event, entry.get(layout.matcher_key), entry, problem


def _handler_problem(author: Runtime, handler: dict) -> str:
    layout = author.settings
    kind = (
        handler.get(layout.type_key, layout.default_type or None) if layout.type_key else "command"
    )
    if kind is None:
        return f"no {layout.type_key!r}"
    if not isinstance(kind, str) or (kind != "command" and kind not in layout.handler_types):
        return f"handler type {kind!r} is not one {author.title} runs"
    if kind == "command" and not isinstance(handler.get(layout.command_key), str):
        return f"a command hook without a string {layout.command_key!r}"
    return ""


def _hook(runtime, author, source, path, where, event, matcher, handler, position) -> Hook:
    layout = author.settings
    kind = (
        handler.get(layout.type_key, layout.default_type or "command")
        if layout.type_key
        else "command"
    )
    timeout_value = handler.get(layout.timeout_key)
    applied = runtime.timeouts.applied(timeout_value, event, kind)
    configured = runtime.timeouts.from_settings(timeout_value) is not None
    command, label, wrapped = _command(author, handler, kind, event, matcher)
    keys = (layout.async_key, *layout.async_keys) if layout.async_key else layout.async_keys
    return Hook(
        runtime=runtime.name,
        scope=source.scope,
        path=str(path),
        where=where,
        position=position,
        event=event,
        matcher=matcher if isinstance(matcher, str) else ("" if matcher is None else str(matcher)),
        handler_type=str(kind),
        name=_name(layout, handler),
        command=command,
        label=label,
        wrapped=wrapped,
        timeout_ms=applied,
        timeout_source="configured" if configured else ("default" if applied else ""),
        fails=_fails(runtime, event, handler),
        is_async=any(handler.get(k) is True for k in keys if k),
    )


def _name(layout, handler: dict) -> str:
    name = handler.get(layout.name_key) if layout.name_key else None
    return name if isinstance(name, str) else ""


def _command(author: Runtime, handler: dict, kind: str, event: str, matcher: Any):
    """(the hook's own command, the label its records carry, wrapped or not)."""
    layout = author.settings
    text = handler.get(layout.command_key)
    if kind != "command" or not isinstance(text, str):
        url = next((v for v in handler.values() if isinstance(v, str) and "://" in v), "")
        return url or str(handler.get("prompt", "") or kind), _label(event, matcher), False
    args = handler.get(layout.exec_args_key) if layout.exec_args_key else None
    wrapped = read_exec(text, args) if isinstance(args, list) else read_shell(text)
    if wrapped is None:
        own = shlex.join([text, *args]) if isinstance(args, list) else text
        return own, _label(event, matcher), False
    own = wrapped.original if wrapped.original is not None else shlex.join(wrapped.argv or [])
    return own, label_of(wrapped.args) or _label(event, matcher), True


def _label(event: str, matcher: Any) -> str:
    """The label `hooktui install` gives a hook (its default: event and matcher)."""
    if isinstance(matcher, str) and matcher not in ("", "*"):
        return f"{event}:{matcher}"
    return event


def _fails(runtime: Runtime, event: str, handler: dict) -> str:
    key, value = runtime.settings.fail_closed if runtime.settings else ("", None)
    return fails_of(runtime, event, bool(key) and handler.get(key) == value)


def _event_problems(runtime: Runtime, author: Runtime, hooks: list[Hook], sf: SourceFile) -> None:
    strict = author.settings.strict_events
    for event in dict.fromkeys(h.event for h in hooks):
        if event in runtime.events:
            continue
        effect = "file" if strict else "event"
        why = f"{runtime.title} knows no event {event!r}: it {runtime.reading.unknown_event}"
        if strict:
            why = f"{runtime.title} knows no event {event!r}: it ignores the whole file"
        sf.problems.append(Problem(where=f"hooks.{event}", why=why, effect=effect))
        for hook in hooks:
            if hook.event == event:
                hook.ignored = hook.ignored or why


def _matcher_problems(runtime: Runtime, hooks: list[Hook], sf: SourceFile) -> None:
    for hook in hooks:
        why = match.compile_problem(runtime, hook.matcher)
        if not why:
            continue
        sf.problems.append(Problem(where=hook.where, why=why, effect="hook"))
        if runtime.reading.bad_matcher.startswith("never"):
            hook.ignored = hook.ignored or why


def _in_path_order(hooks: list[Hook]) -> None:
    """Hook files run in the order of their full paths, whatever folder holds them."""
    hooks.sort(key=lambda hook: os.path.join(hook.path, hook.where))
    for position, hook in enumerate(hooks):
        hook.position = position


def _mark_duplicates(runtime: Runtime, hooks: list[Hook]) -> None:
    """Identical hooks on one event that the runtime runs once: the later ones shadow
    nothing, they are shadowed (the first one in the runtime's order runs)."""
    dedup = runtime.merge.dedup
    if not dedup:
        return
    seen: dict[tuple, Hook] = {}
    for hook in hooks:
        if hook.ignored or hook.handler_type != "command":
            continue
        by_name = dedup == "name"
        key = (hook.name,) if by_name else (hook.event, hook.matcher, hook.command)
        first = seen.get(key)
        if first is None:
            seen[key] = hook
            continue
        hook.shadowed_by = f"{first.path} {first.where}"
        if by_name:
            hook.ignored = (
                f"{first.where} of {first.path} has its name {hook.name!r}: "
                f"{runtime.title} skips this one"
            )
            continue
        hook.ignored = f"an identical hook runs instead ({first.where} of {first.path}): {runtime.title} runs it once"
