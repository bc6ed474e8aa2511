"""Where a person meets hooktui: the Textual apps, and the plain commands that never import Textual."""
