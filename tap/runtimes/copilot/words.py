"""What the Copilot CLI adapter (__init__.py) and its http hook command (http.py) share.

A module of its own so that neither imports the other for a word: the
recorder loads the adapter, never the http hook command.
"""

# What an http hook's header value reads as a variable (`${NAME:-x}` is NAME's value).
HTTP_VARS = r"\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-[^}]*)?\}|\$([A-Za-z_][A-Za-z0-9_]*)"
