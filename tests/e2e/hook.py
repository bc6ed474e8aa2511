"""A scripted hook for the end-to-end tests: `hook.py DIR NAME`.

Appends the request it got on stdin, its cwd and its whole environment to
DIR/NAME.calls.jsonl (so the test can compare what the runtime sent with and
without the tap, and capture what each runtime gives its hooks), then answers
exactly as DIR/NAME.answer.json says: {"stdout": str, "stderr": str, "exit": int},
after sleeping {"sleep": seconds} first if given; {"signal": N} kills itself
with signal N instead of exiting (a crash); {"once": true} answers only the
first call (later ones: exit 0, no output).
An answer file {"by_tag": {TAG: answer}, "default": answer} answers each case of
a batch (batch.py) by the tag in its command (marker-original-TAG).
No answer file: exit 0 with no output.
"""

from __future__ import annotations

import json
import os
import re
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
        "env": dict(os.environ),
        "t": time.time(),
    }
    with open(base / f"{name}.calls.jsonl", "a") as fh:
        fh.write(json.dumps(entry) + "\n")
    answer_file = base / f"{name}.answer.json"
    if not answer_file.exists():
        return 0
    answer = json.loads(answer_file.read_text())
    if answer.get("once") and _calls(base, name) > 1:  # e.g. a Stop hook that blocks once
        return 0
    if "by_tag" in answer:  # one answer per case of a batch, told by the case's tag
        tag = re.search(r"marker-(?:original|rewritten)-(t\d+)\b", entry["stdin"])
        answer = answer["by_tag"].get(tag.group(1) if tag else "", answer.get("default", {}))
    if answer.get("sleep"):  # a hook that runs past its timeout
        time.sleep(float(answer["sleep"]))
    sys.stdout.write(answer.get("stdout", ""))
    sys.stderr.write(answer.get("stderr", ""))
    sys.stdout.flush()
    sys.stderr.flush()
    if answer.get("signal"):
        os.kill(os.getpid(), int(answer["signal"]))
    return int(answer.get("exit", 0))


def _calls(base: Path, name: str) -> int:
    return len((base / f"{name}.calls.jsonl").read_text().splitlines())


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[2]))
