"""A scripted hook for the end-to-end tests: `hook.py DIR NAME`.

Appends the request it got on stdin to DIR/NAME.calls.jsonl (so the test can
compare what the runtime sent with and without the tap), then answers exactly
as DIR/NAME.answer.json says: {"stdout": str, "stderr": str, "exit": int},
after sleeping {"sleep": seconds} first if given.
No answer file: exit 0 with no output.
"""

from __future__ import annotations

import json
import os
import sys
import time
from pathlib import Path


def main(folder: str, name: str) -> int:
    data = sys.stdin.buffer.read()
    base = Path(folder)
    entry = {
        "stdin": data.decode("utf-8", "replace"),
        "cwd": os.getcwd(),
        "argv": sys.argv,
        "env": {
            k: v
            for k, v in os.environ.items()
            if k.startswith(("CLAUDE_", "GEMINI_", "CODEX_", "HOOKTUI_"))
        },
    }
    with open(base / f"{name}.calls.jsonl", "a") as fh:
        fh.write(json.dumps(entry) + "\n")
    answer_file = base / f"{name}.answer.json"
    if not answer_file.exists():
        return 0
    answer = json.loads(answer_file.read_text())
    if answer.get("sleep"):  # a hook that runs past its timeout
        time.sleep(float(answer["sleep"]))
    sys.stdout.write(answer.get("stdout", ""))
    sys.stderr.write(answer.get("stderr", ""))
    sys.stdout.flush()
    sys.stderr.flush()
    return int(answer.get("exit", 0))


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[2]))
