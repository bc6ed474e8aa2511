"""An http hook's settings as the arguments of the command that makes its POST.

`<python> -I -m hooktui.tap.httphook --runtime R --url U [--header NAME VALUE]...
[--allow-env VAR]... [--event E]`: the header values stay as written (`Bearer $TOKEN`);
the command interpolates them when it runs, as the runtime would. `--event`: the
hook's native event, for a runtime whose checks before the POST depend on it.
`-I` (isolated): the hook runs in the project, and a `json.py` or `hooktui/` there
(the agent itself can write one) must not be what Python imports. Lines written
before 2026-12-07 have no `-I`; they are still read.
"""

from __future__ import annotations

from collections import namedtuple

# Not `dataclasses` (it loads `inspect` and `ast`: most of this command's start-up).
MODULE = "hooktui.tap.httphook"
ISOLATED = ("-I",)


class HttpSpec(
    namedtuple("HttpSpec", "runtime url headers allow_env event", defaults=((), (), ""))
):
    """runtime name, URL, headers ((name, value as written), ...), allowed variables,
    native event ("" when the runtime does not need it)."""

    __slots__ = ()


def to_argv(spec: HttpSpec, python: str) -> list[str]:
    argv = [python, *ISOLATED, "-m", MODULE, "--runtime", spec.runtime, "--url", spec.url]
    for name, value in spec.headers:
        argv += ["--header", name, value]
    for var in spec.allow_env:
        argv += ["--allow-env", var]
    if spec.event:
        argv += ["--event", spec.event]
    return argv


def to_line(spec: HttpSpec, python: str) -> str:
    import shlex

    return shlex.join(to_argv(spec, python))


class SpecError(ValueError):
    pass


def from_args(args: list[str]) -> HttpSpec:
    """The spec from the arguments after `-m hooktui.tap.httphook`; SpecError when bad."""
    runtime = url = None
    event = ""
    headers: list[tuple[str, str]] = []
    allow: list[str] = []
    i = 0
    while i < len(args):
        arg = args[i]
        want = 2 if arg == "--header" else 1
        if arg not in ("--runtime", "--url", "--header", "--allow-env", "--event"):
            raise SpecError(f"unknown argument {arg!r}")
        if i + want >= len(args):
            raise SpecError(f"{arg} needs {'a name and a value' if want == 2 else 'a value'}")
        if arg == "--runtime":
            runtime = args[i + 1]
        elif arg == "--url":
            url = args[i + 1]
        elif arg == "--header":
            headers.append((args[i + 1], args[i + 2]))
        elif arg == "--event":
            event = args[i + 1]
        else:
            allow.append(args[i + 1])
        i += want + 1
    if not runtime or not url:
        raise SpecError("--runtime and --url are required")
    return HttpSpec(runtime, url, tuple(headers), tuple(allow), event)


def from_line(line: str, python: str | None = None) -> HttpSpec | None:
    """The spec of a command line this module wrote, or None when it is not one."""
    import shlex

    try:
        words = shlex.split(line)
    except ValueError:
        return None
    start = 1 + len(ISOLATED) if words[1 : 1 + len(ISOLATED)] == list(ISOLATED) else 1
    if words[start : start + 2] != ["-m", MODULE]:
        return None
    if python is not None and words[0] != python:
        return None
    try:
        return from_args(words[start + 2 :])
    except SpecError:
        return None
