"""An `http` hook's URL as GitHub Copilot CLI 1.0.102 reads it, and whether it posts
there at all (copilot/http.py makes the POST and reads the reply). Measured from
the real CLI (tests/e2e/ORACLE.md).

The URL (measured 2026-12-05): read by WHATWG's rules (tap/base/whatwg.py) —
the scheme's slashes and backslashes, the host lower case (a numeric IPv4 host as
its address), `..` and `%2e` segments resolved, a space, a quote or non-ASCII
percent-encoded, no fragment — but an empty query keeps its `?` (request_target).

Loading (the hook is skipped, with a logged error, when it fails; nothing is posted):
- a URL that is not http: / https: (install leaves such a hook alone);
- plain http: at an authorization event (preToolUse, preMcpToolCall,
  permissionRequest) unless `COPILOT_HOOK_ALLOW_HTTP_AUTH_HOOKS=1`, or the host is
  localhost / a loopback address and `COPILOT_HOOK_ALLOW_LOCALHOST=1`;
- plain http: with `allowedEnvVars` unless localhost and `COPILOT_HOOK_ALLOW_LOCALHOST=1`.
  Only the value `1` counts (`true`, `yes`, ` 1`, `2` do not).

Blocked addresses, an error at each call before connecting (literal, or any address
the name resolves to): 0.0.0.0/8, 10/8, 100.64/10, 127/8, 169.254/16, 172.16/12,
192.168/16, 198.18/15, ::1, fc00::/7, fe80::/10, 64:ff9b::/96, 100::/64, and
::ffff:a.b.c.d of a blocked IPv4 address. `COPILOT_HOOK_ALLOW_LOCALHOST=1` lifts
127/8 and ::1 (not their ::ffff: form).

Localhost, for the load-time gates: `localhost` (any case), 127.0.0.0/8 and
`::1` only: not `localhost.` nor `foo.localhost` (skipped when loading, even
with COPILOT_HOOK_ALLOW_LOCALHOST=1). Their addresses are the system
resolver's: where `foo.localhost` resolves to 127.0.0.1 it is blocked, or lifted
by COPILOT_HOOK_ALLOW_LOCALHOST=1 at an event without the gate; `localhost.`
does not resolve through /etc/hosts (a lookup error).
"""

from __future__ import annotations

import ipaddress
import socket
import urllib.parse

from hooktui.tap.base import whatwg

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


def url_parts(url: str) -> urllib.parse.SplitResult:
    """The URL as Copilot's URL parser reads it (WHATWG's: `http:host`, `http:\\\\host`,
    a backslash after the port, a lower-case host), split; as written where
    whatwg.target leaves it (`127.1`, IDNA: address() and the resolver read those)."""
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


def address(host: str):
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
    ip = address(host)
    if ip is None:
        return host == "localhost"
    return any(ip in n for n in _LOOPBACK if n.version == ip.version)


def refusal(url: str, environ) -> str:
    """Why Copilot refuses to post to this URL ("" when it posts)."""
    try:
        host = url_parts(url).hostname or ""  # `localhost.` is not `localhost`
    except ValueError:
        return f"HTTP hook fetch failed: POST {url}"
    allow = environ.get(_ALLOW_LOCALHOST) == "1"
    ip = address(host)
    if ip is not None:
        found = [ip]
    else:
        try:
            found = [address(info[4][0].split("%")[0]) for info in socket.getaddrinfo(host, None)]
        except (OSError, UnicodeError) as exc:
            return f"failed to lookup address information: {exc}"
    for each in found:
        if each is not None and _blocked(each, allow):
            return (
                f'HTTP hook URL "{url}" resolves to blocked address {each}. URLs must '
                "not target loopback, private, or link-local addresses."
            )
    return ""


def skipped(spec, environ) -> str:
    """Why Copilot would have skipped this hook when loading it ("" when it runs it)."""
    parts = url_parts(spec.url)
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


def request_target(url: str) -> str:
    """The path and query Copilot's URL parser sends: WHATWG's (`..` resolved, a space
    or non-ASCII percent-encoded, backslashes read as slashes, no fragment), an empty
    query's `?` kept (measured, ORACLE.md)."""
    target = whatwg.request_target(url, empty_query=True)
    if target is None:  # not a URL Copilot posts to (install leaves it alone): as written
        parts = urllib.parse.urlsplit(url)
        target = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
    return target
