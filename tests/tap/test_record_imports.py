"""A cheap recorder: what recording one call imports, in a clean interpreter, and the
plain classes and helpers that let it skip msgspec, typing, dataclasses and shlex.

(The CPU it costs is measured by tests/bench/recorder_cpu.py, not here.)"""

from __future__ import annotations

import json
import os
import pickle
import random
import shlex
import subprocess
import sys

import pytest
from hooktui.tap import canonical, model
from hooktui.tap.canonical import UNSET, Call, Outcome, Verdict
from hooktui.tap.command import script_name, shell_words
from hooktui.tap.runtimes.descriptor import Layout, Timeouts
from hooktui.tap.runtimes.facts import Factory, Facts

from tests.tap.fixtures import request

# Modules a plain call must not load: each costs more than writing the record.
HEAVY = ("msgspec", "typing", "dataclasses", "inspect", "re", "shlex", "difflib", "hashlib")

_RECORD_ONE = """
import json, sys
# An editable install's path finder loads `re` at start-up; the tap's own start
# does not: forget it, so an import of it here shows.
for name in [m for m in sys.modules if m == "re" or m.startswith("re.")]:
    del sys.modules[name]
before = set(sys.modules)
from hooktui.tap.record import recorder
from hooktui.tap.record.tapcall import Captured, TapCall
call = TapCall(argv=["/bin/sh", "-c", "python3 guard.py"], request=sys.stdin.buffer.read(),
               stdout=Captured(b'{"decision": "allow"}'), exit_code=0, stream=sys.argv[1],
               capture=sys.argv[2])
recorder.record(call)
print(json.dumps(sorted(set(sys.modules) - before)))
"""


def _loaded(tmp_path, raw: bytes, capture: str = "redacted") -> set[str]:
    stream = tmp_path / "s.jsonl"
    before = stream.read_bytes().count(b"\n") if stream.exists() else 0
    proc = subprocess.run(
        [sys.executable, "-c", _RECORD_ONE, str(stream), capture],
        input=raw,
        capture_output=True,
        check=True,
        env=dict(os.environ, XDG_CACHE_HOME=str(tmp_path / "cache")),
        timeout=60,
    )
    assert stream.read_bytes().count(b"\n") == before + 1
    return set(json.loads(proc.stdout))


@pytest.mark.parametrize(
    "fixture", ["claude_pre_bash", "cursor_mcp", "codex_pre_bash", "basis_pre_seed"]
)
@pytest.mark.parametrize("capture", ["redacted", "digest"])
def test_recording_a_plain_call_loads_nothing_heavy(tmp_path, fixture, capture) -> None:
    loaded = _loaded(tmp_path, json.dumps(request(fixture)).encode(), capture)
    assert not loaded & set(HEAVY), sorted(loaded & set(HEAVY))
    # ... nor anything a reader needs: the model is msgspec's.
    assert "hooktui.tap.model" not in loaded and "hooktui.tap.runtimes.registry" in loaded
    assert "hooktui.tap.record.sre_cache" not in loaded


def test_a_secret_loads_the_rules_and_re_only_until_the_patterns_are_cached(tmp_path) -> None:
    req = request("claude_pre_bash")
    req["tool_input"]["command"] = "export GITHUB_TOKEN=ghp_R2d2C3poL8k9J7h6G5f4D3s2A1z0Y9x8W7v6"
    first = _loaded(tmp_path, json.dumps(req).encode())
    assert "re" in first and not first & {"msgspec", "typing", "dataclasses", "inspect"}
    assert "hooktui.tap.record.rules" in first
    # The next call finds what `re` compiled in the user's cache (sre_cache.py).
    req["tool_input"]["command"] = "export GH=ghp_0123456789abcdefghijABCDEFGHIJ012345"
    again = _loaded(tmp_path, json.dumps(req).encode())
    assert "hooktui.tap.record.rules" in again and not again & set(HEAVY), again & set(HEAVY)
    text = (tmp_path / "s.jsonl").read_text()
    assert "0123456789abcdefghij" not in text and "R2d2C3poL8k9J7h6G5f4" not in text


# --- the plain classes ------------------------------------------------------


def test_canonical_classes_build_compare_and_print_like_the_structs_did() -> None:
    call = Call(runtime="codex", event="pre_tool_use", tool_input={"command": "ls"})
    assert call == Call(runtime="codex", event="pre_tool_use", tool_input={"command": "ls"})
    assert call != Call(runtime="codex", event="pre_tool_use")
    assert call.prompt is None and call.cwd == "" and "tool_input={'command': 'ls'}" in repr(call)
    with pytest.raises(TypeError, match="event"):
        Call(runtime="codex")
    with pytest.raises(TypeError, match="colour"):
        Verdict(decision="allow", colour="red")
    verdict = Verdict(decision="failure", effect="blocks")
    assert verdict.updated_input is UNSET and not verdict.lets_through
    verdict.reason = "runtimes adjust a verdict after building it"
    assert Outcome().exit_code is None and Outcome(stdout=b"x").stdout == b"x"
    assert pickle.loads(pickle.dumps(UNSET)) is UNSET and not UNSET
    # The model's names are these; a record's verdict speaks the same UNSET.
    assert canonical.Call is Call and canonical.UNSET is UNSET
    record = model.Record(id="a", ts="t", runtime="codex", event="other", decision="allow")
    assert record.verdict.updated_input is UNSET and record.verdict.updated_output is UNSET


def test_facts_are_frozen_keyword_classes() -> None:
    class Point(Facts):
        x: int
        tags: dict = Factory(dict)
        name: str = "p"

    a, b = Point(x=1), Point(x=1)
    assert a == b and a.tags == {} and a.tags is not b.tags and hash(Timeouts()) == hash(Timeouts())
    with pytest.raises(AttributeError, match="frozen"):
        a.x = 2
    with pytest.raises(TypeError, match="'x'"):
        Point()
    assert (
        a.replace(name="q") == Point(x=1, name="q") and repr(a) == "Point(x=1, tags={}, name='p')"
    )
    layout = Layout(project_files=(), user_dir=".x", user_files=())
    assert layout.fail_closed == ("", None) and layout.file_formats == {}


# --- naming a hook without shlex --------------------------------------------


def test_shell_words_splits_as_shlex_does() -> None:
    rng = random.Random(12)
    alphabet = ["a", "b", " ", "\t", "\n", "\\", "'", '"', "$", "é", "#", ";"]
    for _ in range(20_000):
        text = "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 14)))
        try:
            expected: object = shlex.split(text)
        except ValueError:
            expected = ValueError
        try:
            got: object = shell_words(text)
        except ValueError:
            got = ValueError
        assert got == expected, text
    assert script_name(["sh", "-c", "uv run '/h/my policy.py' --strict"]) == "my policy.py"
