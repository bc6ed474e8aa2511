"""What hooktui takes from CPython's undocumented modules: every use of them is here.

The tap's recorder runs once per tool call, in a process of its own, where the
public modules cost more than the work: `json` loads `re`, `hashlib` loads
OpenSSL, `re` parses and compiles each pattern anew. Their C halves do the same
work for nothing: `_json` (json's scanner and encoder), `_sha2` (sha256), `_sre`
(the regular expression engine, given what `re._compiler` would hand it).

None of these is documented, and they change between versions (`_sha256`
became `_sha2` in 3.12; what `_sre.compile` takes is whatever that version's
`re._compiler` passes), so nothing else names them, a test checks that
(tests/tap/test_cpython_fence.py), and CI runs the unit suite on 3.11, 3.12
and 3.13. The other place that reaches into CPython is the launcher
(bin/hooktui and tap/hotpath/boot.py), which loads the hot path through the
import system's own loader before any module of hooktui can be imported.

`_signal` and `_socket` (the hot path's, the hold client's) are not here: they
are the C halves behind `signal` and `socket`, whose every function is
documented there.
"""

import _json

try:
    from _sha2 import sha256  # Python 3.12+
except ImportError:
    try:
        from _sha256 import sha256  # Python 3.11
    except ImportError:  # pragma: no cover - a build without them (neither on CI's Pythons)
        from hashlib import sha256

__all__ = ["json_encoder", "json_scanner", "sha256"]


# --- JSON: the scanner and the encoder of `json`, without `json` --------------


def json_scanner(rules):
    """`_json`'s scanner: scan(text, index) -> (value, end). `rules` has the attributes
    json.JSONDecoder has (strict, object_hook, object_pairs_hook, parse_int,
    parse_float, parse_constant)."""
    return _json.make_scanner(rules)


def json_encoder(default):
    """`_json`'s encoder, compact, UTF-8 kept, keys in insertion order, NaN refused:
    encode(value, 0) -> an iterable of str. `default` is called for what JSON lacks."""
    # (markers, default, string encoder, indent, key separator, item separator,
    #  sort keys, skip bad keys, allow NaN)
    return _json.make_encoder(
        None, default, _json.encode_basestring, None, ":", ",", False, False, False
    )


# --- regular expressions: `_sre` given what `re._compiler` gives it ------------


def sre_build() -> str:
    """Everything a compiled pattern's code depends on in the engine itself."""
    import _sre

    return f"{_sre.MAGIC} {_sre.CODESIZE} {_sre.MAXREPEAT} {_sre.MAXGROUPS}"


def sre_code_size() -> int:
    """Bytes per word of the engine's compiled code."""
    import _sre

    return _sre.CODESIZE


def sre_compile(args: tuple):
    """The pattern `_sre.compile(*args)` makes of `sre_args`' arguments."""
    import _sre

    return _sre.compile(*args)


def sre_args(source: str, flags: int) -> tuple:
    """What `re._compiler.compile` passes to `_sre.compile` (Python 3.11 to 3.14)."""
    from re import _compiler, _parser

    parsed = _parser.parse(source, flags)
    code = _compiler._code(parsed, flags)
    groupindex = dict(parsed.state.groupdict)
    indexgroup = [None] * parsed.state.groups
    for name, index in groupindex.items():
        indexgroup[index] = name
    return (
        source,
        flags | parsed.state.flags,
        [int(word) for word in code],
        parsed.state.groups - 1,
        groupindex,
        tuple(indexgroup),
    )
