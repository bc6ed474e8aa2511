"""How long a call may stay held: always well inside the runtime's timeout for the hook.

The runtime's clock started before the tap's and the answer still has to reach
it, so the hold ends at 80 % of the timeout, and at least 2 s before it. A call
with less than MIN_HOLD_S left is not held at all.
"""

from __future__ import annotations

SHARE = 0.8
MARGIN_S = 2.0
MIN_HOLD_S = 0.5
# With no timeout known at all (an unknown runtime, no --timeout-ms).
UNKNOWN_TIMEOUT_S = 30.0
# However long the timeout, a person answers within this (or the call goes on).
MAX_HOLD_S = 600.0


def hold_budget(timeout_ms: int | float | None, elapsed_s: float) -> float:
    """Seconds the call may still be held, `elapsed_s` after the tap started; 0: don't hold."""
    timeout_s = UNKNOWN_TIMEOUT_S if timeout_ms is None else timeout_ms / 1000
    usable = min(timeout_s * SHARE, timeout_s - MARGIN_S, MAX_HOLD_S)
    left = usable - elapsed_s
    return left if left >= MIN_HOLD_S else 0.0
