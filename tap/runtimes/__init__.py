"""The runtimes hooktui reads, and the registry that picks one for a request.

`RUNTIMES` below is the only list of runtimes: each name is a module in this
folder, a file or (once it outgrew one) a package (`claude-code` -> `claude_code/`),
that builds one `Runtime` descriptor called `RUNTIME`. This module imports nothing, so the tap's pass-through path
can check a `--runtime` name for free; everything else is loaded on first use
from `registry.py`:

- ADAPTERS: name -> Runtime, the runtimes plus "unknown"
- get_adapter(name): ValueError for a name that is not a runtime
- detect(request, environ=None): the runtime that sent `request` (the hook's
  environment first, when given); never raises
- judge_request(request, outcome, runtime=None): (runtime, call, verdict); never raises
- installable(): the runtimes whose settings `hooktui install` edits
- guests_of(host): the runtimes that run `host`'s hooks too
- suggest(name): the runtime a mistyped name most likely meant
"""

from __future__ import annotations

# One line per runtime, in the order they are listed to users.
RUNTIMES = (
    "claude-code",
    "codex",
    "gemini-cli",
    "cursor",
    "copilot",
    "qwen-code",
    "continue-cli",
    "mistral-vibe",
    "cline",
    "opencode",
    "basis",
    "fastpace",
)
UNKNOWN = "unknown"


def module_name(runtime: str) -> str:
    """The file in this folder that holds `runtime`."""
    return runtime.replace("-", "_")


def __getattr__(name: str):
    if name.startswith("__"):
        raise AttributeError(name)
    import importlib  # only on first use: the hot path never gets here

    registry = importlib.import_module(f"{__name__}.registry")
    try:
        return getattr(registry, name)
    except AttributeError:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}") from None
