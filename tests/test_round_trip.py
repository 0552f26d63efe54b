"""Round trips reproduce every fact with all four timestamps: export -> import into a new
store, and embedded -> Neo4j (push), checked by comparing every query mode on a grid of
instants (valid time x transaction time) and the full row history."""

from __future__ import annotations

import io
import random
from datetime import timedelta

import pytest
from conftest import require_neo4j

from graphmem import Memory
from graphmem.export import export_jsonl
from graphmem.restore import import_jsonl
from graphmem.store.protocol import RowQuery
from graphmem.time.instant import POS_INF, to_instant

SCOPES = ["alice", "bob"]
PEOPLE = ["Ann", "Ben", "Cy"]
CITIES = ["Oslo", "Rome", "Lima", "Kyiv"]
BASE = to_instant("2020-01-01")


def build(mem: Memory) -> list:
    """A few dozen random writes of every kind; returns the transaction instants used."""
    rng = random.Random(42)
    stamps = []
    tx = to_instant("2024-01-01")
    for step in range(40):
        tx += timedelta(days=1)
        stamps.append(tx)
        scope, who = rng.choice(SCOPES), rng.choice(PEOPLE)
        when = BASE + timedelta(days=60 * rng.randrange(20))
        kind = rng.choice(["supersede", "supersede", "pet", "retract", "correct"])
        if kind == "supersede":
            mem.supersede(
                who, "lives_in", rng.choice(CITIES), since=when, scope=scope, recorded_at=tx
            )
        elif kind == "pet":
            mem.remember(
                who, "owns_pet", f"pet{step}", valid_from=when, scope=scope, recorded_at=tx
            )
        elif kind == "retract":
            mem.retract(who, "lives_in", at=when, scope=scope, recorded_at=tx)
        else:
            mem.correct(who, "lives_in", right=rng.choice(CITIES), valid_from=when,
                        valid_to=when + timedelta(days=90), scope=scope, recorded_at=tx)  # fmt: skip
    return stamps


def snapshot(mem: Memory, stamps) -> dict:
    grid_valid = [BASE + timedelta(days=30 * i) for i in range(-1, 45)]
    grid_known = [POS_INF, *stamps[::3], stamps[-1] + timedelta(days=1)]
    out = {}
    for scope in SCOPES:
        rows = mem.backend.rows(RowQuery(scope=scope, include_expired=True))
        out[(scope, "rows")] = sorted(
            (r.id, r.fact_id, r.subject, r.predicate, r.object, r.valid_from, r.valid_to,
             r.recorded_at, r.expired_at, r.expired_by) for r in rows
        )  # fmt: skip
        for known in grid_known:
            for valid in grid_valid:
                facts = mem.facts(as_of=valid, known_at=known, scope=scope)
                out[(scope, known, valid)] = sorted((f.id, f.object) for f in facts)
            for who in PEOPLE:
                out[(scope, who, known)] = [
                    (e.predicate, e.object, e.valid_from, e.valid_to)
                    for e in mem.timeline(who, known_at=known, scope=scope)
                ]
    return out


@pytest.fixture(scope="module")
def original(tmp_path_factory):
    mem = Memory.open(tmp_path_factory.mktemp("rt") / "source.db", embedder=None)
    stamps = build(mem)
    expected = snapshot(mem, stamps)
    ended_by = {row[9] for s in SCOPES for row in expected[(s, "rows")]}
    assert {"superseded", "corrected", "retracted"} <= ended_by  # the history is rich
    yield mem, stamps, expected
    mem.close()


def test_export_then_import_reproduces_every_mode(original, tmp_path):
    source, stamps, expected = original
    dump = io.StringIO()
    export_jsonl(source, dump)
    dump.seek(0)
    copy = Memory.open(tmp_path / "copy.db", embedder=None)
    counts = import_jsonl(copy, dump)
    assert counts["rows"] == sum(len(expected[(s, "rows")]) for s in SCOPES)
    assert snapshot(copy, stamps) == expected
    dump.seek(0)
    assert import_jsonl(copy, dump) == {"rows": 0, "entities": 0, "episodes": 0}  # idempotent
    # The clock came along: an earlier transaction time is still refused.
    with pytest.raises(Exception, match="transaction time"):
        copy.remember("Ann", "hobby", "chess", scope="alice", recorded_at=stamps[0])


def test_import_of_a_damaged_export_names_the_line(tmp_path):
    from graphmem import LoadError

    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"kind": "entity", "id": "e", "scope": "s", "name": "A"}\n{"kind": "fact"}\n')
    copy = Memory.open(tmp_path / "copy.db", embedder=None)
    with pytest.raises(LoadError, match=r"bad.jsonl:2"):
        import_jsonl(copy, bad)
    assert copy.stats()["rows"] == 0 and copy.stats()["entities"] == 0


@pytest.mark.parametrize("route", ["push", "import"])
def test_embedded_to_neo4j_reproduces_every_mode(original, route):
    uri = require_neo4j()
    source, stamps, expected = original
    target = Memory.open(uri, embedder=None)
    target.backend.drop_all()
    if route == "push":
        from graphmem.store.push import push

        push(source.backend, target.backend)
    else:
        dump = io.StringIO()
        export_jsonl(source, dump)
        dump.seek(0)
        import_jsonl(target, dump)
    assert snapshot(target, stamps) == expected
    target.close()
