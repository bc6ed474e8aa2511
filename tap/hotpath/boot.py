"""The tap's start: the hot path loaded from its cached bytecode.

The launcher (bin/hooktui) runs this when started as the tap (`-I -S -X utf8`),
loading it with the import system's own loader (cached bytecode, checked
against the source), in its own globals: the block at the end then starts the
tap, or hands over to the launcher's general path (its GENERAL, which falls
back on `site`) if the hot path cannot load. It finds the package's tree from
its own path: site-packages/hooktui, or an editable install's source tree,
which launcher_build.py writes into that install's launcher.
Each hot-path module is read as the import system would but by hand: one
`stat` of the source, one read of its `__pycache__` file, the header compared,
the code run in a fresh module. The import system's search (finders, path
hooks, directory listings, module locks) is what this skips: about a third of
a million instructions per module before its contents. A cache that is
missing, stale or of another kind (hash-based) sends that module through the
import system as usual, which compiles it and may write a fresh cache.
A cache whose header checks out but whose body does not (truncated, overwritten,
not code) fails the import system's import, and for the tap a failed import is
a guard that never ran: so in this process (pump.py mid-call, the recorder's
modules too) such a cache is compiled from its source instead, and written
afresh where it may be (`_code_or_source`).
The cyclic garbage collector is switched off first: the tap and its recorder
live for one call and make no cycles worth collecting, and its passes over
the objects of each module loaded cost the tap more than its import.
"""

import sys

posix = sys.modules["posix"]
_bootstrap = sys.modules["_frozen_importlib"]
_external = sys.modules["_frozen_importlib_external"]
# In the order they import each other: each finds the ones before it in sys.modules.
HOT = ("capture", "quick", "signals", "spawn", "shim")  # pump.py: when a call outgrows quick.py
PACKAGES = ("hooktui", "hooktui.tap", "hooktui.tap.hotpath")
_compile_bytecode = _external._compile_bytecode  # the import system's own


def hot_path(site: str, tree: str):
    """The shim's `main`: `tree` holds tap/ (site-packages/hooktui, or an editable
    install's source tree), `site` the packages the recorder needs later."""
    __import__("gc").disable()
    _external._compile_bytecode = _code_or_source
    sys.path.append(site)  # for what the recorder imports later (msgspec...)
    paths = (tree, tree + "/tap", tree + "/tap/hotpath")
    for name, path in zip(
        PACKAGES, paths, strict=True
    ):  # their __init__ files hold only a docstring
        module = sys.modules[name] = type(sys)(name)
        module.__spec__ = _bootstrap.ModuleSpec(name, None, is_package=True)
        module.__path__ = module.__spec__.submodule_search_locations = [path]
    hot = paths[-1]
    tag = "." + sys.implementation.cache_tag + ".pyc"
    for name in HOT:
        _load("hooktui.tap.hotpath." + name, f"{hot}/{name}.py", f"{hot}/__pycache__/{name}{tag}")
    return sys.modules["hooktui.tap.hotpath.shim"].main


def _load(name: str, source: str, cached: str) -> None:
    code = _cached_code(source, cached)
    if code is None:
        __import__(name)  # the import system's way: compiles, may write the cache
        return
    module = sys.modules[name] = type(sys)(name)
    loader = _external.SourceFileLoader(name, source)
    module.__spec__ = _bootstrap.ModuleSpec(name, loader, origin=source)
    module.__spec__.cached, module.__spec__.has_location = cached, True
    module.__file__, module.__cached__, module.__loader__ = source, cached, loader
    module.__package__ = name.rpartition(".")[0]
    try:
        exec(code, module.__dict__)
    except BaseException:
        del sys.modules[name]
        raise


def _cached_code(source: str, cached: str):
    """The code in `cached` when its header matches `source` (a timestamp pyc), else None."""
    try:
        st = posix.stat(source)
        fd = posix.open(cached, posix.O_RDONLY | posix.O_CLOEXEC)
    except OSError:
        return None
    try:
        data = posix.read(fd, posix.fstat(fd).st_size + 1)
    except OSError:
        return None
    finally:
        posix.close(fd)
    mtime = (int(st.st_mtime) & 0xFFFFFFFF).to_bytes(4, "little")
    size = (st.st_size & 0xFFFFFFFF).to_bytes(4, "little")
    if data[:16] != _external.MAGIC_NUMBER + b"\0\0\0\0" + mtime + size:
        return None
    try:
        code = sys.modules["marshal"].loads(memoryview(data)[16:])
    except (EOFError, ValueError, TypeError):
        return None
    return code if type(code) is type(_load.__code__) else None


def _code_or_source(data, name=None, bytecode_path=None, source_path=None):
    # The import system's reading of a cache whose header it has checked; a body
    # that does not read as code is compiled from the source instead (see the module).
    try:
        return _compile_bytecode(data, name, bytecode_path, source_path)
    except (EOFError, ValueError, TypeError, ImportError):
        if source_path is None:
            raise
    loader = _external.SourceFileLoader(name, source_path)
    source = loader.get_data(source_path)
    code = loader.source_to_code(source, source_path)
    if not sys.dont_write_bytecode and bytecode_path is not None:
        mtime = int(loader.path_stats(source_path)["mtime"])
        pyc = _external._code_to_timestamp_pyc(code, mtime, len(source))
        loader._cache_bytecode(source_path, bytecode_path, pyc)  # never raises OSError
    return code


if __name__ == "__main__":  # run by the launcher, in its globals: TAP is site-packages
    try:  # the tree: where the launcher found this file (its loader set co_filename)
        tree = hot_path.__code__.co_filename.rpartition("/tap/hotpath/")[0]
        main = hot_path(TAP, tree)  # noqa: F821 (the launcher's)
    except Exception:  # a module missing or broken: the import system's way, or no package
        exec(GENERAL)  # noqa: F821 (the launcher's)
    sys.exit(main(sys.argv[2:]))
