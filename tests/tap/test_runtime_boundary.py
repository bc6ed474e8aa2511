"""A runtime is one file: nothing outside `tap/runtimes/` names a runtime or reads a
native payload key, and the registry is the only list of runtimes."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import msgspec
import pytest
from hooktui.tap import canonical, model
from hooktui.tap.runtimes import ADAPTERS, RUNTIMES, UNKNOWN, module_name

REPO = Path(__file__).resolve().parents[2]
PRODUCT = ("tap", "replay", "tui")
# The example guards are scripts a user copies: each speaks one runtime's
# protocol on purpose (its docstring says which), so they name it.
EXCLUDED = (REPO / "tap" / "runtimes", REPO / "tap" / "guards")
CANONICAL = set(canonical.Call.__slots__) | set(model.Record.__struct_fields__)
# The canonical names of request details and answer actions (any runtime fills them).
CANONICAL |= set(canonical.DETAILS) | set(canonical.ACTIONS)


def _example_call(runtime_name: str) -> canonical.Call:
    return canonical.Call(
        runtime=runtime_name,
        event="post_tool_use",
        tool_name="T",
        tool_input={"command": "ls"},
        tool_output="out",
        session_id="s",
        tool_call_id="c",
        cwd="/w",
        prompt="p",
    )


def native_keys() -> set[str]:
    """Top-level request keys the runtimes send that are not canonical field names.

    Plain lowercase words (`input`, `output`, `event`, `model`) are left out: they
    are ordinary labels too (a diff's "input" side), and the distinctive keys of
    the same runtimes (`hook_schema`, `tool_call_id`) are checked.
    """
    keys: set[str] = set()
    for name in RUNTIMES:
        runtime = ADAPTERS[name]
        keys |= set(runtime.request_for(_example_call(name)))
        keys |= {*runtime.prompt_keys, *runtime.output_keys}
    return {k for k in keys - CANONICAL if not re.fullmatch(r"[a-z]+", k)}


def _names_pattern() -> re.Pattern:
    words = [*RUNTIMES, *(ADAPTERS[n].title for n in RUNTIMES if ADAPTERS[n].title != n)]
    return re.compile(r"(?<![\w-])(" + "|".join(map(re.escape, words)) + r")(?![\w-])")


def _strings(tree: ast.AST):
    """Every string constant of a module, but its docstrings (prose for readers)."""
    docstrings = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
                docstrings.add(id(body[0].value))
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            if id(node) not in docstrings:
                yield node


def product_files() -> list[Path]:
    files = []
    for top in PRODUCT:
        for path in sorted((REPO / top).rglob("*.py")):
            if not any(path.is_relative_to(ex) for ex in EXCLUDED):
                files.append(path)
    return files


def test_no_product_code_outside_the_runtimes_names_a_runtime_or_a_native_key():
    names, keys = _names_pattern(), native_keys()
    assert {"hook_event_name", "tool_response", "conversation_id", "hook_schema"} <= keys
    found = []
    for path in product_files():
        tree = ast.parse(path.read_text(), str(path))
        for node in _strings(tree):
            where = f"{path.relative_to(REPO)}:{node.lineno}"
            if names.search(node.value):
                found.append(f"{where}: names a runtime: {node.value!r}")
            if node.value in keys:
                found.append(f"{where}: reads a native key: {node.value!r}")
    assert not found, "\n".join(found)


def test_the_check_itself_catches_a_runtime_name_and_a_native_key():
    tree = ast.parse('"""Claude Code is fine in prose."""\nx = {"hook_event_name": "codex"}\n')
    values = [n.value for n in _strings(tree)]
    assert values == ["hook_event_name", "codex"]
    assert _names_pattern().search("codex") and "hook_event_name" in native_keys()
    assert not _names_pattern().search("codexy") and not _names_pattern().search("a-cursor")


@pytest.mark.parametrize("name", [*RUNTIMES, UNKNOWN])
def test_each_runtime_is_its_own_file_or_package_named_after_it(name):
    path = REPO / "tap" / "runtimes" / module_name(name)
    assert path.with_suffix(".py").is_file() != (path / "__init__.py").is_file()
    runtime = ADAPTERS[name]
    module = f"hooktui.tap.runtimes.{module_name(name)}"
    assert runtime.name == name and type(runtime).__module__ == module


@pytest.mark.parametrize("name", RUNTIMES)
def test_each_runtime_reads_back_the_request_it_writes(name):
    runtime = ADAPTERS[name]
    call = _example_call(name)
    call.event = "pre_tool_use"
    call.native_event = next(n for n, e in runtime.events.items() if e == "pre_tool_use")
    call.tool_output = None
    request = msgspec.json.decode(msgspec.json.encode(runtime.request_for(call)))
    from hooktui.tap.runtimes import detect

    assert detect(request) is runtime
    again = runtime.parse(request)
    assert (again.event, again.native_event) == ("pre_tool_use", call.native_event)
    assert again.tool_input == call.tool_input or again.tool_input["command"] == "ls"


def test_the_registry_is_the_only_list_of_runtimes():
    listed = re.compile(r"\(\s*\"claude-code\",\s*\"codex\"")
    hits = []
    for path in [*product_files(), *sorted((REPO / "tap" / "runtimes").rglob("*.py"))]:
        if path.name == "__init__.py" and path.parent.name == "runtimes":
            continue
        if listed.search(path.read_text()):
            hits.append(str(path.relative_to(REPO)))
    assert not hits
