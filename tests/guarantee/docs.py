"""The guarantee's generated text: docs/guarantee.md's table of the forms and conditions
the matrix covers, and the README's paragraph naming them (tests/docs_blocks.py
makes both; tests/test_docs.py checks them)."""

from __future__ import annotations

from tests.guarantee.conditions import CONDITIONS
from tests.guarantee.forms import FORMS, NOT_INSTALLABLE, SPAWN
from tests.guarantee.matrix import NOT_APPLICABLE, applies


def table() -> str:
    lines = ["| form | what the runtime runs | how it starts the hook |", "|---|---|---|"]
    for form in FORMS:
        spawn = SPAWN[form.runtime]
        shell = "the user's login shell" if spawn.shell == "login" else spawn.shell
        shell = "bash" if form.kind == "bash" else shell
        how = f"{shell}, stdin a {spawn.stdin}" + (", a session leader" if spawn.leader else "")
        if form.kind == "exec":
            how = f"no shell, stdin a {spawn.stdin}"
        lines.append(f"| `{form.id}` | {form.what} | {how} |")
    lines += ["", "| condition | what it is |", "|---|---|"]
    for condition in CONDITIONS:
        closed = f" (fails closed: {', '.join(condition.closed)})" if condition.closed else ""
        lines.append(f"| `{condition.name}` | {condition.what}{closed} |")
    cells = sum(applies(f, c) for f in FORMS for c in CONDITIONS)
    lines += [
        "",
        f"{len(FORMS)} forms x {len(CONDITIONS)} conditions: {cells} cells. Left out:",
        "",
    ]
    for condition in CONDITIONS:
        for kind in condition.replaces:
            lines.append(f"- `{kind}` x `{condition.name}`: the condition is that call's dashboard")
    for (kind, name), why in NOT_APPLICABLE.items():
        lines.append(f"- `{kind}` x `{name}`: {why}")
    for condition in CONDITIONS:
        if condition.only:
            ids = ", ".join(f"`{i}`" for i in condition.only)
            lines.append(f"- `{condition.name}` runs on {ids} only: {condition.only_why}")
    for name, why in NOT_INSTALLABLE.items():
        lines.append(f"- runtime `{name}`: {why}")
    return "\n".join(lines)


def readme_paragraph() -> str:
    runtimes = sorted({form.runtime for form in FORMS if form.installed})
    kinds = sorted({form.kind for form in FORMS if form.installed})
    heads = list(dict.fromkeys(c.headline for c in CONDITIONS if c.headline))
    conditions = ", ".join(heads[:-1]) + f" or {heads[-1]}"
    cells = sum(applies(f, c) for f in FORMS for c in CONDITIONS)
    return (
        f"A test matrix holds hooktui to this: every kind of line `install` writes "
        f"({', '.join(kinds)}) for each of {len(runtimes)} runtimes, `hooktui tap` by hand and "
        f"with `--wait`, and a call a dashboard holds, each with {conditions}: "
        f"{cells} cells, listed in [the guarantee](docs/guarantee.md)."
    )
