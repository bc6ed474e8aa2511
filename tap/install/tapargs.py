"""What `install` tells the tap about one hook: its label, the timeout the runtime
applies, and the settings' facts the record keeps (default timeout, fail-closed,
the hook's own variables). Taken from the runtime's descriptor; stdlib only."""

from __future__ import annotations

import shlex
from typing import TYPE_CHECKING

from hooktui.tap.command import script_name
from hooktui.tap.httphook.spec import from_line as http_from_line
from hooktui.tap.install.hooks import Handler
from hooktui.tap.install.wrapper import Tap, starts_direct
from hooktui.tap.runtimes.descriptor import Runtime, timeout_setting

if TYPE_CHECKING:
    from hooktui.tap.install.settings import Options


def label(opts: Options, h: Handler, argv: list[str]) -> str:
    if opts.label_from == "command" and (h.http or http_from_line(shlex.join(argv))):
        return f"http {url_place(h)}"
    if opts.label_from == "command":
        return script_name(argv) or "hook"
    if isinstance(h.matcher, str) and h.matcher not in ("", "*"):
        return f"{h.event}:{h.matcher}"
    return h.event


def label_of(args: list[str]) -> str:
    """The label a tap line's options give its records ("" when they give none)."""
    for i, word in enumerate(args[:-1]):
        if word == "--label":
            return args[i + 1]
    return ""


def url_place(h: Handler) -> str:
    """Host and path of an http hook's URL (no query: it may hold a token)."""
    url = next(v for k, v in h.handler.items() if isinstance(v, str) and "://" in v)
    return url.split("?", 1)[0].split("#", 1)[0].split("://", 1)[-1]


def timeout_ms(runtime: Runtime, h: Handler) -> int | None:
    kind = runtime.settings.http.type if h.http else "command"
    setting = timeout_setting(runtime.settings, h.handler)
    return runtime.timeouts.applied(setting, h.event, kind)


def hook_facts(runtime: Runtime, h: Handler) -> tuple[str, ...]:
    """What the tap is told of the hook's settings beyond its timeout: that the timeout
    is the runtime's default (none is set), that its failure blocks the action."""
    layout = runtime.settings
    facts: tuple[str, ...] = ()
    if runtime.timeouts.from_settings(timeout_setting(layout, h.handler)) is None:
        facts += ("--timeout-default",)
    key, value = layout.fail_closed
    if key and key in h.handler and h.handler[key] == value:
        facts += ("--fail-closed",)
    names = hook_env_names(h.handler.get(layout.hook_env_key)) if layout.hook_env_key else ""
    if names:
        facts += ("--hook-env", names)
    return facts


def hook_env_names(env) -> str:
    """The names of a hook's own variables, comma-separated; "" when there are none or
    a name could not travel in that list (the record then just lacks them)."""
    if not isinstance(env, dict):
        return ""
    names = sorted(k for k in env if isinstance(k, str) and k and "," not in k and "=" not in k)
    return ",".join(names)


def tap_of(
    opts: Options,
    python: str | None,
    label: str,
    timeout_ms: int | None,
    facts: tuple[str, ...] = (),
) -> Tap:
    args = ["--label", label, "--runtime", opts.runtime]
    if timeout_ms is not None:
        args += ["--timeout-ms", str(timeout_ms)]
    args += facts if timeout_ms is not None else [f for f in facts if f != "--timeout-default"]
    if opts.stream:
        args += ["--stream", opts.stream]
    return Tap(opts.hooktui, python, tuple(args), starts_direct(opts.hooktui, python))
