"""The verdict-agreement table (docs/verdict-agreement.md), made from the pinned e2e cases.

One row per case of the Claude Code, Codex and Gemini CLI tables (cases.py,
cases_claude.py, cases_events.py) and of GitHub Copilot CLI's, Qwen Code's, Mistral
Vibe's, the Cline CLI's and OpenCode's (cases_chat.py, cases_qwen.py, cases_vibe.py,
cases_cline.py, cases_opencode.py), and of Continue CLI's hook runner
(cases_continue.py; the 1.5.47 CLI fires no hook): the hook's answer, what the
real CLI did with it (as the case pins it: the e2e tests fail when the CLI does otherwise), what
hooktui's record of the call says (the fields the record test checks), and
whether they agree (a case whose `disagreement` is set is a strict expected
failure of the record test until the adapter reads it as the runtime did).

    python -m tests.e2e.agreement          # rewrite the table in docs/verdict-agreement.md
    python -m tests.e2e.agreement --check  # exit 1 when that table is stale

tests/test_verdict_agreement_table.py fails when the table is not what this makes.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from tests.e2e.cases import MAIN, PINNED
from tests.e2e.cases_chat import COPILOT, COPILOT_CLAUDE_SETTINGS
from tests.e2e.cases_cline import CLINE, CLINE_POST_CANCEL
from tests.e2e.cases_common import RAN, REWROTE
from tests.e2e.cases_continue import RUNNER_CASES, RunnerCase
from tests.e2e.cases_events import CLAUDE_EVENTS, CODEX_EVENTS, GEMINI_EVENTS
from tests.e2e.cases_opencode import OPENCODE, OPENCODE_CONTINUE
from tests.e2e.cases_others import CODEX_MORE, GEMINI_EFFECTS
from tests.e2e.cases_qwen import QWEN
from tests.e2e.cases_vibe import VIBE, VIBE_STRICT
from tests.e2e.events import EventCase
from tests.e2e.flow import Case

DOC = Path(__file__).resolve().parents[2] / "docs" / "verdict-agreement.md"
START = "<!-- verdict-agreement: made by `python -m tests.e2e.agreement`; do not edit -->"
END = "<!-- /verdict-agreement -->"
RUNTIMES = (("claude-code", "Claude Code"), ("codex", "Codex"), ("gemini-cli", "Gemini CLI"))
EVENT_CASES = {"claude-code": CLAUDE_EVENTS, "codex": CODEX_EVENTS, "gemini-cli": GEMINI_EVENTS}
# Cases that say more of the record (cases_others.py): in place of theirs, or added.
MORE = {"codex": CODEX_MORE, "gemini-cli": GEMINI_EFFECTS}
TOOL_EVENTS = {"gemini-cli": ("BeforeTool", "AfterTool")}  # else PreToolUse, PostToolUse
# The CLIs run one session per list (cases_chat.py, cases_qwen.py): (title, cases, its tool events).
CHAT = (
    ("GitHub Copilot CLI", COPILOT, ("preToolUse", "postToolUse")),
    (
        "GitHub Copilot CLI, `.claude/settings.json`",
        COPILOT_CLAUDE_SETTINGS,
        ("PreToolUse", "PostToolUse"),
    ),
    ("Qwen Code", QWEN, ("PreToolUse", "PostToolUse")),
    ("Mistral Vibe", [*VIBE, *VIBE_STRICT], ("pre_tool", "post_tool")),
    ("Cline CLI", [*CLINE, *CLINE_POST_CANCEL], ("tool_call", "tool_result")),
    (
        "OpenCode (hooktui's plugin)",
        [*OPENCODE, *OPENCODE_CONTINUE],
        ("tool.execute.before", "tool.execute.after"),
    ),
)
_WIDTH = 70  # characters of a hook's answer or a quoted text kept in a cell


def rows() -> list[tuple[str, str, str, str, str, str]]:
    """(runtime, case, answer, the CLI did, the record says, agrees) for every case."""
    out = []
    for name, title in RUNTIMES:
        pre, post = TOOL_EVENTS.get(name, ("PreToolUse", "PostToolUse"))
        for case in [*MAIN[name], *PINNED[name]]:
            out.append((title, case.name, *_tool_case(case, pre, post)))
        more = {c.name: c for c in MORE.get(name, [])}
        events = [more.pop(c.name, c) for c in EVENT_CASES[name]] + list(more.values())
        for event_case in events:
            out.append((title, f"{event_case.event}: {event_case.name}", *_event_case(event_case)))
    for title, cases, (pre, post) in CHAT:
        out += [(title, case.name, *_tool_case(case, pre, post)) for case in cases]
    title = "Continue CLI (its hook runner; the CLI fires none)"
    out += [(title, case.name, *_runner_case(case)) for case in RUNNER_CASES]
    return out


def table() -> str:
    lines = [
        "| runtime | case | the hook answered | what the real CLI did | hooktui's record | agrees |",
        "|---|---|---|---|---|---|",
    ]
    lines += ["| " + " | ".join(_cell(c) for c in row) + " |" for row in rows()]
    return "\n".join(lines) + "\n"


# --- one row ----------------------------------------------------------------------------------


def _tool_case(case: Case, pre: str, post_event: str) -> tuple[str, str, str, str]:
    post = bool(case.post_answer)
    answer = _answer(case.post_answer, post_event) if post else _answer(case.answer, pre)
    if post:
        answer = f"{post_event}: {answer}"
    if case.ran is None:
        did = "blocked"
    elif case.ran == REWROTE:
        did = "ran the rewritten command"
    else:
        did = "ran" if case.ran == RAN else f"ran ({case.ran})"
    if case.ends_turn:
        did += ", then the turn ended"
    if case.content_has and case.content_has not in ("original-ran", "rewritten-ran"):
        did += f"; the model read {_quote(case.content_has)}"
    record = case.post_record if post else case.record
    return answer, did, _record(record, case.disagreement), _agrees(record, case.disagreement)


def _runner_case(case: RunnerCase) -> tuple[str, str, str, str]:
    """What Continue's runner returned: would it run the tool, and why not."""
    if case.threw:
        did = "threw: nothing decided (the tool would run)"
    elif case.blocked:
        did = f"blocked; reason {_quote(case.reason)}"
    elif case.decision == "ask":
        did = "passed on `ask`"
    elif case.updated:
        did = "passed on the rewritten input"
    else:
        did = "nothing blocked (the tool would run)"
    if case.timeout != 30:
        did += f" (timeout {case.timeout} s)"
    return _answer(case.answer), did, _record(case.record), _agrees(case.record, "")


def _event_case(case: EventCase) -> tuple[str, str, str, str]:
    seen = []
    seen += [f"printed {_quote(t)}" for t in case.output_has]
    seen += [f"the model got {_quote(t)}" for t in case.model_has]
    seen += [f"the model never got {_quote(t)}" for t in case.model_lacks]
    seen += [f"left {_quote(f)}" for f in case.files]
    seen += [f"left no {_quote(f)}" for f in case.no_files]
    if case.model_requests == 0:
        seen.append("the model was never asked")
    seen += [f"{event} ran {n}×" for event, n in case.calls.items() if n > 1]
    seen += [f"the re-prompt lacks {_quote(t)}" for t in case.last_request_lacks]
    did = "; ".join(seen) or "went on"
    answer = _answer(case.answer, case.event)
    return (
        answer,
        did,
        _record(case.record, case.disagreement),
        _agrees(case.record, case.disagreement),
    )


def _answer(answer: dict[str, Any], event: str = "PreToolUse") -> str:
    parts = []
    if answer.get("sleep"):
        parts.append(f"sleeps {answer['sleep']} s")
    if answer.get("signal"):
        parts.append(f"killed by signal {answer['signal']}")
    if answer.get("exit"):
        parts.append(f"exit {answer['exit']}")
    if answer.get("stdout"):
        parts.append(f"stdout {_code(_fields(answer['stdout'], event))}")
    if answer.get("stderr"):
        parts.append(f"stderr {_code(answer['stderr'])}")
    return ", ".join(parts) or "nothing (exit 0)"


def _fields(stdout: str, event: str) -> str:
    """A JSON answer as its fields, hookSpecificOutput's among them (its hookEventName
    only when it is not the hooked event's); other text as it is."""
    try:
        value = json.loads(stdout)
    except ValueError:
        return stdout
    if not isinstance(value, dict):
        return stdout
    fields = {k: v for k, v in value.items() if k != "hookSpecificOutput"}
    specific = value.get("hookSpecificOutput")
    if isinstance(specific, dict):
        if specific.get("hookEventName") == event:
            specific = {k: v for k, v in specific.items() if k != "hookEventName"}
        fields.update(specific)
    elif specific is not None:
        fields["hookSpecificOutput"] = specific
    if not fields:
        return "{}"
    return ", ".join(f"{k}: {json.dumps(v, separators=(',', ':'))}" for k, v in fields.items())


def _record(record: dict[str, Any], disagreement: str = "") -> str:
    if not record:
        return "not checked"
    if disagreement:
        return f"reads it otherwise (it should say: {_record(record)})"
    fields = dict(record)
    words = [str(fields.pop("decision", ""))]
    if "effect" in fields:
        words.append(f"({fields.pop('effect')})")
    if fields.get("failure"):
        words.append(f"[{fields.pop('failure')}]")
    for key, value in fields.items():
        if value in ("", None):
            continue
        if key in ("updated_input", "answer_effects"):
            words.append(f"{key} {_quote(', '.join(value) if key == 'answer_effects' else '…')}")
        else:
            words.append(f"{key} {_quote(str(value))}")
    return " ".join(w for w in words if w)


def _agrees(record: dict[str, Any], disagreement: str) -> str:
    if disagreement:
        return f"**no** (strict xfail: {disagreement})"
    return "yes" if record else "—"


def _quote(text: str) -> str:
    return _code(text)


def _code(text: str) -> str:
    one_line = " ".join(text.split())
    if len(one_line) > _WIDTH:
        one_line = one_line[: _WIDTH - 1] + "…"
    return "`" + one_line.replace("`", "'") + "`"


def _cell(text: str) -> str:
    return text.replace("|", "\\|")


# --- the doc ---------------------------------------------------------------------------------


def spliced(doc: str) -> str:
    """The doc's text with the table between the markers replaced by a fresh one."""
    head, start, rest = doc.partition(START)
    _old, end, tail = rest.partition(END)
    if not start or not end:
        raise ValueError(f"{DOC.name} lacks the markers {START!r} … {END!r}")
    return f"{head}{START}\n{table()}{END}{tail}"


def main(argv: list[str]) -> int:
    text = DOC.read_text()
    fresh = spliced(text)
    if "--check" in argv:
        if fresh != text:
            print(f"{DOC.name}'s verdict-agreement table is stale: python -m tests.e2e.agreement")
            return 1
        return 0
    DOC.write_text(fresh)
    print(json.dumps({"rows": len(rows())}))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
