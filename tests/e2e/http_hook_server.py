"""A hook's own HTTP server, then the CLI: `python http_hook_server.py SPEC.json -- CLI ...`.

Runs inside the run's loopback-only namespace (netns_run.py starts it as the
"CLI"), so the runtime's http hook can reach it on 127.0.0.1. Each request is
logged (method, path, headers, body) to the spec's `log`; the answer for a path
is the spec's `answers[path]`: `{"status": 200, "body": "...", "type": "..."}`
(type: the Content-Type, application/json unless given; `"type": null` sends
none; `hex`: the body's bytes in hex, in place of `body`; `headers`: more [name,
value] pairs), or `{"by_tag": {tag: answer}}`, picked by the batch tag (`-t3`) the
request's body holds. An answer may also `sleep` (seconds before replying),
`drop` (close the connection without a reply) or redirect (`location`).
Stdlib only.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

_TAG = re.compile(r"marker-(?:original|rewritten)-(t\d+)\b")


def _answer_for(answers: dict, path: str, body: str) -> dict:
    answer = answers.get(path, {"status": 404, "body": ""})
    if "by_tag" in answer:
        tag = _TAG.search(body)
        answer = answer["by_tag"].get(tag.group(1) if tag else "", {"status": 404, "body": ""})
    return answer


def serve(spec: dict) -> ThreadingHTTPServer:
    answers = spec["answers"]
    log = Path(spec["log"])
    lock = threading.Lock()

    class Handler(BaseHTTPRequestHandler):
        def log_message(self, format: str, *args: object) -> None:  # quiet
            pass

        def do_POST(self) -> None:
            length = int(self.headers.get("Content-Length") or 0)
            body = self.rfile.read(length).decode("utf-8", "replace")
            entry = {
                "method": self.command,
                "path": self.path,
                "headers": dict(self.headers.items()),
                "body": body,
                "at": time.time(),
            }
            with lock, log.open("a") as f:
                f.write(json.dumps(entry) + "\n")
            answer = _answer_for(answers, self.path, body)
            time.sleep(answer.get("sleep", 0))
            if answer.get("drop"):
                self.close_connection = True
                return  # no status line at all: the client sees the connection close
            payload = bytes.fromhex(answer["hex"]) if "hex" in answer else None
            payload = answer.get("body", "").encode() if payload is None else payload
            self.send_response(answer.get("status", 200))
            kind = answer.get("type", "application/json")
            if kind is not None:
                self.send_header("Content-Type", kind)
            for name, value in answer.get("headers", ()):
                self.send_header(name, value)
            if answer.get("location"):
                self.send_header("Location", answer["location"])
            self.send_header("Content-Length", str(len(payload)))
            self.end_headers()
            self.wfile.write(payload)

        do_GET = do_PUT = do_PATCH = do_DELETE = do_POST

    server = ThreadingHTTPServer((spec.get("host", "127.0.0.1"), spec["port"]), Handler)
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


def main(argv: list[str]) -> int:
    spec = json.loads(Path(argv[0]).read_text())
    cli = argv[argv.index("--") + 1 :]
    server = serve(spec)
    try:
        proc = subprocess.run(cli, timeout=60)
    finally:
        server.shutdown()
    return proc.returncode


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
