"""Where a person meets hooktui: three floors, imports pointing one way.

- `present/`: how a call, a verdict, a replay and a header look, as Rich text (rows
  and columns, the decision palette, header, held and replay text, detail tabs).
  Rich only: no Textual, no terminal I/O. Both floors above use it; neither
  re-implements it.
- `app/`: the Textual apps (`watch`, `replay`): thin apps over screens, screens
  made of parts that own their state and their keys.
- `cli/`: the plain commands (the dispatcher, `show`, `replay`'s text and JSON,
  `install`, `demo`). Never imports Textual; reaches the apps only through
  `cli/launch.py`, inside its functions.

`app` never imports `cli`. tests/tui/test_layering.py holds all of it.
"""
