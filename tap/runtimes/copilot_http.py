"""How GitHub Copilot CLI 1.0.102 runs an `http` hook (its native hook runner), as the
command hook it reads the same way. Measured from the real CLI (tests/e2e/ORACLE.md).

Loading (the hook is skipped, with a logged error, when it fails; nothing is posted):
- a URL that is not http: / https: (install leaves such a hook alone);
- plain http: at an authorization event (preToolUse, preMcpToolCall,
  permissionRequest) unless `COPILOT_HOOK_ALLOW_HTTP_AUTH_HOOKS=1`, or the host is
  localhost / a loopback address and `COPILOT_HOOK_ALLOW_LOCALHOST=1`;
- plain http: with `allowedEnvVars` unless localhost and `COPILOT_HOOK_ALLOW_LOCALHOST=1`.
  Only the value `1` counts (`true`, `yes`, ` 1`, `2` do not).

The POST (per call), made here with http.client as Copilot's hook runner makes
it (urllib would add its own headers and follow the environment's proxies): the
host's addresses must not be blocked (below), else an error; body = the request
a command hook reads on stdin (the camelCase dialect); the request target, the
URL's path and query as its URL parser reads them (WHATWG's rules: `..` and `%2e`
segments resolved, a space, a quote or non-ASCII percent-encoded, a backslash a
slash, no fragment; an empty query's `?` kept: request_target). Headers, names lower
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

Blocked addresses (literal, or any address the name resolves to): 0.0.0.0/8,
10/8, 100.64/10, 127/8, 169.254/16, 172.16/12, 192.168/16, 198.18/15, ::1,
fc00::/7, fe80::/10, 64:ff9b::/96, 100::/64, and ::ffff:a.b.c.d of a blocked
IPv4 address. `COPILOT_HOOK_ALLOW_LOCALHOST=1` lifts 127/8 and ::1 (not their
::ffff: form).

The reply: no reply (refused, reset, timeout aside), a non-2xx status or a 3xx
is an error: preToolUse fails closed ("hook errored"), elsewhere it is ignored,
exactly as a command's exit 1. A 2xx body, whatever its Content-Type, is read
as JSON (a BOM and surrounding whitespace ignored): an object is the answer, as
a command's stdout would be; anything else (empty, text, an array, broken JSON,
a progress line before the answer) is no answer. Bytes that are not UTF-8 read
as U+FFFD, whatever the Content-Type or its charset.

Localhost, for the load-time gates: `localhost` (any case), 127.0.0.0/8 and
`::1` only: not `localhost.` nor `foo.localhost` (skipped when loading, even
with COPILOT_HOOK_ALLOW_LOCALHOST=1). Their addresses are the system
resolver's: where `foo.localhost` resolves to 127.0.0.1 it is blocked, or lifted
by COPILOT_HOOK_ALLOW_LOCALHOST=1 at an event without the gate; `localhost.`
does not resolve through /etc/hosts (a lookup error).

preMcpToolCall (1.0.102 fires it before each MCP tool call, after preToolUse):
the body is `{sessionId, timestamp, cwd, toolCallId, serverName, toolName (the
server's own), arguments}`; the answer's `metaToUse` (an object, or null) becomes
the MCP request's `_meta` (Copilot's progressToken kept), anything else there is
ignored (logged), a deny is not read, and an error fails open: it never blocks.
"""

from __future__ import annotations

import gzip
import http.client
import ipaddress
import json
import re
import socket
import sys
import urllib.parse
import zlib

from hooktui.tap.httphook import whatwg
from hooktui.tap.runtimes.copilot import HTTP_VARS
from hooktui.tap.runtimes.copilot_answers import read_stdout

_ALLOW_LOCALHOST = "COPILOT_HOOK_ALLOW_LOCALHOST"
_ALLOW_HTTP_AUTH = "COPILOT_HOOK_ALLOW_HTTP_AUTH_HOOKS"
# (and their names in Claude Code's settings, which it runs too)
_AUTH_EVENTS = ("preToolUse", "preMcpToolCall", "permissionRequest", "PreToolUse")
_AUTH_EVENTS += ("PreMcpToolCall", "PermissionRequest")
_BLOCKED = tuple(
    ipaddress.ip_network(n)
    for n in (
        "0.0.0.0/8",
        "10.0.0.0/8",
        "100.64.0.0/10",
        "169.254.0.0/16",
        "172.16.0.0/12",
        "192.168.0.0/16",
        "198.18.0.0/15",
        "fc00::/7",
        "fe80::/10",
        "64:ff9b::/96",
        "100::/64",
    )
)
_LOOPBACK = (ipaddress.ip_network("127.0.0.0/8"), ipaddress.ip_network("::1/128"))
_CONTROL = re.compile(r"[\x00-\x08\x0a-\x1f\x7f]")


def _parts(url: str) -> urllib.parse.SplitResult:
    """The URL as Copilot's URL parser reads it (WHATWG's: `http:host`, `http:\\\\host`,
    a backslash after the port, a lower-case host), split; as written where
    whatwg.target leaves it (`127.1`, IDNA: _address and the resolver read those)."""
    read = whatwg.target(url)
    return urllib.parse.urlsplit(read.url if read is not None else url)


def _ipv4(host: str) -> ipaddress.IPv4Address | None:
    """The address a WHATWG URL parser makes of this host (`127.1`, `2130706433`,
    `0x7f.0.0.1`), or None when it is a name."""
    parts = host.split(".")
    if len(parts) > 1 and parts[-1] == "":
        parts.pop()
    numbers = []
    for part in parts:
        base = 10
        if part[:2].lower() == "0x":
            part, base = part[2:] or "0", 16
        elif len(part) > 1 and part.startswith("0"):
            part, base = part[1:], 8
        try:
            numbers.append(int(part, base))
        except ValueError:
            return None
    if not 1 <= len(numbers) <= 4 or any(n > 255 for n in numbers[:-1]):
        return None
    if numbers[-1] >= 256 ** (5 - len(numbers)):
        return None
    value = numbers[-1]
    for i, n in enumerate(numbers[:-1]):
        value += n << (8 * (3 - i))
    return ipaddress.IPv4Address(value)


def _address(host: str):
    try:
        return ipaddress.ip_address(host)
    except ValueError:
        return _ipv4(host)


def _blocked(ip, allow_loopback: bool) -> bool:
    if ip.version == 6 and ip.ipv4_mapped is not None:
        return _blocked(ip.ipv4_mapped, False)  # the ::ffff: form is never lifted
    if any(ip in n for n in _LOOPBACK if n.version == ip.version):
        return not allow_loopback
    return any(ip in n for n in _BLOCKED if n.version == ip.version)


def _is_localhost(host: str) -> bool:
    ip = _address(host)
    if ip is None:
        return host == "localhost"
    return any(ip in n for n in _LOOPBACK if n.version == ip.version)


def refusal(url: str, environ) -> str:
    """Why Copilot refuses to post to this URL ("" when it posts)."""
    try:
        host = _parts(url).hostname or ""  # `localhost.` is not `localhost`
    except ValueError:
        return f"HTTP hook fetch failed: POST {url}"
    allow = environ.get(_ALLOW_LOCALHOST) == "1"
    ip = _address(host)
    if ip is not None:
        found = [ip]
    else:
        try:
            found = [_address(info[4][0].split("%")[0]) for info in socket.getaddrinfo(host, None)]
        except (OSError, UnicodeError) as exc:
            return f"failed to lookup address information: {exc}"
    for address in found:
        if address is not None and _blocked(address, allow):
            return (
                f'HTTP hook URL "{url}" resolves to blocked address {address}. URLs must '
                "not target loopback, private, or link-local addresses."
            )
    return ""


def skipped(spec, environ) -> str:
    """Why Copilot would have skipped this hook when loading it ("" when it runs it)."""
    parts = _parts(spec.url)
    if parts.scheme.lower() != "http":
        return ""
    local = _is_localhost(parts.hostname or "") and (environ.get(_ALLOW_LOCALHOST) == "1")
    if spec.event in _AUTH_EVENTS and not (local or environ.get(_ALLOW_HTTP_AUTH) == "1"):
        return (
            "Authorization-affecting HTTP hooks (preToolUse, preMcpToolCall, "
            "permissionRequest) must use https:// (Copilot skips this hook unless "
            f"{_ALLOW_HTTP_AUTH}=1, or localhost with {_ALLOW_LOCALHOST}=1)"
        )
    if spec.allow_env and not local:
        return (
            "HTTP hooks with allowedEnvVars must use https:// (Copilot skips this hook "
            f"unless it is localhost with {_ALLOW_LOCALHOST}=1)"
        )
    return ""


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
        parts = _parts(url)
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
    ip = _address(host)
    name = str(ip) if ip is not None else host
    default = 443 if parts.scheme.lower() == "https" else 80
    shown = f"[{name}]" if ":" in name else name
    if parts.port is not None and parts.port != default:
        shown += f":{parts.port}"
    return name, shown


def request_headers(spec, environ, length: int) -> list[tuple[str, bytes]]:
    """The POST's headers, in Copilot's order and case."""
    parts = _parts(spec.url)
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


def request_target(url: str) -> str:
    """The path and query Copilot's URL parser sends: WHATWG's (`..` resolved, a space
    or non-ASCII percent-encoded, backslashes read as slashes, no fragment), an empty
    query's `?` kept (measured, ORACLE.md)."""
    target = whatwg.request_target(url, empty_query=True)
    if target is None:  # not a URL Copilot posts to (install leaves it alone): as written
        parts = urllib.parse.urlsplit(url)
        target = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
    return target


def post(spec, body: bytes, environ) -> tuple[int | None, bytes, str, str]:
    """(status, body, error, content type), status None when no reply came: the POST
    Copilot makes (check() has refused what it would not post)."""
    url = spec.url
    try:
        parts = _parts(url)
        host, _shown = _host(parts)
        https = parts.scheme.lower() == "https"
        conn = (http.client.HTTPSConnection if https else http.client.HTTPConnection)(
            host, parts.port
        )
        target = request_target(url)
        conn.putrequest("POST", target, skip_host=True, skip_accept_encoding=True)
        for name, value in request_headers(spec, environ, len(body)):
            conn.putheader(name, value)
        conn.endheaders(body)
        reply = conn.getresponse()
        data = reply.read()
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
