"""The tap's hot path: everything `hooktui tap` runs before the hook's answer is back.

These modules import only `posix`, `select`, `_signal`, `time` and `sys`, never
`from __future__`: the tap starts Python with `-I -S`, where not even `os` is
loaded yet (it costs about a tenth of Python's start-up), so they call `posix`,
the built-in module `os` wraps (`posix.environ` is the very dict behind
`os.environ`). A test imports them in a clean interpreter and checks.
"""
