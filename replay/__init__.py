"""Replay: loading sessions, re-running their requests against a policy, comparing verdicts, the report."""
