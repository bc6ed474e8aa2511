#!/usr/bin/env python3
"""Redact secrets from a tool's output: a basis post_tool_use guard.

What it does: after a tool has run, looks for credentials in what it printed
(AWS access key ids, `..._SECRET...=value` / `password=value` style lines,
GitHub tokens) and answers `replace` with the same output, secrets masked, so
the model never reads them. Output without secrets is allowed through as it is.

Protocol (basis hook wire format, `hook_schema` 1): the request has `event`
(`pre_tool_use` | `post_tool_use`), `tool_name`, `input`, and after the call
`output` and `is_error`. The answer is one JSON object on stdout, and it is
required: empty stdout or a non-zero exit is a failure, whatever was printed.
`replace` is only valid at `post_tool_use` (at `pre_tool_use` it is a failure),
and carries the new `output` and its `is_error`.

Install: declare it as a basis hook for `post_tool_use`; its command is
`python3 /path/to/redact_output.py` (wrap it as
`hooktui tap --runtime basis -- python3 /path/to/redact_output.py` to watch it).
"""

import json
import re
import sys

# What a secret becomes: `***` is also what recorders (hooktui's among them) read as
# "already masked", so the record stays readable.
MASK = "***"

# Whole tokens that are secrets wherever they appear.
TOKENS = re.compile(r"\b(?:(?:AKIA|ASIA)[0-9A-Z]{16}|gh[pousr]_[A-Za-z0-9]{36,})\b")
# `NAME=value` lines whose name says the value is secret.
ASSIGNMENT = re.compile(
    r"(?im)^(\s*(?:export\s+)?[A-Z0-9_]*(?:SECRET|PASSWORD|TOKEN|API_KEY)[A-Z0-9_]*\s*[=:]\s*)(\S+)"
)


def redact(text: str) -> str:
    text = ASSIGNMENT.sub(lambda m: m.group(1) + MASK, text)
    return TOKENS.sub(MASK, text)


def main() -> int:
    request = json.load(sys.stdin)
    answer = {"decision": "allow"}
    output = request.get("output")
    if request.get("event") == "post_tool_use" and isinstance(output, str):
        clean = redact(output)
        if clean != output:
            answer = {
                "decision": "replace",
                "output": clean,
                "is_error": bool(request.get("is_error", False)),
                "reason": "masked credentials in the tool output",
            }
    json.dump(answer, sys.stdout)
    return 0


if __name__ == "__main__":
    sys.exit(main())
