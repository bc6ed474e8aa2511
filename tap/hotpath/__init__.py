"""The tap's hot path: everything `hooktui tap` runs before the hook's answer is back.

These modules import only `posix`, `_signal`, `time` and `sys` (and `select`,
a shared library to load, only when a call outgrows quick.py's first stretch),
never `from __future__`: the tap starts Python with `-I -S`, where not even `os` is
loaded yet (it costs about a tenth of Python's start-up), so they call `posix`,
the built-in module `os` wraps (`posix.environ` is the very dict behind
`os.environ`). A test imports them in a clean interpreter and checks.
"""
