"""The compiled-pattern cache (sre_cache.py): the same patterns as `re`, or `re` itself.

A recorder reads the redaction rules' compiled code from a file in the user's
cache directory instead of importing `re` and compiling. These tests pin that
the rebuilt patterns are `re`'s exactly, that a warm cache still masks every
planted secret (plain, JSON-escaped, in keys) without loading `re`, and that a
cache that is torn, corrupt, swapped, foreign or unwritable changes nothing
but the time it takes.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from hooktui.tap.base import cpython
from hooktui.tap.record import gitleaks_rules, rules, sre_cache

from tests.tap.secrets import KINDS
from tests.waits import WAIT_S


@pytest.fixture
def cache_home(tmp_path, monkeypatch):
    """An empty cache directory, and sre_cache as a new process finds it."""
    home = tmp_path / "cache"
    monkeypatch.setenv("XDG_CACHE_HOME", str(home))
    _forget()
    yield home
    _forget()


def _forget() -> None:
    """This process's compiled patterns and read file dropped, as in a new process."""
    sre_cache._compiled.clear()
    sre_cache._new.clear()
    sre_cache._stored = None


def every_source() -> list[str]:
    """Each rule's pattern and each allowlist alternation, as rules.py compiles them."""
    rules.candidates(set(rules.KEYWORDS))
    sources = [rule.source for rule in rules._RULES]
    lists = [*gitleaks_rules.GLOBAL_ALLOWLISTS]
    lists += [a for rule in rules._RULES for a in rule.allowlists]
    for _target, patterns, _stopwords in lists:
        if patterns:
            sources.append(_alternation_source(patterns))
    return sources


def _alternation_source(patterns) -> str:
    rules._ALTERNATIONS.pop(patterns, None)
    return rules._alternation(patterns).pattern


def test_every_pattern_rebuilt_from_the_cache_is_res_own(cache_home) -> None:
    sources = every_source()
    _forget()
    for source in sources:
        sre_cache.compile(source, rules.ASCII)
    assert len(sre_cache._new) == len(set(sources)) > 200  # each one was kept
    sre_cache.save()
    _forget()
    for source in sources:
        rebuilt = sre_cache.compile(source, rules.ASCII)
        expected = re.compile(source, re.ASCII)
        # _sre's equality compares the flags, the source and the compiled code.
        assert rebuilt == expected and rebuilt is not expected, source
        assert rebuilt.groups == expected.groups and rebuilt.groupindex == expected.groupindex
    assert not sre_cache._new  # every one came from the file


def test_the_file_is_the_users_alone_and_named_for_the_python_build(cache_home) -> None:
    sre_cache.compile(r"gh[pousr]_\w{20,}", rules.ASCII)
    sre_cache.save()
    (path,) = (cache_home / "hooktui").iterdir()
    assert str(path) == sre_cache.cache_path()
    assert sys.implementation.cache_tag in path.name
    assert path.stat().st_mode & 0o777 == 0o600
    assert (cache_home / "hooktui").stat().st_mode & 0o777 == 0o700


# --- a warm cache redacts as a cold one, without `re` -----------------------

# The bench's request (tests/bench/recorder_cpu.py), and every planted kind.
BENCH = {
    "command": "curl -H 'Authorization: Bearer abcdefghijklmnop1234' https://u:hunter22@x.io",
    "description": "GITHUB_TOKEN=ghp_R2d2C3poL8k9J7h6G5f4D3s2A1z0Y9x8W7v6",
}
BENCH_SECRETS = ["abcdefghijklmnop1234", "hunter22", "ghp_R2d2C3poL8k9J7h6G5f4D3s2A1z0Y9x8W7v6"]


def planted_tree() -> tuple[dict, list[str]]:
    """Every secret plainly, JSON-escaped (twice), and as a key; and the secrets."""
    texts = {name: text for name, (text, _) in KINDS.items()} | BENCH
    secrets = [secret for _, secret in KINDS.values()] + BENCH_SECRETS
    tree = {
        "plain": texts,
        "json": {name: json.dumps({"command": "a\n" + t}) for name, t in texts.items()},
        "json twice": [json.dumps(json.dumps({"cmd": "é\t" + t})) for t in texts.values()],
        "keys": {t: name for name, t in texts.items()},
    }
    return tree, secrets


_REDACT = """
import json, sys
for name in [m for m in sys.modules if m == "re" or m.startswith("re.")]:
    del sys.modules[name]  # an editable install's finder loads it at start-up
from hooktui.tap.base import jsonio
from hooktui.tap.record import redact, sre_cache
tree = jsonio.loads(sys.stdin.buffer.read())
walked, found = redact.redact_tree(tree)
sre_cache.save()
sys.stdout.buffer.write(jsonio.dumps({"tree": walked, "found": found, "re": "re" in sys.modules}))
"""


def redact_in_a_new_process(tree: dict, cache_home) -> dict:
    env = dict(os.environ, XDG_CACHE_HOME=str(cache_home))
    proc = subprocess.run(
        [sys.executable, "-c", _REDACT],
        input=json.dumps(tree).encode(),
        capture_output=True,
        check=True,
        env=env,
        timeout=60,
    )
    return json.loads(proc.stdout)


def test_a_warm_cache_masks_every_planted_secret_without_loading_re(cache_home) -> None:
    tree, secrets = planted_tree()
    cold = redact_in_a_new_process(tree, cache_home)
    warm = redact_in_a_new_process(tree, cache_home)
    assert cold["re"] and not warm["re"]
    assert warm["tree"] == cold["tree"] and warm["found"] == cold["found"]
    text = json.dumps(warm["tree"])
    assert [s for s in secrets if s in text or json.dumps(s)[1:-1] in text] == []
    assert len(warm["found"]) >= 4 * len(secrets)
    assert set(warm["tree"]["keys"].values()) == set(tree["keys"].values())  # no key lost


# --- whatever is wrong with the file, `re` compiles ---------------------------

SOURCES = [rule[2] for rule in gitleaks_rules.RULES[:40]]


def _warm(cache_home):
    for source in SOURCES:
        sre_cache.compile(source, rules.ASCII)
    sre_cache.save()
    _forget()
    return cache_home / "hooktui" / os.path.basename(sre_cache.cache_path())


def _all_like_re() -> int:
    """Each pattern as `re` has it; how many of them came from the file."""
    from_file = 0
    for source in SOURCES:
        pattern = sre_cache.compile(source, rules.ASCII)
        assert pattern == re.compile(source, re.ASCII), source
        from_file += (source, rules.ASCII) not in sre_cache._new
    return from_file


def test_a_torn_file_is_not_used(cache_home) -> None:
    path = _warm(cache_home)
    data = path.read_bytes()
    for cut in (0, 5, len(data) // 3, len(data) // 2, len(data) - 1):
        path.write_bytes(data[:cut])
        _forget()
        assert _all_like_re() == 0, cut


@pytest.mark.parametrize("where", ["source", "code"])
def test_a_corrupt_entry_is_not_used_and_the_rest_are(cache_home, where) -> None:
    path = _warm(cache_home)
    data = bytearray(path.read_bytes())
    source = SOURCES[0].encode()
    at = data.index(source, data.index(source) + 1)  # in the first entry (after its key)
    if where == "source":
        at += 40
    else:  # its code's literal `A` (`\bA3-`) made `@`: a valid program, another one
        at = data.index(ord("A").to_bytes(cpython.sre_code_size(), sys.byteorder), at + len(source))
    data[at] ^= 0x01
    # The file's own digest made whole again: each entry's is what is left to catch it.
    body = bytes(data[len(sre_cache._FORMAT) + 32 :])
    path.write_bytes(sre_cache._FORMAT + hashlib.sha256(body).digest() + body)
    assert 0 < _all_like_re() < len(SOURCES)


@pytest.mark.parametrize("room", [0, 32], ids=["bare", "after-a-digests-room"])
def test_a_body_declaring_a_huge_list_is_not_unmarshalled(cache_home, room) -> None:
    """A count of 2**31 items (one flipped byte) made `marshal` allocate 16 GiB and let
    go of it item by item: 6-37 s of each recorder (issue 19). A body is vouched for
    (its sha256) before it is unmarshalled."""
    import tracemalloc

    path = _warm(cache_home)
    path.write_bytes(sre_cache._FORMAT + bytes(room) + b"[\xff\xff\xff\x7f")
    _forget()
    tracemalloc.start()
    try:
        assert sre_cache._read(str(path)) is None
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 16 << 20


def test_an_entry_filed_under_another_pattern_is_not_used(cache_home) -> None:
    import marshal

    path = _warm(cache_home)
    data = path.read_bytes()
    entries = marshal.loads(data[len(sre_cache._FORMAT) + 32 :])
    keys = list(entries)
    swapped = {keys[0]: entries[keys[1]], keys[1]: entries[keys[0]]}
    path.write_bytes(sre_cache.file_bytes(entries | swapped))  # a file vouched for
    assert _all_like_re() == len(SOURCES) - 2


def test_garbage_a_foreign_file_and_one_others_may_write_are_not_read(cache_home) -> None:
    path = _warm(cache_home)
    good = path.read_bytes()
    path.write_bytes(sre_cache._FORMAT + os.urandom(4000))
    assert _all_like_re() == 0
    path.write_bytes(good)
    _forget()
    path.chmod(0o622)
    assert _all_like_re() == 0
    path.chmod(0o600)
    _forget()
    assert _all_like_re() == len(SOURCES)


def test_the_tap_records_with_a_fifo_where_the_cache_file_is(hooktui, tmp_path) -> None:
    """Opening a FIFO for reading waits for a writer: the recorder would hang, its record lost."""
    from tests.conftest import wait_for_records

    env = dict(os.environ, XDG_CACHE_HOME=str(tmp_path / "cache"))
    probe = "from hooktui.tap.record import sre_cache; print(sre_cache.cache_path())"
    where = subprocess.run(
        [sys.executable, "-c", probe], env=env, capture_output=True, text=True, timeout=60
    )
    path = Path(where.stdout.strip())
    path.parent.mkdir(parents=True)
    os.mkfifo(path, 0o600)
    stream = tmp_path / "s.jsonl"
    request = {"session_id": "s", "hook_event_name": "PreToolUse", "cwd": str(tmp_path)}
    request |= {"tool_name": "Bash", "tool_input": BENCH, "tool_use_id": "t"}
    hook = ["/bin/sh", "-c", "cat >/dev/null; echo '{}'"]
    subprocess.run(
        [hooktui, "tap", "--stream", str(stream), "--", *hook],
        input=json.dumps(request).encode(),
        capture_output=True,
        check=True,
        env=env,
        timeout=60,
    )
    [record] = wait_for_records(stream, 1)
    assert record["redactions"] and [s for s in BENCH_SECRETS if s in stream.read_text()] == []


def test_a_cache_that_cannot_be_written_is_passed_over(cache_home) -> None:
    cache_home.mkdir()
    (cache_home / "hooktui").write_text("a file where the folder should be")
    assert sre_cache.compile(SOURCES[0], rules.ASCII) == re.compile(SOURCES[0], re.ASCII)
    sre_cache.save()  # quietly: nothing raised, nothing written
    assert (cache_home / "hooktui").is_file() and os.listdir(cache_home) == ["hooktui"]
    _forget()
    assert _all_like_re() == 0


def test_the_tap_records_the_bench_secrets_masked_cold_and_warm(hooktui, tmp_path) -> None:
    """The real tap and its detached recorder, twice: once filling the cache, once reading it."""
    from tests.conftest import wait_for_records

    stream = tmp_path / "s.jsonl"
    env = dict(os.environ, XDG_CACHE_HOME=str(tmp_path / "cache"))
    hook = ["/bin/sh", "-c", "cat >/dev/null; echo '{}'"]
    request = {"session_id": "s", "hook_event_name": "PreToolUse", "cwd": str(tmp_path)}
    request |= {"tool_name": "Bash", "tool_input": BENCH, "tool_use_id": "t"}
    for n in (1, 2):
        subprocess.run(
            [hooktui, "tap", "--stream", str(stream), "--", *hook],
            input=json.dumps(request).encode(),
            capture_output=True,
            check=True,
            env=env,
            timeout=60,
        )
        records = wait_for_records(stream, n)
    assert list((tmp_path / "cache" / "hooktui").iterdir())  # the first one filled it
    text = stream.read_text()
    assert [s for s in BENCH_SECRETS if s in text] == []
    cold, warm = ([(r["pointer"], r["kind"]) for r in rec["redactions"]] for rec in records)
    assert cold == warm and {"github_pat", "url_credentials"} <= {k for _, k in cold}


_SAVE_SLICE = """
import sys
from hooktui.tap.record import gitleaks_rules, sre_cache
for rule in gitleaks_rules.RULES[int(sys.argv[1]) :: 8]:
    sre_cache.compile(rule[2], 256)
sre_cache.save()
"""


def test_recorders_saving_at_once_leave_one_whole_file(cache_home) -> None:
    env = dict(os.environ, XDG_CACHE_HOME=str(cache_home))
    procs = [
        subprocess.Popen([sys.executable, "-c", _SAVE_SLICE, str(i)], env=env) for i in range(8)
    ]
    assert [p.wait(timeout=WAIT_S) for p in procs] == [0] * 8
    assert os.listdir(cache_home / "hooktui") == [os.path.basename(sre_cache.cache_path())]
    stored = sre_cache._read(sre_cache.cache_path())
    assert len(stored) >= len(gitleaks_rules.RULES) // 8  # at least the last writer's
    for source, flags in stored:
        assert sre_cache.compile(source, flags) == re.compile(source, re.ASCII)
    assert not sre_cache._new  # each from the file, none of them torn
