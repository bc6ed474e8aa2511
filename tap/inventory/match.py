"""Matchers as runtimes read them: which tool names a hook's matcher selects, and what a
matcher that cannot compile does (`SettingsReading.matcher` names the dialect).

Runtimes compile JavaScript or Rust regular expressions; Python's `re` reads the
common subset alike (character classes, alternation, anchors, quantifiers), which is
what matchers use. A pattern only the runtime's engine accepts is reported as such.
"""

from __future__ import annotations

import re
from typing import Any

from hooktui.tap.runtimes.descriptor import Runtime

_NAMES = re.compile(r"[A-Za-z0-9_|]*")


def compile_problem(runtime: Runtime, matcher: Any) -> str:
    """Why this matcher cannot be used as written ("" when it can)."""
    if matcher is None or matcher == "":
        return ""
    if not isinstance(matcher, str):
        return f"the matcher is {type(matcher).__name__}, not a string"
    dialect = runtime.reading.matcher
    if dialect == "none" or _plain(dialect, matcher):
        return ""
    if dialect == "glob":
        if not matcher.startswith("re:"):
            return ""
        matcher = matcher[3:]
    try:
        re.compile(matcher)
    except re.error as exc:
        return f"matcher {matcher!r} is not a regular expression ({exc}): {runtime.reading.bad_matcher}"
    return ""


def matches(runtime: Runtime, matcher: Any, target: str) -> bool:
    """Does the runtime run a hook with this matcher for `target` (a tool name, or what
    the event matches on)?"""
    if matcher is None or matcher == "" or matcher == "*":
        return True
    if not isinstance(matcher, str):
        return False
    dialect = runtime.reading.matcher
    if dialect == "none":
        return True
    if dialect == "glob":
        return _glob(matcher, target)
    if _plain(dialect, matcher):
        return target in matcher.split("|")
    try:
        pattern = re.compile(matcher)
    except re.error:
        return dialect == "regex_or_literal" and matcher == target
    if dialect == "fullmatch":
        return pattern.fullmatch(target) is not None
    return pattern.search(target) is not None


def _plain(dialect: str, matcher: str) -> bool:
    """A matcher of plain names (`Bash|Edit`): exact names, for the "claude" dialect."""
    return dialect == "claude" and _NAMES.fullmatch(matcher) is not None


def _glob(matcher: str, target: str) -> bool:
    """The "glob" dialect: an fnmatch pattern, or `re:` and a regular expression matching
    the whole name, both case-insensitive, against the name as given or its last dotted
    part (`file_system.bash` is `bash` too)."""
    names = {target, target.rsplit(".", 1)[-1]}
    if matcher.startswith("re:"):
        try:
            pattern = re.compile(matcher[3:], re.I)
        except re.error:
            return False
        return any(pattern.fullmatch(name) for name in names)
    import fnmatch  # only for this dialect

    return any(fnmatch.fnmatch(name.lower(), matcher.lower()) for name in names)
