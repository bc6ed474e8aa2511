"""The POST of one http hook call, answered as a command hook the runtime reads alike.

Stdin (the runtime's request) is the body, as the runtime would send it. The
headers are the hook's, interpolated as the runtime does (only variables the
hook allows, never the ones the runtime withholds; CR, LF and NUL removed;
the ones it drops left out). No redirect is followed; proxies come from the
environment, as for the runtime. No timeout of our own: the runtime stops this
command at the hook's timeout, as it would abort the request.
"""

from __future__ import annotations

import http.client
import os
import re
import sys
import urllib.error
import urllib.request

from hooktui.tap.base.reply import TooLong, read_body, tls_context
from hooktui.tap.httphook.spec import HttpSpec, SpecError, from_args
from hooktui.tap.runtimes import get_adapter

_CUT = re.compile(r"[\r\n\x00]")


def interpolate(value: str, allowed: set[str], environ, pattern: str) -> str:
    def one(m: re.Match) -> str:
        name = next(g for g in m.groups() if g)
        return environ.get(name, "") if name in allowed else ""

    return _CUT.sub("", re.sub(pattern, one, value))


def _allowed(spec: HttpSpec) -> set[str]:
    http = get_adapter(spec.runtime).settings.http
    if http.withheld_any_case:
        withheld = {v.upper() for v in http.withheld_env}
        return {v for v in spec.allow_env if v.upper() not in withheld}
    return set(spec.allow_env) - set(http.withheld_env)


def url_for(spec: HttpSpec, environ) -> str:
    http = get_adapter(spec.runtime).settings.http
    if not http.interpolate_url:
        return spec.url
    return interpolate(spec.url, _allowed(spec), environ, http.var_pattern)


def headers_for(spec: HttpSpec, environ) -> dict[str, str]:
    http = get_adapter(spec.runtime).settings.http
    allowed = _allowed(spec)
    out = {"Content-Type": "application/json"}
    for name, value in spec.headers:
        if name.strip().lower() in http.ignored_headers:
            continue
        text = interpolate(value, allowed, environ, http.var_pattern)
        # http.client writes a value as latin-1: these are the bytes the runtime sends.
        out[name] = text.encode(http.header_encoding).decode("latin-1")
    return out


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None  # a 3xx is the answer, as for the runtime


def _opener(context) -> urllib.request.OpenerDirector:
    """build_opener's handlers for http and https only: a hook's URL never reads a
    local file (file:, data:) or speaks ftp, which no runtime's POST does."""
    opener = urllib.request.OpenerDirector()
    for handler in (
        urllib.request.ProxyHandler(),
        urllib.request.UnknownHandler(),  # any other scheme: "unknown url type: <scheme>"
        urllib.request.HTTPHandler(),
        urllib.request.HTTPSHandler(context=context),
        urllib.request.HTTPDefaultErrorHandler(),
        _NoRedirect(),
        urllib.request.HTTPErrorProcessor(),
    ):
        opener.add_handler(handler)
    return opener


def post(spec: HttpSpec, body: bytes, environ, parse=None) -> tuple[int | None, bytes, str, str]:
    """(status, body, error, content type): status None when no reply came. `parse`:
    the runtime's reading of the URL (its `http_target`: base/whatwg.py's Target, or
    None to send it as written)."""
    url = url_for(spec, environ)
    refusal = get_adapter(spec.runtime).http_refusal(url)
    if refusal:
        return None, b"", refusal, ""
    try:
        headers = headers_for(spec, environ)
    except UnicodeError:  # not the value: it may hold an interpolated secret
        return None, b"", "a header value has a character that cannot be sent", ""
    sent = parse(url) if parse else None
    if sent is not None and sent.authorization:  # it replaces the hook's own
        headers = {k: v for k, v in headers.items() if k.strip().lower() != "authorization"}
        headers["Authorization"] = sent.authorization
    try:
        target = url if sent is None else sent.url
        request = urllib.request.Request(target, data=body, headers=headers, method="POST")
        with _opener(tls_context(environ)).open(request) as reply:
            return reply.status, read_body(reply), "", reply.headers.get("Content-Type", "")
    except urllib.error.HTTPError as exc:
        try:
            data = read_body(exc) if exc.fp is not None else b""
        except TooLong as too_long:
            return None, b"", str(too_long), ""
        kind = exc.headers.get("Content-Type", "") if exc.headers else ""
        # Claude Code 2.1.332's own words (its bundle: `HTTP ${status} from ${url}`,
        # the stderr of the hook error it reports), the URL as written: it interpolates
        # none. A secret the record's redaction knows is masked here already (stderr is
        # recorded; now that `user:password@` posts): install never wraps such a URL,
        # so a wrapped hook's words are Claude's.
        from hooktui.tap.record.redact import redact_text  # only on this path

        return exc.code, data, redact_text(f"HTTP {exc.code} from {url}")[0], kind
    except urllib.error.URLError as exc:  # its reason never holds the URL (the scheme at most)
        return None, b"", str(exc.reason) or type(exc.reason).__name__, ""
    except OSError as exc:  # refused, reset, closed without a reply: never the URL
        return None, b"", str(exc) or type(exc).__name__, ""
    except (ValueError, http.client.InvalidURL):
        # Python's words here quote the URL or a piece of it ("nonnumeric port:
        # 'password@host'"), which the redaction of the record cannot recognise:
        # stderr is recorded, so never the URL.
        return None, b"", "Invalid URL", ""
    except http.client.HTTPException as exc:  # a broken reply: the server's bytes at most
        return None, b"", str(exc) or type(exc).__name__, ""


def _as_called(spec: HttpSpec, runtime, request: bytes, environ) -> tuple[HttpSpec, object]:
    """The spec as the runtime that called runs it: Copilot CLI runs the http hooks of
    Claude Code's settings too, posting and reading the reply by its own rules."""
    import json

    from hooktui.tap.runtimes.registry import caller

    try:
        called = caller(json.loads(request), environ)
    except ValueError:
        return spec, runtime
    if called is None or called is runtime or called.settings is None:
        return spec, runtime
    if called.settings.http is None:
        return spec, runtime
    return spec._replace(runtime=called.name), called


def main(args: list[str]) -> int:
    try:
        spec = from_args(args)
        runtime = get_adapter(spec.runtime)
        if runtime.settings is None or runtime.settings.http is None:
            raise SpecError(f"{spec.runtime} has no http hooks")
    except (SpecError, KeyError, ValueError) as exc:
        sys.stderr.write(f"hooktui http hook: {exc}\n")
        return 1
    request = sys.stdin.buffer.read()
    spec, runtime = _as_called(spec, runtime, request, os.environ)
    early = runtime.http_check(spec, os.environ, request)  # it would not post at all
    if early is not None:
        out, err, code = early
    else:
        made = runtime.http_post(spec, request, os.environ)
        status, body, error, kind = made or post(
            spec, request, os.environ, parse=runtime.http_target
        )
        out, err, code = runtime.http_answer(status, body, error, kind, request)
    sys.stdout.buffer.write(out)
    sys.stderr.buffer.write(err)
    return code
