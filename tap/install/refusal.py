"""What a wrapped http hook needs of hooktui, and what it answers when that is gone.

An http hook made a command hook cannot fall back to running bare (its POST is
hooktui's), so its line checks that the module making the POST is there, and
otherwise refuses: for a guard event, the runtime's own deny (its `encode`)
with one line naming the cause and the fix; elsewhere an error the runtime
does not block on, as when its own POST fails. Never an allow.
"""

from __future__ import annotations

import subprocess

from hooktui.tap.canonical import Call, Verdict
from hooktui.tap.httphook.spec import MODULE
from hooktui.tap.install.files import InstallError
from hooktui.tap.install.wrapper import Fallback
from hooktui.tap.runtimes.descriptor import Runtime

_FAILED = 1  # what a command hook's failure exits with where it does not block


def http_module(python: str) -> str:
    """The file `python` runs for the http hook's POST, as that Python finds it."""
    probe = f"import importlib.util as u; print(u.find_spec({MODULE!r} + '.call').origin)"
    try:
        done = subprocess.run(
            [python, "-I", "-c", probe], capture_output=True, text=True, timeout=60
        )
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise InstallError(f"cannot start {python} to find hooktui's http hook: {exc}") from None
    found = done.stdout.strip()
    if done.returncode or not found:
        raise InstallError(
            f"{python} cannot find hooktui's http hook ({MODULE}); reinstall hooktui"
        )
    return found


def http_refusal(runtime: Runtime, event: str, hooktui: str) -> Fallback:
    message = (
        f"hooktui: this {runtime.title} http hook makes its POST through {hooktui}, which "
        f"is gone: reinstall hooktui, or run `hooktui uninstall {runtime.name}` to restore "
        "the http hook"
    )
    if event in runtime.guards:
        call = Call(runtime=runtime.name, event=runtime.event_of(event), native_event=event)
        try:
            out, _, code = runtime.encode(call, Verdict(decision="deny", reason=message))
            return Fallback(out.decode("utf-8"), message, code)
        except (ValueError, UnicodeDecodeError):
            pass  # no deny at this event: refuse as a failure
    return Fallback("", message, _FAILED)
