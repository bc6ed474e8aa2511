"""The rule data: gitleaks' patterns read the same in Python, and the facts worked out for speed hold."""

from __future__ import annotations

import re
import warnings

import pytest
from hooktui.tap.record import gitleaks_keywords, gitleaks_rules, rules

from tests.tap.secrets import KINDS
from tests.tools.gitleaks_convert import anchored, convert, strip_prefix, to_python, width


@pytest.mark.parametrize(
    "re2, matches, misses",
    [
        (r"ab(?i)cd", ["abCD", "abcd"], ["ABcd"]),
        # A mid-pattern flag holds to the end of its group, across the group's branches.
        (r"x(?:a(?i)b|c)", ["xaB", "xC"], ["xAb"]),
        (r"""(?:"(?i)(?:key)"|'(?i)(?:tok)')""", ['"KEY"', "'TOK'"], ["'KEY'"]),
        (r"\b(SG\.(?i)[a-z]{3})(?:\s|$)", ["SG.AbC", "SG.abc x"], ["sg.abc"]),
        (r"end\z", ["the end"], ["the end\n"]),
        (r"\b(pat[[:alnum:]]{3})\b", ["patA1z"], ["pat_1z"]),
        (r"a[[]b", ["a[b"], ["ab"]),
    ],
)
def test_re2_patterns_mean_the_same_in_python(re2, matches, misses):
    pattern = re.compile(to_python(re2), re.ASCII)
    for text in matches:
        assert pattern.search(text), text
    for text in misses:
        assert not pattern.search(text), text


def test_a_leading_identifier_prefix_is_dropped_and_remembered():
    assert strip_prefix(r"(?i)[\w.-]{0,50}?(?:key)=(\w+)") == (r"(?i)(?:key)=(\w+)", 50)
    assert strip_prefix(r"[\w.-]{0,50}?(?i:[\w.-]{0,50}?(?:co)x)") == (r"(?i:(?:co)x)", 100)
    assert strip_prefix(r"ghp_[0-9a-zA-Z]{36}") == (r"ghp_[0-9a-zA-Z]{36}", 0)


@pytest.mark.parametrize(
    "pattern, keywords, expected",
    [
        (r"ghp_[0-9a-zA-Z]{36}", ("ghp_",), True),
        (r"\b((?:A3T[A-Z0-9]|AKIA|ASIA)[A-Z2-7]{16})\b", ("a3t", "akia", "asia"), True),
        (
            r"(?i)(?:access|(?-i:[Aa]pi|API)|passw(?:or)?d)\s*=",
            ("access", "api", "passwd", "password"),
            True,
        ),
        (r"(?:https?://)?hooks.slack.com/x", ("hooks.slack.com",), False),
        (r"(?i)(?:lob)\s*=\s*(live_\w+)", ("live_",), False),
        (r"[a-z]{3}key", ("key",), False),
    ],
)
def test_anchoring_is_worked_out_from_the_pattern(pattern, keywords, expected):
    assert anchored(pattern, keywords) is expected


def test_width():
    assert width(r"ghp_[0-9a-zA-Z]{36}") == 40
    assert width(r"-----BEGIN[\s\S-]{64,}?-----") == 0


def test_the_converter_keeps_what_applies_to_a_record():
    config = {
        "allowlist": {"regexes": ["^x$"], "stopwords": ["EXAMPLE"], "paths": ["a"]},
        "rules": [
            {"id": "only-path", "path": r"\.p12$"},
            {"id": "file-kind", "path": r"\.tf$", "regex": "x"},
            {
                "id": "tok",
                "regex": r"\b(tok_(?i)[a-z]{4})\b",
                "keywords": ["TOK_"],
                "entropy": 2,
                "allowlists": [
                    {"condition": "AND", "paths": ["p"], "regexes": ["y"]},
                    {"regexTarget": "match", "regexes": ["z"]},
                ],
            },
        ],
    }
    rules_, global_allow = convert(config)
    assert rules_ == [
        ("tok", ("tok_",), r"\b(tok_(?i:[a-z]{4}))\b", 0, 2.0, (("match", ("z",), ()),), 0, 8, True)
    ]
    assert global_allow == [("secret", ("^x$",), ("example",))]


def test_the_generated_rules_compile_cleanly_and_name_their_source():
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # e.g. "possible nested set" would be a misreading
        for rule in gitleaks_rules.RULES:
            re.compile(rule[2], re.ASCII)
            for _target, patterns, _stopwords in rule[5]:
                for p in patterns:
                    re.compile(p, re.ASCII)
        for _target, patterns, _stopwords in gitleaks_rules.GLOBAL_ALLOWLISTS:
            for p in patterns:
                re.compile(p, re.ASCII)
    assert len(gitleaks_rules.RULES) > 200
    assert gitleaks_keywords.KEYWORDS == tuple(
        sorted({k for rule in gitleaks_rules.RULES for k in rule[1]})
    )
    doc = gitleaks_rules.__doc__
    assert gitleaks_rules.VERSION in doc and "github.com/gitleaks/gitleaks" in doc
    assert "MIT License" in doc and "Copyright (c) 2019 Zachary Rice" in doc


def test_anchored_rules_find_what_a_full_search_finds():
    texts = [text for text, _ in KINDS.values()]
    texts += [f"a\nx={t}; " * 2 for t in texts]
    rules.candidates(set(rules.KEYWORDS))  # load them all
    checked = 0
    for rule in rules._RULES:
        if not rule.anchored:
            continue
        for text in texts:
            lowered = text.lower()
            present = {k for k in rule.keywords if k in lowered}
            if not present:
                continue
            searched = {m.span() for m in rule.pattern().finditer(text)}
            tried = {m.span() for m in rules._matches(rule, text, lowered, present)}
            assert searched <= tried, (rule.kind, text)
            checked += bool(searched)
    assert checked >= 20


def test_every_keyword_is_looked_for():
    assert set(gitleaks_keywords.KEYWORDS) <= set(rules.KEYWORDS)
    assert all(k == k.lower() for k in rules.KEYWORDS)
