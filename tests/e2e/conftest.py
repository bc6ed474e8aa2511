"""Fixtures for the end-to-end tests (the real CLIs; HOOKTUI_E2E=1 turns them on)."""

from __future__ import annotations

from pathlib import Path

import pytest

# The shared checks live in plain modules; let pytest explain their failures.
pytest.register_assert_rewrite(
    "tests.e2e.flow", "tests.e2e.drivers", "tests.e2e.harness", "tests.e2e.batch"
)

from tests.e2e.harness import Sandbox  # noqa: E402


@pytest.fixture
def sandbox(tmp_path: Path) -> Sandbox:
    return Sandbox(tmp_path)
