"""Optional engines: each is an extra of hooktui, and a missing one is one line."""

from __future__ import annotations

import importlib
from types import ModuleType

from hooktui.tui.cli.args import UsageError

# module -> (what needs it, the extra that brings it)
EXTRAS = {
    "distributed": ("--cluster", "fleet"),
    "fsspec": ("a stream given as a URL", "fleet"),
    "duckdb": ("this command", "sql"),
}


def need(module: str) -> ModuleType:
    """`module` imported, or UsageError naming the extra to install."""
    try:
        return importlib.import_module(module)
    except ImportError:
        what, extra = EXTRAS[module]
        raise UsageError(
            f"{what} needs {module}, which is not installed: pip install 'agent-hooktui[{extra}]'"
        ) from None
