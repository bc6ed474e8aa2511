"""The real Qwen Code, with and without the tap: it must not tell the difference.

All cases run in ONE Qwen Code session (batch.py; a start costs it seconds),
bare and then tapped (`hooktui install qwen-code`): its Claude-shaped requests
are recorded as Qwen Code's and judged by its rules.
"""

from __future__ import annotations

import pytest

from tests.e2e.batch import Batch, check_records, check_same, check_seen, run_batch
from tests.e2e.cases_chat import QWEN
from tests.e2e.drivers_chat import QWEN as DRIVER
from tests.e2e.flow import Case
from tests.e2e.harness import Sandbox, skip_reason

_skip = skip_reason("qwen-code")
pytestmark = pytest.mark.skipif(_skip is not None, reason=str(_skip))
PRE_TIMEOUT = 4  # seconds; the timeout case sleeps past it


@pytest.fixture(scope="module")
def batches(tmp_path_factory) -> tuple[Batch, Batch]:
    sb = Sandbox(tmp_path_factory.mktemp("qwen"))
    bare = run_batch(DRIVER, sb, QWEN, tapped=False, pre_timeout=PRE_TIMEOUT)
    tapped = run_batch(DRIVER, sb, QWEN, tapped=True, pre_timeout=PRE_TIMEOUT)
    return bare, tapped


@pytest.mark.parametrize("case", QWEN, ids=lambda c: c.name)
def test_qwen_code_same_with_and_without_tap(batches, case: Case) -> None:
    bare, tapped = batches
    check_seen(bare.seen[case.name], case)
    check_seen(tapped.seen[case.name], case)
    check_same(DRIVER, bare, tapped, case)


@pytest.mark.parametrize("case", QWEN, ids=lambda c: c.name)
def test_qwen_code_record_agrees(batches, case: Case) -> None:
    check_records(DRIVER, batches[1], case)
