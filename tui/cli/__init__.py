"""The `hooktui` command line: the dispatcher and the plain commands (show, replay's text and JSON, install, demo)."""
