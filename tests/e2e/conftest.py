"""Fixtures for the end-to-end tests (the real CLIs; HOOKTUI_E2E=1 turns them on)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.e2e.harness import Sandbox


@pytest.fixture
def sandbox(tmp_path: Path) -> Sandbox:
    return Sandbox(tmp_path)
