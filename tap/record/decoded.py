"""Secrets hidden in base64, found as gitleaks finds them (its decoding, `--max-decode-depth`).

A credential written in base64 (a `user:password` pair, a key file, a config
blob) holds none of the rules' keywords, so it passed every channel of the
record in clear (issue 19). Each run of at least MIN_RUN base64 characters that
decodes to text is read again as text, MAX_DEPTH levels deep (base64 inside
base64); a run whose text holds a secret is masked whole, named by what its text
holds. Finding the runs costs one `translate` of the string: no `re` until one
decodes.
"""

from __future__ import annotations

import binascii

MIN_RUN = 16
MAX_DEPTH = 2
_ALPHABET = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/=-_"
_RUNS = bytes(b if b in _ALPHABET else 0x20 for b in range(256))


def encoded_runs(text: str) -> list[tuple[int, int, str]]:
    """(start, end, decoded text) of each run of base64 in `text` that decodes to text."""
    if len(text) < MIN_RUN:
        return []
    # One byte per character (others become "?", never base64): positions match.
    words = text.encode("ascii", "replace").translate(_RUNS).split()
    found = []
    for word in {w for w in words if len(w) >= MIN_RUN}:
        decoded = _text_of(word)
        if decoded is None:
            continue
        run = word.decode("ascii")
        at = text.find(run)
        while at != -1:
            found.append((at, at + len(run), decoded))
            at = text.find(run, at + len(run))
    return sorted(found)


def _text_of(word: bytes) -> str | None:
    """The text a base64 word stands for (standard or URL-safe), or None."""
    data = word.rstrip(b"=").replace(b"-", b"+").replace(b"_", b"/")
    data += b"=" * (-len(data) % 4)
    try:
        raw = binascii.a2b_base64(data, strict_mode=True)
        text = raw.decode("utf-8")
    except (binascii.Error, ValueError):
        return None
    printable = sum(ch.isprintable() or ch in "\n\r\t" for ch in text)
    return text if text and printable >= 0.95 * len(text) else None
