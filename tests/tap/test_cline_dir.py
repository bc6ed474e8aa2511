"""Cline's `$CLINE_DIR/hooks`: with CLINE_DIR set, Cline 3.0.65 reads its user hooks
there in place of `~/.cline/hooks` (@cline/shared's resolveClineDir and
resolveHooksConfigSearchPaths: `~/Documents/Cline/Hooks`, `<cline dir>/hooks`, the
workspace's `.clinerules/hooks` and `.cline/hooks`, each folder once). `hooktui
hooks` lists what Cline reads, and `install --user` / `uninstall --user` wrap and give
back the files there, byte for byte; `~/.cline/hooks` is left alone."""

from __future__ import annotations

from pathlib import Path

from hooktui.tap.inventory.read import inventory

from tests.tap.test_install_hookfiles import GUARD, hooktui, snapshot


def _tree(tmp_path: Path) -> tuple[Path, Path, Path]:
    home, project, moved = tmp_path / "home", tmp_path / "project", tmp_path / "elsewhere"
    for folder, name in (
        (home / ".cline" / "hooks", "PreToolUse.py"),  # not read while CLINE_DIR is set
        (home / "Documents" / "Cline" / "Hooks", "PostToolUse.py"),
        (moved / "hooks", "PreToolUse.py"),
        (project / ".clinerules" / "hooks", "PreToolUse.py"),
    ):
        folder.mkdir(parents=True)
        (folder / name).write_text(GUARD)
        (folder / name).chmod(0o750)
    (moved / "hooks" / "TaskComplete").write_text("cat >/dev/null\n")
    return home, project, moved


def test_the_inventory_reads_cline_dir_hooks_in_place_of_the_home_ones(tmp_path: Path) -> None:
    home, project, moved = _tree(tmp_path)
    for cline_dir, user_hooks in (
        (str(moved), moved / "hooks"),
        (f"  {moved}\n", moved / "hooks"),  # trimmed, as Cline does
        ("../elsewhere", moved / "hooks"),  # relative: from the project folder
        ("   ", home / ".cline" / "hooks"),  # blank: not set
    ):
        env = {"HOME": str(home), "CLINE_DIR": cline_dir}
        inv = inventory(["cline"], project=project, environ=env)
        folders = [Path(f.path).resolve() for f in inv.files]
        assert folders == [
            home / "Documents" / "Cline" / "Hooks",
            user_hooks,
            project / ".clinerules" / "hooks",
            project / ".cline" / "hooks",
        ], cline_dir
        ran = [Path(h.path).resolve() / h.where for h in inv.hooks]
        assert (home / ".cline" / "hooks" / "PreToolUse.py" in ran) is (
            user_hooks != moved / "hooks"
        )
        assert (moved / "hooks" / "PreToolUse.py" in ran) is (user_hooks == moved / "hooks")


def test_a_cline_dir_that_is_a_project_folder_is_read_once(tmp_path: Path) -> None:
    home, project, _ = _tree(tmp_path)
    env = {"HOME": str(home), "CLINE_DIR": str(project / ".clinerules")}
    inv = inventory(["cline"], project=project, environ=env)
    assert [Path(f.path) for f in inv.files] == [
        home / "Documents" / "Cline" / "Hooks",
        project / ".clinerules" / "hooks",
        project / ".cline" / "hooks",
    ]
    assert len([h for h in inv.hooks if h.where == "PreToolUse.py"]) == 1


def test_install_user_wraps_cline_dir_hooks_and_uninstall_gives_them_back(tmp_path: Path) -> None:
    home, project, moved = _tree(tmp_path)
    env = {"HOME": str(home), "CLINE_DIR": str(moved)}
    user = {d: snapshot(d) for d in (home / ".cline" / "hooks", home / "Documents/Cline/Hooks")}
    before = snapshot(moved / "hooks")
    stream = tmp_path / "s.jsonl"
    res = hooktui("install", "cline", "--user", "--stream", str(stream), cwd=project, env=env)
    assert res.returncode == 0, res.stderr
    assert str(moved / "hooks") in res.stdout
    wrapped = snapshot(moved / "hooks")
    assert wrapped != before and len(wrapped) == len(before) + 2  # each hook and its original
    assert {d: snapshot(d) != s for d, s in user.items()} == {
        home / ".cline" / "hooks": False,  # Cline does not read it now: left alone
        home / "Documents/Cline/Hooks": True,  # the other user folder it reads
    }
    inv = inventory(["cline"], project=project, environ=env)
    assert all(h.wrapped for h in inv.hooks if Path(h.path) == moved / "hooks")

    res = hooktui("uninstall", "cline", "--user", cwd=project, env=env)
    assert res.returncode == 0, res.stderr
    assert snapshot(moved / "hooks") == before  # bytes, mode, inode, times, owner
    assert {d: snapshot(d) for d in user} == user
