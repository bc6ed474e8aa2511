"""The Textual apps: watch (live) and replay, their screens, keys and `.tcss`."""
