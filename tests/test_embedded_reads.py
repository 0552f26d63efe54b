"""The embedded store reads rows from SQLite through the index each read shape needs.

With no mirror in memory, a read that fell back to scanning its scope would cost the
scope's size (seconds at a million rows): every shape the store serves (by ids, by
entity as subject or object, by family, subject, object, predicate) is a SEARCH on
the index for it, never a SCAN and never the scope alone.
"""

from __future__ import annotations

import pytest

from graphmem import Memory
from graphmem.model import Entity
from graphmem.store.embedded.backend import _row_where
from graphmem.store.protocol import RowQuery
from graphmem.time.bounds import TemporalBounds
from graphmem.time.instant import to_instant

S = "s"
ALICE, BERLIN = Entity.id_for(S, "Alice"), Entity.id_for(S, "Berlin")
AS_OF = TemporalBounds.as_of(to_instant("2024-06-01"))


@pytest.fixture
def mem(tmp_path):
    mem = Memory.open(tmp_path / "m.db", embedder=None)
    mem.remember("Alice", "lives_in", "Berlin", scope=S)
    mem.remember("Bob", "lives_in", "Berlin", scope=S)
    yield mem
    mem.close()


@pytest.mark.parametrize(
    ("query", "index"),
    [
        (
            RowQuery(scope=S, row_ids=tuple(f"r_{i}" for i in range(40)), bounds=AS_OF),
            "sqlite_autoindex_rows_1",
        ),
        (RowQuery(scope=S, entity_id=ALICE, bounds=AS_OF), "rows_family"),
        (RowQuery(scope=S, entity_id=BERLIN, bounds=AS_OF), "rows_object"),
        (RowQuery(scope=S, subject_id=ALICE, predicate="lives_in"), "rows_family"),
        (RowQuery(scope=S, subject_id=ALICE, bounds=AS_OF), "rows_family"),
        (RowQuery(scope=S, object_id=BERLIN), "rows_object"),
        (RowQuery(scope=S, predicate="lives_in", bounds=AS_OF), "rows_predicate"),
    ],
)
def test_each_read_shape_is_served_by_its_index(mem, query, index):
    ids = list(query.row_ids) if query.row_ids is not None else None
    where, params = _row_where(query, ids)
    plan = [r[3] for r in mem.backend._db.execute(
        f"EXPLAIN QUERY PLAN SELECT * FROM rows WHERE {where}", params
    )]  # fmt: skip
    steps = [p for p in plan if p.startswith(("SEARCH", "SCAN"))]
    assert steps and all(p.startswith("SEARCH") for p in steps), plan
    assert any(index in p for p in steps), plan
    assert not any(p.endswith("(scope=?)") for p in steps), plan
    found = mem.backend.rows(query)  # and the read gives what it asks for
    assert all(r.scope == S for r in found)
