"""hooktui's own redaction rules: what gitleaks' default rules do not cover.

Credentials in URLs, Authorization headers of any scheme, Azure storage keys,
AWS secret keys by the names they go by, `password=`-style assignments of any
strength (gitleaks' generic rule wants entropy), and looser shapes of the kinds
docs/records.md names (keys cut short, older or test formats), which gitleaks'
exact ones miss. rules.py runs them after gitleaks' specific rules (the
assignment rule last of all).
"""

from __future__ import annotations

# Values that say "no secret here": a $REFERENCE, nothing, a placeholder, a marker.
_PLACEHOLDERS = (
    "secret",
    (
        r"^\$",
        r"(?i)^[\[<(*'\"]*(?:null|none|nil|true|false|undefined|redacted|changeme|\*+|x+|\.\.\.)?"
        r"[\]>)*'\"]*$",
        r"\[REDACTED:",
    ),
    (),
)

# Same shape as gitleaks_rules.RULES: (id, keywords, pattern,
# secret group, entropy, allowlists, prefix, width (0: unbounded), anchored).
# Kinds gitleaks has no rule for, and looser shapes of the kinds docs/records.md
# names (keys cut short, older or test formats), which gitleaks' exact ones miss.
LOCAL = (
    (
        "url_credentials",  # scheme://user:password@host: the password
        ("://",),
        r"\b[A-Za-z][A-Za-z0-9+.-]{0,30}://[^\s:/?#@\"'\\<>]{1,256}:([^\s/?#@\"'\\<>]{1,256})@",
        1,
        0.0,
        (_PLACEHOLDERS,),
        0,
        548,
        False,
    ),
    (
        "authorization_header",  # Authorization: Basic/Bearer/Token/... <credentials>
        ("authorization",),
        r"(?i)\bauthorization\b[\"']?\s{0,5}[:=]\s{0,5}[\"']?"
        r"(?:(?:basic|bearer|token|digest|negotiate|apikey|sso-key)\s{1,5}"
        r"([A-Za-z0-9._~+/=:-]{8,})|([A-Za-z0-9._~+/=:-]{16,}))",
        0,
        0.0,
        (_PLACEHOLDERS,),
        0,
        0,
        True,
    ),
    (
        "bearer_token",
        ("bearer",),
        r"(?i)\bbearer\s{1,5}([A-Za-z0-9._~+/=-]{16,})",
        1,
        0.0,
        (_PLACEHOLDERS,),
        0,
        0,
        True,
    ),
    (
        "azure_storage_key",  # connection strings: AccountKey=...; SharedAccessKey=...
        ("accountkey", "sharedaccesskey"),
        r"(?i)(?:accountkey|sharedaccesskey)\s{0,5}=\s{0,5}([A-Za-z0-9+/]{20,}={0,2})",
        1,
        0.0,
        (_PLACEHOLDERS,),
        0,
        0,
        True,
    ),
    (
        "aws_secret_key",  # the 40 characters, by the name they go by
        ("secret",),
        r"(?i)(?:aws_?secret_?(?:access_?)?key|secret_?access_?key)[\"']?\s*[:=]\s*[\"']?"
        r"([A-Za-z0-9/+=]{40})(?![A-Za-z0-9/+=])",
        1,
        0.0,
        (_PLACEHOLDERS,),
        0,
        160,
        False,
    ),
    (
        "anthropic_api_key",
        ("sk-ant-",),
        r"(?<![A-Za-z0-9_-])sk-ant-[A-Za-z0-9_-]{20,}",
        0,
        0.0,
        (),
        0,
        0,
        True,
    ),
    (
        "openai_api_key",
        ("sk-",),
        r"(?<![A-Za-z0-9_-])sk-(?!ant-)(?:proj-|svcacct-|admin-)?[A-Za-z0-9_-]{20,}",
        0,
        0.0,
        (),
        0,
        0,
        True,
    ),
    (
        "github_token",
        ("ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_"),
        r"(?<![A-Za-z0-9_])(?:gh[pousr]_[A-Za-z0-9]{20,255}|github_pat_[A-Za-z0-9_]{20,255})",
        0,
        0.0,
        (),
        0,
        0,
        True,
    ),
    (
        "aws_access_token",
        ("akia", "asia", "aida", "aroa", "agpa", "anpa", "anva", "aipa"),
        r"(?<![A-Z0-9])(?:AKIA|ASIA|AIDA|AROA|AGPA|ANPA|ANVA|AIPA)[A-Z0-9]{16}(?![A-Z0-9])",
        0,
        0.0,
        (),
        0,
        0,
        True,
    ),
    (
        "jwt",
        ("eyj",),
        r"(?<![A-Za-z0-9_-])eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]*",
        0,
        0.0,
        (),
        0,
        0,
        True,
    ),
    (
        "private_key",  # a block cut off (output capped, a partial paste) is masked to the end
        ("-----begin",),
        r"(?s)-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----"
        r"(?:.*?-----END (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----|.*)",
        0,
        0.0,
        (),
        0,
        0,
        True,
    ),
)

# `password=hunter2`, `api_key: "..."`, `"secret": "..."`, `DB_TOKEN='...'`, of any
# strength (gitleaks' generic rule wants entropy): last, after every other rule.
ASSIGNMENT = (
    "secret_assignment",
    (
        "password",
        "passwd",
        "passphrase",
        "secret",
        "token",
        "apikey",
        "api",
        "access",
        "private",
        "auth",
        "signing",
        "encryption",
        "client",
        "credential",
    ),
    r"(?i)(?:password|passwd|passphrase|secret|token|apikey|"
    r"(?:api|access|private|secret|auth|signing|encryption)[_-]?key|client[_-]?secret|"
    r"credentials?)[\"']?\s*[:=]\s*"
    r"(?:\"((?:[^\"\\\n]|\\.){3,}?)\"|'([^'\n]{3,}?)'|([^\s\"'&;,)}\]]{3,}))",
    0,
    0.0,
    (_PLACEHOLDERS,),
    0,
    0,
    True,
)
