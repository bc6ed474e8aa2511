"""The matrix's shared pieces: the http hooks' servers (one per test process)."""

from __future__ import annotations

import pytest

from tests.guarantee import network


@pytest.fixture(scope="session")
def net(tmp_path_factory):
    found, stop = network.start(tmp_path_factory.mktemp("ca"))
    yield found
    stop()
