"""The redaction rules' regular expressions, compiled without `re` when a cache allows.

`import re` (enum, functools, collections, its parser and compiler) and
compiling a rule's pattern cost a recorder more than everything else it does
for a call whose request holds a secret. What `re` compiles a pattern into is
the argument list it hands to the C engine, `_sre.compile(...)`; for a given
pattern and flags it depends only on the Python build. So the recorder keeps
those arguments, per Python build, in a file in the user's cache directory,
and next time hands them to `_sre.compile` itself (`_sre` and `marshal` are
built into the interpreter: nothing to load).

The cache can make redaction cheaper, never different:
- an entry is only ever written after the pattern it rebuilds compared equal
  (flags, source and compiled code: `_sre`'s own equality) to `re.compile`'s;
- the file carries the sha256 of its body, checked before the body is
  unmarshalled (a corrupt count made `marshal` allocate 16 GiB: 6-37 s of each
  recorder), and each entry the sha256 of its bytes and its own source and
  flags, so a torn, corrupt or stale entry is not used; a file of another build
  is another file; one not owned by this user, or writable by others, is not read;
- whenever anything is off (absent, unreadable, corrupt, a failing
  `_sre.compile`), `re.compile` compiles the pattern as it always did.
Writes (save(), called by the recorder after its record is appended) go to a
new file renamed over the old, merged with what the file held, so recorders
running in parallel do not tear it and converge on the union of their entries.
"""

from __future__ import annotations

import marshal
import os
import sys

from hooktui.tap.base.cpython import sha256, sre_args, sre_build, sre_code_size, sre_compile

_FORMAT = b"hooktui sre cache 2\n"  # then the body's sha256, then the body
# The engine's code words, as bytes (None: an engine this cache does not know, so `re`).
_CODE_ITEM = {2: "H", 4: "I"}.get(sre_code_size())
_MAX_ENTRIES = 4096  # a file past this is started afresh (old hooktui versions' rules)
_MAX_BYTES = 16 << 20

# Everything the compiled code depends on: the file is this build's alone (a home
# shared between machines holds one file per kind of machine).
_BUILD = (
    f"{sys.implementation.cache_tag} {sys.version} {sys.platform} {os.uname().machine}"
    f" {sys.byteorder} {sys.maxsize} {sre_build()}"
)

_compiled: dict[tuple[str, int], object] = {}  # this process's patterns
_stored: dict | None = None  # the cache file's entries, once read
_new: dict[tuple[str, int], object] = {}  # what `re` compiled here, for save()


def compile(source: str, flags: int):  # noqa: A001 - the name says what `re.compile` would
    """The pattern `re.compile(source, flags)` returns, from the cache when it can."""
    key = (source, flags)
    pattern = _compiled.get(key)
    if pattern is None:
        try:
            pattern = _from_cache(key) if _CODE_ITEM else None
        except Exception:  # whatever is wrong with the cache, `re` compiles
            pattern = None
        if pattern is None:
            pattern = _from_re(source, flags)
        _compiled[key] = pattern
    return pattern


def cache_path() -> str | None:
    """`$XDG_CACHE_HOME/hooktui/` (XDG default `~/.cache`), one file per Python build
    and format."""
    base = os.environ.get("XDG_CACHE_HOME") or ""
    if not os.path.isabs(base):  # the XDG spec says relative values are to be ignored
        home = os.path.expanduser("~")
        if not os.path.isabs(home):
            return None
        base = os.path.join(home, ".cache")
    build = sha256(_BUILD.encode()).hexdigest()[:16]
    # The format in the name too: two hooktui versions on one machine keep a file each,
    # rather than each overwriting the other's (every call of both cold).
    name = f"sre{_FORMAT.split()[-1].decode()}-{sys.implementation.cache_tag}-{build}.bin"
    return os.path.join(base, "hooktui", name)


def save() -> None:
    """Add the patterns `re` compiled here to the cache file (quietly, if it cannot).

    The recorder calls this once its record is appended: the extra work a
    cold cache costs (each pattern's compiler output, rebuilt and compared
    with `re`'s) delays no record, and is skipped where no file can be written.
    """
    path = cache_path() if _new and _CODE_ITEM else None
    if path is None:
        return
    try:
        os.makedirs(os.path.dirname(path), mode=0o700, exist_ok=True)
        if not os.access(os.path.dirname(path), os.W_OK):
            return
        entries = _read(path) or {}
        if len(entries) + len(_new) > _MAX_ENTRIES:
            entries = {}
        for key, pattern in _new.items():
            entry = _checked_entry(key, pattern)
            if entry is not None:
                entries[key] = entry
        _write(path, file_bytes(entries))
    except (OSError, ValueError):
        return
    finally:
        _new.clear()


# --- reading --------------------------------------------------------------


def _from_cache(key: tuple[str, int]):
    global _stored
    if _stored is None:
        _stored = {}  # read once, even if reading fails
        path = cache_path()
        _stored = (_read(path) if path else None) or {}
    entry = _stored.get(key)
    return None if entry is None else _rebuild(key, entry)


def _read(path: str) -> dict | None:
    """The file's entries, or None when there is no file this process may trust."""
    try:
        # O_NONBLOCK: opening a FIFO planted at the path would wait for a writer,
        # and the recorder (its record unwritten) with it.
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_CLOEXEC | os.O_NONBLOCK)
    except OSError:
        return None
    try:
        st = os.fstat(fd)
        if not _trusted(st):
            return None
        data = _read_all(fd, st.st_size)
    except OSError:
        return None
    finally:
        os.close(fd)
    digest, body = data[len(_FORMAT) : len(_FORMAT) + 32], data[len(_FORMAT) + 32 :]
    if not data.startswith(_FORMAT) or sha256(body).digest() != digest:
        return None
    try:
        entries = marshal.loads(body)
    except Exception:  # EOFError, ValueError, TypeError: a file it cannot vouch for
        return None
    return entries if isinstance(entries, dict) else None


def file_bytes(entries: dict) -> bytes:
    """The cache file holding `entries`: the format line, the body's sha256, the body."""
    body = marshal.dumps(entries)
    return _FORMAT + sha256(body).digest() + body


def _trusted(st: os.stat_result) -> bool:
    """A regular file of this user's that no one else may write, of a sane size."""
    regular = st.st_mode & 0o170000 == 0o100000  # S_ISREG, without importing `stat`
    mine = st.st_uid == os.getuid() and not st.st_mode & 0o022
    return regular and mine and st.st_size <= _MAX_BYTES


def _read_all(fd: int, size: int) -> bytes:
    chunks = []
    while True:
        chunk = os.read(fd, max(size, 1 << 16))
        if not chunk:
            return b"".join(chunks)
        chunks.append(chunk)


def _rebuild(key: tuple[str, int], entry: bytes):
    """The pattern an entry holds, once its digest, source and flags check out."""
    digest, body = entry[:32], entry[32:]
    if sha256(body).digest() != digest:
        return None
    source, flags, code, groups, groupindex, indexgroup = marshal.loads(body)
    if source != key[0] or flags | key[1] != flags:
        return None
    words = memoryview(code).cast(_CODE_ITEM).tolist()
    return sre_compile((source, flags, words, groups, groupindex, indexgroup))


# --- compiling with `re`, and keeping what it made -------------------------


def _from_re(source: str, flags: int):
    import re

    pattern = re.compile(source, flags)
    _new[(source, flags)] = pattern
    return pattern


def _checked_entry(key: tuple[str, int], pattern) -> bytes | None:
    """The entry for `re`'s `pattern`, if what it rebuilds is that pattern exactly."""
    try:
        args = sre_args(*key)
        rebuilt = sre_compile(args)
        if rebuilt != pattern or rebuilt.groupindex != pattern.groupindex:
            return None
        return _entry(args)
    except Exception:  # `re`'s internals moved: no cache, same patterns
        return None


def _entry(args: tuple) -> bytes:
    """The entry for one pattern: sha256 of its body, then the body (code as bytes)."""
    source, flags, code, groups, groupindex, indexgroup = args
    packed = memoryview(bytearray(len(code) * sre_code_size())).cast(_CODE_ITEM)
    for i, word in enumerate(code):
        packed[i] = word
    body = marshal.dumps((source, flags, packed.tobytes(), groups, groupindex, indexgroup))
    return sha256(body).digest() + body


def _write(path: str, data: bytes) -> None:
    tmp = f"{path}.{os.getpid()}.tmp"
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC, 0o600)
    try:
        view = memoryview(data)
        while view:
            view = view[os.write(fd, view) :]
        os.close(fd)
        fd = -1
        os.replace(tmp, path)
    except BaseException:
        if fd != -1:
            os.close(fd)
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise
