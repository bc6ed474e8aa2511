"""The answer effects' one table (canonical.ACTIONS) as docs/records.md shows it.

Every runtime names what an answer asks for besides its decision by these names
(`Verdict.answer_effects`, the record's `answer_effects`); docs/records.md's block is
`readme_block()` (a test checks they match).
"""

from __future__ import annotations

from hooktui.tap.canonical import ACTIONS


def readme_block() -> str:
    """A markdown table: each effect's name and what the runtime does."""
    rows = ["| effect | what the runtime does |", "|---|---|"]
    rows += [f"| `{name}` | {meaning} |" for name, meaning in ACTIONS.items()]
    return "\n".join(rows)
