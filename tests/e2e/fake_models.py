"""Scripted fake model servers for the real agent CLIs (stdlib only).

Each server plays a model that makes exactly ONE tool call: the first request
that offers the shell tool gets a tool call carrying the scripted command; a
request whose conversation already holds that tool's result gets a closing
text. Anything else the CLI asks on the side (titles, quota probes, checks)
gets a short harmless text. Every request is appended to a JSONL log so the
test can read what the runtime sent the model back.

This module runs inside the test's network namespace (see netns_run.py), so it
must not import anything outside the standard library.
"""

from __future__ import annotations

import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

CALL_ID = "call_e2e_1"
FINAL_TEXT = "E2E-DONE"
SIDE_TEXT = "ok"


def _sse(events: list[tuple[str | None, dict[str, Any]]]) -> bytes:
    out = []
    for name, data in events:
        if name:
            out.append(f"event: {name}\n")
        out.append(f"data: {json.dumps(data)}\n\n")
    return "".join(out).encode()


# --- Claude Code: Anthropic Messages API -------------------------------------


def _claude_tool_results(body: dict[str, Any]) -> list[dict[str, Any]]:
    messages = body.get("messages") or []
    if not messages:
        return []
    content = messages[-1].get("content")
    if not isinstance(content, list):
        return []
    return [b for b in content if isinstance(b, dict) and b.get("type") == "tool_result"]


def _claude_offers(body: dict[str, Any], tool: str) -> bool:
    return any(isinstance(t, dict) and t.get("name") == tool for t in body.get("tools") or [])


def claude_events(body: dict[str, Any], script: dict[str, Any]) -> tuple[str, list]:
    """(kind, SSE events) answering one /v1/messages request."""
    start = {
        "type": "message_start",
        "message": {
            "id": "msg_e2e",
            "type": "message",
            "role": "assistant",
            "model": body.get("model", "claude-e2e"),
            "content": [],
            "stop_reason": None,
            "stop_sequence": None,
            "usage": {"input_tokens": 10, "output_tokens": 1},
        },
    }

    def text_block(index: int, text: str) -> list:
        return [
            (
                "content_block_start",
                {
                    "type": "content_block_start",
                    "index": index,
                    "content_block": {"type": "text", "text": ""},
                },
            ),
            (
                "content_block_delta",
                {
                    "type": "content_block_delta",
                    "index": index,
                    "delta": {"type": "text_delta", "text": text},
                },
            ),
            ("content_block_stop", {"type": "content_block_stop", "index": index}),
        ]

    def end(stop_reason: str) -> list:
        return [
            (
                "message_delta",
                {
                    "type": "message_delta",
                    "delta": {"stop_reason": stop_reason, "stop_sequence": None},
                    "usage": {"output_tokens": 5},
                },
            ),
            ("message_stop", {"type": "message_stop"}),
        ]

    if _claude_tool_results(body):
        return "final", [("message_start", start), *text_block(0, FINAL_TEXT), *end("end_turn")]
    if _claude_offers(body, script["tool"]):
        tool_use = [
            (
                "content_block_start",
                {
                    "type": "content_block_start",
                    "index": 1,
                    "content_block": {
                        "type": "tool_use",
                        "id": CALL_ID,
                        "name": script["tool"],
                        "input": {},
                    },
                },
            ),
            (
                "content_block_delta",
                {
                    "type": "content_block_delta",
                    "index": 1,
                    "delta": {
                        "type": "input_json_delta",
                        "partial_json": json.dumps(script["tool_input"]),
                    },
                },
            ),
            ("content_block_stop", {"type": "content_block_stop", "index": 1}),
        ]
        return "tool_call", [
            ("message_start", start),
            *text_block(0, "Running the command."),
            *tool_use,
            *end("tool_use"),
        ]
    return "side", [("message_start", start), *text_block(0, SIDE_TEXT), *end("end_turn")]


def claude_plain(body: dict[str, Any]) -> dict[str, Any]:
    """A non-streaming answer (side requests that do not ask for SSE)."""
    return {
        "id": "msg_e2e_side",
        "type": "message",
        "role": "assistant",
        "model": body.get("model", "claude-e2e"),
        "content": [{"type": "text", "text": SIDE_TEXT}],
        "stop_reason": "end_turn",
        "stop_sequence": None,
        "usage": {"input_tokens": 10, "output_tokens": 1},
    }


# --- Codex: OpenAI Responses API ---------------------------------------------


def _codex_outputs(body: dict[str, Any]) -> list[dict[str, Any]]:
    return [
        item
        for item in body.get("input") or []
        if isinstance(item, dict) and item.get("type") == "function_call_output"
    ]


def _codex_tool_names(body: dict[str, Any]) -> list[str]:
    return [t.get("name", "") for t in body.get("tools") or [] if isinstance(t, dict)]


def codex_events(body: dict[str, Any], script: dict[str, Any]) -> tuple[str, list]:
    usage = {
        "input_tokens": 10,
        "input_tokens_details": {"cached_tokens": 0},
        "output_tokens": 5,
        "output_tokens_details": {"reasoning_tokens": 0},
        "total_tokens": 15,
    }
    created = ("response.created", {"type": "response.created", "response": {"id": "resp_e2e"}})
    completed = (
        "response.completed",
        {"type": "response.completed", "response": {"id": "resp_e2e", "usage": usage}},
    )

    def message(text: str) -> tuple:
        item = {
            "type": "message",
            "role": "assistant",
            "id": "msg_e2e",
            "content": [{"type": "output_text", "text": text, "annotations": []}],
        }
        return ("response.output_item.done", {"type": "response.output_item.done", "item": item})

    if _codex_outputs(body):
        return "final", [created, message(FINAL_TEXT), completed]
    if script["tool"] in _codex_tool_names(body):
        item = {
            "type": "function_call",
            "id": "fc_e2e",
            "call_id": CALL_ID,
            "name": script["tool"],
            "arguments": json.dumps(script["tool_input"]),
        }
        done = ("response.output_item.done", {"type": "response.output_item.done", "item": item})
        return "tool_call", [created, done, completed]
    return "side", [created, message(SIDE_TEXT), completed]


# --- Gemini CLI: Gemini API ----------------------------------------------------


def _gemini_responses(body: dict[str, Any]) -> list[dict[str, Any]]:
    contents = body.get("contents") or []
    if not contents:
        return []
    parts = contents[-1].get("parts") or []
    return [p["functionResponse"] for p in parts if isinstance(p, dict) and "functionResponse" in p]


def _gemini_offers(body: dict[str, Any], tool: str) -> bool:
    for group in body.get("tools") or []:
        for decl in (group or {}).get("functionDeclarations") or []:
            if decl.get("name") == tool:
                return True
    return False


def _gemini_chunk(parts: list[dict[str, Any]]) -> dict[str, Any]:
    return {
        "candidates": [
            {"content": {"role": "model", "parts": parts}, "finishReason": "STOP", "index": 0}
        ],
        "usageMetadata": {"promptTokenCount": 10, "candidatesTokenCount": 5, "totalTokenCount": 15},
        "modelVersion": "gemini-2.5-flash",
    }


def gemini_answer(body: dict[str, Any], script: dict[str, Any]) -> tuple[str, dict]:
    if _gemini_responses(body):
        return "final", _gemini_chunk([{"text": FINAL_TEXT}])
    if _gemini_offers(body, script["tool"]):
        call = {"functionCall": {"name": script["tool"], "args": script["tool_input"]}}
        return "tool_call", _gemini_chunk([call])
    return "side", _gemini_chunk([{"text": SIDE_TEXT}])


# --- The HTTP server -------------------------------------------------------------


class _Handler(BaseHTTPRequestHandler):
    server: FakeModelServer
    protocol_version = "HTTP/1.1"

    def log_message(self, format: str, *args: Any) -> None:  # quiet
        return

    def _log(self, body: Any, kind: str) -> None:
        entry = {"method": self.command, "path": self.path, "kind": kind, "body": body}
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
        runtime, script = self.server.runtime, self.server.script
        path = self.path.split("?", 1)[0]
        if runtime == "claude-code" and path.endswith("/v1/messages"):
            if body.get("stream"):
                kind, events = claude_events(body, script)
                self._log(body, kind)
                self._send(200, _sse(events), "text/event-stream")
            else:
                self._log(body, "side")
                self._send(200, json.dumps(claude_plain(body)).encode(), "application/json")
        elif runtime == "codex" and path.endswith("/responses"):
            kind, events = codex_events(body, script)
            self._log(body, kind)
            self._send(200, _sse(events), "text/event-stream")
        elif runtime == "gemini-cli" and ":streamGenerateContent" in path:
            kind, chunk = gemini_answer(body, script)
            self._log(body, kind)
            self._send(200, _sse([(None, chunk)]), "text/event-stream")
        elif runtime == "gemini-cli" and ":generateContent" in path:
            kind, chunk = gemini_answer(body, script)
            self._log(body, "side" if kind == "side" else kind)
            self._send(200, json.dumps(chunk).encode(), "application/json")
        else:
            self._log(body, "unknown")
            self._send(404, b'{"error":"not scripted"}', "application/json")


class FakeModelServer(ThreadingHTTPServer):
    daemon_threads = True

    def __init__(self, port: int, runtime: str, script: dict[str, Any], log_path: str):
        self.runtime = runtime
        self.script = script
        self.log_path = log_path
        self.log_lock = threading.Lock()
        super().__init__(("127.0.0.1", port), _Handler)

    def start(self) -> threading.Thread:
        thread = threading.Thread(target=self.serve_forever, daemon=True)
        thread.start()
        return thread
