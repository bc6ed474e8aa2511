"""An http(s) URL as Node's WHATWG URL parser reads it, for the request a runtime sends.

Claude Code 2.1.332 posts with axios, which parses the hook's URL with `new URL`
and sends `pathname + search` as the request target and `username:password` (as the
URL holds them, percent-encoded) as `Authorization: Basic`, in place of the hook's
own Authorization. Python's urllib sends the URL as written (a space is an invalid
URL, `..` goes out as is, `user@host` is an invalid port). Measured: ORACLE.md.

Only what changes the request is done here: tabs and newlines removed, backslashes
read as slashes before the query, dot segments resolved, the path, query and user
info percent-encoded by their WHATWG sets (non-ASCII as UTF-8), the fragment and an
empty query dropped. A host that needs more than lower case (IDNA, percent-decoding)
gives None: the caller sends the URL as written, and fails as before.

GitHub Copilot CLI 1.0.102's hook runner (native, not Node) reads a URL (slashes,
host, path, query) by the same rules, but keeps an empty query's `?` (`/e?` goes
out as `/e?`): request_target(url, empty_query=True). Measured: ORACLE.md.
"""

from __future__ import annotations

import base64
import re
from typing import NamedTuple

_C0 = "".join(chr(c) for c in range(0x20))
_PATH = frozenset(_C0 + ' "#<>?`{}')
_QUERY = frozenset(_C0 + " \"#<>'")  # the special-query set: http and https
_USERINFO = _PATH | frozenset("/:;=@[\\]^|")
_DEFAULT_PORTS = {"http": "80", "https": "443"}
_DOTTED = re.compile(
    r"(?:(?:25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])\.){3}(?:25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])"
)
_HOST = re.compile(r"[a-z0-9.\-_~!$&'()*+,;=]+|\[[0-9a-f:.]+\]")


class Target(NamedTuple):
    url: str  # scheme://host[:port]/path[?query]: no user info, no fragment
    authorization: str  # "Basic ..." when the URL names a user, else ""


def _encode(text: str, unsafe: frozenset[str]) -> str:
    out = []
    for ch in text:
        if ch in unsafe or ord(ch) > 0x7E:
            out.append("".join(f"%{b:02X}" for b in ch.encode("utf-8")))
        else:
            out.append(ch)
    return "".join(out)


def _path(raw: str) -> str:
    """`raw` starts with "/" (or is empty): its segments with `.` and `..` resolved
    (also written %2e), as the parser does segment by segment."""
    out: list[str] = []
    segments = raw.split("/")[1:] if raw else [""]
    for i, seg in enumerate(segments):
        last = i == len(segments) - 1
        low = seg.lower()
        if low in ("..", ".%2e", "%2e.", "%2e%2e"):
            if out:
                out.pop()
            if last:
                out.append("")
        elif low in (".", "%2e"):
            if last:
                out.append("")
        else:
            out.append(_encode(seg, _PATH))
    return "/" + "/".join(out)


def _authority(raw: str) -> tuple[str, str, str, str] | None:
    """(user, password, host, port) of `raw`, or None when this module does not read it."""
    userinfo, at, hostport = raw.rpartition("@")
    user, _, password = userinfo.partition(":") if at else ("", "", "")
    if hostport.startswith("["):
        host, _, rest = hostport.partition("]")
        host += "]"
        if rest and not rest.startswith(":"):
            return None
        port = rest[1:]
    else:
        host, _, port = hostport.partition(":")
    host = host.lower()
    if not _HOST.fullmatch(host) or not port.isdigit() and port:
        return None
    if re.fullmatch(
        r"[0-9]+|0x[0-9a-f]*", host.removesuffix(".").rpartition(".")[2]
    ) and not _DOTTED.fullmatch(host):
        return None  # an IPv4 address the parser rewrites (0x7f.1, 127.1, 010.0.0.1)
    if host.startswith("["):
        import ipaddress  # only for an IPv6 literal

        try:
            if ipaddress.IPv6Address(host[1:-1]).compressed != host[1:-1]:
                return None  # the parser writes it compressed: Host would differ
        except ValueError:
            return None
    if port and int(port) > 65535:
        return None
    port = str(int(port)) if port else ""  # "0080" is 80
    return _encode(user, _USERINFO), _encode(password, _USERINFO), host, port


def split(url: str) -> tuple[str, str, str, str | None] | None:
    """(scheme, authority as written, path, query or None when the URL has no `?`),
    the path resolved and both percent-encoded; None when `url` is not http(s)."""
    url = re.sub(r"[\t\n\r]", "", url.strip(_C0 + " "))
    scheme, colon, rest = url.partition(":")
    scheme = scheme.lower()
    if not colon or scheme not in _DEFAULT_PORTS:
        return None
    rest = rest.lstrip("/\\")  # a special URL: any slashes before the host
    end = min((i for i in map(rest.find, "/\\?#") if i >= 0), default=len(rest))
    path, mark, query = rest[end:].partition("#")[0].partition("?")
    try:
        path = _path(path.replace("\\", "/"))
        query = _encode(query, _QUERY)
    except UnicodeError:  # a lone surrogate: not a URL the runtime would get
        return None
    return scheme, rest[:end], path, query if mark else None


def request_target(url: str, empty_query: bool = False) -> str | None:
    """The request target (path, then `?query`) `url` makes, whatever its host;
    an empty query's `?` only when `empty_query`. None when it is not http(s)."""
    parts = split(url)
    if parts is None:
        return None
    path, query = parts[2:]
    if query is None or not (query or empty_query):
        return path
    return f"{path}?{query}"


def target(url: str) -> Target | None:
    """The request `url` makes as Node reads it; None when it is not an http(s) URL
    this module reads (the caller then sends it as written)."""
    split_url = split(url)
    if split_url is None:
        return None
    scheme, authority, path, query = split_url
    try:
        parts = _authority(authority)
    except UnicodeError:  # a lone surrogate: not a URL the runtime would get
        return None
    if parts is None:
        return None
    query = query or ""
    user, password, host, port = parts
    if port == _DEFAULT_PORTS[scheme]:
        port = ""
    url = f"{scheme}://{host}{':' + port if port else ''}{path}{'?' + query if query else ''}"
    auth = ""
    if user:  # axios: only a user name makes it Basic auth (a password alone does not)
        auth = "Basic " + base64.b64encode(f"{user}:{password}".encode()).decode("ascii")
    return Target(url, auth)
