"""What a runtime's installed package says about its hooks, read without running it:
the event names, each event's request fields and answer fields, and (Claude Code)
the hook lines of the release notes its binary embeds.

Runtimes ship this in different forms, one reader each (drift_table.py says which
a runtime uses, and where in its package to look):
- `event_list`: a JS array literal of event names (Claude Code's bundle);
- `js_enum`: a TypeScript enum compiled to JS (`HookEventName["BeforeTool"] = ...`);
- `zod`: zod objects keyed by `hook_event_name` / `hookEventName` (Claude Code);
- `json_schemas`: JSON schema documents, one per event and direction (Codex);
- `ts_interfaces`: TypeScript interfaces `<Event>HookInput` / `<Event>HookOutput`
  or `<Event>Input` / `<Event>HookOutput` (.ts or .d.ts: Copilot's SDK, Continue);
- `zod_enum_type`: a zod enum as a .d.ts declares it (Cline);
- `triggered`: the plugin hooks a bundle fires (OpenCode);
- `py_str_enum`: a Python StrEnum (Mistral Vibe).
A reader that finds nothing says so in `problems`: a package whose form changed is
drift too, and must not read as "no new events".
"""

from __future__ import annotations

import json
import mmap
import re
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path


@dataclass
class Shipped:
    """One installed release's hook surface, as its package ships it."""

    version: str = ""
    events: set[str] = field(default_factory=set)
    inputs: dict[str, set[str]] = field(default_factory=dict)  # event -> request fields
    outputs: dict[str, set[str]] = field(default_factory=dict)  # event -> answer fields
    notes: dict[str, list[str]] = field(default_factory=dict)  # version -> hook lines
    problems: list[str] = field(default_factory=list)

    def add_fields(self, kind: str, event: str, names: Iterable[str]) -> None:
        table = self.inputs if kind == "input" else self.outputs
        table.setdefault(event, set()).update(names)


@contextmanager
def mapped(path: Path) -> Iterator[bytes]:
    """The file's bytes without reading a 400 MB binary into memory."""
    with path.open("rb") as fh:
        if path.stat().st_size == 0:
            yield b""
            return
        with mmap.mmap(fh.fileno(), 0, access=mmap.ACCESS_READ) as data:
            yield data  # type: ignore[misc]


# --- event lists and enums -----------------------------------------------------------

_NAME_LIST = re.compile(rb'\[(?:"[A-Za-z]+",){8,}"[A-Za-z]+"\]')


def event_list(data: bytes, anchors: tuple[str, ...]) -> set[str]:
    """The longest JS array of names holding every one of `anchors`."""
    best: set[str] = set()
    for found in _NAME_LIST.finditer(data):
        names = set(json.loads(found.group(0)))
        if set(anchors) <= names and len(names) > len(best):
            best = names
    return best


def js_enum(data: bytes, enum: str) -> set[str]:
    """The members of a TypeScript enum as esbuild/tsc write it (`E2["A"] = "A"`)."""
    pattern = re.compile(rb"\b" + enum.encode() + rb'\d*\["(\w+)"\] = "\1"')
    return {m.group(1).decode() for m in pattern.finditer(data)}


def string_array(data: bytes, name: str) -> set[str]:
    """The strings of `const NAME = [...]` (a TS or JS source file)."""
    found = re.search(rb"\b" + name.encode() + rb"\s*=\s*\[([^\]]*)\]", data)
    if not found:
        return set()
    return {m.decode() for m in re.findall(rb'["\'](\w+)["\']', found.group(1))}


def zod_enum_type(data: bytes, name: str) -> set[str]:
    """The members of `const NAME: z.ZodEnum<{ a: "a"; ... }>` (a .d.ts)."""
    found = re.search(rb"\b" + name.encode() + rb":\s*z\.ZodEnum<\{([^}]*)\}>", data)
    if not found:
        return set()
    return {m.decode() for m in re.findall(rb'(\w+): "\1"', found.group(1))}


def triggered(data: bytes) -> set[str]:
    """The plugin hooks a bundle fires: the names of its `.trigger("a.b", ...)` calls."""
    return {m.decode() for m in re.findall(rb'\.trigger\("([a-z][\w.]*)"', data)}


def py_str_enum(data: bytes, name: str) -> set[str]:
    """The values of `class NAME(StrEnum)` whose members are `X = auto()` (lower-cased
    names) or `X = "x"`."""
    found = re.search(
        rb"^class " + name.encode() + rb"\(StrEnum\):\n((?:[ \t]+.*\n|\n)*)", data, re.M
    )
    if not found:
        return set()
    values = set()
    for member, value in re.findall(rb"^[ \t]+(\w+) = (auto\(\)|\"[^\"]*\")", found.group(1), re.M):
        values.add(member.decode().lower() if value == b"auto()" else value.decode().strip('"'))
    return values


# --- zod objects (minified JS) ---------------------------------------------------------


def zod(data: bytes, key: str) -> dict[str, set[str]]:
    """{event: keys} of every object literal holding `key:<fn>("Event")`, read from the
    event name to the end of that object (the keys beside it at its own depth)."""
    pattern = re.compile(re.escape(key.encode()) + rb':[\w$]+\("(\w+)"\)')
    out: dict[str, set[str]] = {}
    for found in pattern.finditer(data):
        keys = _object_keys(data, found.end())
        out.setdefault(found.group(1).decode(), set()).update(keys)
    return out


_IDENT = re.compile(rb"[A-Za-z_$][\w$]*")


def _object_keys(data: bytes, start: int, limit: int = 20_000) -> set[str]:
    """Keys at depth 0 from `start` (just after one `key: value`) to the closing brace."""
    keys: set[str] = set()
    depth, i, end = 0, start, min(len(data), start + limit)
    while i < end:
        c = data[i]
        if c in b"\"'`":
            i = _skip_string(data, i, end)
            continue
        if c in b"([{":
            depth += 1
        elif c in b")]}":
            depth -= 1
            if depth < 0:
                break
        elif c == ord(",") and depth == 0:
            word = _IDENT.match(data, i + 1)
            if word and data[word.end() : word.end() + 1] == b":":
                keys.add(word.group(0).decode())
        i += 1
    return keys


def _skip_string(data: bytes, i: int, end: int) -> int:
    quote, i = data[i], i + 1
    while i < end:
        c = data[i]
        if c == 0x5C:  # backslash
            i += 2
            continue
        if c == quote:
            return i + 1
        i += 1
    return end


# --- JSON schema documents -------------------------------------------------------------

_SCHEMA_START = re.compile(rb'\{\s*"\$schema"')


def json_schemas(data: bytes) -> list[dict]:
    """Every JSON schema document embedded in `data` (a binary or a file of them)."""
    docs = []
    for found in _SCHEMA_START.finditer(data):
        text = _json_object(data, found.start())
        if text is None:
            continue
        try:
            doc = json.loads(text)
        except ValueError:
            continue
        if isinstance(doc, dict):
            docs.append(doc)
    return docs


def _json_object(data: bytes, start: int, limit: int = 200_000) -> bytes | None:
    depth, i, end = 0, start, min(len(data), start + limit)
    while i < end:
        c = data[i]
        if c == 0x22:
            i = _skip_string(data, i, end)
            continue
        if c < 9:  # a NUL or other binary byte: not one text document
            return None
        if c == 0x7B:
            depth += 1
        elif c == 0x7D:
            depth -= 1
            if depth == 0:
                return bytes(data[start : i + 1])
        i += 1
    return None


def schema_fields(doc: dict) -> set[str]:
    """Top-level properties, and `hookSpecificOutput.<key>` for that object's own."""
    props = doc.get("properties")
    if not isinstance(props, dict):
        return set()
    names = set(props)
    hso = props.get("hookSpecificOutput")
    hso_props = _resolve(doc, hso).get("properties") if isinstance(hso, dict) else None
    if isinstance(hso_props, dict):
        names |= {f"hookSpecificOutput.{k}" for k in hso_props if k != "hookEventName"}
    return names


def _resolve(doc: dict, node: dict) -> dict:
    for option in (node, *node.get("anyOf", ()), *node.get("allOf", ())):
        ref = option.get("$ref") if isinstance(option, dict) else None
        if isinstance(ref, str) and ref.startswith("#/definitions/"):
            found = doc.get("definitions", {}).get(ref.rsplit("/", 1)[1])
            if isinstance(found, dict):
                return found
        if isinstance(option, dict) and "properties" in option:
            return option
    return {}


def codex_schemas(docs: list[dict], shipped: Shipped) -> None:
    """Codex titles each schema `<event-kebab>.command.input|output`; an input names
    its event in `hook_event_name.const`, its output shares the title's stem."""
    stems: dict[str, str] = {}
    for doc in docs:
        title = str(doc.get("title", ""))
        const = doc.get("properties", {}).get("hook_event_name", {})
        if title.endswith(".input") and isinstance(const, dict) and const.get("const"):
            stems[title.removesuffix(".input")] = str(const["const"])
    for doc in docs:
        title = str(doc.get("title", ""))
        stem, _, kind = title.rpartition(".")
        event = stems.get(stem)
        if event is None or kind not in ("input", "output"):
            continue
        shipped.events.add(event)
        shipped.add_fields(kind, event, schema_fields(doc))


# --- TypeScript interfaces -------------------------------------------------------------

_INTERFACE = re.compile(rb"\binterface\s+(\w+)(?:\s+extends\s+[\w\s,<>]+?)?\s*\{")
_PROP = re.compile(rb"^\s*(?:readonly\s+)?[\"']?([A-Za-z_]\w*)[\"']?\??\s*:", re.M)


def ts_interfaces(data: bytes) -> dict[str, set[str]]:
    """{interface name: its own property names} of a .ts/.d.ts text."""
    out = {}
    for found in _INTERFACE.finditer(data):
        body = _braced(data, found.end() - 1)
        if body is None:
            continue
        out[found.group(1).decode()] = {
            m.group(1).decode() for m in _PROP.finditer(_top_level(body))
        }
    return out


def _braced(data: bytes, start: int) -> bytes | None:
    depth = 0
    for i in range(start, min(len(data), start + 100_000)):
        c = data[i]
        if c == 0x7B:
            depth += 1
        elif c == 0x7D:
            depth -= 1
            if depth == 0:
                return bytes(data[start + 1 : i])
    return None


def _top_level(body: bytes) -> bytes:
    """The body with nested braces and comments blanked, so only its own keys match."""
    body = re.sub(rb"/\*.*?\*/", b"", body, flags=re.S)
    body = re.sub(rb"//[^\n]*", b"", body)
    out, depth = bytearray(), 0
    for c in body:
        if c in b"{(":
            depth += 1
        elif c in b"})":
            depth -= 1
        elif depth == 0:
            out.append(c)
            continue
        out.append(0x20 if c != 0x0A else 0x0A)
    return bytes(out)


def hook_interfaces(
    interfaces: dict[str, set[str]], shipped: Shipped, camel: bool, input_suffix: str
) -> None:
    """Events from `<Event>{input_suffix}` / `<Event>HookOutput` interfaces; `camel`:
    the runtime spells events camelCase (`PreToolUse...` -> `preToolUse`)."""
    for name, props in interfaces.items():
        for suffix, kind in ((input_suffix, "input"), ("HookOutput", "output")):
            if not name.endswith(suffix) or name == suffix:
                continue
            event = name.removesuffix(suffix)
            if event in ("Base", "Hook", "HookInputBase") or event.endswith("Base"):
                continue
            event = event[0].lower() + event[1:] if camel else event
            if kind == "input":
                shipped.events.add(event)
            shipped.add_fields(kind, event, props)


# --- release notes embedded in a build (Claude Code) -----------------------------------

_NOTES = re.compile(rb'"(## \d+\.\d+\.\d+\\n(?:[^"\\]|\\.){0,400000})"')


def release_notes(data: bytes, words: tuple[str, ...] = ("hook", "Hook")) -> dict[str, list[str]]:
    """{version: its lines naming hooks} of the changelog string a build embeds."""
    out: dict[str, list[str]] = {}
    for found in _NOTES.finditer(data):
        text = found.group(1).decode("utf-8", "replace")
        try:
            text = json.loads(f'"{text}"')
        except ValueError:
            text = text.replace("\\n", "\n")
        version = ""
        for line in text.splitlines():
            header = re.match(r"## (\d+\.\d+\.\d+)", line)
            if header:
                version = header.group(1)
                out.setdefault(version, [])
            elif version and any(w in line for w in words):
                out[version].append(line.lstrip("- ").strip())
    return out
