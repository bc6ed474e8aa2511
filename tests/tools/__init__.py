"""Maintainer tools: run from the repository root (`python -m tests.tools.NAME`), never installed."""
