"""How Qwen Code 0.24.4 runs an `http` hook (its bundled httpHookRunner, urlValidator,
ssrfGuard and envInterpolator), as the command hook it reads the same way.

The POST: the hook's `url` and header values interpolate `$V` / `${V}` (any case,
a brace optional on either side) of `allowedEnvVars` only, never its own tokens
(any case); CR, LF and NUL removed. Body: the request, as a command's stdin.
`Content-Type: application/json`, overridable by the hook's headers. No redirect
is followed (a 3xx is a non-2xx). Timeout: `timeout` seconds, else 600 s (the
command default is 60 s and reads 1000 or more as ms: install checks it).

Before posting it refuses a URL that is not one, a host on its list, a metadata
address, or a private / link-local address (literal, or any address its name
resolves to; loopback is allowed): no output at all, a failed hook.

The reply, all of it non-blocking when it fails:
- no reply (refused, reset) or a non-2xx status: an error with output
  `{continue: true}`;
- 2xx with a Content-Type holding `application/json`: the JSON, keeping only
  continue / suppressOutput (booleans), stopReason / systemMessage / reason
  (strings, cut to 10,000 UTF-16 units), decision (string), hookSpecificOutput
  (an object: its additionalContext cut, hookEventName added when missing); a
  body that does not parse, or is not an object or array, is `{continue: true}`;
- 2xx otherwise: trimmed text is the systemMessage (cut), empty is `{continue: true}`.

Where the POST failed (no reply, a non-2xx) or a JSON reply is not an object, the
command answers what Qwen reads and says on stderr, after `HTTP_FAILED`, what went
wrong: the judge (qwen_code/__init__.py) records a failure that let the action through.
Not a refusal: its stderr would be read (exit 1 with nothing on stdout), so it
stays silent, a failure by its exit code alone. An empty JSON body is no answer,
as an empty stdout is, not a failure.
"""

from __future__ import annotations

import ipaddress
import json
import socket
import urllib.parse

from hooktui.tap.runtimes.qwen_code.words import HTTP_FAILED

_CUT_AT = 10_000  # UTF-16 code units, as JavaScript counts a string
_CONTINUE = b'{"continue":true}'
# JavaScript's String.prototype.trim: whitespace and line terminators.
_JS_SPACE = "\t\n\v\f\r \xa0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009"
_JS_SPACE += "\u200a\u2028\u2029\u202f\u205f\u3000\ufeff"
_BLOCKED_HOSTS = (
    "localhost.localdomain",
    "ip6-localhost",
    "ip6-loopback",
    "metadata.google.internal",
    "169.254.169.254",
    "metadata.azure.internal",
)
_METADATA = ("169.254.169.254", "100.100.100.200")
_PRIVATE_V4 = tuple(
    ipaddress.ip_network(n)
    for n in ("0.0.0.0/8", "10.0.0.0/8", "169.254.0.0/16", "172.16.0.0/12", "100.64.0.0/10")
) + (ipaddress.ip_network("192.168.0.0/16"),)


def _blocked(address: str) -> str:
    """Why Qwen refuses this literal address ("" when it does not, or it is no address)."""
    try:
        ip = ipaddress.ip_address(address.strip("[]").split("%")[0])
    except ValueError:
        return ""
    v4 = ip if ip.version == 4 else ip.ipv4_mapped
    if v4 is not None and str(v4) in _METADATA:
        return "is a cloud metadata endpoint"
    if v4 is not None:
        return "is in a private/link-local range" if any(v4 in n for n in _PRIVATE_V4) else ""
    text = ip.exploded
    if ip == ipaddress.ip_address("::"):
        return "is in a private/link-local range"
    if text.startswith(("fc", "fd")) or "fe80" <= text[:4] <= "febf":
        return "is in a private/link-local range"
    return ""


def refusal(url: str) -> str:
    try:
        parts = urllib.parse.urlsplit(url)
        host = (parts.hostname or "").lower()
    except ValueError:
        return "URL validation failed: invalid URL"
    if parts.scheme.lower() not in ("http", "https") or parts.username or parts.password:
        # fetch throws: a failed connection, not a refusal. Not the URL: interpolated,
        # it may hold a password, and stderr is recorded.
        return "fetch failed: the URL is not http(s), or holds a user name or password"
    if not host or host in _BLOCKED_HOSTS or _blocked(host) == "is a cloud metadata endpoint":
        return "URL validation failed: URL is blocked for security reasons (SSRF protection)"
    if _blocked(host):
        return f"HTTP hook blocked: {host} {_blocked(host)}"
    try:
        found = {info[4][0] for info in socket.getaddrinfo(host, None)}
    except (OSError, UnicodeError):
        return ""  # Qwen posts anyway, and the POST fails
    for address in sorted(found):
        if _blocked(address):
            return f"HTTP hook blocked: {host} resolves to {address} ({_blocked(address)})"
    return ""


def _failed(what: str, body: bytes = b"") -> bytes:
    """The stderr line the judge reads: what went wrong, and the start of the body."""
    text = body.decode("utf-8", "replace").strip()
    if text:
        shown = text[:200] + ("\u2026" if len(text) > 200 else "")
        what += f"; body: {json.dumps(shown, ensure_ascii=False)}"
    return f"{HTTP_FAILED}{what}\n".encode()


def _units(text: str) -> int:
    return len(text.encode("utf-16-le", "surrogatepass")) // 2


def _cut(text: str) -> str:
    n = _units(text)
    if n <= _CUT_AT:
        return text
    head = text.encode("utf-16-le", "surrogatepass")[: 2 * _CUT_AT]
    kept = head.decode("utf-16-le", "surrogatepass")
    return f"{kept}\n... [truncated, {n - _CUT_AT} more characters]"


def _no_constants(name: str):
    raise ValueError(name)  # JSON.parse has no NaN / Infinity


def _event(request: bytes) -> str:
    try:
        event = json.loads(request).get("hook_event_name")
    except (ValueError, AttributeError):
        return ""
    return event if isinstance(event, str) else ""


def _normalized(data, event: str) -> dict | None:
    """The JSON reply as Qwen keeps it; None when it would throw (not an object)."""
    if isinstance(data, list):
        return {}
    if not isinstance(data, dict):
        return None
    out: dict = {}
    for key, kind in (
        ("continue", bool),
        ("stopReason", str),
        ("suppressOutput", bool),
        ("systemMessage", str),
        ("decision", str),
        ("reason", str),
    ):
        if isinstance(data.get(key), kind):
            out[key] = (
                _cut(data[key]) if key in ("stopReason", "systemMessage", "reason") else data[key]
            )
    hso = data.get("hookSpecificOutput")
    if isinstance(hso, dict):
        if isinstance(hso.get("additionalContext"), str):
            hso["additionalContext"] = _cut(hso["additionalContext"])
        if "hookEventName" not in hso:
            hso["hookEventName"] = event
        out["hookSpecificOutput"] = hso
    elif isinstance(hso, list):
        out["hookSpecificOutput"] = hso
    return out


def answer(
    status: int | None, body: bytes, error: str, content_type: str, request: bytes
) -> tuple[bytes, bytes, int]:
    # The command hook's rules: stdout that is a JSON object is the output whatever
    # the exit code (2 aside); exit 1 makes it a non-blocking error, exit 0 a success;
    # exit 1 with nothing printed is a failure with no output.
    if status is None and error.startswith(("URL validation failed", "HTTP hook blocked")):
        return b"", b"", 1  # stderr would become a warning output: the refusal has none
    if status is None:  # Qwen's words: "connection failed"
        return _CONTINUE, _failed(f"connection failed: {error or 'no reply'}"), 1
    if not 200 <= status < 300:  # its own status only: `error` names the URL, interpolated
        redirect = " (a redirect: not followed)" if 300 <= status < 400 else ""
        return _CONTINUE, _failed(f"HTTP hook returned {status}{redirect}", body), 1
    text = body.decode("utf-8-sig", "replace")
    if "application/json" in content_type:
        try:
            data = json.loads(text, parse_constant=_no_constants)
        except ValueError:
            if not text.strip(_JS_SPACE):
                return _CONTINUE, b"", 0
            return _CONTINUE, _failed("the reply is not JSON", body), 0
        out = _normalized(data, _event(request))
        if out is None:
            return _CONTINUE, _failed("the reply is JSON but not an object", body), 0
        if isinstance(data, list):
            return json.dumps(out).encode(), _failed("the reply is a JSON array", body), 0
        return json.dumps(out).encode(), b"", 0
    text = text.strip(_JS_SPACE)
    if not text:
        return _CONTINUE, b"", 0
    return json.dumps({"continue": True, "systemMessage": _cut(text)}).encode(), b"", 0


def problem(handler: dict) -> str:
    """Why a wrapped hook would not be read alike ("" when it would)."""
    timeout = handler.get("timeout")
    if isinstance(timeout, bool) or not isinstance(timeout, int | float) or not 0 < timeout < 1000:
        return (
            "its 'timeout' is not a number of seconds below 1000: Qwen Code waits 600 s "
            "for an http hook without one, but 60 s for a command (and reads 1000 or more "
            "as ms), so the wrapped hook would time out differently; write one to wrap it"
        )
    if handler.get("once"):
        return "'once': Qwen Code posts it once per URL and event, which a command cannot keep"
    return ""
