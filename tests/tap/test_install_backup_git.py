"""Install and git (tap/install/gitignore.py): a backup git never takes, a shared file said.

A per-person settings file (Claude Code's `.claude/settings.local.json`) is kept
out of git and may hold tokens; a team's `.claude/settings.json` is tracked. Install
writes its backup beside either under a name no ignore rule covers. In a real
repository, with the real git: after install, `git add -A` never takes the backup;
wrapping a tracked file warns that it is shared and offers the per-person file.
"""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest

from tests.conftest import HOOKTUI

SETTINGS = {
    "env": {"DEPLOY_TOKEN": "tok-do-not-commit"},
    "hooks": {"Stop": [{"hooks": [{"type": "command", "command": "echo done"}]}]},
}


def git(repo: Path, *args: str) -> str:
    env = {**os.environ, "HOME": str(repo.parent), "GIT_CONFIG_NOSYSTEM": "1"}
    done = subprocess.run(
        ["git", *args],
        cwd=repo,
        capture_output=True,
        text=True,
        env=env,
        check=True,
        timeout=60,
    )
    return done.stdout


def hooktui(repo: Path, *args: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "HOME": str(repo.parent), "GIT_CONFIG_NOSYSTEM": "1"}
    return subprocess.run(
        [HOOKTUI, *args], cwd=repo, capture_output=True, text=True, env=env, timeout=60
    )


def repo_with(tmp_path: Path, rel: str, ignore: str) -> tuple[Path, Path]:
    repo = tmp_path / "repo"
    repo.mkdir()
    git(repo, "init", "-q")
    (repo / ".gitignore").write_text(ignore)
    settings = repo / rel
    settings.parent.mkdir(parents=True, exist_ok=True)
    settings.write_text(json.dumps(SETTINGS, indent=2) + "\n")
    return repo, settings


def staged(repo: Path) -> set[str]:
    git(repo, "add", "-A")
    return set(git(repo, "diff", "--cached", "--name-only", "-z").split("\0")) - {""}


def install(repo: Path, settings: Path) -> subprocess.CompletedProcess:
    stream = repo.parent / "stream.jsonl"
    args = ["install", "claude-code", "--settings", str(settings), "--stream", str(stream)]
    done = hooktui(repo, *args)
    assert done.returncode == 0, done.stderr
    return done


@pytest.mark.parametrize(
    ("rel", "ignore"),
    [
        (".claude/settings.local.json", ".claude/settings.local.json\n"),
        # Names a gitignore pattern reads as syntax, matched by an unanchored rule.
        ("we*ird [dir] #1/!x/.claude/settings.local.json", "settings.local.json\n"),
    ],
)
def test_the_backup_of_an_ignored_file_is_ignored_too(tmp_path, rel, ignore):
    repo, settings = repo_with(tmp_path, rel, ignore)
    original = settings.read_bytes()
    done = install(repo, settings)
    backup = settings.with_name(settings.name + ".hooktui-backup")
    assert backup.read_bytes() == original
    assert "kept out of git" in done.stdout, done.stdout
    assert staged(repo) == {".gitignore"}  # neither the file nor its backup, tokens and all
    # Uninstall gives the file back (the rule stays in the clone's own exclude).
    assert hooktui(repo, "uninstall", "claude-code", "--settings", str(settings)).returncode == 0
    assert settings.read_bytes() == original and not backup.exists()


def commit_all(repo: Path) -> None:
    git(repo, "add", "-A")
    git(repo, "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "team settings")


def test_a_tracked_file_warns_offers_the_local_file_and_its_backup_stays_out(tmp_path):
    repo, settings = repo_with(tmp_path, ".claude/settings.json", "")
    commit_all(repo)
    args = ["install", "claude-code", "--stream", str(tmp_path / "s.jsonl")]
    dry = hooktui(repo, *args, "--dry-run")
    assert dry.returncode == 0 and git(repo, "status", "--porcelain") == ""
    done = install(repo, settings)
    for out in (dry.stdout, done.stdout):
        assert f"warning: {settings} is tracked by git" in out, out
        assert "this machine's paths" in out and "do not commit it" in out
        local = settings.with_name("settings.local.json")
        assert f"--settings {local}" in out, out
    assert "kept out of git" in done.stdout
    # The tracked file is changed (the warning said so); its backup is never staged.
    assert staged(repo) == {".claude/settings.json"}


def test_a_tracked_local_file_is_not_offered(tmp_path):
    repo, settings = repo_with(tmp_path, ".claude/settings.json", "")
    (repo / ".claude" / "settings.local.json").write_text("{}\n")
    commit_all(repo)
    done = install(repo, settings)
    assert "is tracked by git" in done.stdout and "settings.local.json" not in done.stdout
    assert "hooktui install claude-code --user" in done.stdout


def test_an_untracked_file_gets_no_warning_and_its_backup_stays_out(tmp_path):
    repo, settings = repo_with(tmp_path, ".claude/settings.json", "")
    done = install(repo, settings)
    assert "is tracked by git" not in done.stdout and "kept out of git" in done.stdout
    assert ".claude/settings.json.hooktui-backup" not in staged(repo)


def test_outside_a_repository_install_says_nothing_of_git(tmp_path):
    (tmp_path / "proj").mkdir()
    settings = tmp_path / "proj" / ".claude" / "settings.local.json"
    settings.parent.mkdir()
    settings.write_text(json.dumps(SETTINGS))
    done = install(tmp_path / "proj", settings)
    assert "git" not in done.stdout and "backup of the original" in done.stdout
