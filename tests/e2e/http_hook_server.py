"""A hook's own HTTP server, then the CLI: `python http_hook_server.py SPEC.json -- CLI ...`.

Runs inside the run's loopback-only namespace (netns_run.py starts it as the
"CLI"), so the runtime's http hook can reach it on 127.0.0.1. Each POST is
logged (path, headers, body) to the spec's `log`; the answer for a path is
the spec's `answers[path]`: `{"status": 200, "body": "...", "type": "..."}` (type: the
Content-Type, application/json unless given). Stdlib only.
"""

from __future__ import annotations

import json
import subprocess
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path


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
            entry = {"path": self.path, "headers": dict(self.headers.items()), "body": body}
            with lock, log.open("a") as f:
                f.write(json.dumps(entry) + "\n")
            answer = answers.get(self.path, {"status": 404, "body": ""})
            payload = answer.get("body", "").encode()
            self.send_response(answer.get("status", 200))
            self.send_header("Content-Type", answer.get("type", "application/json"))
            self.send_header("Content-Length", str(len(payload)))
            self.end_headers()
            self.wfile.write(payload)

    server = ThreadingHTTPServer(("127.0.0.1", spec["port"]), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


def main(argv: list[str]) -> int:
    spec = json.loads(Path(argv[0]).read_text())
    cli = argv[argv.index("--") + 1 :]
    server = serve(spec)
    try:
        proc = subprocess.run(cli)
    finally:
        server.shutdown()
    return proc.returncode


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
