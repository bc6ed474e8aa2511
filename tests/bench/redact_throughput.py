"""Redaction throughput (MB/s of text through `redact_text`), side by side.

Plain script, run on demand (not collected by pytest):

    .venv/bin/python tests/bench/redact_throughput.py [--rounds N] [PYTHON ...]

Each PYTHON (default: this one) is an interpreter with hooktui installed, say
an older build's venv: the same texts go through each one's
`hooktui.tap.record.redact.redact_text`, in interleaved rounds (one child
process per interpreter and round), and the best time of each is kept. Texts:
the standard library's own Python source (code, clean), the same as a JSON
string (as a hook's stdout holds it), a log with a secret every 4 KiB, and a
typical request (2 KiB of JSON: a PostToolUse with some code as the tool's
output; many calls).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

CHILD = r"""
import json, os, sys, time
from hooktui.tap.record.redact import redact_text

def corpus():
    root = os.path.dirname(os.__file__)
    text = ""
    for name in sorted(os.listdir(root)):
        if name.endswith(".py"):
            with open(os.path.join(root, name), encoding="utf-8", errors="replace") as fh:
                text += fh.read()
        if len(text) > 262144:
            break
    return text[:262144]

code = corpus()
secrets = [
    "ghp_R2d2C3poL8k9J7h6G5f4D3s2A1z0Y9x8W7v6",
    "AKIAZ4QK7N3XW5PLR2MB",
    "password=hunter2-horse",
    "Authorization: Bearer abcdefghijklmnop1234",
]
log = "".join(
    f"{i:06d} INFO worker {i % 7} handled request in {i % 97} ms "
    + (secrets[i // 40 % 4] if i % 40 == 0 else "ok")
    + "\n"
    for i in range(4000)
)
request = json.dumps({
    "session_id": "0f9d3c1e-5b7a-4e2f-9a61-3c8d2b7e4f10",
    "transcript_path": "/home/me/.claude/projects/x/0f9d3c1e.jsonl",
    "cwd": "/home/me/src/project",
    "hook_event_name": "PreToolUse",
    "tool_name": "Bash",
    "tool_input": {"command": "git log --oneline -20 && make test", "description": "test"},
    "tool_use_id": "toolu_01ABCDEFGHJKMNPQRSTVWXYZ",
    "tool_response": {"stdout": code[100000:101600], "stderr": "", "interrupted": False},
})
texts = {
    "code 256 KiB": (code, 1),
    "code as JSON": (json.dumps(code), 1),
    "log + secrets": (log, 1),
    "request x200": (request, 200),
}
out = {}
for name, (text, times) in texts.items():
    t0 = time.perf_counter()
    for _ in range(times):
        redact_text(text)
    out[name] = [len(text.encode()) * times, time.perf_counter() - t0]
print(json.dumps(out))
"""


def main() -> int:
    args = sys.argv[1:]
    rounds = 3
    if args[:1] == ["--rounds"]:
        rounds, args = int(args[1]), args[2:]
    pythons = args or [sys.executable]
    best: dict[tuple[str, str], float] = {}
    sizes: dict[str, int] = {}
    env = dict(os.environ, PYTHONDONTWRITEBYTECODE="")
    env.pop("PYTHONDONTWRITEBYTECODE")
    for _ in range(rounds):
        for python in pythons:
            proc = subprocess.run(
                [python, "-c", CHILD], capture_output=True, text=True, check=True, env=env
            )
            for name, (size, seconds) in json.loads(proc.stdout).items():
                sizes[name] = size
                key = (python, name)
                best[key] = min(best.get(key, seconds), seconds)
    names = list(sizes)
    print(f"{'text':>14} " + " ".join(f"{p[-40:]:>40}" for p in pythons))
    for name in names:
        cells = []
        for python in pythons:
            mbs = sizes[name] / best[(python, name)] / 1e6
            ratio = best[(pythons[0], name)] / best[(python, name)]
            cells.append(f"{mbs:8.2f} MB/s ({ratio:5.2f}x first)")
        print(f"{name:>14} " + " ".join(f"{c:>40}" for c in cells))
    return 0


if __name__ == "__main__":
    sys.exit(main())
