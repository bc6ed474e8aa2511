"""The presentation layer: pure functions from records, views and reports to Rich text.

`palette` (the one decision palette, and replay's class looks), `format` (times,
latencies, counts, marks, the sanitizer's names), `columns` and `rows` (one column
spec and row layout for watch, replay and `show`), `header` (watch's stats
header), `first_screen` (watch's screen before Textual loads), `held` (calls held
at a breakpoint), `call_tabs` and `replay_tabs` (the detail tabs), `replay_header`
and `replay_text` (replay's header and `--format text`), `reproduce` (a call
re-run), `timeline` (the patterns view's chart).

Rich only: the Textual apps and the plain commands both draw with these, so a
call reads the same in `watch`, `replay` and `show`, with colour or without.
"""
