"""The recorder: one record per call, built and appended after the hook has answered.

- recorder.py: the TapCall (tapcall.py) to one record line, appended to the stream
- judge.py, summary.py: the verdict by the runtime's rules, the record's flat summary
- redact.py, rules.py (gitleaks_*.py, local_rules.py), sre_cache.py: secrets masked before disk
- blobs.py, digest.py, unescape.py, hookinfo.py, request.py: outputs, digests, the hook, the request
"""
