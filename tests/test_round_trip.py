"""Round trips reproduce every fact with all four timestamps: export -> import into a new
store, and embedded -> Neo4j (push), checked by comparing every query mode on a grid of
instants (valid time x transaction time) and the full row history."""

from __future__ import annotations

import io
import json
import random
from datetime import timedelta
from pathlib import Path

import pytest

from graphmem import Memory
from graphmem.export import export_jsonl
from graphmem.restore import import_jsonl
from graphmem.store.protocol import RowQuery
from graphmem.time.bounds import TemporalBounds
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
        rows = mem.backend.rows(RowQuery(scope=scope, bounds=TemporalBounds.history()))
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
    assert import_jsonl(copy, dump) == {
        "rows": 0,
        "entities": 0,
        "episodes": 0,
        "predicates": 0,
    }  # idempotent
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
def test_embedded_to_neo4j_reproduces_every_mode(original, route, neo4j_db):
    uri = neo4j_db
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


def _export_of_one_fact(tmp_path, **change) -> list[dict]:
    mem = Memory.open(tmp_path / "src.db", embedder=None)
    mem.remember("Ann", "lives_in", "Oslo", valid_from="2020-01-01", scope="s",
                 recorded_at="2021-01-01")  # fmt: skip
    dump = io.StringIO()
    export_jsonl(mem, dump)
    mem.close()
    records = [json.loads(line) for line in dump.getvalue().splitlines() if line.strip()]
    for record in records:
        if record["kind"] == "fact":
            record.update(change)
    return records


def _write(tmp_path, records) -> Path:
    path = tmp_path / "dump.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in records))
    return path


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"object_id": None}, "object_id is null"),
        ({"object_id": "e_elsewhere"}, "no entity of 's'"),
        ({"subject_id": "e_elsewhere"}, "no entity of 's'"),
        ({"valid_from": "2024-01-01T00:00:00Z", "valid_to": "2023-01-01T00:00:00Z"},
         "valid_from is not before valid_to"),
    ],
)  # fmt: skip
def test_an_import_that_would_break_the_store_is_refused_whole(tmp_path, change, message):
    from graphmem import LoadError

    path = _write(tmp_path, _export_of_one_fact(tmp_path, **change))
    target = Memory.open(tmp_path / "t.db", embedder=None)
    with pytest.raises(LoadError, match=message) as raised:
        import_jsonl(target, path)
    assert "dump.jsonl:" in str(raised.value)
    assert target.stats()["rows"] == 0 and target.stats()["entities"] == 0
    target.close()
    with Memory.open(tmp_path / "t.db", embedder=None) as reopened:  # still opens
        assert reopened.facts("Ann", scope="s") == []


def test_an_import_refuses_overlapping_values_of_a_one_value_predicate(tmp_path):
    from graphmem import LoadError

    records = _export_of_one_fact(tmp_path)
    fact = next(r for r in records if r["kind"] == "fact")
    twin = {**fact, "id": fact["id"] + "x", "object": "Rome", "object_id": fact["subject_id"]}
    path = _write(tmp_path, [*records, twin])
    with (
        Memory.open(tmp_path / "t.db", embedder=None) as target,
        pytest.raises(LoadError, match="one value at a time"),
    ):
        import_jsonl(target, path)


def test_import_with_a_scope_takes_only_that_scope(tmp_path):
    from graphmem import LoadError

    path = _write(tmp_path, _export_of_one_fact(tmp_path))
    with Memory.open(tmp_path / "t.db", embedder=None) as target:
        with pytest.raises(LoadError, match="scope 's', importing into 'other'"):
            import_jsonl(target, path, scope="other")
        assert import_jsonl(target, path, scope="s")["rows"] == 1


def _declared_store(path: Path, *, functional: bool = True) -> Memory:
    mem = Memory.open(path, embedder=None)
    mem.declare("lives_at", functional=functional, literal=True,
                phrase="{subject} lives at {object}")  # fmt: skip
    return mem


def test_declared_predicates_travel_with_the_export(tmp_path):
    source = _declared_store(tmp_path / "a.db")
    source.remember("Sam", "lives_at", "12 Rua Augusta", valid_from="2024-05-01", scope="s")
    buffer = io.StringIO()
    export_jsonl(source, buffer)
    assert json.loads(buffer.getvalue().splitlines()[0])["kind"] == "predicate"

    with Memory.open(tmp_path / "b.db", embedder=None) as target:
        counts = import_jsonl(target, io.StringIO(buffer.getvalue()))
        assert counts["predicates"] == 1 and counts["rows"] == 1
    with Memory.open(tmp_path / "b.db", embedder=None) as reopened:  # known on reopen
        assert [f.text for f in reopened.facts("Sam", "lives_at", scope="s")] == [
            "Sam lives at 12 Rua Augusta"
        ]


def test_a_predicate_of_another_shape_refuses_the_whole_import(tmp_path):
    from graphmem.errors import LoadError

    source = _declared_store(tmp_path / "a.db")
    source.remember("Sam", "lives_at", "12 Rua Augusta", scope="s")
    buffer = io.StringIO()
    export_jsonl(source, buffer)
    target = _declared_store(tmp_path / "b.db", functional=False)
    with pytest.raises(LoadError, match=r":1: predicate .lives_at. is functional literal here"):
        import_jsonl(target, io.StringIO(buffer.getvalue()))
    assert target.stats()["rows"] == 0
