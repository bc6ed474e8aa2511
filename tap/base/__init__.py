"""The ground floor: what every other part of the tap stands on, importing nothing of it.

- stream.py: where the stream lives and how a record gets into it (whole lines or nothing)
- jsonio.py: strict JSON in and out on CPython's `_json` accelerator, for the recorder
- sha.py: sha256 from CPython's built-in module, not `hashlib` (OpenSSL's load time)
- whatwg.py: an http(s) URL as Node's WHATWG parser reads it (the runtimes' http hooks)
- ids.py: a record's id (time, then randomness) and the short part a person types
- reply.py: an http hook's POST as Node makes it: NODE_EXTRA_CA_CERTS, a bounded reply

Each imports only the standard library, and only what its job needs: the tap's
recorder loads them on every call.
"""
