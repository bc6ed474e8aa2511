"""The plain commands: `main` dispatches; `show`, `replay` (text, JSON, one record),
`watch` (its arguments and the first screen), `install`, `demo`.

They never import Textual: their text comes from `tui/present`, and the apps are
started through `launch.py` alone, which imports them when called.
"""
