"""The core, no UI: the contract, the runtimes, the tap on every tool call, the recorder, the readers, install.

Its parts stand on floors (tests/tap/test_layering.py writes them down, docs/layout.md
shows them): each imports only parts below it, and none imports textual, rich or watchfiles.
"""
