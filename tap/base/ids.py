"""A record's id: when it began, then randomness; the random part is the one to type.

`new_id` is 14 hex digits of microseconds since the epoch (so ids sort by time),
then 12 random ones. Records made within a minute share most of their time
digits, so a short id taken from the front always collides: the random tail is
the part shown, and any unique prefix of it names its record (as a prefix of
the whole id still does).
"""

from __future__ import annotations

import os

TIME_DIGITS = 14
RANDOM_DIGITS = 12


def new_id(started_at: float) -> str:
    """Time-sortable and unique: microseconds since the epoch, then randomness."""
    return f"{int(started_at * 1_000_000):0{TIME_DIGITS}x}{os.urandom(RANDOM_DIGITS // 2).hex()}"


def random_part(record_id: str) -> str:
    """The random tail of an id `new_id` made; any other id whole (an import's own)."""
    if len(record_id) == TIME_DIGITS + RANDOM_DIGITS and _hex(record_id):
        return record_id[TIME_DIGITS:]
    return record_id


def names(record_id: str, wanted: str) -> bool:
    """Does `wanted` name this id: all of it, a prefix of it, or a prefix of its random part?"""
    wanted = wanted.lower() if _hex(wanted) else wanted
    if not wanted:
        return False
    return record_id.startswith(wanted) or random_part(record_id).startswith(wanted)


def _hex(text: str) -> bool:
    return bool(text) and all(c in "0123456789abcdefABCDEF" for c in text)
