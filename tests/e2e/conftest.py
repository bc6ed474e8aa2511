"""Fixtures for the end-to-end tests (the real CLIs; HOOKTUI_E2E=1 turns them on)."""

from __future__ import annotations

from pathlib import Path

import pytest

# The shared checks live in plain modules; let pytest explain their failures.
pytest.register_assert_rewrite(
    "tests.e2e.flow", "tests.e2e.drivers", "tests.e2e.harness", "tests.e2e.batch"
)

from tests.e2e.harness import Sandbox  # noqa: E402

# A session of a real CLI costs 5-30 s, and a module's shared sessions run in its
# first test's set-up: on a loaded 2-core machine that took 157 s. Past this, a
# test is hung (pyproject's `timeout` is for the rest of the suite).
E2E_TIMEOUT_S = 600


def pytest_collection_modifyitems(config, items) -> None:
    here = Path(__file__).parent
    for item in items:
        if item.path.is_relative_to(here) and not item.get_closest_marker("timeout"):
            item.add_marker(pytest.mark.timeout(E2E_TIMEOUT_S))


@pytest.fixture
def sandbox(tmp_path: Path) -> Sandbox:
    return Sandbox(tmp_path)
