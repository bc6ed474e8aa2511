"""Planted secrets for the redaction tests: one of each kind, shaped as the real ones.

Random characters (fixed seed) in each kind's real format, so they pass the
entropy thresholds and allowlists real secrets pass; none of them is live.
"""

from __future__ import annotations

import base64
import hashlib
import random

_rng = random.Random(8)
ALNUM = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
LOWER_ALNUM = "abcdefghijklmnopqrstuvwxyz0123456789"
DIGITS = "0123456789"
LETTERS = ALNUM[:52]
B64 = ALNUM + "+/"


def rand(alphabet: str, n: int) -> str:
    return "".join(_rng.choice(alphabet) for _ in range(n))


def digest(secret: str) -> str:
    return hashlib.sha256(secret.encode()).hexdigest()[:8]


# kind -> (text holding the secret, the secret as the marker's digest names it)
KINDS: dict[str, tuple[str, str]] = {}


def _add(kind: str, secret: str, text: str | None = None) -> None:
    KINDS[kind] = (text if text is not None else f"x {secret} y", secret)


_add("gitlab_pat", "glpat-" + rand(ALNUM + "_-", 20))
_add("slack_bot_token", f"xoxb-{rand(DIGITS, 11)}-{rand(DIGITS, 12)}-{rand(ALNUM, 24)}")
_add(
    "slack_user_token",
    f"xoxp-{rand(DIGITS, 11)}-{rand(DIGITS, 12)}-{rand(DIGITS, 12)}-{rand(LOWER_ALNUM, 32)}",
)
_add(
    "slack_webhook_url",
    f"https://hooks.slack.com/services/T{rand(ALNUM, 8)}/B{rand(ALNUM, 10)}/{rand(ALNUM, 24)}",
)
_add("stripe_access_token", "sk_live_" + rand(ALNUM, 24))
KINDS["stripe_restricted"] = (f"x {(rk := 'rk_live_' + rand(ALNUM, 24))} y", rk)
_add("gcp_api_key", "AIza" + rand(ALNUM + "_-", 35))
_add("npm_access_token", "npm_" + rand(ALNUM, 36))
_add("pypi_upload_token", "pypi-AgEIcHlwaS5vcmc" + rand(ALNUM + "_-", 60))
_add("huggingface_access_token", "hf_" + rand(LETTERS, 34))
_add("sendgrid_api_token", f"SG.{rand(ALNUM, 22)}.{rand(ALNUM, 43)}")
_add("github_pat", "ghp_" + rand(ALNUM, 36))
_add("aws_access_token", "AKIA" + rand("ABCDEFGHIJKLMNOPQRSTUVWXYZ234567", 16))
_add("openai_api_key", f"sk-proj-{rand(ALNUM, 58)}T3BlbkFJ{rand(ALNUM, 58)}")
_add("anthropic_api_key", f"sk-ant-api03-{rand(ALNUM + '_-', 93)}AA")
_add(
    "jwt",
    "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvZSJ9." + rand(ALNUM + "_-", 43),
)
_pw = "Tr0ub4dor-" + rand(ALNUM, 6)
_add("url_credentials", _pw, f"git clone https://deploy:{_pw}@git.example.com/app.git")
_pg = "pg-" + rand(ALNUM, 12)
KINDS["url_credentials_postgres"] = (f"DATABASE_URL=postgres://app:{_pg}@db:5432/app", _pg)
_basic = base64.b64encode(f"deploy:{_pw}".encode()).decode()
_add("authorization_header", _basic, f"Authorization: Basic {_basic}")
_azure = base64.b64encode(_rng.randbytes(64)).decode()
_add(
    "azure_storage_key",
    _azure,
    f"DefaultEndpointsProtocol=https;AccountName=acct;AccountKey={_azure};EndpointSuffix=core.windows.net",
)
_add("bearer_token", (_bt := rand(ALNUM, 32)), f"curl -H 'X: 1' -A 'Bearer {_bt}'")
_aws_secret = rand(B64, 40)
_add("aws_secret_key", _aws_secret, f"aws_secret_access_key = {_aws_secret}")
_add("secret_assignment", "hunter2-horse", "password=hunter2-horse")
_add(
    "private_key",
    (
        _pk := "-----BEGIN OPENSSH PRIVATE KEY-----\n"
        + "\n".join(rand(B64, 70) for _ in range(5))
        + "\n-----END OPENSSH PRIVATE KEY-----"
    ),
    f"cat id: {_pk} done",
)

# Kind names as the record writes them, where the table key is only a label.
KIND_OF = {
    "stripe_restricted": "stripe_access_token",
    "url_credentials_postgres": "url_credentials",
}
