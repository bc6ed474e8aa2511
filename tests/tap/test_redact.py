"""Redaction: every kind, in every escaped form, keys too; plain text is left alone."""

from __future__ import annotations

import copy
import json

import pytest
from hooktui.tap.record.redact import escape_pointer_token, redact_text, redact_tree

from tests.tap.secrets import KIND_OF, KINDS, digest


def leaks(secret: str, text: str) -> list[str]:
    """Stretches of `secret` (12 characters, every 6) that `text` still holds."""
    pieces = []
    for line in secret.splitlines() or [secret]:
        if len(line) <= 12:
            pieces.append(line)
        pieces += [line[i : i + 12] for i in range(0, len(line) - 11, 6)]
    return [p for p in pieces if p in text]


@pytest.mark.parametrize("name", KINDS)
def test_each_kind(name):
    text, secret = KINDS[name]
    redacted, found = redact_text(text)
    kind = KIND_OF.get(name, name)
    assert not leaks(secret, redacted)
    assert f"[REDACTED:{kind}:{digest(secret)}]" in redacted
    assert (kind, digest(secret)) in found


def tight(name: str) -> str:
    """The kind's text with nothing around the secret, where it needs no context."""
    text, secret = KINDS[name]
    return secret if text == f"x {secret} y" else text


# How a hook's stdout or stderr holds a string: JSON-escaped (every command-rewriting
# guard's updatedInput), repr-escaped (Python tracebacks), escaped twice, ...
WRAPPERS = {
    "json \\n": lambda s: json.dumps({"command": "export A=1\n" + s}),
    "json \\t": lambda s: json.dumps({"command": "a\t" + s}),
    'json \\"': lambda s: json.dumps({"command": f'export T="{s}"'}),
    "json \\\\": lambda s: json.dumps({"command": "C:\\" + s}),
    "json \\u00e9": lambda s: json.dumps({"command": "é" + s}),
    "json \\uXXXX in it": lambda s: (
        '{"command": "' + f"\\u{ord(s[0]):04x}" + json.dumps(s[1:])[1:-1] + '"}'
    ),
    "json \\/": lambda s: json.dumps({"command": "a\n" + s}).replace("/", "\\/"),
    "json twice": lambda s: json.dumps(json.dumps({"command": "a\n" + s})),
    "repr (traceback)": lambda s: f"ValueError: bad value {('a' + chr(10) + s)!r}",
    "updatedInput": lambda s: json.dumps(
        {
            "hookSpecificOutput": {
                "hookEventName": "PreToolUse",
                "permissionDecision": "allow",
                "updatedInput": {"command": f'export T="{s}"\nrun'},
            }
        }
    ),
}


@pytest.mark.parametrize("wrapper", WRAPPERS)
@pytest.mark.parametrize("name", KINDS)
def test_each_kind_behind_escapes(name, wrapper):
    _, secret = KINDS[name]
    text = WRAPPERS[wrapper](tight(name))
    redacted, found = redact_text(text)
    assert not leaks(secret, redacted), redacted
    assert found


def test_what_a_view_finds_is_masked_in_the_original_text():
    token = KINDS["github_pat"][1]
    text = json.dumps({"a": "x\n" + token + "\ty", "b": "é\n" + token})
    redacted, found = redact_text(text)
    marker = f"[REDACTED:github_pat:{digest(token)}]"
    assert json.loads(redacted) == {"a": f"x\n{marker}\ty", "b": f"é\n{marker}"}
    assert found == [("github_pat", digest(token))] * 2


def test_private_key_block_whole_and_cut_off():
    text, block = KINDS["private_key"]
    redacted, found = redact_text(text)
    assert redacted.startswith("cat id: [REDACTED:private_key:") and redacted.endswith("] done")
    assert [k for k, _ in found] == ["private_key"]
    cut, found = redact_text("-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASC")
    assert "MIIE" not in cut and found[0][0] == "private_key"


def test_same_secret_same_marker_and_several_per_string():
    token, key = KINDS["github_pat"][1], KINDS["aws_access_token"][1]
    redacted, found = redact_text(f"{token} and again {token} and {key}")
    assert redacted.count(f"[REDACTED:github_pat:{digest(token)}]") == 2
    assert [k for k, _ in found] == ["github_pat", "github_pat", "aws_access_token"]


def test_a_named_variable_is_reported_once_by_its_specific_kind():
    token = KINDS["github_pat"][1]
    redacted, found = redact_text(f"GITHUB_TOKEN={token} ls")
    assert [k for k, _ in found] == ["github_pat"]
    assert redacted.startswith("GITHUB_TOKEN=[REDACTED:github_pat:")


@pytest.mark.parametrize(
    "text",
    [
        "git status --short",
        "max_tokens: 4096",
        "the author: someone",
        "password: null",
        "token=$GITHUB_TOKEN",
        "AWS_SECRET_ACCESS_KEY=[redacted]",
        "DB_PASSWORD=<none>",
        "password: ****",
        "sk-short",
        "AKIA is a prefix",
        "echo eyJ is not a jwt",
        "tokenizer=bpe",
        "https://example.com/path?x=1",
        "postgres://db.internal:5432/app",
        "see https://user@example.com",
        "authorization: required",
        '{"hook_event_name": "PreToolUse", "tool_use_id": "toolu_01ABC", "session_id": "s1"}',
        "C:\\Users\\me\\new folder\\tokens.txt",
        "",
    ],
)
def test_plain_text_is_left_alone(text):
    assert redact_text(text) == (text, [])


def test_tree_pointers_escape_and_input_is_untouched():
    key = KINDS["anthropic_api_key"][1]
    value = {
        "tool_input": {"command": f"export T={key}"},
        "a/b~c": ["ok", "password=letmein1"],
        "n": 3,
        "flag": True,
    }
    before = copy.deepcopy(value)
    new, found = redact_tree(value, "/request")
    assert value == before
    assert [(p, k) for p, k, _ in found] == [
        ("/request/tool_input/command", "anthropic_api_key"),
        ("/request/a~1b~0c/1", "secret_assignment"),
    ]
    assert new["n"] == 3 and new["flag"] is True and new["a/b~c"][0] == "ok"
    assert escape_pointer_token("~/") == "~0~1"


def test_keys_are_redacted_and_pointers_name_them_by_their_marker():
    token, key = KINDS["github_pat"][1], KINDS["gitlab_pat"][1]
    value = {"env": {token: "set", "PLAIN": key}, "list": [{key: 1}]}
    new, found = redact_tree(value, "/request")
    text = json.dumps(new)
    assert token not in text and key not in text
    pointers = [p for p, _, _ in found]
    assert not any(token in p or key in p for p in pointers)
    marker = f"[REDACTED:github_pat:{digest(token)}]"
    assert new["env"][marker] == "set"
    assert f"/request/env/{marker}" in pointers
    assert f"/request/list/0/[REDACTED:gitlab_pat:{digest(key)}]" in pointers


def test_keys_that_redact_alike_keep_both_values():
    token = KINDS["github_pat"][1]
    new, _ = redact_tree({token: 1, f"{token} ": 2})
    assert sorted(new.values()) == [1, 2]


def test_a_clean_tree_comes_back_as_it_was():
    value = {"tool_input": {"command": "git status"}, "n": [1, 2.5, None]}
    assert redact_tree(value) == (value, [])


def test_large_text_uses_words_and_still_finds_every_kind():
    filler = "".join(f"line {i}: nothing to see here, carry on\n" for i in range(3000))
    for name, (text, secret) in KINDS.items():
        redacted, found = redact_text(filler + text + "\n" + filler)
        assert not leaks(secret, redacted), name
        assert (KIND_OF.get(name, name), digest(secret)) in found
