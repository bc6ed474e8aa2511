"""Redaction: every kind is caught, markers are stable, plain text is left alone."""

from __future__ import annotations

import copy
import hashlib

import pytest
from hooktui.tap.record.redact import escape_pointer_token, redact_text, redact_tree


def digest(secret: str) -> str:
    return hashlib.sha256(secret.encode()).hexdigest()[:8]


@pytest.mark.parametrize(
    "text, kind, secret",
    [
        ("key AKIAIOSFODNN7EXAMPLQ here", "aws_access_key", "AKIAIOSFODNN7EXAMPLQ"),
        ("ASIAY34FZKBOKMUTVV7A", "aws_access_key", "ASIAY34FZKBOKMUTVV7A"),
        (
            "aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
            "aws_secret_key",
            "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
        ),
        (
            '{"SecretAccessKey": "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"}',
            "aws_secret_key",
            "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
        ),
        (
            "ghp_R2d2C3poL8k9J7h6G5f4D3s2A1z0Y9x8W7v6",
            "github_token",
            "ghp_R2d2C3poL8k9J7h6G5f4D3s2A1z0Y9x8W7v6",
        ),
        (
            "x gho_16C7e42F292c6912E7710c838347Ae178B4a y",
            "github_token",
            "gho_16C7e42F292c6912E7710c838347Ae178B4a",
        ),
        (
            "ghs_16C7e42F292c6912E7710c838347Ae178B4a",
            "github_token",
            "ghs_16C7e42F292c6912E7710c838347Ae178B4a",
        ),
        (
            "ghu_16C7e42F292c6912E7710c838347Ae178B4a",
            "github_token",
            "ghu_16C7e42F292c6912E7710c838347Ae178B4a",
        ),
        (
            "ghr_16C7e42F292c6912E7710c838347Ae178B4a",
            "github_token",
            "ghr_16C7e42F292c6912E7710c838347Ae178B4a",
        ),
        (
            "github_pat_11ABCDEFG0123456789_abcdefghijklmnopqrstuvwxyz",
            "github_token",
            "github_pat_11ABCDEFG0123456789_abcdefghijklmnopqrstuvwxyz",
        ),
        ("OPENAI=sk-Abc123Def456Ghi789Jkl012", "openai_key", "sk-Abc123Def456Ghi789Jkl012"),
        (
            "sk-proj-Abc123Def456Ghi789Jkl012_x-y",
            "openai_key",
            "sk-proj-Abc123Def456Ghi789Jkl012_x-y",
        ),
        (
            "sk-ant-api03-Zz9Yy8Xx7Ww6Vv5Uu4Tt3Ss2",
            "anthropic_key",
            "sk-ant-api03-Zz9Yy8Xx7Ww6Vv5Uu4Tt3Ss2",
        ),
        (
            "Authorization: eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0In0.c2lnbmF0dXJlX2J5dGVz",
            "jwt",
            "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0In0.c2lnbmF0dXJlX2J5dGVz",
        ),
        ("password=hunter2-horse", "secret_assignment", "hunter2-horse"),
        ('{"password": "hunter2 horse"}', "secret_assignment", "hunter2 horse"),
        ("DB_SECRET='s3cr3t!'", "secret_assignment", "s3cr3t!"),
        ("api_key: abcdef123456", "secret_assignment", "abcdef123456"),
        ("https://x.io/cb?token=abc123&next=1", "secret_assignment", "abc123"),
        (
            "STRIPE_SECRET_KEY=sk_live_4eC39HqLyjWDarjtT1zdp7dc",
            "secret_assignment",
            "sk_live_4eC39HqLyjWDarjtT1zdp7dc",
        ),
        ("AUTH_KEY: a1b2c3d4e5", "secret_assignment", "a1b2c3d4e5"),
        (
            "curl -H 'Authorization: Bearer abcdefghijklmnop1234'",
            "bearer_token",
            "abcdefghijklmnop1234",
        ),
    ],
)
def test_each_kind(text, kind, secret):
    redacted, found = redact_text(text)
    assert secret not in redacted
    assert f"[REDACTED:{kind}:{digest(secret)}]" in redacted
    assert (kind, digest(secret)) in found


def test_private_key_block_whole_and_cut_off():
    block = "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXk\nAAAA\n-----END OPENSSH PRIVATE KEY-----"
    redacted, found = redact_text(f"cat id: {block} done")
    assert redacted.startswith("cat id: [REDACTED:private_key:") and redacted.endswith("] done")
    assert [k for k, _ in found] == ["private_key"]
    cut, found = redact_text("-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASC")
    assert "MIIE" not in cut and found[0][0] == "private_key"


def test_same_secret_same_marker_and_several_per_string():
    token = "ghp_R2d2C3poL8k9J7h6G5f4D3s2A1z0Y9x8W7v6"
    redacted, found = redact_text(f"{token} and again {token} and AKIAIOSFODNN7EXAMPLQ")
    assert redacted.count(f"[REDACTED:github_token:{digest(token)}]") == 2
    assert [k for k, _ in found] == ["github_token", "github_token", "aws_access_key"]


def test_named_variable_is_reported_once_by_its_specific_kind():
    redacted, found = redact_text("GITHUB_TOKEN=ghp_R2d2C3poL8k9J7h6G5f4D3s2A1z0Y9x8W7v6 ls")
    assert [k for k, _ in found] == ["github_token"]
    assert redacted.startswith("GITHUB_TOKEN=[REDACTED:github_token:")


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
        "",
    ],
)
def test_plain_text_is_left_alone(text):
    assert redact_text(text) == (text, [])


def test_tree_pointers_escape_and_input_is_untouched():
    value = {
        "tool_input": {"command": "export T=sk-ant-api03-Zz9Yy8Xx7Ww6Vv5Uu4Tt3Ss2"},
        "a/b~c": ["ok", "password=letmein1"],
        "n": 3,
        "flag": True,
    }
    before = copy.deepcopy(value)
    new, found = redact_tree(value, "/request")
    assert value == before
    assert [(p, k) for p, k, _ in found] == [
        ("/request/tool_input/command", "anthropic_key"),
        ("/request/a~1b~0c/1", "secret_assignment"),
    ]
    assert new["n"] == 3 and new["flag"] is True and new["a/b~c"][0] == "ok"
    assert escape_pointer_token("~/") == "~0~1"
