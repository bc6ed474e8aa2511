"""The guarantee matrix: every wrapped form x every hostile condition (issue 19).

The promise: whatever the machine, the project or a dashboard does, the runtime
gets what it would get from the hook bare, before its timeout; where bare is
impossible (an http hook's POST needs hooktui), a guard event fails closed with
one line naming the cause and the fix, never open.

Where it lives:
- forms.py: FORMS (the wrapped forms) and SPAWN (how each runtime starts a hook);
- conditions.py: CONDITIONS (the hostile conditions);
- matrix.py: one cell (install the form, spoil, run bare and wrapped as the
  runtime would, compare), the cells that cannot apply and the known findings;
- test_matrix_<family>.py: the cells, one module per family of conditions
  (one family each; pytest's workers take the cells one by one);
- docs.py: docs/guarantee.md's table and the README's paragraph (tests/docs_blocks.py).

How to add a form (a new runtime, a new kind of line `install` writes, a new way
of holding or answering a call): a test below fails until it has joined.
1. A runtime `install` can edit: a row in forms.SPAWN (its shell, the kind of
   stdin it gives hooks, whether they lead a session: measured on the real CLI),
   and rows in forms.FORMS for each kind of line `install` writes for it (the
   failure lists them). A kind this harness cannot build or classify yet
   (`unknown: ...`): teach harness.handler_for and `classify` below to.
2. A runtime `install` cannot edit: forms.NOT_INSTALLABLE, with why.
3. Any other form: a row in FORMS with a kind of OTHER_KINDS, and matrix.build
   taught how to write it.
Then `python -m tests.docs_blocks` rewrites docs/guarantee.md and the README's paragraph.
How to add a condition: a row in conditions.CONDITIONS (its family picks the
module); cells that cannot apply go in matrix.NOT_APPLICABLE, with why.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from hooktui.tap.install.hookfiles import read_wrapper
from hooktui.tap.install.wrapper import read_exec, read_shell
from hooktui.tap.runtimes import RUNTIMES, registry

from tests.guarantee.conditions import CONDITIONS
from tests.guarantee.forms import FORMS, INSTALL_KINDS, NOT_INSTALLABLE, OTHER_KINDS, SPAWN, Form
from tests.guarantee.harness import install, new_cell, write_guard

_HTTP_MODULE = "-m hooktui.tap.httphook"


def candidates(cell) -> dict[str, dict]:
    """A handler of every kind the runtime's settings layout allows: kind -> handler."""
    from tests.guarantee.harness import handler_for

    layout = cell.runtime.settings
    argv = write_guard(cell)
    if layout.hook_files is not None:  # its hooks are files: nothing else to write
        return {"file": handler_for(cell, "file", argv)}
    kinds = ["command", *layout.posix_shells]
    if layout.exec_args_key:
        kinds.append("exec")
    if layout.substitutions:
        kinds.append("heredoc")
    if layout.http is not None:
        kinds.append("http")
    out = {}
    for kind in kinds:
        handler = handler_for(cell, kind, argv, "http://127.0.0.1:9/hook")
        if kind in layout.posix_shells:
            handler = {**handler, layout.shell_key: kind}
        out[kind] = handler
    return out


def classify(runtime, handler: dict) -> str:
    """The kind of line `install` wrote into `handler` (forms.INSTALL_KINDS)."""
    layout = runtime.settings
    if "file" in handler:
        return "file" if read_wrapper(Path(handler["file"])) else f"unknown: {handler!r}"
    command = handler.get(layout.command_key)
    args = handler.get(layout.exec_args_key) if layout.exec_args_key else None
    if isinstance(command, str) and isinstance(args, list) and read_exec(command, args):
        return "exec"
    wrapped = read_shell(command) if isinstance(command, str) else None
    if wrapped is None:
        return f"unknown: {handler!r}"
    if _HTTP_MODULE in (wrapped.original or ""):
        return "http"
    if command.startswith('set -- "$(cat <<'):
        return "heredoc"
    shell = handler.get(layout.shell_key) if layout.shell_key else None
    return shell if shell in layout.posix_shells else "command"


def written_kinds(name: str, tmp_path: Path) -> set[str]:
    cell = new_cell(Form(name, "command", ""), tmp_path / name)
    with cell.stack:
        written = install(cell, list(candidates(cell).values()))
        return {classify(cell.runtime, handler) for handler in written}


@pytest.mark.parametrize("name", RUNTIMES)
def test_every_runtime_joins_the_matrix(name, tmp_path):
    runtime = registry.get_adapter(name)
    if runtime.settings is None:
        assert name in NOT_INSTALLABLE, (
            f"{name}: `install` cannot edit its settings: add it to forms.NOT_INSTALLABLE "
            "with why (see this module's docstring)"
        )
        return
    assert name in SPAWN, f"{name}: add how it starts a hook to forms.SPAWN (measured)"
    table = {form.kind for form in FORMS if form.runtime == name and form.installed}
    written = written_kinds(name, tmp_path)
    assert written == table, (
        f"{name}: `install` writes {sorted(written)}, forms.FORMS has {sorted(table)}: "
        "add the missing forms (see this module's docstring)"
    )


def test_the_tables_name_only_what_exists():
    assert set(SPAWN) | set(NOT_INSTALLABLE) <= set(RUNTIMES)
    assert not set(SPAWN) & set(NOT_INSTALLABLE)
    for form in FORMS:
        assert form.runtime in SPAWN, form
        assert form.kind in INSTALL_KINDS + OTHER_KINDS, form
    assert len({form.id for form in FORMS}) == len(FORMS)
    assert len({c.name for c in CONDITIONS}) == len(CONDITIONS)
