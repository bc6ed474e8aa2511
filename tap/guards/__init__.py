"""Example guards shipped with hooktui: small standalone scripts, one per idea.

Each is a stdlib-only Python script speaking one runtime's native hook
protocol (its docstring says which, and how to install it). `hooktui demo`
runs them through the real tap; they double as documentation.
"""

from __future__ import annotations

from pathlib import Path

HERE = Path(__file__).resolve().parent

# name -> (runtime whose protocol it speaks, what it does)
GUARDS: dict[str, tuple[str, str]] = {
    "deny_force_push": ("claude-code", "denies git push --force"),
    "drop_force": ("codex", "rewrites a command to drop --force"),
    "redact_output": ("basis", "masks secrets in a tool's output"),
    "slow_guard": ("gemini-cli", "sleeps close to its timeout, then allows"),
    "crashing_guard": ("claude-code", "crashes on tools without a command: fails open"),
    "allow_all": ("fastpace", "allows everything, explicitly"),
    "cancel_rm_rf": ("cline", "stops the run before an rm -rf"),
    "no_sudo": ("mistral-vibe", "rewrites a command to drop sudo"),
    "keep_env_private": ("opencode", "refuses to read .env files"),
}


def guard_path(name: str) -> Path:
    """The script of guard `name` (KeyError for an unknown one)."""
    if name not in GUARDS:
        raise KeyError(name)
    return HERE / f"{name}.py"
