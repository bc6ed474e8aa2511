"""How GitHub Copilot CLI 1.0.102 runs an `http` hook (its native hook runner), as the
command hook it reads the same way. Measured from the real CLI (tests/e2e/ORACLE.md).

Whether it posts at all (loading gates, blocked addresses) and where to (the URL
as Copilot reads it): copilot/http_url.py.

The POST (per call), made here with http.client as Copilot's hook runner makes
it (urllib would add its own headers and follow the environment's proxies): the
host's addresses must not be blocked, else an error; body = the request a command
hook reads on stdin (the camelCase dialect); the request target, the URL's path and
query as Copilot's URL parser reads them (request_target). Headers, names lower
case, in this order: the hook's as written (Host, Accept, User-Agent,
Content-Length too; Content-Type aside), their values interpolating `$NAME`,
`${NAME}` and `${NAME:-...}` (the name's value: the default is never used) of
`allowedEnvVars` only (case-sensitive; any other name, or an unset one, is
empty), non-ASCII as UTF-8; then `content-type: application/json` whatever the
hook says, and unless the hook gave them `user-agent: copilot/<version>
(<platform> <its Node>) term/<$TERM_PROGRAM, else unknown>`, `accept: */*`,
`accept-encoding` (Copilot's `zstd,gzip,deflate,br` less the codings this Python
cannot decode: br, and zstd before 3.14), `host` (lower case, a numeric IPv4
host as its address, the port unless the scheme's default) and
`content-length`. A value holding a control character (tab aside) fails the
request. The URL is not interpolated. No proxy (HTTP_PROXY is not used), no
redirect followed. Timeout: `timeoutSec` seconds, else 30 s; a timeout fails
open, as a command's does (the runtime stops this command at the same timeout).
A reply whose Content-Encoding is exactly `gzip`, `deflate` (zlib) or `zstd` is
decoded (an undecodable one is an error); any other coding (`GZIP`, `x-gzip`,
`gzip, gzip`, `identity`) is read as it came.

The reply: no reply (refused, reset, timeout aside), a non-2xx status or a 3xx
is an error: preToolUse fails closed ("hook errored"), elsewhere it is ignored,
exactly as a command's exit 1. A 2xx body, whatever its Content-Type, is read
as JSON (a BOM and surrounding whitespace ignored): an object is the answer, as
a command's stdout would be; anything else (empty, text, an array, broken JSON,
a progress line before the answer) is no answer. Bytes that are not UTF-8 read
as U+FFFD, whatever the Content-Type or its charset.

preMcpToolCall (1.0.102 fires it before each MCP tool call, after preToolUse):
the body is `{sessionId, timestamp, cwd, toolCallId, serverName, toolName (the
server's own), arguments}`; the answer's `metaToUse` (an object, or null) becomes
the MCP request's `_meta` (Copilot's progressToken kept), anything else there is
ignored (logged), a deny is not read, and an error fails open: it never blocks.
"""

from __future__ import annotations

import gzip
import http.client
import json
import re
import sys
import urllib.parse
import zlib

from hooktui.tap.base import whatwg
from hooktui.tap.base.reply import read_body, tls_context
from hooktui.tap.runtimes.copilot.answers import read_stdout
from hooktui.tap.runtimes.copilot.http_url import (
    address,
    refusal,
    request_target,
    skipped,
    url_parts,
)
from hooktui.tap.runtimes.copilot.words import HTTP_VARS

_CONTROL = re.compile(r"[\x00-\x08\x0a-\x1f\x7f]")


def _interpolate(value: str, spec, environ) -> str:
    def one(m: re.Match) -> str:
        name = m.group(1) or m.group(2)
        return environ.get(name, "") if name in spec.allow_env else ""

    return re.sub(HTTP_VARS, one, value)


def _bad_header(spec, environ) -> str:
    for name, value in spec.headers:
        if _CONTROL.search(_interpolate(value, spec, environ)):
            return f"HTTP hook fetch failed: POST {spec.url} (the value of {name} is invalid)"
    return ""


def _event(request: bytes) -> str:
    """The native event a request names (a hook of Claude Code's settings, whose
    command install wrote for Claude Code, without `--event`)."""
    try:
        r = json.loads(request)
    except ValueError:
        return ""
    named = (r.get("hook_event_name") or r.get("hookName")) if isinstance(r, dict) else None
    return named if isinstance(named, str) else ""


def check(spec, environ, request: bytes = b"") -> tuple[bytes, bytes, int] | None:
    """The command's answer when Copilot would post nothing; None to post."""
    if not spec.event:
        spec = spec._replace(event=_event(request))
    why = skipped(spec, environ)
    if why:  # as if there were no hook: no answer
        return b"", f"hooktui http hook: {why}\n".encode(), 0
    why = refusal(spec.url, environ) or _bad_header(spec, environ)
    if why:
        return b"", why.encode(), 1
    return None


def problem(handler: dict) -> str:
    """Why install leaves this http hook alone ("" when it wraps it)."""
    try:
        url = handler.get("url", "")
        parts = url_parts(url)
        parts.port  # noqa: B018 (raises on a bad port)
    except ValueError:
        return "its URL does not parse; Copilot CLI skips the hook"
    if parts.scheme.lower() not in ("http", "https") or not parts.hostname:
        return "its URL is not http: or https:; Copilot CLI skips the hook"
    authority = (whatwg.split(url) or ("", ""))[1]
    if parts.username is not None or parts.password is not None or "@" in authority:
        return "its URL holds a user name or password, which the tap's POST would not send alike"
    return ""


def _no_constants(name: str):
    raise ValueError(name)  # NaN / Infinity are not JSON


def _reply_object(body: bytes) -> tuple[str, dict | None]:
    """(the body's text, stripped; the object Copilot reads from it, or None)."""
    text = body.decode("utf-8", "replace").lstrip("\ufeff").strip(" \t\r\n")
    try:
        value = json.loads(text, parse_constant=_no_constants)
    except ValueError:
        return text, None
    return text, value if isinstance(value, dict) else None


def answer(
    status: int | None, body: bytes, error: str, content_type: str, request: bytes
) -> tuple[bytes, bytes, int]:
    if status is None:
        return b"", (error or "HTTP hook fetch failed").encode(), 1
    if not 200 <= status < 300:
        what = "redirect" if 300 <= status < 400 else "non-success status"
        return b"", f"HTTP hook returned {what} {status} ({error})".encode(), 1
    text, value = _reply_object(body)
    if value is None:
        return b"", b"", 0
    # The body as it came, unless a command's stdout would read otherwise (a
    # one-line `{"type": "progress", ...}` is skipped there): then one key a line.
    if read_stdout(text.encode()) == ("json", value):
        return text.encode(), b"", 0
    return json.dumps(value, indent=1).encode(), b"", 0


# ------------------------------------------------------------------------- the POST

# The Node inside each Copilot binary measured (its User-Agent names it); a later
# version is taken to carry the latest one known.
_NODE = {"1.0.102": "v24.20.0"}
_LATEST = "1.0.102"


def _zstd():
    try:
        from compression import zstd  # Python 3.14+
    except ImportError:
        return None
    return zstd.decompress


# The codings Copilot decodes, which this Python can too, in the order it offers them.
_DECODERS = {"zstd": _zstd(), "gzip": gzip.decompress, "deflate": zlib.decompress}
_DECODERS = {name: f for name, f in _DECODERS.items() if f is not None}
ACCEPT_ENCODING = ",".join(c for c in ("zstd", "gzip", "deflate", "br") if c in _DECODERS)


def user_agent(environ) -> str:
    version = environ.get("COPILOT_CLI_BINARY_VERSION") or _LATEST
    node = _NODE.get(version, _NODE[_LATEST])
    return (
        f"copilot/{version} ({sys.platform} {node}) term/{environ.get('TERM_PROGRAM', 'unknown')}"
    )


def _host(parts: urllib.parse.SplitResult) -> tuple[str, str]:
    """(where to connect, the Host header) as Copilot's URL parser reads the host."""
    host = parts.hostname or ""
    ip = address(host)
    name = str(ip) if ip is not None else host
    default = 443 if parts.scheme.lower() == "https" else 80
    shown = f"[{name}]" if ":" in name else name
    if parts.port is not None and parts.port != default:
        shown += f":{parts.port}"
    return name, shown


def request_headers(spec, environ, length: int) -> list[tuple[str, bytes]]:
    """The POST's headers, in Copilot's order and case."""
    parts = url_parts(spec.url)
    out: dict[str, bytes] = {}
    for name, value in spec.headers:
        key = name.strip().lower()
        if key != "content-type":  # Copilot's own, always
            out[key] = _interpolate(value, spec, environ).encode("utf-8")
    out["content-type"] = b"application/json"
    defaults = (
        ("user-agent", user_agent(environ)),
        ("accept", "*/*"),
        ("accept-encoding", ACCEPT_ENCODING),
        ("host", _host(parts)[1]),
        ("content-length", str(length)),
    )
    for key, value in defaults:
        out.setdefault(key, value.encode("utf-8"))
    return list(out.items())


def _decoded(reply: http.client.HTTPResponse, data: bytes, url: str) -> tuple[bytes, str]:
    """(the body as Copilot reads it, an error): only an exact coding name decodes."""
    coding = reply.getheader("Content-Encoding") or ""
    if not data or coding not in (*_DECODERS, "br", "zstd"):
        return data, ""
    if coding not in _DECODERS:  # never offered; Copilot would decode it
        return b"", f"HTTP hook fetch failed: POST {url} ({coding} body: not decodable here)"
    try:
        return _DECODERS[coding](data), ""
    except Exception:  # noqa: BLE001 (each decoder has its own error)
        return b"", f"HTTP hook fetch failed: POST {url} (its {coding} body does not decode)"


def post(spec, body: bytes, environ) -> tuple[int | None, bytes, str, str]:
    """(status, body, error, content type), status None when no reply came: the POST
    Copilot makes (check() has refused what it would not post)."""
    url = spec.url
    try:
        parts = url_parts(url)
        host, _shown = _host(parts)
        https = parts.scheme.lower() == "https"
        if https:
            conn = http.client.HTTPSConnection(host, parts.port, context=tls_context(environ))
        else:
            conn = http.client.HTTPConnection(host, parts.port)
        target = request_target(url)
        conn.putrequest("POST", target, skip_host=True, skip_accept_encoding=True)
        for name, value in request_headers(spec, environ, len(body)):
            conn.putheader(name, value)
        conn.endheaders(body)
        reply = conn.getresponse()
        data = read_body(reply)
        conn.close()
    except (OSError, http.client.HTTPException, ValueError) as exc:
        return None, b"", str(exc) or type(exc).__name__, ""
    data, error = _decoded(reply, data, url)
    if error:
        return None, b"", error, ""
    kind_of = reply.getheader("Content-Type", "")
    if not 200 <= reply.status < 300:
        return reply.status, data, f"HTTP {reply.status} from {url}", kind_of
    return reply.status, data, "", kind_of
