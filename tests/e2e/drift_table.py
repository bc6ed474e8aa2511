"""The runtimes the drift report watches: one row each (drift.py runs them).

A row names the pinned CLI it watches (harness.CLIS), the hooktui runtime whose
adapter must know what that CLI ships, the registry package whose newest release
counts (installed beside the pin when it is newer), how to read the hook surface
the package ships (shipped.py), and the e2e test files that run its cases (any
other CLI's tests skip: only this one is in the drift install).

Adding a runtime with a real CLI is one row here (test_drift.py checks that every
pinned CLI has one).
"""

from __future__ import annotations

import os
import subprocess
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from tests.e2e import shipped as read
from tests.e2e.harness import CLIS, unshare_argv
from tests.e2e.shipped import Shipped


@dataclass(frozen=True)
class Watched:
    cli: str  # harness.CLIS key
    runtime: str  # the hooktui runtime that reads its hooks
    # What the package ships: read from `package` (its folder under node_modules).
    shipped: Callable[[Path], Shipped]
    tests: tuple[str, ...]  # pytest arguments (files under tests/e2e) that run its cases
    also: tuple[str, ...] = ()  # more packages whose newest release the report names
    # Events the pin ships that hooktui leaves alone on purpose, and why: not "unknown"
    # (a newer release's new ones are).
    left_alone: tuple[str, ...] = ()
    why_left: str = ""

    @property
    def package(self) -> str:
        return CLIS[self.cli].package

    @property
    def registry(self) -> str:
        return CLIS[self.cli].registry


def _e2e(*names: str) -> tuple[str, ...]:
    return tuple(f"tests/e2e/{name}" for name in names)


# --- how each package ships its hook surface -------------------------------------------


def _claude(package: Path) -> Shipped:
    """The native binary of the platform package (the JS bundle of an old npm release)."""
    found = Shipped()
    programs = (package / "claude", package / "bin" / "claude.exe", package / "cli.js")
    program = next((p for p in programs if p.is_file()), None)
    if program is None:
        found.problems.append(f"no claude binary in {package}")
        return found
    with read.mapped(program) as data:
        found.events = read.event_list(data, ("PreToolUse", "SessionStart", "Stop"))
        for event, keys in read.zod(data, "hook_event_name").items():
            found.add_fields("input", event, keys)
        for event, keys in read.zod(data, "hookEventName").items():
            found.add_fields("output", event, {f"hookSpecificOutput.{k}" for k in keys})
        found.notes = read.release_notes(data)
    if not found.events:
        found.problems.append("no list of hook events found in the binary")
    return found


def _codex(package: Path) -> Shipped:
    """Codex embeds a JSON schema per event and direction in its native binary (the
    platform package beside the wrapper)."""
    found = Shipped()
    binaries = sorted(package.parent.glob("codex-linux-*/vendor/*/bin/codex"))
    if not binaries:
        found.problems.append(f"no codex binary beside {package}")
        return found
    with read.mapped(binaries[0]) as data:
        read.codex_schemas(read.json_schemas(data), found)
    if not found.events:
        found.problems.append("no hook JSON schemas found in the binary")
    return found


def _js_enum(folder: str, enum: str = "HookEventName") -> Callable[[Path], Shipped]:
    def shipped(package: Path) -> Shipped:
        found = Shipped()
        for path in sorted((package / folder).rglob("*.js")):
            with read.mapped(path) as data:
                found.events |= read.js_enum(data, enum)
        if not found.events:
            found.problems.append(f"no {enum} enum in {package / folder}")
        return found

    return shipped


def _copilot(package: Path) -> Shipped:
    """Copilot's SDK types (`<Event>HookInput`, `<Event>HookOutput`), in the package it
    unpacks on its first start (into the shared e2e cache; started once here if need be)."""
    found = Shipped()
    version = _version(package)
    cache = Path(os.environ.get("HOOKTUI_E2E_CACHE") or package.parents[1].parent / "xdg-cache")
    types = cache / "copilot" / "pkg" / "linux-x64" / version / "copilot-sdk" / "types.d.ts"
    if not types.exists():
        _unpack_copilot(package, cache)
    if not types.exists():
        found.problems.append(f"Copilot {version} did not unpack its SDK types into {cache}")
        return found
    with read.mapped(types) as data:
        read.hook_interfaces(read.ts_interfaces(data), found, camel=True, input_suffix="HookInput")
    return found


def _unpack_copilot(package: Path, cache: Path) -> None:
    binary = package.parent / "copilot-linux-x64" / "copilot"
    offline = unshare_argv() or []
    env = {
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "HOME": str(cache),
        "XDG_CACHE_HOME": str(cache),
        "COPILOT_AUTO_UPDATE": "false",
        "COPILOT_OFFLINE": "true",
    }
    cache.mkdir(parents=True, exist_ok=True)
    subprocess.run(
        [*offline, str(binary), "--version"],
        env=env,
        capture_output=True,
        timeout=180,
        check=False,
    )


def _continue(package: Path) -> Shipped:
    """Continue ships its TypeScript sources: the event list and `<Event>Input` /
    `<Event>HookOutput` interfaces of src/hooks/types.ts."""
    found = Shipped()
    types = package / "src" / "hooks" / "types.ts"
    if not types.exists():
        found.problems.append(f"no {types}")
        return found
    with read.mapped(types) as data:
        read.hook_interfaces(read.ts_interfaces(data), found, camel=False, input_suffix="Input")
        found.events = read.string_array(data, "HOOK_EVENT_NAMES") or found.events
    return found


def _cline(package: Path) -> Shipped:
    """The Cline CLI's hook names: the zod enum of `@cline/shared` (a dependency of
    `cline`, beside it under node_modules), as its .d.ts declares it."""
    found = Shipped()
    types = package.parent / "@cline" / "shared" / "dist" / "hooks" / "events.d.ts"
    if not types.exists():
        found.problems.append(f"no {types}")
        return found
    with read.mapped(types) as data:
        found.events = read.zod_enum_type(data, "HookEventNameSchema")
    if not found.events:
        found.problems.append(f"no HookEventNameSchema in {types}")
    return found


def _opencode(package: Path) -> Shipped:
    """The plugin hooks OpenCode's binary fires (`.trigger("tool.execute.before", ...)`),
    in its platform package beside `opencode-ai`."""
    found = Shipped()
    binary = package.parent / "opencode-linux-x64" / "bin" / "opencode"
    if not binary.exists():
        found.problems.append(f"no {binary}")
        return found
    with read.mapped(binary) as data:
        found.events = read.triggered(data)
    if not found.events:
        found.problems.append(f"no plugin hook triggered in {binary}")
    return found


def _vibe(package: Path) -> Shipped:
    """Mistral Vibe's hook types: `class HookType(StrEnum)` of vibe/core/hooks/models.py
    (`package`: the folder holding `vibe`, a site-packages or an unpacked wheel)."""
    found = Shipped()
    models = package / "vibe" / "core" / "hooks" / "models.py"
    if not models.exists():
        found.problems.append(f"no {models}")
        return found
    with read.mapped(models) as data:
        found.events = read.py_str_enum(data, "HookType")
    if not found.events:
        found.problems.append(f"no HookType enum in {models}")
    return found


def _version(package: Path) -> str:
    import json

    manifest = package / "package.json"
    return json.loads(manifest.read_text()).get("version", "") if manifest.exists() else ""


WATCHED = (
    Watched(
        "claude-code",
        "claude-code",
        _claude,
        _e2e(
            "test_e2e_claude.py",
            "test_e2e_claude_interrupt.py",
            "test_e2e_events.py",
            "test_e2e_captured.py",
        ),
        also=("@anthropic-ai/claude-code",),  # the npm wrapper, when it is published at all
    ),
    Watched("codex", "codex", _codex, _e2e("test_e2e_codex.py", "test_e2e_captured.py")),
    Watched(
        "gemini-cli",
        "gemini-cli",
        _js_enum("bundle"),
        _e2e("test_e2e_gemini.py", "test_e2e_captured.py"),
    ),
    Watched(
        "copilot",
        "copilot",
        _copilot,
        _e2e("test_e2e_copilot.py", "test_e2e_captured.py"),
    ),
    Watched(
        "qwen-code",
        "qwen-code",
        _js_enum("chunks"),
        _e2e("test_e2e_qwen.py", "test_e2e_captured.py"),
    ),
    Watched("continue-cli", "continue-cli", _continue, _e2e("test_e2e_continue.py")),
    Watched(
        "cline",
        "cline",
        _cline,
        _e2e("test_e2e_cline.py"),
        left_alone=("pre_compact",),
        why_left="3.0.65 declares it and never runs it (tap/runtimes/cline)",
    ),
    Watched(
        "opencode",
        "opencode",
        _opencode,
        _e2e("test_e2e_opencode.py"),
        left_alone=(
            "chat.headers",
            "chat.message",
            "chat.params",
            "command.execute.before",
            "experimental.chat.messages.transform",
            "experimental.chat.system.transform",
            "experimental.compaction.autocontinue",
            "experimental.provider.small_model",
            "experimental.session.compacting",
            "experimental.text.complete",
            "file.open",
            "shell.env",
            "tab.new",
            "tool.definition",
        ),
        why_left="plugin hooks about no tool call: hooktui's plugin bridges "
        "tool.execute.before/after and permission.ask",
    ),
    Watched("mistral-vibe", "mistral-vibe", _vibe, _e2e("test_e2e_mistral_vibe.py")),
)
