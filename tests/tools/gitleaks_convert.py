"""Turn gitleaks' default rule file into `gitleaks_rules.py` (a maintainer's tool).

    python -m tests.tools.gitleaks_convert gitleaks.toml v8.30.1 COMMIT tap/record

writes `gitleaks_rules.py` (the rules) and `gitleaks_keywords.py` (every rule
keyword, all a record is checked against before any pattern is loaded).

Only data carries over: rule ids, keywords, patterns, secret groups, entropy
thresholds and allowlists. Patterns are written for Go's RE2; `to_python`
rewrites the few constructs Python's `re` reads differently:

- a flag group in mid-pattern, `a(?i)b`, sets the flag to the end of the
  enclosing group (across its `|` branches) in RE2 and is an error in Python:
  the rest of each branch is wrapped in a scoped group, `a(?i:b)`;
- `\\z` (end of text) is `\\Z` in Python;
- inside a character class, a literal `[` is escaped and POSIX classes such
  as `[:alnum:]` are spelled out.

RE2's `\\w`, `\\d`, `\\s` and `\\b` are ASCII-only: the rules are compiled with
`re.ASCII` (see rules.py). Rules that only look at file paths are dropped (a
record has no file path), and so are allowlists that need one.

For speed in Python's backtracking engine (RE2 is linear, `re` is not), each
rule also gets facts computed here, once:

- `prefix`: a leading lazy `[\\w.-]{0,50}?` (the identifier before a keyword,
  part of the match but never of the secret) is dropped from the pattern; it
  is the number of characters the match may reach back, put back only for an
  allowlist that looks at the whole match;
- `width`: the longest match (0: unbounded), so a rule runs only on the text
  near its keywords;
- `anchored`: every match starts with one of the rule's keywords, so the rule
  is tried only at those places (`pattern.match` rather than a search).
"""

from __future__ import annotations

import sys
import tomllib
from re import _constants as sre
from re import _parser as sre_parse

_POSIX = {
    "alnum": "a-zA-Z0-9",
    "alpha": "a-zA-Z",
    "digit": "0-9",
    "lower": "a-z",
    "upper": "A-Z",
    "xdigit": "0-9a-fA-F",
    "word": "a-zA-Z0-9_",
    "space": r"\t\n\v\f\r ",
}


def to_python(pattern: str) -> str:
    """An RE2 pattern as Python `re` syntax, meaning the same."""
    out: list[str] = []
    # One entry per open group: [flags in force for the rest of it ("" = none), wrapped?]
    groups: list[list] = [["", False]]
    i, n = 0, len(pattern)
    while i < n:
        c = pattern[i]
        if c == "\\":
            pair = pattern[i : i + 2]
            out.append(r"\Z" if pair == r"\z" else pair)
            i += 2
            continue
        if c == "[":
            i = _copy_class(pattern, i, out)
            continue
        if c == "(":
            flags = _flag_setter(pattern, i)
            if flags is not None:
                end = pattern.index(")", i) + 1
                if i == 0:
                    out.append(pattern[:end])  # leading global flags: Python reads them too
                else:
                    top = groups[-1]
                    if top[1]:
                        out.append(")")
                    top[0] = _merge_flags(top[0], flags)
                    out.append(f"(?{top[0]}:")
                    top[1] = True
                i = end
                continue
            groups.append(["", False])
            out.append(c)
            i += 1
            continue
        if c == "|" and groups[-1][1]:
            out.append(")|(?" + groups[-1][0] + ":")
            i += 1
            continue
        if c == ")":
            top = groups.pop()
            if top[1]:
                out.append(")")
            out.append(c)
            i += 1
            continue
        out.append(c)
        i += 1
    if groups[-1][1]:
        out.append(")")
    return "".join(out)


def _flag_setter(pattern: str, i: int) -> str | None:
    """The flags of a bare `(?i)` / `(?-i)` / `(?is)` at `i`, else None."""
    if not pattern.startswith("(?", i):
        return None
    j = i + 2
    while j < len(pattern) and (pattern[j].isalpha() or pattern[j] == "-"):
        j += 1
    if j == i + 2 or j >= len(pattern) or pattern[j] != ")":
        return None
    return pattern[i + 2 : j]


def _merge_flags(current: str, new: str) -> str:
    """Flags in force after `new` applies on top of `current` ("is-m" style)."""
    on, _, off = current.partition("-")
    add, _, remove = new.partition("-")
    on_set = (set(on) | set(add)) - set(remove)
    off_set = (set(off) | set(remove)) - set(add)
    merged = "".join(sorted(on_set))
    return merged + ("-" + "".join(sorted(off_set)) if off_set else "")


def _copy_class(pattern: str, i: int, out: list[str]) -> int:
    """Copy the character class starting at `i`; returns the index after it."""
    out.append("[")
    i += 1
    if i < len(pattern) and pattern[i] == "^":
        out.append("^")
        i += 1
    if i < len(pattern) and pattern[i] == "]":  # a leading `]` is literal
        out.append(r"\]")
        i += 1
    while i < len(pattern):
        c = pattern[i]
        if c == "\\":
            out.append(pattern[i : i + 2])
            i += 2
            continue
        if c == "]":
            out.append("]")
            return i + 1
        if c == "[":
            if pattern.startswith("[:", i):
                end = pattern.index(":]", i)
                out.append(_POSIX[pattern[i + 2 : end]])
                i = end + 2
                continue
            out.append(r"\[")
            i += 1
            continue
        out.append(c)
        i += 1
    raise ValueError(f"unterminated character class in {pattern!r}")


def _allowlists(entries: list[dict]) -> list[tuple[str, tuple[str, ...], tuple[str, ...]]]:
    """(target, regexes, stopwords) for each allowlist a record can be checked against."""
    kept = []
    for entry in entries:
        if entry.get("paths") or entry.get("commits"):
            if entry.get("condition", "OR").upper() == "AND":
                continue  # needs a path or commit to hold: never true for a record
        regexes = tuple(to_python(r) for r in entry.get("regexes", ()))
        stopwords = tuple(w.lower() for w in entry.get("stopwords", ()))
        if regexes or stopwords:
            kept.append((entry.get("regexTarget", "secret"), regexes, stopwords))
    return kept


_LAZY_PREFIX = r"[\w.-]{0,50}?"
_REACH = 50
_UNBOUNDED = 1 << 16
_HEADS_CAP = 4096


def strip_prefix(pattern: str) -> tuple[str, int]:
    """(pattern without its leading lazy identifier prefix, how far that reached)."""
    flags = "(?i)" if pattern.startswith("(?i)") else ""
    body = pattern[len(flags) :]
    reach = 0
    while body.startswith(_LAZY_PREFIX):
        body = body[len(_LAZY_PREFIX) :]
        reach += _REACH
    scoped = "(?i:" + _LAZY_PREFIX
    if body.startswith(scoped):
        body = "(?i:" + body[len(scoped) :]
        reach += _REACH
    return flags + body, reach


def width(pattern: str) -> int:
    """The longest text `pattern` can match; 0 when unbounded."""
    longest = sre_parse.parse(pattern, sre.SRE_FLAG_ASCII).getwidth()[1]
    return 0 if longest >= _UNBOUNDED else longest


def anchored(pattern: str, keywords: tuple[str, ...]) -> bool:
    """Must every match of `pattern` start with one of `keywords` (case aside)?"""
    if not keywords:
        return False
    parsed = sre_parse.parse(pattern, sre.SRE_FLAG_ASCII)
    heads = _heads(list(parsed), {("", True)}, keywords)
    return heads is not None and all(h.startswith(keywords) for h, _ in heads)


def _heads(seq: list, heads: set, keywords: tuple[str, ...]) -> set | None:
    """The literal starts `seq` can give each head: (text so far, may it grow?)."""
    for op, av in seq:
        growing = {h for h in heads if h[1] and not h[0].startswith(keywords)}
        if not growing:
            break
        heads = heads - growing
        if op in (sre.AT, sre.ASSERT, sre.ASSERT_NOT):
            pass  # zero width
        elif op is sre.LITERAL:
            growing = {(h + chr(av).lower(), True) for h, _ in growing}
        elif op is sre.IN:
            chars = _class_chars(av)
            if chars is None:
                growing = {(h, False) for h, _ in growing}
            else:
                growing = {(h + c, True) for h, _ in growing for c in chars}
        elif op is sre.SUBPATTERN:
            growing = _heads(list(av[-1]), growing, keywords)
        elif op is sre.BRANCH:
            branches = [_heads(list(alt), growing, keywords) for alt in av[1]]
            if any(b is None for b in branches):
                return None
            growing = set().union(*branches)
        elif op in (sre.MAX_REPEAT, sre.MIN_REPEAT):
            low, high, sub = av
            once = _heads(list(sub), growing, keywords)
            if once is None:
                return None
            if high > 1:  # how many more is unknown: stop there
                once = {(h, False) for h, _ in once}
            growing = (growing | once) if low == 0 else once
        else:
            growing = {(h, False) for h, _ in growing}
        if growing is None:
            return None
        heads = heads | growing
        if len(heads) > _HEADS_CAP:
            return None
    return heads


def _class_chars(items: list) -> set[str] | None:
    """The (lowercased) characters of a small positive class, else None."""
    chars: set[str] = set()
    for op, av in items:
        if op is sre.LITERAL:
            chars.add(chr(av).lower())
        elif op is sre.RANGE and av[1] - av[0] < 64:
            chars.update(chr(c).lower() for c in range(av[0], av[1] + 1))
        else:
            return None
    return chars if len(chars) <= 64 else None


def convert(config: dict) -> tuple[list[tuple], list[tuple]]:
    """(rules, global allowlists) from a parsed gitleaks.toml."""
    rules = []
    for rule in config["rules"]:
        if "regex" not in rule or "path" in rule:
            continue  # path-only, or only meaningful for files of some name
        keywords = tuple(k.lower() for k in rule.get("keywords", ()))
        pattern, reach = strip_prefix(to_python(rule["regex"]))
        rules.append(
            (
                rule["id"],
                keywords,
                pattern,
                int(rule.get("secretGroup", 0)),
                float(rule.get("entropy", 0.0)),
                tuple(_allowlists(rule.get("allowlists", ()))),
                reach,
                width(pattern),
                anchored(pattern, keywords),
            )
        )
    global_lists = [config["allowlist"]] if "allowlist" in config else []
    global_lists += config.get("allowlists", [])
    return rules, _allowlists(global_lists)


HEADER = '''"""Secret-detection rules: gitleaks' default configuration, as data (generated).

Source: https://github.com/gitleaks/gitleaks, config/gitleaks.toml at {version}
(commit {commit}).
Generated by `tests.tools.gitleaks_convert` (RE2 patterns rewritten for
Python's `re`; path-only rules dropped); do not edit by hand.

The rule data is gitleaks' and comes under its licence:

{licence}
"""

# fmt: off
'''


def render(rules: list[tuple], global_allow: list[tuple], version: str, commit: str) -> str:
    licence = "\n".join(("    " + line).rstrip() for line in MIT_NOTICE.splitlines())
    lines = [HEADER.format(version=version, commit=commit, licence=licence)]
    lines.append(f"VERSION = {version!r}\n")
    lines.append("# (id, keywords, pattern, secret group, entropy, allowlists, prefix, width,")
    lines.append("#  anchored): see gitleaks_convert. An allowlist is (target: secret|match|line,")
    lines.append("# patterns, stopwords).")
    lines.append("RULES = (")
    for rule in rules:
        lines.append(f"    {rule!r},")
    lines.append(")\n")
    lines.append(f"GLOBAL_ALLOWLISTS = {tuple(global_allow)!r}")
    lines.append("# fmt: on\n")
    return "\n".join(lines)


MIT_NOTICE = """MIT License

Copyright (c) 2019 Zachary Rice

Permission is hereby granted, free of charge, to any person obtaining a copy
of this software and associated documentation files (the "Software"), to deal
in the Software without restriction, including without limitation the rights
to use, copy, modify, merge, publish, distribute, sublicense, and/or sell
copies of the Software, and to permit persons to whom the Software is
furnished to do so, subject to the following conditions:

The above copyright notice and this permission notice shall be included in all
copies or substantial portions of the Software.

THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND, EXPRESS OR
IMPLIED, INCLUDING BUT NOT LIMITED TO THE WARRANTIES OF MERCHANTABILITY,
FITNESS FOR A PARTICULAR PURPOSE AND NONINFRINGEMENT. IN NO EVENT SHALL THE
AUTHORS OR COPYRIGHT HOLDERS BE LIABLE FOR ANY CLAIM, DAMAGES OR OTHER
LIABILITY, WHETHER IN AN ACTION OF CONTRACT, TORT OR OTHERWISE, ARISING FROM,
OUT OF OR IN CONNECTION WITH THE SOFTWARE OR THE USE OR OTHER DEALINGS IN THE
SOFTWARE."""


KEYWORDS_HEADER = '''"""Every keyword of gitleaks' default rules ({version}), lowercase (generated).

A string holding none of these cannot match a gitleaks rule; see gitleaks_rules.py
for where they come from and their licence.
"""

# fmt: off
'''


def render_keywords(rules: list[tuple], version: str) -> str:
    keywords = sorted({k for rule in rules for k in rule[1]})
    body = ",\n".join(f"    {k!r}" for k in keywords)
    return KEYWORDS_HEADER.format(version=version) + f"KEYWORDS = (\n{body},\n)\n# fmt: on\n"


def main(argv: list[str]) -> int:
    if len(argv) != 4:
        sys.stderr.write("usage: gitleaks_convert GITLEAKS_TOML VERSION COMMIT OUTDIR\n")
        return 2
    toml_path, version, commit, outdir = argv
    with open(toml_path, "rb") as fh:
        config = tomllib.load(fh)
    rules, global_allow = convert(config)
    with open(f"{outdir}/gitleaks_rules.py", "w") as fh:
        fh.write(render(rules, global_allow, version, commit))
    with open(f"{outdir}/gitleaks_keywords.py", "w") as fh:
        fh.write(render_keywords(rules, version))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
