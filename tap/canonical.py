"""The canonical call, the hook's outcome and the verdict: plain classes, no imports.

Every runtime reads its native request into a `Call` and the hook's answer into
a `Verdict` (tap/runtimes). The tap's recorder does that once per tool call, in
a process of its own, where importing msgspec, `dataclasses` or even `typing`
costs more than writing the record; so these are plain slotted classes, built
by keyword, compared field by field. What readers decode from a stream is the
msgspec `Record` in model.py, which re-exports these.
"""

from __future__ import annotations

TYPE_CHECKING = False  # not `typing`'s: importing typing costs more than a record
if TYPE_CHECKING:
    from typing import Any


class _Unset:
    """The value of a verdict field the hook did not set (distinct from None)."""

    __slots__ = ()

    def __repr__(self) -> str:
        return "UNSET"

    def __bool__(self) -> bool:
        return False

    def __reduce__(self) -> str:
        return "UNSET"  # pickles as this module's one instance


UNSET: Any = _Unset()

EVENTS = (
    "pre_tool_use",
    "post_tool_use",
    "user_prompt",
    "permission_request",
    "stop",
    "session",
    "notification",
    "other",
)

# `defer`: the hook hands the call to whoever runs the agent, to decide later (the
# call neither runs nor is refused now).
DECISIONS = ("allow", "deny", "ask", "defer", "modify", "replace", "failure")

# Why a hook "did not answer", in the runtime's own terms.
FAILURES = (
    "exit_code",  # non-zero exit the runtime does not read as an answer
    "signal",  # killed by a signal
    "timeout",  # ran past its timeout
    "empty_output",  # exit 0 but nothing on stdout where an answer is required
    "invalid_json",  # stdout was not the JSON the runtime wanted
    "wrong_decision",  # a decision that is not valid for this event
    "unsupported",  # valid JSON, but not an answer this runtime accepts
    "spawn_error",  # the hook command could not be started
)

# What the runtime does after a failure.
EFFECTS = ("proceeds", "blocks")


def fails_open(decision: str, effect: str) -> bool:
    """A failure the runtime let through: the one rule every count, mark and column uses.

    Only `blocks` stops the call: an effect a record lacks or a reader does not
    know counts as going ahead, so a guard's silent failure is never hidden.
    """
    return decision == "failure" and effect != "blocks"


# Request fields beyond the call itself that a runtime may tell its hooks
# (`Call.details`), by canonical name; any runtime fills the ones it has.
DETAILS = {
    "permission_mode": "the agent's permission mode",
    "agent_type": "the kind of (sub-)agent making the call",
    "prompt_id": "the prompt the call belongs to",
    "effort": "the reasoning effort in force",
    "mcp_server": "the MCP server of the tool",
    "error": "the tool's error (a failed call)",
    "is_interrupt": "the tool was interrupted",
    "last_message": "the agent's last message",
    "stop_hook_active": "the agent is already going on because a stop hook said so",
    "on_failure": "what the hook's own settings make its failure do (block or continue)",
}

# What an answer makes the runtime do besides its decision (`Verdict.answer_effects`):
# every runtime names what its answers ask for by these names, and only these
# (docs/records.md's "Answer effects" table is generated from this one and checked against it).
# Records written before a name was settled are read with today's names
# (Runtime.effect_names_before, applied by model.Record at decode).
ACTIONS = {
    "user_message": "a message the runtime shows the user",
    "hide_output": "the hook's output is kept out of the transcript",
    "stop": "the agent stops after this; the value is what the user is told",
    "interrupt": "the agent is interrupted along with the refusal",
    "permissions": "permission rules the answer adds or changes",
    "retry": "the model is told it may retry the refused call",
    "elicitation_action": "the answer given for the user to an MCP server's question",
    "elicitation_content": "the values given for the user to an MCP server's form",
    "initial_message": "a first user message the session starts with",
    "session_title": "the session's new title",
    "watch_paths": "files the runtime watches from now on",
    "reload_skills": "the runtime reloads its skills",
    "suppress_prompt": "the prompt as typed is not sent (the added context is)",
    "display_content": "what the user sees instead of the message",
    "classifier_context": "text given to the permission classifier",
    "worktree_path": "the worktree folder the hook made",
    "async": "the hook went on in the background: the runtime did not wait for it",
    "terminal_sequence": "a terminal escape sequence the runtime prints",
    "model_request": "the request sent to the model, rewritten",
    "model_response": "the model's answer, replaced (or given instead of asking the model)",
    "tool_config": "which tools the model may call, restricted",
    "follow_up_call": "a tool call the runtime makes next; the model gets its result instead",
    "clear_context": "the conversation history is cleared",
}

# The DETAILS that hold the model's words or a tool's output: kept as digests only
# under `--capture digest`, like prompts and outputs (answer_effects are, whole).
PRIVATE_TEXTS = frozenset({"last_message", "error"})


class _Plain:
    """Keyword-built, slotted, equal when every field is: what the Structs gave, no more.

    A subclass lists its fields in `__slots__` and their defaults in `_DEFAULTS`;
    a field without a default must be given.
    """

    __slots__ = ()
    _DEFAULTS: dict[str, Any] = {}

    def __init__(self, **given: Any) -> None:
        for name in self.__slots__:
            if name in given:
                value = given.pop(name)
            elif name in self._DEFAULTS:
                value = self._DEFAULTS[name]
            else:
                raise TypeError(f"{type(self).__name__}: missing required argument {name!r}")
            object.__setattr__(self, name, value)
        if given:
            raise TypeError(f"{type(self).__name__}: unexpected argument {next(iter(given))!r}")

    def __eq__(self, other: object) -> bool:
        if type(other) is not type(self):
            return NotImplemented
        return all(getattr(self, n) == getattr(other, n) for n in self.__slots__)

    __hash__ = None  # type: ignore[assignment]  # mutable, as the Structs were

    def __repr__(self) -> str:
        fields = ", ".join(f"{n}={getattr(self, n)!r}" for n in self.__slots__)
        return f"{type(self).__name__}({fields})"


class Call(_Plain):
    """One hook invocation, as every runtime would describe it."""

    __slots__ = (
        "runtime",
        "event",
        "native_event",
        "tool_name",
        "tool_input",
        "tool_output",  # post only
        "is_error",  # post only: True, False or None (not said)
        "session_id",
        "agent_id",
        "tool_call_id",
        "cwd",
        "prompt",  # str or None
        "details",  # {DETAILS name: value} the request told beyond the call, or None
    )
    _DEFAULTS = {
        "native_event": "",
        "tool_name": "",
        "tool_input": None,
        "tool_output": None,
        "is_error": None,
        "session_id": "",
        "agent_id": "",
        "tool_call_id": "",
        "cwd": "",
        "prompt": None,
        "details": None,
    }


class Outcome(_Plain):
    """What the hook process did: its bytes, how it ended, how long it took."""

    __slots__ = (
        "stdout",
        "stderr",
        "exit_code",  # None when killed by a signal or never started
        "signal",
        "timed_out",
        "duration_ms",
        "spawn_error",  # non-empty when the command could not be started
    )
    _DEFAULTS = {
        "stdout": b"",
        "stderr": b"",
        "exit_code": None,
        "signal": None,
        "timed_out": False,
        "duration_ms": 0.0,
        "spawn_error": "",
    }


class Verdict(_Plain):
    """The canonical decision a runtime reads out of an Outcome."""

    __slots__ = (
        "decision",
        "reason",
        "context",  # text added to the model's context, where the runtime has that
        "updated_input",  # modify: the whole new tool input (UNSET when none)
        "updated_output",  # replace: the new tool output (UNSET when none)
        "failure",  # one of FAILURES when decision == "failure"
        "failure_detail",  # a human sentence: what exactly was wrong
        "effect",  # one of EFFECTS when decision == "failure"
        # What else in the answer the runtime acts on, beyond the decision: the
        # answer's field name -> its value (a rewritten model request, a synthetic
        # model answer, a follow-up tool call, a cleared context, ...). Generic: readers
        # show the pairs as they are. A runtime builds a fresh dict (never mutated).
        "answer_effects",
    )
    _DEFAULTS = {
        "reason": "",
        "context": "",
        "updated_input": UNSET,
        "updated_output": UNSET,
        "failure": "",
        "failure_detail": "",
        "effect": "",
        "answer_effects": {},
    }

    @property
    def lets_through(self) -> bool:
        """True when the tool call goes ahead (possibly rewritten)."""
        return self.decision in ("allow", "modify", "replace") or fails_open(
            self.decision, self.effect
        )
