"""The package version, kept as a literal: reading installed metadata costs start-up time."""

__version__ = "0.1.0"
