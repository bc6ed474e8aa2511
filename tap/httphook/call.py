"""The POST of one http hook call, answered as a command hook the runtime reads alike.

Stdin (the runtime's request) is the body, as the runtime would send it. The
headers are the hook's, interpolated as the runtime does (only variables the
hook allows, never the ones the runtime withholds; CR, LF and NUL removed;
the ones it drops left out). No redirect is followed; proxies come from the
environment, as for the runtime. No timeout of our own: the runtime stops this
command at the hook's timeout, as it would abort the request.
"""

from __future__ import annotations

import os
import re
import sys
import urllib.error
import urllib.request

from hooktui.tap.httphook.spec import HttpSpec, SpecError, from_args
from hooktui.tap.runtimes import get_adapter

_VAR = re.compile(r"\$\{([A-Z_][A-Z0-9_]*)\}|\$([A-Z_][A-Z0-9_]*)")
_CUT = re.compile(r"[\r\n\x00]")


def interpolate(value: str, allowed: set[str], environ) -> str:
    def one(m: re.Match) -> str:
        name = m.group(1) or m.group(2)
        return environ.get(name, "") if name in allowed else ""

    return _CUT.sub("", _VAR.sub(one, value))


def headers_for(spec: HttpSpec, environ) -> dict[str, str]:
    http = get_adapter(spec.runtime).settings.http
    allowed = set(spec.allow_env) - set(http.withheld_env)
    out = {"Content-Type": "application/json"}
    for name, value in spec.headers:
        if name.strip().lower() in http.ignored_headers:
            continue
        out[name] = interpolate(value, allowed, environ)
    return out


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None  # a 3xx is the answer, as for the runtime


def post(spec: HttpSpec, body: bytes, environ) -> tuple[int | None, bytes, str]:
    """(status, body, error): status None when no reply came."""
    request = urllib.request.Request(
        spec.url, data=body, headers=headers_for(spec, environ), method="POST"
    )
    opener = urllib.request.build_opener(_NoRedirect)
    try:
        with opener.open(request) as reply:
            return reply.status, reply.read(), ""
    except urllib.error.HTTPError as exc:
        data = exc.read() if exc.fp is not None else b""
        return exc.code, data, f"HTTP {exc.code} from {spec.url}"
    except (urllib.error.URLError, OSError, ValueError) as exc:
        reason = getattr(exc, "reason", exc)
        return None, b"", str(reason) or type(exc).__name__


def main(args: list[str]) -> int:
    try:
        spec = from_args(args)
        runtime = get_adapter(spec.runtime)
        if runtime.settings is None or runtime.settings.http is None:
            raise SpecError(f"{spec.runtime} has no http hooks")
    except (SpecError, KeyError, ValueError) as exc:
        sys.stderr.write(f"hooktui http hook: {exc}\n")
        return 1
    status, body, error = post(spec, sys.stdin.buffer.read(), os.environ)
    out, err, code = runtime.http_answer(status, body, error)
    sys.stdout.buffer.write(out)
    sys.stderr.buffer.write(err)
    return code
