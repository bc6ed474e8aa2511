"""An http hook's POST as a Node runtime makes it: whom it trusts, how much it reads.

- Trust: Node adds the certificates in NODE_EXTRA_CA_CERTS to its own; a runtime
  whose hook server has a private CA reads the reply, so the tap's POST must too
  (issue 19: it failed TLS, and the tool ran). A file that does not load is left
  out, as Node does (it warns and goes on).
- Bound: a reply is read in pieces, never more than MAX_BODY bytes, the longest
  text V8 makes of a body (Node 20 and later, 64-bit); past that the runtime's
  request fails, and so does ours, with V8's words (issue 19: a streaming
  endpoint was read whole, gigabytes in seconds).
"""

from __future__ import annotations

import ssl

NODE_CA = "NODE_EXTRA_CA_CERTS"
MAX_BODY = (1 << 29) - 24
TOO_LONG = f"Cannot create a string longer than 0x{MAX_BODY:x} characters"
_PIECE = 1 << 20


class TooLong(OSError):
    """The reply passed MAX_BODY: the runtime's request fails there too."""


def tls_context(environ) -> ssl.SSLContext:
    context = ssl.create_default_context()
    extra = environ.get(NODE_CA) or ""
    if extra:
        try:
            context.load_verify_locations(cafile=extra)
        except (OSError, ssl.SSLError, ValueError):
            pass
    return context


def read_body(reply, limit: int = MAX_BODY) -> bytes:
    """All of `reply` (a file-like object), or TooLong once it passes `limit`."""
    pieces, size = [], 0
    while True:
        piece = reply.read(min(_PIECE, limit + 1 - size))
        if not piece:
            return b"".join(pieces)
        pieces.append(piece)
        size += len(piece)
        if size > limit:
            raise TooLong(TOO_LONG)
