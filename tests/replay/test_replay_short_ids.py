"""A record is named by any unique prefix of its id's random part (tap/base/ids.py).

Ids begin with the time, so records made a moment apart share their first
digits: `--id 0662` names them all. The random part, the one watch shows, is
what a person types. Recorded through the real tap, replayed by the real CLI.
"""

from __future__ import annotations

from pathlib import Path

from hooktui.tap.base.ids import random_part

from tests.replay.helpers import PYTHON, record_session, replay_cli, replay_json, write_guard


def _shortest_unique(tails: list[str], mine: str, ids: list[str]) -> str:
    """The shortest prefix of `mine` that starts no other id nor other random part."""
    for n in range(1, len(mine) + 1):
        prefix = mine[:n]
        if not any(
            t.startswith(prefix) or i.startswith(prefix) for t, i in zip(tails, ids, strict=True)
        ):
            return prefix
    raise AssertionError(f"no unique prefix of {mine}")


def _session(tmp_path: Path) -> tuple[Path, list[dict]]:
    guard = write_guard(tmp_path / "guard.py", {"rm": ("deny", "no rm")})
    stream = tmp_path / "session.jsonl"
    commands = ["ls", "rm -rf build", "echo hi"]
    records = record_session(stream, "claude-code", [PYTHON, str(guard)], commands, tmp_path)
    return stream, records


def test_a_unique_prefix_of_the_random_part_names_its_record(tmp_path: Path):
    stream, records = _session(tmp_path)
    ids = [r["id"] for r in records]
    tails = [random_part(i) for i in ids]
    assert all(len(t) == 12 and i.endswith(t) for t, i in zip(tails, ids, strict=True))
    for n, record_id in enumerate(ids):
        others = (tails[:n] + tails[n + 1 :], ids[:n] + ids[n + 1 :])
        prefix = _shortest_unique(others[0], tails[n], others[1])
        for given in (prefix, tails[n], tails[n].upper()):
            code, report = replay_json(str(stream), "--id", given)
            assert report["total"] == 1 and report["record"]["id"] == record_id, given


def test_a_prefix_naming_several_records_lists_their_random_parts(tmp_path: Path):
    stream, records = _session(tmp_path)
    shared = records[0]["id"][:4]  # the time digits: every record made this minute
    proc = replay_cli(str(stream), "--id", shared)
    assert proc.returncode == 2 and proc.stdout == ""
    assert proc.stderr.count("\n") == 1, proc.stderr  # one clear line
    assert "names 3 records" in proc.stderr and "give more of it" in proc.stderr
    for r in records:
        assert random_part(r["id"]) in proc.stderr
