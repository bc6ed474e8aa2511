"""CPython's undocumented modules are used in one module (tap/base/cpython.py), and in
the launcher, which must reach the import system before anything can be imported.

A private module is one whose dotted name has a part starting with `_` (`_json`,
`re._parser`), imported or looked up in `sys.modules`. `_signal` and `_socket`
are not: they are the C halves behind `signal` and `socket`, and every function
taken from them is documented there. CI runs the unit suite on 3.11, 3.12 and
3.13, so what the fence takes is checked on each.
"""

from __future__ import annotations

import ast
import hashlib
import json
import re
from pathlib import Path

from hooktui.tap.base import cpython, jsonio

REPO = Path(__file__).resolve().parents[2]
FENCE = REPO / "tap" / "base" / "cpython.py"
LAUNCHER = (REPO / "bin" / "hooktui", REPO / "tap" / "hotpath" / "boot.py")
DOCUMENTED = {"_signal", "_socket"}


def private_names(source: str) -> set[str]:
    """The private modules a module's source imports or takes from sys.modules."""
    found: set[str] = set()

    def private(name: str) -> bool:
        parts = name.split(".")
        return name not in DOCUMENTED and any(
            p.startswith("_") and not re.fullmatch(r"__\w+__", p) for p in parts
        )  # __main__, __future__: documented

    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found |= {a.name for a in node.names if private(a.name)}
        elif isinstance(node, ast.ImportFrom) and not node.level and node.module:
            if node.module.startswith("hooktui"):
                continue  # our own `_names` are ours
            if private(node.module):
                found.add(node.module)
            found |= {f"{node.module}.{a.name}" for a in node.names if a.name.startswith("_")}
        elif isinstance(node, ast.Subscript) and ast.unparse(node.value) == "sys.modules":
            found |= {name for name in [_constant(node.slice)] if name and private(name)}
        elif isinstance(node, ast.Call) and node.args:
            called = ast.unparse(node.func)  # __import__("_json"), import_module("_json")
            if called == "__import__" or called.endswith("import_module"):
                found |= {name for name in [_constant(node.args[0])] if name and private(name)}
    return found


def _constant(node: ast.AST) -> str | None:
    return node.value if isinstance(node, ast.Constant) and isinstance(node.value, str) else None


def product_files() -> list[Path]:
    files = [p for top in ("tap", "replay", "tui") for p in sorted((REPO / top).rglob("*.py"))]
    return [*files, REPO / "bin" / "hooktui"]


def test_only_the_fence_and_the_launcher_use_private_modules():
    users = {
        str(path.relative_to(REPO)): sorted(names)
        for path in product_files()
        if path != FENCE and path not in LAUNCHER
        for names in [private_names(path.read_text())]
        if names
    }
    assert users == {}


def test_the_check_itself_finds_each_way_in():
    source = (
        "import _json\nfrom _sha2 import sha256\nfrom re import _parser\n"
        "import _signal\nfrom hooktui.tap.x import _mine\nimport sys\n"
        "sys.modules['_frozen_importlib']\n__import__('_sre')\nd['a_b']\n"
    )
    assert private_names(source) == {
        "_json",
        "_sha2",
        "re._parser",
        "_frozen_importlib",
        "_sre",
    }
    assert private_names(FENCE.read_text()) >= {"_json", "_sre", "re._compiler"}


def test_the_fence_gives_what_the_public_modules_give():
    data = b"hooktui \xff" * 1000
    assert cpython.sha256(data).hexdigest() == hashlib.sha256(data).hexdigest()
    value = {"a": [1, 2.5, None, True, "é\u2028"], "b": {"c": ""}}
    text = json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    assert jsonio.dumps(value) == text.encode()
    assert jsonio.loads(text.encode()) == value
    for source, flags in [(r"(?P<key>ghp_[A-Za-z0-9]{36})\b", 0), (r"secret\s*=", re.I)]:
        built = cpython.sre_compile(cpython.sre_args(source, flags))
        assert built == re.compile(source, flags)
        assert built.groupindex == re.compile(source, flags).groupindex
    assert cpython.sre_code_size() in (2, 4) and cpython.sre_build()
