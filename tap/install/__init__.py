"""`hooktui install`: a runtime-agnostic, format-preserving editor of hook settings.

- settings.py: install / uninstall and what to tell the user
- edit.py: changing values in place, checked by reading the result back
- wrapper.py: the wrapped command line, written and read back
- hooks.py: walking a hooks section as the runtime lays it out
- files.py: where settings live, reading them as the runtime does, writing safely
- jsonedit.py, tomledit.py: where each value is in the text
"""
