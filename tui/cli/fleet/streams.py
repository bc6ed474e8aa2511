"""Streams named on a fleet command line: local paths, globs, or fsspec URLs.

A local path or glob needs nothing more; a URL (`s3://…`, `gs://…`, `file://…`,
`memory://…`) goes through fsspec (the `fleet` extra), whose file objects seek, so a
part reads only its own bytes (and the rest of its last line).
"""

from __future__ import annotations

import glob
import os
from typing import BinaryIO

from hooktui.tui.cli.args import UsageError
from hooktui.tui.cli.fleet.extras import need

GLOB = set("*?[")


def is_url(name: str) -> bool:
    return "://" in name


def _local(name: str) -> list[tuple[str, int]]:
    path = os.path.expanduser(name)
    paths = sorted(glob.glob(path)) if GLOB & set(path) else [path]
    if not paths:
        raise UsageError(f"no stream matches {name}")
    out = []
    for p in paths:
        try:
            st = os.stat(p)
        except FileNotFoundError:
            raise UsageError(f"no such stream: {p}") from None
        except OSError as exc:
            raise UsageError(f"cannot read {p}: {exc.strerror or exc}") from None
        if os.path.isdir(p):
            raise UsageError(f"{p} is a directory, not a stream")
        out.append((os.path.abspath(p), st.st_size))
    return out


def _remote(url: str) -> list[tuple[str, int]]:
    fsspec = need("fsspec")
    try:
        fs, path = fsspec.core.url_to_fs(url)
        paths = sorted(fs.glob(path)) if GLOB & set(path) else [path]
        if not paths:
            raise UsageError(f"no stream matches {url}")
        return [(fs.unstrip_protocol(p), int(fs.size(p))) for p in paths]
    except UsageError:
        raise
    except (OSError, ValueError, ImportError) as exc:  # unknown protocol, no such object
        raise UsageError(f"cannot read {url}: {exc}") from None


def expand(names: list[str]) -> list[tuple[str, int]]:
    """Every stream `names` name, in order (a glob's matches sorted), with its size."""
    if not names:
        raise UsageError("name the streams to replay (paths, globs or URLs)")
    out: list[tuple[str, int]] = []
    for name in names:
        if name == "-":
            raise UsageError("a fleet replay reads files, not standard input (save it first)")
        out.extend(_remote(name) if is_url(name) else _local(name))
    return out


def open_stream(name: str) -> BinaryIO:
    """A stream opened for reading bytes (on whichever machine runs the part)."""
    if is_url(name):
        return need("fsspec").open(name, "rb").open()
    return open(name, "rb")  # read-only: a replay never writes to a session
