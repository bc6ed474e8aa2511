"""The settings file, attacked: install and uninstall must never lose, tear or misplace it.

Real files, real `hooktui` processes; where a moment must be hit exactly (the
runtime writing the file while install edits it), a Python audit hook in the
real command's process does the other program's write at that moment.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from hooktui.tap.install.wrapper import read_shell

from tests.conftest import HOOKTUI

SETTINGS = {"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "echo done"}]}]}}


def run(args: list[str], cwd: Path, prefix: list[str] | None = None) -> subprocess.CompletedProcess:
    return subprocess.run(
        [*(prefix or []), HOOKTUI, *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


def write_settings(path: Path, text: str | None = None, mode: int = 0o600) -> bytes:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text if text is not None else json.dumps(SETTINGS, indent=2))
    path.chmod(mode)
    return path.read_bytes()


def install(path: Path, prefix: list[str] | None = None) -> subprocess.CompletedProcess:
    stream = path.parent / "stream.jsonl"
    args = ["install", "claude-code", "--settings", str(path), "--stream", str(stream)]
    return run(args, path.parent, prefix)


def uninstall(path: Path) -> subprocess.CompletedProcess:
    return run(["uninstall", "claude-code", "--settings", str(path)], path.parent)


def test_a_backup_name_planted_as_a_link_is_replaced_never_written_through(tmp_path):
    """A cloned repository can hold `.claude/settings.json.hooktui-backup` as a link to
    any file of the user's (`~/.bashrc`): install wrote the settings' bytes there, with
    their owner and mode. The link itself is now replaced by the backup."""
    victim = tmp_path / "home" / ".bashrc"
    victim.parent.mkdir()
    victim.write_bytes(b"export PATH=/precious\n")
    project = tmp_path / "project" / ".claude"
    path = project / "settings.json"
    original = write_settings(path)
    backup = project / "settings.json.hooktui-backup"
    backup.symlink_to(victim)
    not_yet = tmp_path / "home" / ".ssh" / "authorized_keys"
    not_yet.parent.mkdir()
    dangling = project.parent / ".claude-local" / "settings.json"
    write_settings(dangling)
    dangling_backup = dangling.with_name("settings.json.hooktui-backup")
    dangling_backup.symlink_to(not_yet)

    assert install(path).returncode == 0
    assert install(dangling).returncode == 0
    assert victim.read_bytes() == b"export PATH=/precious\n"
    assert not not_yet.exists()
    for link, settings, bytes_ in ((backup, path, original), (dangling_backup, dangling, None)):
        assert not link.is_symlink() and link.read_bytes() == (bytes_ or link.read_bytes())
        assert read_shell(
            json.loads(settings.read_text())["hooks"]["Stop"][0]["hooks"][0]["command"]
        )
    assert uninstall(path).returncode == 0
    assert path.read_bytes() == original and not backup.exists()


def test_a_lone_surrogate_in_a_file_with_other_text_is_wrapped_and_restored(tmp_path):
    """`"\\ud800"` is valid JSON; in a file that is not all ASCII, install wrote it
    raw, failed to encode it with a traceback, and left a stray backup."""
    text = (
        '{"note": "café", "hooks": {"Stop": [{"hooks": [{"type": "command", '
        '"command": "cat >/dev/null; echo \\ud800 \\u00e9 é"}]}]}}'
    )
    path = tmp_path / "settings.json"
    original = write_settings(path, text)
    result = install(path)
    assert result.returncode == 0 and "Traceback" not in result.stderr, result.stderr
    command = json.loads(path.read_text())["hooks"]["Stop"][0]["hooks"][0]["command"]
    assert read_shell(command).original == "cat >/dev/null; echo \ud800 \u00e9 é"
    assert "café" in path.read_text(encoding="utf-8")  # the file's own text kept as written
    assert uninstall(path).returncode == 0
    assert path.read_bytes() == original
    assert sorted(p.name for p in tmp_path.iterdir()) == ["settings.json"]


# The runtime's write, done by an audit hook in the hooktui process at the moment
# given: after the file was read, before the new one is renamed over it.
OTHER_WRITER = """
import os, sys
path, edit, verb = sys.argv[1], sys.argv[2].encode(), sys.argv[3]
name = os.path.basename(path)
done = []

def the_runtime_writes(event, args):
    if event != "open" or done or not isinstance(args[0], str):
        return
    base = os.path.basename(args[0])
    if base.startswith("." + name + ".") and base.endswith(".tmp") and "backup" not in base:
        done.append(1)
        with open(path, "wb") as f:
            f.write(edit)

sys.addaudithook(the_runtime_writes)
from hooktui.tui.cli.main import main
sys.exit(main([verb, "claude-code", "--settings", path, *sys.argv[4:]]))
"""


@pytest.mark.parametrize("verb", ["install", "uninstall"])
def test_the_runtime_writing_the_file_meanwhile_keeps_its_write(tmp_path, verb):
    """Claude Code writes settings.json itself ("always allow"): a write that landed
    between install's read and its rename was silently replaced by install's copy."""
    path = tmp_path / "settings.json"
    write_settings(path)
    if verb == "uninstall":
        assert install(path).returncode == 0
    before = path.read_bytes()
    theirs = json.dumps({**json.loads(before), "permissions": {"allow": ["Bash(ls:*)"]}})
    script = tmp_path / "writer.py"
    script.write_text(OTHER_WRITER)
    extra = ["--stream", str(tmp_path / "s.jsonl")] if verb == "install" else []
    done = subprocess.run(
        [sys.executable, str(script), str(path), theirs, verb, *extra],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 1, done.stdout + done.stderr
    assert "changed while hooktui was editing it" in done.stderr
    assert path.read_text() == theirs  # the other program's write stands
    names = sorted(p.name for p in tmp_path.iterdir() if p.name.startswith("settings"))
    if verb == "install":
        assert names == ["settings.json"]  # no backup of a file it did not change
        assert install(path).returncode == 0  # run again: wrapped, their edit kept
        assert json.loads(path.read_text())["permissions"] == {"allow": ["Bash(ls:*)"]}
    else:
        assert names == ["settings.json", "settings.json.hooktui-backup"]
        assert uninstall(path).returncode == 0
        assert json.loads(path.read_text()) == {
            **SETTINGS,
            "permissions": {"allow": ["Bash(ls:*)"]},
        }


def root_without_override() -> list[str]:
    """Run as root but subject to file permissions, as any user is."""
    if os.geteuid() != 0 or shutil.which("setpriv") is None:
        pytest.skip("needs root and setpriv to drop CAP_DAC_OVERRIDE")
    return ["setpriv", "--bounding-set=-dac_override,-dac_read_search"]


def test_a_folder_that_can_be_written_but_not_listed(tmp_path):
    """Install synced the folder after its rename by opening it for reading: in a
    folder of mode 0300 that failed after the backup was in place, so install said
    "Permission denied" and could never wrap it. The sync is best effort now."""
    prefix = root_without_override()
    folder = tmp_path / "dropbox"
    path = folder / "settings.json"
    original = write_settings(path)
    folder.chmod(0o300)
    try:
        result = install(path, prefix)
        assert result.returncode == 0, result.stderr
    finally:
        folder.chmod(0o700)
    assert read_shell(json.loads(path.read_text())["hooks"]["Stop"][0]["hooks"][0]["command"])
    assert uninstall(path).returncode == 0
    assert path.read_bytes() == original


def test_a_read_only_folder_is_named_and_left_untouched(tmp_path):
    prefix = root_without_override()
    folder = tmp_path / "ro"
    path = folder / "settings.json"
    original = write_settings(path)
    folder.chmod(0o555)
    try:
        result = install(path, prefix)
    finally:
        folder.chmod(0o755)
    assert result.returncode == 1
    assert result.stderr == (
        f"hooktui install: {path}: cannot write: Permission denied; left untouched\n"
    )
    assert path.read_bytes() == original
    assert sorted(p.name for p in folder.iterdir()) == ["settings.json"]


def test_a_full_disk_leaves_the_original_whole_and_says_which_file(tmp_path):
    if os.geteuid() != 0 or shutil.which("mount") is None:
        pytest.skip("needs root to mount a small tmpfs")
    disk = tmp_path / "disk"
    disk.mkdir()
    if subprocess.run(
        ["mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", str(disk)], timeout=60
    ).returncode:
        pytest.skip("cannot mount a tmpfs here")
    try:
        hooks = [{"type": "command", "command": f"echo {i}"} for i in range(40)]
        path = disk / "settings.json"
        original = write_settings(path, json.dumps({"hooks": {"Stop": [{"hooks": hooks}]}}))
        fill = disk / "fill"
        with open(fill, "wb", buffering=0) as f:
            try:
                while True:
                    f.write(b"\0" * 512)
            except OSError:
                pass
        # Full; then room for the backup (one page) but not for the wrapped file.
        for room in (0, 4096 + 512):
            os.truncate(fill, fill.stat().st_size - room)
            result = install(path)
            assert result.returncode == 1
            assert result.stderr == (
                f"hooktui install: {path}: cannot write: No space left on device; left untouched\n"
            )
            assert path.read_bytes() == original
            assert sorted(p.name for p in disk.iterdir()) == ["fill", "settings.json"]
    finally:
        subprocess.run(["umount", str(disk)], check=True, timeout=60)


def test_a_hard_linked_file_is_replaced_whole_and_install_says_the_link_is_gone(tmp_path):
    """Written by rename (never torn), the file is a new one: another name linked to it
    (a dotfiles copy) keeps the original. Install did this without a word."""
    dotfiles = tmp_path / "dotfiles" / "claude.json"
    original = write_settings(dotfiles)
    path = tmp_path / "project" / "settings.json"
    path.parent.mkdir()
    os.link(dotfiles, path)
    result = install(path)
    assert result.returncode == 0
    assert f"note: {path} had 1 other hard link(s)" in result.stdout
    assert dotfiles.read_bytes() == original  # the other name: untouched, whole
    assert uninstall(path).returncode == 0
    assert path.read_bytes() == original
    assert "hard link" not in install(tmp_path / "dotfiles" / "claude.json").stdout


def test_a_setgid_folder_does_not_hand_the_file_to_its_group(tmp_path):
    """The new file's group comes from a setgid folder, not from us: install checked
    the owner against its own ids, saw itself, and left a 0640 file of group root
    readable by the folder's group (65534 here)."""
    if os.geteuid() != 0:
        pytest.skip("needs root to give the folder a group of its own")
    folder = tmp_path / "shared"
    folder.mkdir()
    os.chown(folder, 0, 65534)
    folder.chmod(0o2775)
    path = folder / "settings.json"
    original = write_settings(path, mode=0o640)
    os.chown(path, 0, 0)
    assert install(path).returncode == 0
    for p in (path, folder / "settings.json.hooktui-backup"):
        st = p.stat()
        assert (st.st_uid, st.st_gid, st.st_mode & 0o7777) == (0, 0, 0o640), p
    assert uninstall(path).returncode == 0
    st = path.stat()
    assert path.read_bytes() == original and (st.st_gid, st.st_mode & 0o7777) == (0, 0o640)


OTHER_INSTALL = OTHER_WRITER.replace("sys.argv[2].encode()", "open(sys.argv[2], 'rb').read()")


def test_two_installs_racing_keep_the_backup_the_winner_needs(tmp_path):
    """Two installs read the same original; the first to rename wins and the other
    stops (the file changed under it). The loser deleted the backup it had written,
    the very one the winner's wrapped file needed: uninstall could no longer give
    the file back byte for byte."""
    path = tmp_path / "settings.json"
    text = '{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "echo caf\\u00e9"}]}]}}'
    original = write_settings(path, text)
    assert install(path).returncode == 0
    winner = tmp_path / "winner.json"
    winner.write_bytes(path.read_bytes())  # the file as the other install leaves it
    path.write_bytes(original)
    (tmp_path / "settings.json.hooktui-backup").unlink()
    script = tmp_path / "other.py"
    script.write_text(OTHER_INSTALL)
    stream = ["--stream", str(path.parent / "stream.jsonl")]
    done = subprocess.run(
        [sys.executable, str(script), str(path), str(winner), "install", *stream],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 1 and "changed while hooktui was editing it" in done.stderr
    assert path.read_bytes() == winner.read_bytes()
    result = uninstall(path)
    assert "restored byte for byte" in result.stdout, result.stdout
    assert path.read_bytes() == original
