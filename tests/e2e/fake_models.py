"""Scripted fake model servers for the real agent CLIs (stdlib only).

A script says what the model answers. The simple form, {"tool", "tool_input"},
plays a model that makes exactly ONE tool call: the first request that offers
the tool gets the call; a request whose conversation already holds a tool
result gets a closing text. The step form, {"steps": [turn, ...]}, answers the
n-th request that offers any tool with the n-th turn ({"text", "calls": [{"name",
"input"}, ...]}, or {"error": status} for a refused request), then closes with
text. Anything else the CLI asks on the side (titles, quota probes, checks)
gets a short harmless text. Every request is appended to a JSONL log so the
test can read what the runtime sent the model back.

Four wire formats, told apart by the path: Anthropic Messages (Claude Code,
Copilot's anthropic provider), OpenAI Responses (Codex), Gemini, and OpenAI
Chat Completions (Copilot, Qwen Code); fake_wire.py renders them.

This module runs inside the test's network namespace (see netns_run.py), so it
must not import anything outside the standard library and this folder.
"""

from __future__ import annotations

import json
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from tests.e2e import fake_wire as wire

CALL_ID = wire.CALL_ID
FINAL_TEXT = "E2E-DONE"
SIDE_TEXT = "ok"


def claude_since_assistant(body: dict[str, Any]) -> list[dict[str, Any]]:
    """The messages after the model's last turn: the tool result, and whatever the
    runtime adds beside it (2.1.332 appends hook notes as a `system` message)."""
    return wire.since_assistant(body.get("messages") or [])


class Turns:
    """Which turn answers the next request: the script, and how far it has got.

    Steps are taken in order. A step may say which requests it is for: `"match"`
    (a text the request holds) or `"unless"` (one it does not), so the turns of
    two conversations running side by side (a sub-agent's) do not get crossed.
    """

    def __init__(self, script: dict[str, Any]):
        self.script = dict(script)
        if "steps" in script:  # {"times": n}: the same turn n times (an error the CLI retries)
            self.script["steps"] = [
                step for step in script["steps"] for _ in range(int(step.get("times", 1)))
            ]
        self.taken: set[int] = set()
        self.lock = threading.Lock()

    def _next(self, body_text: str) -> int | None:
        for index, step in enumerate(self.script["steps"]):
            if index in self.taken:
                continue
            if "match" in step and step["match"] not in body_text:
                continue
            if "unless" in step and step["unless"] in body_text:
                continue
            self.taken.add(index)
            return index
        return None

    def answer(
        self, offers: list[str], has_result: bool, body_text: str = ""
    ) -> tuple[str, dict[str, Any]]:
        """(kind, turn) for a request offering the tools `offers`; `has_result`: the
        conversation since the model's last turn holds a tool result."""
        if self.script.get("steps") is not None:
            if not offers:
                return "side", {"text": SIDE_TEXT}
            with self.lock:
                index = self._next(body_text)
            if index is None:
                return "final", {"text": FINAL_TEXT}
            turn = dict(self.script["steps"][index])
            turn["calls"] = [
                {"id": f"call_e2e_{index + 1}_{n}", **call}
                for n, call in enumerate(turn.get("calls") or [])
            ]
            return f"step{index}", turn
        if has_result:
            return "final", {"text": FINAL_TEXT}
        tool = self.script.get("tool")
        if tool and tool in offers:
            call = {"id": CALL_ID, "name": tool, "input": self.script["tool_input"]}
            return "tool_call", {"text": "Running the command.", "calls": [call]}
        return "side", {"text": SIDE_TEXT}


def _route(path: str, body: dict[str, Any]) -> str | None:
    """Which wire format a request speaks, from its path."""
    if path.endswith("/messages"):
        return "anthropic"
    if path.endswith("/responses"):
        return "responses"
    if ":streamGenerateContent" in path or ":generateContent" in path:
        return "gemini"
    if path.endswith("/chat/completions"):
        return "chat"
    return None


class _Handler(BaseHTTPRequestHandler):
    server: FakeModelServer
    protocol_version = "HTTP/1.1"

    def log_message(self, format: str, *args: Any) -> None:  # quiet
        return

    def _log(self, body: Any, kind: str) -> None:
        entry = {
            "method": self.command,
            "path": self.path,
            "kind": kind,
            "t": time.time(),
            "body": body,
        }
        with self.server.log_lock, open(self.server.log_path, "a") as fh:
            fh.write(json.dumps(entry) + "\n")

    def _send(self, status: int, payload: bytes, ctype: str) -> None:
        self.send_response(status)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(payload)))
        self.end_headers()
        self.wfile.write(payload)

    def do_HEAD(self) -> None:
        self._log(None, "head")
        self.send_response(200)
        self.send_header("Content-Length", "0")
        self.end_headers()

    def do_GET(self) -> None:
        path = self.path.split("?", 1)[0]
        if path.endswith("/models"):  # OpenAI-style model listing (Copilot, Qwen Code)
            self._log(None, "models")
            self._send(200, json.dumps(wire.model_list()).encode(), "application/json")
            return
        self._log(None, "get")
        self._send(404, b'{"error":"not here"}', "application/json")

    def do_POST(self) -> None:
        length = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(length)
        try:
            body = json.loads(raw)
        except ValueError:
            self._log(raw.decode("utf-8", "replace"), "unparsed")
            self._send(400, b'{"error":"bad json"}', "application/json")
            return
        path = self.path.split("?", 1)[0]
        api = _route(path, body)
        if api is None:
            self._log(body, "unknown")
            self._send(404, b'{"error":"not scripted"}', "application/json")
            return
        offers, has_result = wire.VIEW[api](body)
        kind, turn = self.server.turns.answer(offers, has_result, raw.decode("utf-8", "replace"))
        self._log(body, kind)
        if "error" in turn:
            status = int(turn["error"])
            self._send(
                status, json.dumps(wire.error_body(api, status)).encode(), "application/json"
            )
            return
        stream = api != "gemini" or ":streamGenerateContent" in path
        if api in ("anthropic", "chat") and not body.get("stream"):
            stream = False
        payload, ctype = wire.render(api, turn, body, stream)
        self._send(200, payload, ctype)


class FakeModelServer(ThreadingHTTPServer):
    daemon_threads = True

    def __init__(self, port: int, runtime: str, script: dict[str, Any], log_path: str):
        self.runtime = runtime
        self.turns = Turns(script)
        self.log_path = log_path
        self.log_lock = threading.Lock()
        super().__init__(("127.0.0.1", port), _Handler)

    def start(self) -> threading.Thread:
        thread = threading.Thread(target=self.serve_forever, daemon=True)
        thread.start()
        return thread
