"""sha256 for the recorder, from CPython's built-in module rather than `hashlib`.

`hashlib` loads OpenSSL's bindings first (milliseconds, on every recorded call);
the built-in `_sha2` (`_sha256` before Python 3.12) computes the same digest.
"""

from __future__ import annotations

from hooktui.tap.base.cpython import sha256


def sha256_hex(data: bytes) -> str:
    return sha256(data).hexdigest()


def text_sha256_hex(text: str) -> str:
    """Of a string's UTF-8 (lone surrogates, which only an escaped record holds, passed)."""
    return sha256(text.encode("utf-8", "surrogatepass")).hexdigest()
