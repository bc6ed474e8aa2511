"""Which hook ran, as its record names it: label, argv, cwd and the runtime variables.

These come from the operating system, where they are bytes and need not be
UTF-8 (a latin-1 directory name, a raw byte in an argument). A record is JSON
and holds text, so such a value is kept escaped: each byte that is not part
of valid UTF-8 is written `\\xNN` and each backslash `\\\\`, and its JSON
pointer is listed in `hook.escaped` (absent when none is), so a reader knows
to undo it (`unescape_bytes`). Values that are UTF-8 are kept as they are.
"""

from __future__ import annotations

import os


def escape_bytes(raw: bytes) -> tuple[str, bool]:
    """(text, escaped?): UTF-8 as is; anything else with `\\xNN` and `\\\\`."""
    try:
        return raw.decode("utf-8"), False
    except UnicodeDecodeError:
        return raw.replace(b"\\", b"\\\\").decode("utf-8", "backslashreplace"), True


def unescape_bytes(text: str) -> bytes:
    """The bytes an escaped value (one listed in `hook.escaped`) stands for."""
    out = bytearray()
    i, n = 0, len(text)
    while i < n:
        char = text[i]
        if char == "\\" and text[i + 1 : i + 2] == "\\":
            out += b"\\"
            i += 2
        elif char == "\\" and text[i + 1 : i + 2] == "x" and i + 4 <= n:
            out.append(int(text[i + 2 : i + 4], 16))
            i += 4
        else:
            out += char.encode("utf-8")
            i += 1
    return bytes(out)


def os_bytes(value: str) -> bytes:
    """A str Python decoded from the OS (argv, environ) back to its bytes."""
    return os.fsencode(value)


def hook_info(
    argv: list[str],
    label: str | None,
    env_names: list[str],
    default_label,
    runtime_view: dict,
) -> dict:
    """The record's `hook` object, in HookInfo's field order.

    `default_label(argv)` names the hook when no label was given;
    `runtime_view` holds how the runtime treats it (`timeout_ms`,
    `timeout_source`, `fails`: judge.py).
    """
    escaped: list[str] = []

    def text(raw: bytes, pointer: str) -> str:
        value, was_escaped = escape_bytes(raw)
        if was_escaped:
            escaped.append(pointer)
        return value

    args = [text(os_bytes(a), f"/hook/argv/{i}") for i, a in enumerate(argv)]
    named = text(os_bytes(label), "/hook/label") if label else default_label(args)
    info = {
        "label": named,
        "argv": args,
        "cwd": text(_cwd(), "/hook/cwd"),
        "env": {
            name: text(value, "/hook/env/" + name.replace("~", "~0").replace("/", "~1"))
            for name, value in _runtime_env(env_names).items()
        },
        **runtime_view,
    }
    if escaped:  # absent when there are none
        info["escaped"] = escaped
    return info


def _runtime_env(names: list[str]) -> dict[str, bytes]:
    """The runtime variables hooks read, as this hook saw them (bytes)."""
    environ = os.environb if os.supports_bytes_environ else None
    found = {}
    for name in sorted(set(names)):
        if environ is not None:
            value = environ.get(name.encode())
            if value is not None:
                found[name] = value
        elif name in os.environ:
            found[name] = os.environ[name].encode("utf-8", "surrogateescape")
    return found


def _cwd() -> bytes:
    try:
        return os.getcwdb()
    except OSError:  # the directory was removed under the hook
        return os.environb.get(b"PWD", b"") if os.supports_bytes_environ else b""
