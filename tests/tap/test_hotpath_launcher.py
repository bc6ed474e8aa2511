"""The `hooktui` launcher finds its package without `site`, in every kind of install.

Each test builds a small venv by hand (the interpreter, pyvenv.cfg, the
launcher, and hooktui laid out as pip lays it out), so no network and no pip
run is needed. A `sitecustomize` in its site-packages leaves a mark whenever
`site` runs: `hooktui tap` must never need it, the other commands still run it.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import hooktui.tap
import msgspec
import pytest

from tests.conftest import wait_for_records

TREE = Path(hooktui.tap.__file__).resolve().parents[1]  # holds tap/, replay/, tui/
LAUNCHER = TREE / "bin" / "hooktui"  # as in the tree (an editable install's names the tree)
FINDER = """
from importlib.machinery import ModuleSpec
class _Finder:
    @classmethod
    def find_spec(cls, name, path=None, target=None):
        if name == "hooktui":
            spec = ModuleSpec("hooktui", None, is_package=True)
            spec.submodule_search_locations = [{tree!r}]
            return spec
def install():
    sys.meta_path.append(_Finder)
"""
VERSION = f"python{sys.version_info[0]}.{sys.version_info[1]}"


def make_venv(root: Path, layout: str, launcher: Path = LAUNCHER) -> Path:
    """A venv whose hooktui is installed `layout`-style ("regular", "editable", "none")."""
    base = Path(getattr(sys, "_base_executable", sys.executable)).resolve()
    (root / "bin").mkdir(parents=True)
    (root / "pyvenv.cfg").write_text(
        f"home = {base.parent}\ninclude-system-site-packages = false\n"
    )
    (root / "bin" / "python3").symlink_to(base)
    shutil.copy(launcher, root / "bin" / "hooktui")
    site = root / "lib" / VERSION / "site-packages"
    site.mkdir(parents=True)
    (site / "msgspec").symlink_to(Path(msgspec.__file__).parent)  # for the recorder
    marker = root / "site-ran"
    (site / "sitecustomize.py").write_text(f"open({str(marker)!r}, 'a').write('x')\n")
    if layout == "regular":
        (site / "hooktui").mkdir()
        for part in ("tap", "replay", "tui"):
            (site / "hooktui" / part).symlink_to(TREE / part)
    elif layout == "editable":
        mapping = {f"hooktui.{p}": str(TREE / p) for p in ("replay", "tap", "tui")}
        # As setuptools writes it: the mapping, and a finder `site` installs via a .pth.
        (site / "__editable___agent_hooktui_0_1_0_finder.py").write_text(
            f"import sys\nMAPPING: dict[str, str] = {mapping!r}\n" + FINDER.format(tree=str(TREE))
        )
        (site / "__editable__.agent_hooktui-0.1.0.pth").write_text(
            "import __editable___agent_hooktui_0_1_0_finder; __editable___agent_hooktui_0_1_0_finder.install()\n"
        )
    return root


def run_tap(launcher: Path, stream: Path, env: dict | None = None) -> subprocess.CompletedProcess:
    return subprocess.run(
        [str(launcher), "tap", "--wait", "--stream", str(stream), "--", "sh", "-c", "cat; exit 4"],
        input=b'{"hook_event_name": "Stop"}',
        capture_output=True,
        timeout=60,
        env=env,
    )


@pytest.mark.parametrize("layout", ["regular", "editable"])
def test_the_tap_starts_without_site_in_both_install_kinds(tmp_path, layout, built):
    """Each with the launcher its install builds (an editable one names its tree)."""
    launcher = built / f"{layout}-hooktui"
    venv = make_venv(tmp_path / "venv", layout, launcher)
    stream = tmp_path / "s.jsonl"
    out = run_tap(venv / "bin" / "hooktui", stream)
    assert (out.stdout, out.stderr, out.returncode) == (b'{"hook_event_name": "Stop"}', b"", 4)
    (record,) = wait_for_records(stream, 1)
    assert record["exit_code"] == 4 and record["tap_error"] == ""
    assert not (venv / "site-ran").exists()  # neither the tap nor its recorder ran `site`
    version = subprocess.run(
        [venv / "bin" / "hooktui", "--version"], capture_output=True, timeout=60
    )
    assert version.returncode == 0 and version.stdout.startswith(b"hooktui ")
    assert (venv / "site-ran").exists()  # other commands start Python as usual


def test_a_launcher_reached_through_a_symlink_finds_its_venv(tmp_path):
    """As pipx and uv install it: ~/.local/bin/hooktui links into the tool's venv."""
    venv = make_venv(tmp_path / "venv", "regular")
    bin_dir = tmp_path / "local-bin"
    bin_dir.mkdir()
    (bin_dir / "hooktui").symlink_to(venv / "bin" / "hooktui")
    out = run_tap(bin_dir / "hooktui", tmp_path / "s.jsonl")
    assert out.returncode == 4 and out.stderr == b""
    assert wait_for_records(tmp_path / "s.jsonl", 1)[0]["exit_code"] == 4


def test_without_its_package_the_tap_still_runs_the_hook(tmp_path):
    """A broken install must not make every guard fail open: the hook runs, unrecorded."""
    venv = make_venv(tmp_path / "venv", "none")
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTHON")}
    out = run_tap(venv / "bin" / "hooktui", tmp_path / "s.jsonl", env)
    assert (out.stdout, out.stderr, out.returncode) == (b'{"hook_event_name": "Stop"}', b"", 4)
    assert not (tmp_path / "s.jsonl").exists()
    show = subprocess.run(
        [venv / "bin" / "hooktui", "show"], capture_output=True, env=env, timeout=60
    )
    assert show.returncode == 1 and b"Traceback" not in show.stderr
    assert show.stderr.startswith(b"hooktui: cannot load its own package")


def test_the_packages_the_launcher_makes_hold_nothing_but_a_docstring():
    """Started as the tap, the launcher makes `hooktui`, `hooktui.tap` and
    `hooktui.tap.hotpath` itself without running their __init__ files (each import
    costs as much as a module): anything else put there would be skipped."""
    import ast

    for init in (TREE / "tap" / "__init__.py", TREE / "tap" / "hotpath" / "__init__.py"):
        body = ast.parse(init.read_text()).body
        assert all(isinstance(n, ast.Expr) and isinstance(n.value, ast.Constant) for n in body)
    assert not (TREE / "__init__.py").exists()  # hooktui itself is a namespace


def tap_imports(venv: Path, stream: Path) -> tuple[subprocess.CompletedProcess, set[str]]:
    """A call as the installed line makes it, and which of the hot path's modules the
    import system loaded (`-X importtime`): boot.py loads the others from their caches."""
    out = subprocess.run(
        [venv / "bin" / "python3", "-I", "-S", "-X", "importtime", venv / "bin" / "hooktui"]
        + ["tap", "--wait", "--stream", str(stream), "--", "sh", "-c", "cat; exit 4"],
        input=b'{"hook_event_name": "Stop"}',
        capture_output=True,
        timeout=60,
    )
    lines = out.stderr.decode().splitlines()
    imported = {line.rpartition("|")[2].strip() for line in lines if line.startswith("import ")}
    hot = {
        f"hooktui.tap.hotpath.{name}" for name in ("capture", "quick", "signals", "spawn", "shim")
    }
    return out, imported & hot


def test_a_regular_install_loads_the_hot_path_from_its_cached_bytecode(tmp_path):
    venv = make_venv(tmp_path / "venv", "none")
    hooktui = venv / "lib" / VERSION / "site-packages" / "hooktui"
    hooktui.mkdir()
    shutil.copytree(TREE / "tap", hooktui / "tap", ignore=shutil.ignore_patterns("__pycache__"))
    hot = hooktui / "tap" / "hotpath"
    subprocess.run(
        [sys.executable, "-m", "compileall", "-q", str(hot)], check=True, timeout=60
    )  # as pip
    out, imported = tap_imports(venv, tmp_path / "s.jsonl")
    assert (out.stdout, out.returncode) == (b'{"hook_event_name": "Stop"}', 4)
    assert imported == set(), imported  # nothing went through the import system's search
    assert not (venv / "site-ran").exists()
    # A source newer than its cache, and a cache of another Python: those two go
    # through the import system (which compiles them); the answer is the same.
    stat = (hot / "quick.py").stat()
    os.utime(hot / "quick.py", (stat.st_atime, stat.st_mtime + 10))
    shim = next((hot / "__pycache__").glob("shim.*.pyc"))
    shim.write_bytes(b"\0\0\r\n" + shim.read_bytes()[4:])
    out, imported = tap_imports(venv, tmp_path / "s.jsonl")
    assert (out.stdout, out.returncode) == (b'{"hook_event_name": "Stop"}', 4)
    assert imported == {"hooktui.tap.hotpath.quick", "hooktui.tap.hotpath.shim"}, imported
    assert len(wait_for_records(tmp_path / "s.jsonl", 2)) == 2


@pytest.mark.parametrize("layout", ["regular", "editable", "editable, tree named"])
def test_the_launcher_leaves_a_closed_stdin_closed_for_the_hook(tmp_path, layout, built):
    """Whatever the launcher opens to find its package lands on fd 0 when the caller
    closed it: it must be closed again before the tap looks at its standard fds."""
    if layout == "editable, tree named":  # the launcher an editable install builds
        venv = make_venv(tmp_path / "venv", "editable", built / "editable-hooktui")
    else:
        venv = make_venv(tmp_path / "venv", layout)
    hook = ["sh", "-c", "cat >/dev/null; echo cat=$?"]
    start = [venv / "bin" / "python3", "-I", "-S", venv / "bin" / "hooktui", "tap"]
    results = []
    for command in (hook, [*start, "--stream", str(tmp_path / "s.jsonl"), "--", *hook]):
        closed = ["sh", "-c", 'exec "$@" 0>&-', "sh", *command]
        done = subprocess.run(closed, capture_output=True, timeout=60)
        results.append((done.stdout, done.stderr, done.returncode))
    assert results[0] == results[1] and results[0][0] == b"cat=1\n", results


BUILD = """
import sys, zipfile
from setuptools import build_meta
where = sys.argv[1]  # read first: build_meta sets sys.argv while it builds
for kind, build in (("editable", build_meta.build_editable), ("regular", build_meta.build_wheel)):
    wheel = zipfile.ZipFile(where + "/" + build(where))
    [script] = [n for n in wheel.namelist() if n.endswith(".data/scripts/hooktui")]
    open(f"{where}/{kind}-hooktui", "wb").write(wheel.read(script))
"""


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> Path:
    """The launcher as setuptools builds it for each kind of install, from this tree (as
    pip's build step runs it): DIR/editable-hooktui and DIR/regular-hooktui."""
    where = tmp_path_factory.mktemp("built")
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTHON")}
    done = subprocess.run(
        [sys.executable, "-c", BUILD, str(where)],
        cwd=TREE,
        capture_output=True,
        env=env,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr.decode()[-2000:]
    for kind in ("editable", "regular"):
        (where / f"{kind}-hooktui").chmod(0o755)
    return where


def test_an_editable_install_names_its_tree_in_its_launcher_and_a_regular_one_does_not(built):
    """An editable install's tap loads its hot path from the source tree the launcher
    names (without reading setuptools' finder on each call); a regular install's
    launcher is bin/hooktui byte for byte (any more text costs every call)."""
    assert (built / "regular-hooktui").read_bytes() == LAUNCHER.read_bytes()
    editable = (built / "editable-hooktui").read_text()
    assert repr(str(TREE / "tap" / "hotpath" / "boot.py")) in editable


@pytest.mark.parametrize("layout", ["none", "editable"])
def test_the_tap_of_an_editable_install_runs_from_the_tree_its_launcher_names(
    tmp_path, built, layout
):
    """Setuptools' finder is not needed ("none": the launcher finds the tree without it)."""
    venv = make_venv(tmp_path / "venv", layout, built / "editable-hooktui")
    stream = tmp_path / "s.jsonl"
    out = run_tap(venv / "bin" / "hooktui", stream)
    assert (out.stdout, out.stderr, out.returncode) == (b'{"hook_event_name": "Stop"}', b"", 4)
    (record,) = wait_for_records(stream, 1)
    assert record["exit_code"] == 4 and record["tap_error"] == ""
    assert not (venv / "site-ran").exists()


@pytest.mark.parametrize("layout", ["none", "editable"])
def test_when_the_tree_an_editable_launcher_names_is_gone_the_tap_still_runs_the_hook(
    tmp_path, built, layout
):
    """A source tree moved or deleted after the install: with setuptools' finder the
    launcher finds the tree there ("editable": recorded); with nothing, the hook runs
    bare and unrecorded ("none"). Either way its answer is the hook's."""
    text = (built / "editable-hooktui").read_text()
    gone = tmp_path / "gone" / "tap" / "hotpath" / "boot.py"
    launcher = tmp_path / "hooktui"
    launcher.write_text(
        text.replace(repr(str(TREE / "tap" / "hotpath" / "boot.py")), repr(str(gone)))
    )
    launcher.chmod(0o755)
    venv = make_venv(tmp_path / "venv", layout, launcher)
    stream = tmp_path / "s.jsonl"
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTHON")}
    out = run_tap(venv / "bin" / "hooktui", stream, env)
    assert (out.stdout, out.stderr, out.returncode) == (b'{"hook_event_name": "Stop"}', b"", 4)
    if layout == "editable":
        assert wait_for_records(stream, 1)[0]["exit_code"] == 4
    else:
        assert not stream.exists()
