"""`hooktui install` / `uninstall`: wrap a runtime's configured command hooks in the tap.

The settings file is edited in place, textually: only the `command` (and, for
Claude Code's exec form, `args`) values of command hooks change, every other
byte (indentation, key order, comments in TOML, trailing newline) stays as it
was. Each edit is checked by parsing the result and comparing it with the
intended data, so a layout this module does not understand is refused rather
than damaged. Stdlib only: this lives in `hooktui.tap`.
"""

from __future__ import annotations

import copy
import difflib
import json
import os
import re
import shlex
import sys
import tempfile
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from hooktui.tap.command import script_name, split_words

RUNTIMES = ("claude-code", "codex", "gemini-cli", "cursor")
BACKUP_SUFFIX = ".hooktui-backup"

# Timeout unit (ms per configured unit) and default (ms) per runtime. Cursor's
# timeout is taken as seconds when present; it has no documented default.
_TIMEOUT_UNIT_MS = {"claude-code": 1000, "codex": 1000, "gemini-cli": 1, "cursor": 1000}
_DEFAULT_TIMEOUT_MS: dict[str, int | None] = {
    "claude-code": 600_000,
    "codex": 600_000,
    "gemini-cli": 60_000,
    "cursor": None,
}


class InstallError(Exception):
    """A problem the user must fix; `code` is the exit status to use."""

    def __init__(self, message: str, code: int = 2) -> None:
        super().__init__(message)
        self.code = code


@dataclass
class Options:
    runtime: str
    hooktui: str  # absolute path of the hooktui command to put in the settings
    stream: str | None = None
    label_from: str = "matcher"  # "matcher" | "command"


@dataclass
class Change:
    """One command hook rewritten (wrapped or unwrapped)."""

    where: str  # e.g. "hooks.PreToolUse[0].hooks[1]"
    label: str
    before: str  # the command as a shell line (exec form joined)
    after: str


@dataclass
class Report:
    path: Path
    changes: list[Change] = field(default_factory=list)
    diff: str = ""
    messages: list[str] = field(default_factory=list)
    code: int = 0


# --------------------------------------------------------------------------- paths


def hooktui_path() -> str:
    """Absolute path of this hooktui, so hooks work whatever PATH the runtime has."""
    beside = os.path.join(os.path.dirname(sys.executable), "hooktui")
    if os.path.exists(beside):
        return beside
    return os.path.realpath(sys.argv[0])


def _git_top(start: Path) -> Path | None:
    for d in (start, *start.parents):
        if (d / ".git").exists():
            return d
    return None


def candidate_paths(
    runtime: str, *, user: bool = False, cwd: Path | None = None, environ: dict | None = None
) -> list[Path]:
    """Where the runtime's settings may live, most likely first."""
    env = os.environ if environ is None else environ
    home = Path(env.get("HOME") or os.path.expanduser("~"))
    if runtime == "codex":
        if user:
            bases = [Path(env["CODEX_HOME"]) if env.get("CODEX_HOME") else home / ".codex"]
        else:
            bases = _project_dirs(cwd, ".codex")
        return [p for b in bases for p in (b / "hooks.json", b / "config.toml")]
    sub, name = {
        "claude-code": (".claude", "settings.json"),
        "gemini-cli": (".gemini", "settings.json"),
        "cursor": (".cursor", "hooks.json"),
    }[runtime]
    if user:
        return [home / sub / name]
    return [d / name for d in _project_dirs(cwd, sub)]


def _project_dirs(cwd: Path | None, sub: str) -> list[Path]:
    here = Path.cwd() if cwd is None else cwd
    dirs = [here / sub]
    top = _git_top(here)
    if top is not None and top != here:
        dirs.append(top / sub)
    return dirs


def find_settings(
    runtime: str,
    *,
    settings: str | None = None,
    user: bool = False,
    cwd: Path | None = None,
    environ: dict | None = None,
) -> Path:
    """The settings file to edit; InstallError(code 1) when there is none."""
    if runtime not in RUNTIMES:
        raise InstallError(f"unknown runtime {runtime!r} (choose from {', '.join(RUNTIMES)})")
    if settings:
        path = Path(settings)
        if not path.is_file():
            raise InstallError(f"{path}: no such settings file", code=1)
        return path
    candidates = candidate_paths(runtime, user=user, cwd=cwd, environ=environ)
    for path in candidates:
        if path.is_file():
            if runtime == "codex" and path.name == "config.toml" and not _toml_has_hooks(path):
                continue
            return path
    where = ", ".join(str(p) for p in candidates)
    raise InstallError(
        f"no {runtime} settings with hooks found (looked for {where}); "
        "use --settings PATH for another file, or --user",
        code=1,
    )


def _toml_has_hooks(path: Path) -> bool:
    try:
        return "hooks" in tomllib.loads(path.read_text("utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError):
        return True  # let the caller report the bad file


# ------------------------------------------------------------------ the wrapped command


def _is_wrapper_argv(argv: list[str]) -> bool:
    return len(argv) >= 3 and os.path.basename(argv[0]) == "hooktui" and argv[1] == "tap"


def _original_argv(tap_args: list[str]) -> list[str] | None:
    """What follows `--` in `tap ... -- CMD...` (tap_args starts after `hooktui`)."""
    try:
        return tap_args[tap_args.index("--") + 1 :]
    except ValueError:
        return None


def unwrap_shell(command: str) -> str | None:
    """The original command of a wrapped shell-form command, or None if not wrapped."""
    try:
        argv = shlex.split(command)
    except ValueError:
        return None
    if not _is_wrapper_argv(argv):
        return None
    rest = _original_argv(argv[1:])
    if not rest:
        return None
    if len(rest) == 3 and rest[0] == "sh" and rest[1] == "-c":
        return rest[2]
    return shlex.join(rest)


def _tap_argv(opts: Options, label: str, timeout_ms: int | None) -> list[str]:
    argv = ["tap", "--label", label, "--runtime", opts.runtime]
    if timeout_ms is not None:
        argv += ["--timeout-ms", str(timeout_ms)]
    if opts.stream:
        argv += ["--stream", opts.stream]
    return argv + ["--"]


def wrap_shell(command: str, opts: Options, label: str, timeout_ms: int | None) -> str:
    argv = [opts.hooktui, *_tap_argv(opts, label, timeout_ms), "sh", "-c", command]
    return shlex.join(argv)


def _timeout_ms(runtime: str, handler: dict) -> int | None:
    value = handler.get("timeout")
    if isinstance(value, int | float) and not isinstance(value, bool) and value > 0:
        return int(value * _TIMEOUT_UNIT_MS[runtime])
    return _DEFAULT_TIMEOUT_MS[runtime]


def _command_word(command: str, args: list[str] | None) -> str:
    words = [command, *args] if args is not None else split_words(command)
    return script_name(words) or "hook"


def _label(opts: Options, event: str, matcher: Any, command: str, args: list[str] | None) -> str:
    if opts.label_from == "command":
        return _command_word(command, args)
    if isinstance(matcher, str) and matcher not in ("", "*"):
        return f"{event}:{matcher}"
    return event


# ------------------------------------------------------------------ walking the hooks


@dataclass
class _Handler:
    path: tuple  # key path from the document root to the handler dict
    event: str
    matcher: Any
    handler: dict


def _handlers(data: Any, runtime: str) -> list[_Handler]:
    """Every command hook of the document, in file order."""
    out: list[_Handler] = []
    hooks = data.get("hooks") if isinstance(data, dict) else None
    if not isinstance(hooks, dict):
        return out
    for event, entries in hooks.items():
        if not isinstance(entries, list):
            continue
        for gi, entry in enumerate(entries):
            if not isinstance(entry, dict):
                continue
            if runtime == "cursor":  # flat: hooks.<event>[] = {command, ...}
                if entry.get("type", "command") == "command" and isinstance(
                    entry.get("command"), str
                ):
                    out.append(_Handler(("hooks", event, gi), event, None, entry))
                continue
            inner = entry.get("hooks")
            if not isinstance(inner, list):
                continue
            for hi, handler in enumerate(inner):
                if (
                    isinstance(handler, dict)
                    and handler.get("type") == "command"
                    and isinstance(handler.get("command"), str)
                ):
                    path = ("hooks", event, gi, "hooks", hi)
                    out.append(_Handler(path, event, entry.get("matcher"), handler))
    return out


def _where(path: tuple) -> str:
    text = ""
    for part in path:
        text += f"[{part}]" if isinstance(part, int) else (f".{part}" if text else part)
    return text


def _exec_args(handler: dict) -> list[str] | None:
    args = handler.get("args")
    if isinstance(args, list) and all(isinstance(a, str) for a in args):
        return args
    return None


def _is_wrapped(handler: dict) -> bool:
    args = _exec_args(handler)
    if args is not None:
        return _is_wrapper_argv([handler["command"], *args])
    return unwrap_shell(handler["command"]) is not None


def _set_in(data: Any, path: tuple, values: dict) -> None:
    node = data
    for part in path:
        node = node[part]
    node.update(values)


# ------------------------------------------------------------------ JSON: spans of values


@dataclass
class _Node:
    start: int
    end: int
    children: Any = None  # dict key -> _Node for objects, list[_Node] for arrays


_JSON_WS = " \t\n\r"


def _skip_ws(text: str, i: int) -> int:
    while i < len(text) and text[i] in _JSON_WS:
        i += 1
    return i


def _scan_json(text: str, i: int) -> _Node:
    """Spans of every value; `text` is known to be valid JSON (json.loads passed)."""
    i = _skip_ws(text, i)
    c = text[i]
    if c == "{":
        kids: dict[str, _Node] = {}
        j = _skip_ws(text, i + 1)
        if text[j] == "}":
            return _Node(i, j + 1, kids)
        while True:
            key, j = json.decoder.scanstring(text, _skip_ws(text, j) + 1)
            j = _skip_ws(text, j) + 1  # the colon
            node = _scan_json(text, j)
            kids[key] = node  # the last duplicate wins, as in json.loads
            j = _skip_ws(text, node.end)
            if text[j] == "}":
                return _Node(i, j + 1, kids)
            j += 1  # the comma
    if c == "[":
        items: list[_Node] = []
        j = _skip_ws(text, i + 1)
        if text[j] == "]":
            return _Node(i, j + 1, items)
        while True:
            node = _scan_json(text, j)
            items.append(node)
            j = _skip_ws(text, node.end)
            if text[j] == "]":
                return _Node(i, j + 1, items)
            j += 1
    if c == '"':
        _, j = json.decoder.scanstring(text, i + 1)
        return _Node(i, j)
    j = i
    while j < len(text) and text[j] not in ",]}" + _JSON_WS:
        j += 1
    return _Node(i, j)


def _json_node(root: _Node, path: tuple) -> _Node:
    node = root
    for part in path:
        node = node.children[part]
    return node


def _json_str(value: Any, ascii_only: bool) -> str:
    return json.dumps(value, ensure_ascii=ascii_only)


# ------------------------------------------------------------------ TOML: spans of commands

_TOML_HEADER = re.compile(r"^[ \t]*\[\[?([^\]]*)\]\]?[ \t]*(#.*)?$")
_TOML_COMMAND = re.compile(r"^[ \t]*command[ \t]*=[ \t]*")


def _toml_key_parts(key: str) -> list[str]:
    parts = [p.strip() for p in key.split(".")]
    return [p[1:-1] if len(p) >= 2 and p[0] == p[-1] and p[0] in "\"'" else p for p in parts]


def _toml_string_end(text: str, i: int) -> int:
    """End offset of the TOML string token starting at `i` (ValueError if none)."""
    for quote in ('"""', "'''"):
        if text.startswith(quote, i):
            j = i + 3
            while True:
                k = text.find(quote, j)
                if k < 0:
                    raise ValueError("unterminated string")
                if quote == '"""' and _escaped(text, k):
                    j = k + 1
                    continue
                # up to two extra quotes may belong to the content
                while text.startswith(quote[0], k + 3):
                    k += 1
                return k + 3
    if text[i] in "\"'":
        quote = text[i]
        j = i + 1
        while j < len(text) and text[j] != "\n":
            if text[j] == "\\" and quote == '"':
                j += 2
                continue
            if text[j] == quote:
                return j + 1
            j += 1
        raise ValueError("unterminated string")
    raise ValueError("not a string")


def _escaped(text: str, k: int) -> bool:
    n = 0
    while k - 1 - n >= 0 and text[k - 1 - n] == "\\":
        n += 1
    return n % 2 == 1


def _toml_command_spans(text: str) -> dict[tuple, tuple[int, int]]:
    """Handler path -> span of its `command = "..."` value, for `[[hooks.E.hooks]]` tables."""
    spans: dict[tuple, tuple[int, int]] = {}
    groups: dict[str, int] = {}  # event -> index of its last [[hooks.E]]
    inner: dict[tuple, int] = {}  # (event, group) -> index of its last [[hooks.E.hooks]]
    current: tuple | None = None
    offset = 0
    lines = text.splitlines(keepends=True)
    skip_to = 0
    for line in lines:
        start = offset
        offset += len(line)
        if start < skip_to:
            continue  # inside a multi-line string
        m = _TOML_HEADER.match(line.rstrip("\r\n"))
        if m and line.lstrip().startswith("["):
            parts = _toml_key_parts(m.group(1))
            array = line.lstrip().startswith("[[")
            current = None
            if array and len(parts) == 2 and parts[0] == "hooks":
                groups[parts[1]] = groups.get(parts[1], -1) + 1
            elif array and len(parts) == 3 and parts[0] == "hooks" and parts[2] == "hooks":
                event = parts[1]
                gi = groups.get(event, -1)
                if gi < 0:  # [[hooks.E.hooks]] with no [[hooks.E]]: TOML makes group 0
                    gi = groups[event] = 0
                hi = inner[(event, gi)] = inner.get((event, gi), -1) + 1
                current = ("hooks", event, gi, "hooks", hi)
            continue
        cm = _TOML_COMMAND.match(line)
        if cm:
            vstart = start + cm.end()
            try:
                vend = _toml_string_end(text, vstart)
            except (ValueError, IndexError):
                continue
            skip_to = vend
            if current is not None:
                spans[current] = (vstart, vend)
    return spans


def _toml_str(value: str) -> str:
    # A JSON string is a valid TOML basic string (same escapes, \uXXXX included).
    return json.dumps(value, ensure_ascii=False)


# ------------------------------------------------------------------ reading and rewriting


@dataclass
class Settings:
    path: Path
    kind: str  # "json" | "toml"
    raw: bytes
    text: str
    data: Any
    comments: bool = False  # JSON with // and /* */ comments (Gemini CLI strips them)


def settings_kind(path: Path) -> str:
    name = path.name.removesuffix(BACKUP_SUFFIX)
    return "toml" if name.endswith(".toml") else "json"


def _json_view(text: str, comments: bool) -> str:
    """`text` with a BOM and (when allowed) comments blanked, offsets unchanged.

    The edits are computed on this view and applied to the real text, so the
    comments themselves survive untouched.
    """
    if not text.startswith("\ufeff") and not (comments and "/" in text):
        return text
    out = list(text)
    i, n = 0, len(text)
    if text.startswith("\ufeff"):
        out[0], i = " ", 1
    in_string = False
    while comments and i < n:
        c = text[i]
        if in_string:
            if c == "\\":
                i += 2
                continue
            in_string = c != '"'
        elif c == '"':
            in_string = True
        elif text.startswith("//", i) or text.startswith("/*", i):
            block = text[i + 1] == "*"
            end = text.find("*/" if block else "\n", i + 2)
            end = n if end < 0 else end + (2 if block else 0)
            for k in range(i, end):
                if out[k] != "\n":
                    out[k] = " "
            i = end
            continue
        i += 1
    return "".join(out)


def load_settings(path: Path, *, comments: bool = False) -> Settings:
    """Read and parse; InstallError(code 2) for a file that is not valid JSON/TOML."""
    kind = settings_kind(path)
    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise InstallError(f"{path}: cannot read: {exc.strerror or exc}") from None
    try:
        text = raw.decode("utf-8")
        if kind == "toml":
            data = tomllib.loads(text)
        else:
            data = json.loads(_json_view(text, comments))
    except UnicodeDecodeError:
        raise InstallError(f"{path}: not valid UTF-8; left untouched") from None
    except (json.JSONDecodeError, tomllib.TOMLDecodeError) as exc:
        raise InstallError(f"{path}: not valid {kind.upper()} ({exc}); left untouched") from None
    if not isinstance(data, dict):
        raise InstallError(f"{path}: expected a {kind.upper()} object at the top; left untouched")
    return Settings(path, kind, raw, text, data, comments)


def _edits_for(settings: Settings, runtime: str, transform) -> tuple[str, list[Change], Any]:
    """Apply `transform(handler_info) -> (new_values, Change) | None` to every command hook."""
    text = settings.text
    expected = copy.deepcopy(settings.data)
    edits: list[tuple[int, int, str]] = []
    changes: list[Change] = []
    handlers = _handlers(settings.data, runtime)
    if settings.kind == "json":
        root = _scan_json(_json_view(text, settings.comments), 0)
        ascii_only = text.isascii()
    else:
        spans = _toml_command_spans(text)
    for h in handlers:
        result = transform(h)
        if result is None:
            continue
        values, change = result
        changes.append(change)
        _set_in(expected, h.path, values)
        if settings.kind == "json":
            node = _json_node(root, h.path)
            for key, value in values.items():
                sub = node.children[key]
                edits.append((sub.start, sub.end, _json_str(value, ascii_only)))
        else:
            if set(values) != {"command"} or h.path not in spans:
                raise InstallError(
                    f"{settings.path}: cannot rewrite the hook at {_where(h.path)} in place "
                    '(only `command = "..."` lines in [[hooks.<Event>.hooks]] tables are '
                    "supported); left untouched"
                )
            start, end = spans[h.path]
            edits.append((start, end, _toml_str(values["command"])))
    for start, end, new in sorted(edits, reverse=True):
        text = text[:start] + new + text[end:]
    if changes:
        _verify(settings, text, expected)
    return text, changes, expected


def _verify(settings: Settings, new_text: str, expected: Any) -> None:
    try:
        if settings.kind == "toml":
            got = tomllib.loads(new_text)
        else:
            got = json.loads(_json_view(new_text, settings.comments))
    except (json.JSONDecodeError, tomllib.TOMLDecodeError):
        got = None
    if got != expected:
        raise InstallError(
            f"{settings.path}: this file's layout is not one hooktui can edit in place "
            "safely; left untouched"
        )


def wrap(settings: Settings, opts: Options) -> tuple[str, list[Change]]:
    """The new text with every not-yet-wrapped command hook wrapped, and what changed."""

    def transform(h: _Handler):
        handler = h.handler
        if _is_wrapped(handler):
            return None
        command = handler["command"]
        args = _exec_args(handler)
        label = _label(opts, h.event, h.matcher, command, args)
        timeout_ms = _timeout_ms(opts.runtime, handler)
        if args is not None:  # exec form: no shell, wrap the argv as it is
            new_args = [*_tap_argv(opts, label, timeout_ms), command, *args]
            values = {"command": opts.hooktui, "args": new_args}
            before, after = shlex.join([command, *args]), shlex.join([opts.hooktui, *new_args])
        else:
            after = wrap_shell(command, opts, label, timeout_ms)
            values, before = {"command": after}, command
        return values, Change(_where(h.path), label, before, after)

    text, changes, _ = _edits_for(settings, opts.runtime, transform)
    return text, changes


def unwrap(settings: Settings, runtime: str) -> tuple[str, list[Change], Any]:
    """The new text with every wrapped command hook restored to its original command."""

    def transform(h: _Handler):
        handler = h.handler
        args = _exec_args(handler)
        if args is not None:
            argv = [handler["command"], *args]
            rest = _original_argv(args) if _is_wrapper_argv(argv) else None
            if not rest:
                return None
            values = {"command": rest[0], "args": rest[1:]}
            return values, Change(_where(h.path), "", shlex.join(argv), shlex.join(rest))
        original = unwrap_shell(handler["command"])
        if original is None:
            return None
        return {"command": original}, Change(_where(h.path), "", handler["command"], original)

    return _edits_for(settings, runtime, transform)


# ------------------------------------------------------------------ writing


def write_atomic(path: Path, data: bytes, mode: int | None = None) -> None:
    """Temp file beside `path`, fsync, rename over it: a reader sees old or new, never half."""
    target = Path(os.path.realpath(path))
    if mode is None:
        try:
            mode = target.stat().st_mode & 0o7777
        except FileNotFoundError:
            mode = 0o644
    fd, tmp = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            os.fchmod(f.fileno(), mode)
            os.fsync(f.fileno())
        os.replace(tmp, target)
    except BaseException:
        try:
            os.unlink(tmp)
        except FileNotFoundError:
            pass
        raise
    dfd = os.open(target.parent, os.O_RDONLY)
    try:
        os.fsync(dfd)
    finally:
        os.close(dfd)


def _diff(path: Path, old: str, new: str) -> str:
    lines = difflib.unified_diff(
        old.splitlines(keepends=True),
        new.splitlines(keepends=True),
        fromfile=f"{path}",
        tofile=f"{path} (hooktui)",
    )
    out = ""
    for line in lines:
        out += line if line.endswith("\n") else line + "\n\\ No newline at end of file\n"
    return out


def backup_path(path: Path) -> Path:
    return path.with_name(path.name + BACKUP_SUFFIX)


def _allows_comments(runtime: str) -> bool:
    return runtime == "gemini-cli"  # it reads settings.json through strip-json-comments


def install(path: Path, opts: Options, *, dry_run: bool = False) -> Report:
    settings = load_settings(path, comments=_allows_comments(opts.runtime))
    report = Report(path)
    if not _handlers(settings.data, opts.runtime):
        report.messages.append(f"{path}: no command hooks to wrap")
        report.code = 1
        return report
    new_text, changes = wrap(settings, opts)
    report.changes = changes
    if not changes:
        report.messages.append(f"{path}: every command hook is already wrapped; nothing to do")
        return report
    report.diff = _diff(path, settings.text, new_text)
    if dry_run:
        report.messages.append(f"dry run: {len(changes)} hook(s) would be wrapped; nothing written")
        return report
    backup = backup_path(path)
    # Keep the first install's original; refresh only a stale backup of a file
    # that has since been restored (no wrapped hook in it now).
    if not backup.exists() or not any(
        _is_wrapped(h.handler) for h in _handlers(settings.data, opts.runtime)
    ):
        write_atomic(backup, settings.raw, _mode(path))
    write_atomic(path, new_text.encode("utf-8"))
    report.messages.append(f"{path}: wrapped {len(changes)} command hook(s) in the tap")
    report.messages.append(f"backup of the original: {backup}")
    if opts.runtime == "codex":
        report.messages.append(
            "note: Codex trusts hooks by their definition, and wrapping changed them: "
            "re-approve the hooks in Codex (or run `codex exec --dangerously-bypass-hook-trust` "
            "in tests)"
        )
    return report


def _mode(path: Path) -> int:
    return os.stat(os.path.realpath(path)).st_mode & 0o7777


def uninstall(path: Path, runtime: str, *, dry_run: bool = False) -> Report:
    settings = load_settings(path, comments=_allows_comments(runtime))
    report = Report(path)
    backup = backup_path(path)
    new_text, changes, unwrapped_data = unwrap(settings, runtime)
    report.changes = changes
    if not changes:
        report.messages.append(f"{path}: no hooktui-wrapped hooks; nothing to do")
        if backup.exists():
            report.messages.append(f"(a backup from an earlier install remains at {backup})")
        return report
    original: bytes | None = None
    if backup.exists():
        try:
            saved = load_settings(backup, comments=settings.comments)
        except InstallError:
            saved = None
        # The backup is the right restoration when unwrapping leads to the same
        # settings: nothing but our wrapping changed since install.
        if saved is not None and saved.data == unwrapped_data:
            original = saved.raw
    if original is not None:
        report.diff = _diff(path, settings.text, original.decode("utf-8"))
        if dry_run:
            report.messages.append(f"dry run: would restore {path} from {backup}; nothing written")
            return report
        write_atomic(path, original, _mode(path))
        backup.unlink()
        report.messages.append(
            f"{path}: restored byte for byte from {backup.name} ({len(changes)} hook(s))"
        )
        return report
    report.diff = _diff(path, settings.text, new_text)
    if dry_run:
        report.messages.append(
            f"dry run: would unwrap {len(changes)} hook(s) in place; nothing written"
        )
        return report
    write_atomic(path, new_text.encode("utf-8"))
    why = "settings changed since install" if backup.exists() else "no backup found"
    report.messages.append(f"{path}: unwrapped {len(changes)} hook(s) in place ({why})")
    if backup.exists():
        report.messages.append(f"the pre-install backup is kept at {backup}")
    return report
