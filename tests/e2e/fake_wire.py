"""The four wire formats the fake model speaks (stdlib only; see fake_models.py).

A turn is {"text": str, "calls": [{"id", "name", "input"}, ...]}: what the model
says, and the tool calls it makes. For each format, VIEW reads a request
(which tools it offers, whether a tool result came back since the model's last
turn) and `render` writes the turn as that format's answer.
"""

from __future__ import annotations

import json
from typing import Any

CALL_ID = "call_e2e_1"
MODEL = "gpt-4.1"


def _sse(events: list[tuple[str | None, Any]]) -> bytes:
    out = []
    for name, data in events:
        if name:
            out.append(f"event: {name}\n")
        out.append(f"data: {data if isinstance(data, str) else json.dumps(data)}\n\n")
    return "".join(out).encode()


def since_assistant(messages: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The messages after the last one with role `assistant`."""
    last = max((i for i, m in enumerate(messages) if m.get("role") == "assistant"), default=-1)
    return messages[last + 1 :]


def _blocks(messages: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [
        b
        for m in messages
        if isinstance(m.get("content"), list)
        for b in m["content"]
        if isinstance(b, dict)
    ]


def _names(tools: Any, key=lambda t: t.get("name")) -> list[str]:
    return [key(t) or "" for t in tools or [] if isinstance(t, dict)]


# --- Anthropic Messages (Claude Code; Copilot with COPILOT_PROVIDER_TYPE=anthropic) ---


def _anthropic_view(body: dict[str, Any]) -> tuple[list[str], bool]:
    recent = since_assistant(body.get("messages") or [])
    return _names(body.get("tools")), any(b.get("type") == "tool_result" for b in _blocks(recent))


def _anthropic(turn: dict[str, Any], body: dict[str, Any], stream: bool) -> tuple[bytes, str]:
    calls = turn.get("calls") or []
    stop = "tool_use" if calls else "end_turn"
    # Each block: (its final form, its opening form, the delta that fills it).
    blocks: list[tuple[dict[str, Any], dict[str, Any], dict[str, Any]]] = []
    if turn.get("text"):
        text = turn["text"]
        blocks.append(
            (
                {"type": "text", "text": text},
                {"type": "text", "text": ""},
                {"type": "text_delta", "text": text},
            )
        )
    for call in calls:
        opening = {"type": "tool_use", "id": call["id"], "name": call["name"], "input": {}}
        blocks.append(
            (
                {**opening, "input": call["input"]},
                opening,
                {"type": "input_json_delta", "partial_json": json.dumps(call["input"])},
            )
        )
    message = {
        "id": "msg_e2e",
        "type": "message",
        "role": "assistant",
        "model": body.get("model", "claude-e2e"),
        "content": [],
        "stop_reason": None,
        "stop_sequence": None,
        "usage": {"input_tokens": 10, "output_tokens": 1},
    }
    if not stream:
        done = {**message, "content": [b[0] for b in blocks], "stop_reason": stop}
        return json.dumps(done).encode(), "application/json"
    events: list[tuple[str | None, Any]] = [
        ("message_start", {"type": "message_start", "message": message})
    ]
    for index, (_, opening, delta) in enumerate(blocks):
        events += [
            (
                "content_block_start",
                {"type": "content_block_start", "index": index, "content_block": opening},
            ),
            (
                "content_block_delta",
                {"type": "content_block_delta", "index": index, "delta": delta},
            ),
            ("content_block_stop", {"type": "content_block_stop", "index": index}),
        ]
    events += [
        (
            "message_delta",
            {
                "type": "message_delta",
                "delta": {"stop_reason": stop, "stop_sequence": None},
                "usage": {"output_tokens": 5},
            },
        ),
        ("message_stop", {"type": "message_stop"}),
    ]
    return _sse(events), "text/event-stream"


def anthropic_result_for(body: dict[str, Any], call_id: str) -> dict[str, Any] | None:
    """The tool_result for `call_id` in a Messages request, and the text beside it."""
    messages = body.get("messages") or []
    for i, m in enumerate(messages):
        blocks = m.get("content") if isinstance(m.get("content"), list) else []
        for b in blocks:
            if b.get("type") == "tool_result" and b.get("tool_use_id") == call_id:
                notes = [x.get("text", "") for x in blocks if x.get("type") == "text"]
                for n in messages[i + 1 :]:
                    if n.get("role") == "assistant":
                        break
                    if isinstance(n.get("content"), list):
                        notes += [
                            x.get("text", "") for x in n["content"] if x.get("type") == "text"
                        ]
                return {
                    "content": _content_text(b.get("content")),
                    "is_error": bool(b.get("is_error")),
                    "notes": notes,
                }
    return None


def _content_text(content: Any) -> str:
    if isinstance(content, list):
        return "".join(p.get("text", "") for p in content if isinstance(p, dict))
    return content or ""


# --- OpenAI Responses (Codex) -------------------------------------------------------


def _responses_view(body: dict[str, Any]) -> tuple[list[str], bool]:
    items = [i for i in body.get("input") or [] if isinstance(i, dict)]
    return _names(body.get("tools")), any(i.get("type") == "function_call_output" for i in items)


def _responses(turn: dict[str, Any], body: dict[str, Any], stream: bool) -> tuple[bytes, str]:
    usage = {
        "input_tokens": 10,
        "input_tokens_details": {"cached_tokens": 0},
        "output_tokens": 5,
        "output_tokens_details": {"reasoning_tokens": 0},
        "total_tokens": 15,
    }
    items: list[dict[str, Any]] = []
    if turn.get("text"):
        items.append(
            {
                "type": "message",
                "role": "assistant",
                "id": "msg_e2e",
                "content": [{"type": "output_text", "text": turn["text"], "annotations": []}],
            }
        )
    for n, call in enumerate(turn.get("calls") or []):
        item = {
            "type": "function_call",
            "id": f"fc_e2e_{n}",
            "call_id": call["id"],
            "name": call["name"],
            "arguments": json.dumps(call["input"]),
        }
        if call.get("namespace"):  # a tool offered inside a namespace (Codex's sub-agents)
            item["namespace"] = call["namespace"]
        items.append(item)
    events: list[tuple[str | None, Any]] = [
        ("response.created", {"type": "response.created", "response": {"id": "resp_e2e"}})
    ]
    for item in items:
        events.append(
            ("response.output_item.done", {"type": "response.output_item.done", "item": item})
        )
    events.append(
        (
            "response.completed",
            {"type": "response.completed", "response": {"id": "resp_e2e", "usage": usage}},
        )
    )
    return _sse(events), "text/event-stream"


# --- Gemini (Gemini CLI) ------------------------------------------------------------


def _gemini_view(body: dict[str, Any]) -> tuple[list[str], bool]:
    offers = [
        decl.get("name", "")
        for group in body.get("tools") or []
        for decl in (group or {}).get("functionDeclarations") or []
    ]
    contents = body.get("contents") or []
    parts = (contents[-1].get("parts") or []) if contents else []
    return offers, any(isinstance(p, dict) and "functionResponse" in p for p in parts)


def _gemini(turn: dict[str, Any], body: dict[str, Any], stream: bool) -> tuple[bytes, str]:
    parts: list[dict[str, Any]] = []
    if turn.get("text"):
        parts.append({"text": turn["text"]})
    for call in turn.get("calls") or []:
        parts.append({"functionCall": {"name": call["name"], "args": call["input"]}})
    chunk = {
        "candidates": [
            {"content": {"role": "model", "parts": parts}, "finishReason": "STOP", "index": 0}
        ],
        "usageMetadata": {"promptTokenCount": 10, "candidatesTokenCount": 5, "totalTokenCount": 15},
        "modelVersion": "gemini-2.5-flash",
    }
    if stream:
        return _sse([(None, chunk)]), "text/event-stream"
    return json.dumps(chunk).encode(), "application/json"


# --- OpenAI Chat Completions (Copilot, Qwen Code) -------------------------------------


def _chat_view(body: dict[str, Any]) -> tuple[list[str], bool]:
    offers = _names(body.get("tools"), key=lambda t: (t.get("function") or {}).get("name"))
    recent = since_assistant(body.get("messages") or [])
    return offers, any(m.get("role") == "tool" for m in recent)


def _chat(turn: dict[str, Any], body: dict[str, Any], stream: bool) -> tuple[bytes, str]:
    calls = turn.get("calls") or []
    finish = "tool_calls" if calls else "stop"
    model = body.get("model") or MODEL
    tool_calls = [
        {
            "index": n,
            "id": call["id"],
            "type": "function",
            "function": {"name": call["name"], "arguments": json.dumps(call["input"])},
        }
        for n, call in enumerate(calls)
    ]
    usage = {"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15}
    base = {"id": "chatcmpl-e2e", "created": 1764720000, "model": model}
    if not stream:
        message: dict[str, Any] = {"role": "assistant", "content": turn.get("text") or None}
        if tool_calls:
            message["tool_calls"] = [
                {k: v for k, v in c.items() if k != "index"} for c in tool_calls
            ]
        whole = {
            **base,
            "object": "chat.completion",
            "choices": [{"index": 0, "message": message, "finish_reason": finish}],
            "usage": usage,
        }
        return json.dumps(whole).encode(), "application/json"

    def chunk(delta: dict[str, Any], finish_reason: str | None = None) -> dict[str, Any]:
        choice = {"index": 0, "delta": delta, "finish_reason": finish_reason}
        return {**base, "object": "chat.completion.chunk", "choices": [choice]}

    events: list[tuple[str | None, Any]] = [(None, chunk({"role": "assistant", "content": ""}))]
    if turn.get("text"):
        events.append((None, chunk({"content": turn["text"]})))
    for call in tool_calls:
        events.append((None, chunk({"tool_calls": [call]})))
    events.append((None, chunk({}, finish)))
    events.append(
        (None, {**base, "object": "chat.completion.chunk", "choices": [], "usage": usage})
    )
    events.append((None, "[DONE]"))
    return _sse(events), "text/event-stream"


VIEW = {
    "anthropic": _anthropic_view,
    "responses": _responses_view,
    "gemini": _gemini_view,
    "chat": _chat_view,
}
_RENDER = {"anthropic": _anthropic, "responses": _responses, "gemini": _gemini, "chat": _chat}


def render(api: str, turn: dict[str, Any], body: dict[str, Any], stream: bool) -> tuple[bytes, str]:
    return _RENDER[api](turn, body, stream)


def error_body(api: str, status: int) -> dict[str, Any]:
    """A refused request, in the format's own error shape (no retry: a client error)."""
    if api == "anthropic":
        return {"type": "error", "error": {"type": "invalid_request_error", "message": "E2E-ERROR"}}
    if api == "gemini":
        return {"error": {"code": status, "message": "E2E-ERROR", "status": "INVALID_ARGUMENT"}}
    return {"error": {"message": "E2E-ERROR", "type": "invalid_request_error", "code": None}}


def model_list() -> dict[str, Any]:
    models = [MODEL, "claude-sonnet-4.6", "gpt-5-e2e"]
    return {
        "object": "list",
        "data": [{"id": m, "object": "model", "created": 0, "owned_by": "e2e"} for m in models],
    }
