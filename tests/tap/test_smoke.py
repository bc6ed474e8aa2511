import subprocess

from tests.conftest import HOOKTUI


def test_version_and_help():
    out = subprocess.run(
        [HOOKTUI, "--version"], capture_output=True, text=True, check=True, timeout=60
    )
    assert out.stdout.startswith("hooktui ")
    helped = subprocess.run(
        [HOOKTUI, "--help"], capture_output=True, text=True, check=True, timeout=60
    )
    for name in ("tap", "watch", "replay", "install", "demo"):
        assert f"  {name}" in helped.stdout


def test_unknown_command_is_one_line_and_exit_2():
    out = subprocess.run([HOOKTUI, "frobnicate"], capture_output=True, text=True, timeout=60)
    assert out.returncode == 2
    assert out.stderr.count("\n") == 1 and "frobnicate" in out.stderr
