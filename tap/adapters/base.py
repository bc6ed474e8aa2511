"""What every runtime adapter does: detect, parse, judge, encode."""

from __future__ import annotations

from typing import Any

from hooktui.tap.model import Call, Outcome, Verdict


class Adapter:
    """One runtime's reading of the hook protocol.

    - detect(request): does this parsed JSON request look like this runtime's?
    - parse(request): native request -> canonical Call
    - judge(call, outcome): what the runtime itself makes of the hook's answer
      (exit codes, empty output, wrong decision for the event, legacy forms)
    - encode(call, verdict): the native answer (stdout, stderr, exit code) that
      makes this runtime reach `verdict`; used by the demo and the tests.
    """

    name: str = "unknown"
    # Environment variables this runtime sets for hooks and hooks read.
    env_vars: tuple[str, ...] = ()
    # The runtime's default hook timeout, when it has one.
    default_timeout_ms: int | None = None

    def detect(self, request: Any) -> bool:
        raise NotImplementedError

    def parse(self, request: Any) -> Call:
        raise NotImplementedError

    def judge(self, call: Call, outcome: Outcome) -> Verdict:
        raise NotImplementedError

    def encode(self, call: Call, verdict: Verdict) -> tuple[bytes, bytes, int]:
        raise NotImplementedError
