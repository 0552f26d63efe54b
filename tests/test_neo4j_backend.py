"""Neo4j-specific behaviour: schema, stored types, scope everywhere, errors, concurrency,
search through the indexes, and ``push`` from an embedded store.

The contract every backend shares lives in test_worked_cases.py and
test_bitemporal_properties.py; these tests need a running Neo4j (``GRAPHMEM_NEO4J_URI``).
"""

from __future__ import annotations

import hashlib
import threading
import time
from datetime import timedelta

import numpy as np
import pytest

from graphmem import Entity, Episode, Memory, StoreError
from graphmem.model import CandidateFact, text_owner
from graphmem.store.embedded import EmbeddedBackend
from graphmem.store.protocol import Backend, RowQuery, WriteBatch
from graphmem.store.push import COUNTS, push
from graphmem.time.bounds import Changes, TemporalBounds
from graphmem.time.instant import NEG_INF, POS_INF, to_instant
from graphmem.time.interval import Interval

neo4j = pytest.importorskip("neo4j")
from graphmem.errors import TransientStoreError  # noqa: E402
from graphmem.store.neo4j import Neo4jBackend, codecs, schema  # noqa: E402
from graphmem.store.neo4j import backend as neo4j_backend  # noqa: E402
from graphmem.store.neo4j import cypher as statements  # noqa: E402


class HashEmbedder:
    """Deterministic unit vectors (384-d) from a hash of the text: no model needed."""

    name = "hash"
    dimensions = 384

    def embed(self, texts):
        out = []
        for text in texts:
            seed = int.from_bytes(hashlib.blake2b(text.encode(), digest_size=8).digest(), "little")
            v = np.random.default_rng(seed).standard_normal(self.dimensions).astype(np.float32)
            out.append(v / np.linalg.norm(v))
        return np.stack(out)


@pytest.fixture
def uri(neo4j_db) -> str:
    """The test Neo4j, wiped when the test ends (conftest.neo4j_db)."""
    return neo4j_db


@pytest.fixture
def mem(uri):
    """A Neo4j-backed Memory over an empty database, with hash embeddings."""
    memory = Memory.open(uri, embedder=HashEmbedder())
    memory.backend.drop_all()
    yield memory
    memory.close()


def cypher(mem: Memory, query: str, **params):
    records, _, _ = mem.backend._driver.execute_query(query, params)
    return [dict(r) for r in records]


def write_history(mem: Memory, scope: str = "alice") -> None:
    mem.remember("Alice", "lives_in", "Paris", valid_from="2019-01-01", scope=scope,
                 recorded_at="2019-01-05")  # fmt: skip
    mem.supersede("Alice", "lives_in", "Berlin", since="2024-03-01", scope=scope,
                  recorded_at="2024-03-02")  # fmt: skip
    mem.supersede("Alice", "lives_in", "Rome", since="2022-01-01", scope=scope,
                  recorded_at="2024-04-01")  # fmt: skip
    mem.remember("Alice", "works_at", "Acme", valid_from="2020-01-01", scope=scope,
                 recorded_at="2024-04-02")  # fmt: skip
    mem.correct("Alice", "works_at", wrong="Acme", right="Globex", scope=scope,
                recorded_at="2024-04-03")  # fmt: skip
    mem.remember("Alice", "owns_pet", "Tom", valid_from="2020-01-01", scope=scope,
                 recorded_at="2024-04-04")  # fmt: skip
    mem.remember("Alice", "owns_pet", "Rex", valid_from="2022-01-01", scope=scope,
                 recorded_at="2024-04-05")  # fmt: skip
    mem.retract("Alice", "owns_pet", "Tom", at="2023-05-01", scope=scope,
                recorded_at="2024-04-06")  # fmt: skip
    mem.remember("Bob", "partner", "Alice", valid_from="2021-01-01", scope=scope,
                 recorded_at="2024-04-07")  # fmt: skip
    mem.remember("Bob", "lives_in", "Oslo", scope=scope, recorded_at="2024-04-08")
    mem.add_episodes([
        Episode(scope=scope, session="s1", turn=1, speaker="alice", role="user",
                text="I moved to Berlin in March.", timestamp="2024-04-09T10:00:00Z"),
        Episode(scope=scope, session="s1", turn=2, speaker="assistant", role="assistant",
                text="Noted, Berlin it is.", timestamp="2024-04-09T10:00:05Z"),
    ])  # fmt: skip


# -- schema ------------------------------------------------------------------------------


def test_the_schema_is_applied_on_open_and_idempotently(uri):
    first = Neo4jBackend(uri)
    try:
        assert isinstance(first, Backend)
        expected = {schema.schema_name(s) for s in schema.schema_statements()}
        assert None not in expected and len(expected) >= 20
        indexes = {r["name"]: r for r in first._read(
            "SHOW INDEXES YIELD name, type, state, options RETURN *")}  # fmt: skip
        constraints = {r["name"] for r in first._read("SHOW CONSTRAINTS YIELD name RETURN name")}
        assert expected <= set(indexes) | constraints
        assert all(r["state"] == "ONLINE" for r in indexes.values())
        config = indexes["fact_embedding"]["options"]["indexConfig"]
        assert config["vector.dimensions"] == 384
        assert config["vector.similarity_function"].lower() == "cosine"
        assert indexes["fact_text_scoped"]["type"] == "FULLTEXT"
        assert not set(schema.RETIRED) & set(indexes)  # retired: dropped, never created
        # Opening again creates nothing and changes nothing.
        second = Neo4jBackend(uri)
        try:
            assert second.apply_schema() == []
            again = {r["name"] for r in second._read("SHOW INDEXES YIELD name RETURN name")}
            assert again == set(indexes)
        finally:
            second.close()
    finally:
        first.close()


def test_an_index_retired_from_the_schema_is_dropped_on_open(uri):
    earlier = Neo4jBackend(uri)  # as an earlier version left it
    earlier._driver.execute_query(
        "CREATE FULLTEXT INDEX fact_text IF NOT EXISTS FOR (f:Fact) ON EACH [f.text]"
    )
    earlier.close()
    backend = Neo4jBackend(uri)
    names = {r["name"] for r in backend._read("SHOW INDEXES YIELD name RETURN name")}
    backend.close()
    assert "fact_text" in schema.RETIRED and not names & set(schema.RETIRED)
    assert not any(schema.schema_name(s) in schema.RETIRED for s in schema.schema_statements())


def test_schema_files_split_into_statements():
    statements = schema.schema_statements()
    assert all(s.upper().startswith("CREATE") and "IF NOT EXISTS" in s.upper() for s in statements)
    assert not any(";" in s or "//" in s for s in statements)


# -- what is stored ------------------------------------------------------------------------


def test_times_are_utc_datetimes_and_open_ends_are_sentinels(mem):
    write_history(mem)
    rows = cypher(mem, """
        MATCH (f:Fact) OPTIONAL MATCH (:Entity)-[r {id: f.id}]->(:Entity)
        RETURN [k IN $times | [valueType(f[k]), f[k].offsetSeconds, f[k].timezone,
                               r[k] = f[k]]] AS checks""",
        times=list(statements.TIME_FIELDS))  # fmt: skip
    assert rows
    for row in rows:
        for kind, offset, zone, mirrored in row["checks"]:
            assert (kind, offset, zone, mirrored) == ("ZONED DATETIME NOT NULL", 0, "Z", True)
    (ends,) = cypher(mem, """
        MATCH (f:Fact) RETURN
          count(CASE WHEN f.valid_to = datetime($pos) THEN 1 END) AS open_to,
          count(CASE WHEN f.expired_at = datetime($pos) THEN 1 END) AS open_tx,
          count(CASE WHEN f.valid_from = datetime($neg) THEN 1 END) AS open_from,
          count(CASE WHEN f.valid_to IS NULL OR f.expired_at IS NULL OR f.valid_from IS NULL
                     THEN 1 END) AS nulls""",
        pos="9999-12-31T23:59:59.999999Z", neg="0001-01-01T00:00:00Z")  # fmt: skip
    assert ends["open_to"] > 0 and ends["open_tx"] > 0 and ends["open_from"] == 1  # Bob in Oslo
    assert ends["nulls"] == 0
    others = cypher(mem, """
        MATCH (n) WHERE n:Clock OR n:Event OR n:Episode
        UNWIND [k IN ['requested', 'assigned', 'recorded_at', 'timestamp'] WHERE n[k] IS NOT NULL
                | [valueType(n[k]), n[k].offsetSeconds]] AS check
        RETURN DISTINCT check""")  # fmt: skip
    assert [o["check"] for o in others] == [["ZONED DATETIME NOT NULL", 0]]
    # Microseconds survive the round trip exactly.
    mem.remember("Cy", "hobby", "chess", scope="alice", recorded_at="2030-01-01T00:00:00.123456Z")
    (fact,) = mem.facts("Cy", scope="alice")
    assert fact.recorded_at == to_instant("2030-01-01T00:00:00.123456Z")


def test_scope_is_on_every_node_and_relationship(mem):
    write_history(mem, "alice")
    write_history(mem, "bob")
    mem.alias("Alice", "Ally", scope="alice")
    mem.erase("Bob", "lives_in", scope="bob")
    assert cypher(mem, "MATCH (n) WHERE n.scope IS NULL RETURN labels(n) AS l") == []
    assert cypher(mem, "MATCH ()-[r]->() WHERE r.scope IS NULL RETURN type(r) AS t") == []
    mixed = cypher(mem, """
        MATCH (a)-[r]->(b) WHERE NOT (a.scope = r.scope AND r.scope = b.scope)
        RETURN type(r) AS t""")  # fmt: skip
    assert mixed == []
    (counts,) = cypher(mem, "MATCH (f:Fact) WHERE f.embedding IS NOT NULL "
                       "RETURN count(f) AS n, collect(DISTINCT f.scope) AS s")  # fmt: skip
    assert counts["n"] > 0 and sorted(counts["s"]) == ["alice", "bob"]
    assert mem.backend.integrity_check() == []


def test_a_vector_lives_on_the_nodes_it_describes_and_waits_for_its_owner(mem, uri):
    vectors = mem.backend.embeddings([text_owner("alice", "Alice lives in Paris")])
    assert vectors == {}
    write_history(mem)
    paris = text_owner("alice", "Alice lives in Paris")
    (stored,) = cypher(mem, "MATCH (f:Fact {vector_key: $k}) RETURN collect(f.embedding) AS v",
                       k=paris)  # fmt: skip
    assert len(stored["v"]) == 3 and all(v == stored["v"][0] for v in stored["v"])  # its rows
    assert mem.backend.embeddings([paris]) == {paris: stored["v"][0]}
    assert cypher(mem, "MATCH (e:Embedding) RETURN e") == []  # no second copy
    # A vector given before any node owns it is kept, with its scope, and a row of that
    # text written later (by a writer with no embedder) takes it; the next vector given
    # for the text replaces it on the rows, and the waiting node goes.
    lisbon = text_owner("alice", "Alice lives in Lisbon")
    early = HashEmbedder().embed(["early"])[0].tolist()
    session = mem.backend.begin([], ["alice"])
    session.commit(WriteBatch(clocks={"alice": session.clock("alice")},
                              embeddings={lisbon: early}))  # fmt: skip
    assert cypher(mem, "MATCH (e:Embedding) RETURN e.scope AS s") == [{"s": "alice"}]
    assert mem.backend.embeddings([lisbon]) == {lisbon: pytest.approx(early)}
    with Memory.open(uri, embedder=None) as plain:
        plain.supersede("Alice", "lives_in", "Lisbon", since="2025-01-01", scope="alice",
                        recorded_at="2025-01-02")  # fmt: skip
    (row,) = cypher(mem, "MATCH (f:Fact {vector_key: $k}) RETURN f.embedding AS v", k=lisbon)
    assert row["v"] == pytest.approx(early)
    mem.remember(
        "Alice",
        "lives_in",
        "Lisbon",
        valid_from="2010-01-01",
        valid_to="2011-01-01",
        scope="alice",
        recorded_at="2025-01-03",
    )  # a second row: its vector is given
    fresh = HashEmbedder().embed(["Alice lives in Lisbon"])[0].tolist()
    rows = cypher(mem, "MATCH (f:Fact {vector_key: $k}) RETURN f.embedding AS v", k=lisbon)
    assert len(rows) == 2 and all(r["v"] == pytest.approx(fresh) for r in rows)
    assert mem.backend.embeddings([lisbon]) == {lisbon: pytest.approx(fresh)}
    assert cypher(mem, "MATCH (e:Embedding) RETURN e") == []
    assert mem.backend.integrity_check() == []


def test_the_graph_reads_well_in_neo4j_browser(mem):
    mem.remember("Alice", "lives_in", "Paris", valid_from="2019-01-01", scope="s",
                 recorded_at="2019-01-05")  # fmt: skip
    mem.supersede("Alice", "lives_in", "Berlin", since="2024-03-01", scope="s",
                  recorded_at="2024-03-02")  # fmt: skip
    edges = cypher(mem, """
        MATCH (a:Entity:Person {name: 'Alice'})-[r:LIVES_IN]->(p:Entity:Place)
        RETURN p.name AS place, r.caption AS caption ORDER BY place, caption""")  # fmt: skip
    assert edges == [
        {"place": "Berlin", "caption": "lives in (2024-03-01 → now)"},
        {"place": "Paris", "caption": "lives in (2019-01-01 → 2024-03-01)"},
        {"place": "Paris", "caption": "lives in (2019-01-01 → now) ✗ superseded"},
    ]
    reified = cypher(mem, """
        MATCH (:Entity {name: 'Alice'})-[:SUBJECT]->(f:Fact)-[:OBJECT]->(:Entity {name: 'Berlin'})
        RETURN f.text AS text, f.caption AS caption""")  # fmt: skip
    assert reified == [{"text": "Alice lives in Berlin", "caption": "lives in (2024-03-01 → now)"}]


def test_labels_and_types_are_safe_identifiers():
    assert codecs.entity_label("Person") == "Person"
    assert codecs.entity_label("job title!") == "job_title"
    assert codecs.entity_label("Event") == "Event_"
    assert codecs.entity_label("3d") == "T_3d"
    assert codecs.relationship_type("lives_in") == "LIVES_IN"
    assert codecs.relationship_type("subject") == "SUBJECT_"


def test_an_alias_changes_the_entity_in_place(mem):
    mem.remember("Robert Smith", "lives_in", "Zürich", scope="t")
    mem.alias("Robert Smith", "Bob", scope="t")
    (entity,) = [e for e in mem.entities(scope="t") if e.name == "Robert Smith"]
    assert entity.aliases == ("Bob",)
    assert [e.name for e in mem.backend.entities_named("t", ["bob"])] == ["Robert Smith"]
    changed = entity.model_copy(update={"type": "Organization"})
    mem.backend.put_entity(changed)
    (labels,) = cypher(mem, "MATCH (n:Entity {id: $id}) RETURN labels(n) AS l", id=entity.id)
    assert sorted(labels["l"]) == ["Entity", "Organization"]


# -- errors ------------------------------------------------------------------------------


@pytest.mark.parametrize("bad", ["bolt://127.0.0.1:1", "neo4j://127.0.0.1:1"])
def test_a_closed_port_is_one_clear_error(bad):
    started = time.monotonic()
    with pytest.raises(StoreError) as raised:
        Memory.open(bad, embedder=None)
    assert time.monotonic() - started < 15
    message = str(raised.value)
    assert bad in message and "no Neo4j answers" in message
    assert raised.value.__cause__ is None and raised.value.__suppress_context__


def test_a_missing_database_is_one_clear_error(uri):
    with pytest.raises(StoreError) as raised:
        Neo4jBackend(uri, database="no_such_db")
    message = str(raised.value)
    assert uri in message and "no_such_db" in message and "does not exist" in message


def test_credentials_in_the_uri_are_used_but_never_shown():
    with pytest.raises(StoreError) as raised:
        Neo4jBackend("bolt://neo4j:s3cret@127.0.0.1:1")
    assert "s3cret" not in str(raised.value) and "bolt://127.0.0.1:1" in str(raised.value)


def test_a_closed_store_says_so(uri):
    backend = Neo4jBackend(uri)
    backend.close()
    with pytest.raises(StoreError, match="closed"):
        backend.rows(RowQuery(scope="s"))


def test_a_transient_failure_at_commit_rolls_back_and_can_be_retried(mem, monkeypatch):
    mem.remember("Alice", "lives_in", "Paris", scope="s", recorded_at="2020-01-01")
    before = mem.stats()
    real = Neo4jBackend._write_batch

    def flaky(self, tx, batch):
        real(self, tx, batch)
        raise neo4j.exceptions.TransientError("simulated deadlock")

    monkeypatch.setattr(Neo4jBackend, "_write_batch", flaky)
    with pytest.raises(TransientStoreError, match="retry"):
        mem.supersede("Alice", "lives_in", "Rome", since="2021-01-01", scope="s")
    monkeypatch.undo()
    assert mem.stats() == before
    mem.supersede("Alice", "lives_in", "Rome", since="2021-01-01", scope="s")
    assert [f.object for f in mem.facts("Alice", scope="s")] == ["Rome"]


# -- concurrency ---------------------------------------------------------------------------


def test_concurrent_writers_lose_no_write(uri, mem):
    threads, per_thread = 8, 10
    shared = Memory.open(uri, embedder=None)
    errors: list[BaseException] = []
    base = to_instant("2000-01-01")

    def writer(i: int) -> None:
        own = Memory.open(uri, embedder=None) if i % 2 else shared
        try:
            for j in range(per_thread):
                own.remember("Alice", "owns_pet", f"pet {i}-{j}", scope="race")
                since = base + timedelta(days=i * per_thread + j)
                own.supersede("Bob", "lives_in", f"city {i}-{j}", since=since, scope="race")
        except BaseException as exc:  # noqa: BLE001
            errors.append(exc)
        finally:
            if own is not shared:
                own.close()

    workers = [threading.Thread(target=writer, args=(i,)) for i in range(threads)]
    for w in workers:
        w.start()
    for w in workers:
        w.join()
    shared.close()
    assert errors == []
    total = threads * per_thread
    assert len(mem.facts("Alice", "owns_pet", scope="race")) == total
    timeline = mem.timeline("Bob", "lives_in", scope="race")
    assert [e.object for e in timeline] == [
        f"city {n // per_thread}-{n % per_thread}" for n in range(total)
    ]
    events = list(mem.backend.events("race"))
    assert len(events) == 2 * total
    times = [e.recorded_at for e in events]
    assert times == sorted(times) and len(set(times)) == len(times)
    assert mem.backend.integrity_check() == []


# -- search and erase ----------------------------------------------------------------------


def test_search_filters_scope_and_time_before_ranking(uri, tmp_path, monkeypatch):
    embedder = HashEmbedder()
    stores = [
        Memory.open(uri, embedder=embedder),
        Memory.open(tmp_path / "m.db", embedder=embedder),
    ]
    stores[0].backend.drop_all()
    try:
        for mem in stores:
            write_history(mem, "alice")
            write_history(mem, "bob")
        query = embedder.embed(["Alice lives in Paris"])[0]
        modes = [
            RowQuery("alice"),
            RowQuery("alice", TemporalBounds.as_of(to_instant("2020-06-01"))),
            RowQuery("alice", TemporalBounds.known_at(to_instant("2024-03-15"))),
            RowQuery("alice", TemporalBounds.history()),
            RowQuery(
                "alice",
                TemporalBounds.during(Interval(to_instant("2022-06-01"), to_instant("2023-01-01"))),
            ),
            RowQuery("nobody"),
        ]
        for f in modes:
            results = []
            for mem in stores:
                found = mem.backend.search("facts", f, vector=query, text="Paris Berlin", k=50)
                rows = {
                    r.id: r
                    for r in mem.backend.rows(
                        RowQuery(scope="alice", bounds=TemporalBounds.history())
                    )
                }
                allowed = {r.id for r in mem.backend.rows(f)}
                assert {i for i, _ in found["vector"]} == allowed
                assert {i for i, _ in found["keyword"]} <= allowed
                results.append(sorted(
                    (rows[i].text, rows[i].valid_from, rows[i].recorded_at, s)
                    for i, s in found["vector"]))  # fmt: skip
            neo, embedded = results
            assert [r[:3] for r in neo] == [r[:3] for r in embedded], f
            assert [r[3] for r in neo] == pytest.approx([r[3] for r in embedded], abs=1e-5)
        # Past the exact limit the vector index answers, still filtered.
        monkeypatch.setattr(neo4j_backend, "EXACT_LIMIT", 0)
        found = stores[0].backend.search("facts", modes[1], vector=query, text=None, k=3)
        best = stores[0].backend.rows(RowQuery(scope="alice", row_ids=(found["vector"][0][0],)))
        assert [r.text for r in best] == ["Alice lives in Paris"] and found["keyword"] == []
        episodes = stores[0].backend.search(
            "episodes", RowQuery("alice"), vector=embedder.embed(["Noted, Berlin it is."])[0],
            text="moving to berlin", k=5,
        )  # fmt: skip
        assert len(episodes["vector"]) == 2 and len(episodes["keyword"]) == 2
        early = RowQuery("alice", TemporalBounds.known_at(to_instant("2024-04-09T10:00:01Z")))
        only_first = stores[0].backend.search("episodes", early, vector=None, text="berlin", k=5)
        assert len(only_first["keyword"]) == 1
        ids = [e.id for e in stores[1].backend.entities("alice")] + ["nobody"]
        degrees = [mem.backend.degrees("alice", ids) for mem in stores]
        assert degrees[0] == degrees[1] and max(degrees[0].values()) > 1
        hits = stores[0].search("where does Alice live?", scope="alice", k=3, targets=("facts",))
        assert "Berlin" in [h.fact.object for h in hits.facts]
        assert all(h.fact.scope == "alice" and h.status == "current" for h in hits.facts)
    finally:
        for mem in stores:
            mem.close()


def test_a_tenants_search_reads_its_own_rows_whatever_the_others_hold(mem):
    """A small scope is scored exactly from its own entries, and its keyword query asks
    Lucene for its own matches only: other tenants' rows are never read, and the scores
    are those of the unscoped full-text query."""
    write_history(mem, "alice")
    for n in range(30):  # other tenants, with the same words
        mem.remember("Alice", "lives_in", f"Paris {n}", scope=f"other-{n}")
    vector = HashEmbedder().embed(["Alice lives in Paris"])[0]
    query = RowQuery("alice", TemporalBounds.history())
    found = mem.backend.search("facts", query, vector=vector, text="Paris", k=5)
    assert found["vector"] == mem.backend.exact_search("facts", query, vector=vector, k=5)
    assert found["keyword"] and all(
        r.scope == "alice"
        for r in mem.backend.rows(RowQuery("alice", TemporalBounds.history(),
                                           row_ids=tuple(i for i, _ in found["keyword"])))
    )  # fmt: skip
    scoped = cypher(mem, "CALL db.index.fulltext.queryNodes('fact_text_scoped', $q) "
                    "YIELD node, score RETURN node.scope AS scope, node.id AS id, score",
                    q=codecs.scoped_lucene("paris", "alice"))  # fmt: skip
    everyone = cypher(mem, "CALL db.index.fulltext.queryNodes('fact_text_scoped', "
                      "'text:(paris)') YIELD node, score RETURN node.id AS id, score")  # fmt: skip
    assert {r["scope"] for r in scoped} == {"alice"} and len(everyone) > len(scoped)
    unscoped = {r["id"]: r["score"] for r in everyone}
    assert all(r["score"] == pytest.approx(unscoped[r["id"]]) for r in scoped)


def plan_operators(plan) -> set[str]:
    name = plan["operatorType"].split("@")[0]
    return {name}.union(*(plan_operators(c) for c in plan.get("children", [])))


SCANS = {"AllNodesScan", "NodeByLabelScan", "NodeIndexScan", "DirectedAllRelationshipsScan",
         "UndirectedAllRelationshipsScan"}  # fmt: skip


def test_row_lookups_seek_their_index_whatever_the_statistics_when_planned(uri):
    """A plan is cached when it is first made, and a young database's statistics can make
    a scan look as cheap as a seek: the write path and the row reads force seeks, so a
    batch never scans every row per row (it did: planned right after a first batch of
    2,000 facts, expiring 2,000 rows read the Fact(id) index whole for each, 12.8M db
    hits, 60% of a load's time)."""
    mem = Memory.open(uri, embedder=None)
    mem.backend.drop_all()
    mem.apply([CandidateFact(op="assert", subject=f"person-{p}", predicate="lives_in",
                             object=f"city-{p % 50}", valid_from="2020-01-01")
               for p in range(2000)])  # fmt: skip
    erase = [
        statements.ERASE_ROWS.format(anchor=anchor, where="f.scope = $scope",
                                     direct=statements.DIRECT_RELATIONSHIP)
        for anchor in statements.ROW_ANCHORS.values()
    ]  # fmt: skip
    params = mem.backend._params({
        "expire": [], "families": [], "rows": [], "scope": "s", "subject_id": "x",
        "predicate": "p", "entity_id": "x", "object_id": "y", "row_ids": ["r"],
    })  # fmt: skip
    for statement in [statements.EXPIRE_ROWS, statements.CURRENT_ROWS, statements.INSERT_ROWS,
                      *erase]:  # fmt: skip
        with mem.backend._session() as session:
            operators = plan_operators(session.run("EXPLAIN " + statement, params).consume().plan)
        assert not operators & SCANS, statement
    mem.backend.drop_all()
    mem.close()


def test_rows_stored_before_scope_keys_get_them_when_the_schema_is_applied(mem):
    write_history(mem, "alice")
    cypher(mem, "MATCH (x) WHERE x:Fact OR x:Episode REMOVE x.scope_key")
    for index in ("fact_text_scoped", "episode_search_scoped"):
        cypher(mem, f"DROP INDEX {index}")
    assert set(mem.backend.apply_schema()) >= {"fact_text_scoped", "episode_search_scoped"}
    missing = cypher(mem, "MATCH (x) WHERE (x:Fact OR x:Episode) AND x.scope_key IS NULL "
                     "RETURN count(x) AS n")  # fmt: skip
    assert missing == [{"n": 0}]
    found = mem.backend.search("episodes", RowQuery("alice"), vector=None, text="berlin", k=5)
    assert len(found["keyword"]) == 2


def test_a_large_scope_is_searched_through_the_vector_index_rescored_exactly(mem, monkeypatch):
    write_history(mem, "alice")
    vector = HashEmbedder().embed(["Alice lives in Rome"])[0]
    query = RowQuery("alice", TemporalBounds.history())
    exact = mem.backend.exact_search("facts", query, vector=vector, k=3)
    monkeypatch.setattr(neo4j_backend, "EXACT_LIMIT", 0)  # every scope is "large"
    found = mem.backend.search("facts", query, vector=vector, text=None, k=3)["vector"]
    assert [i for i, _ in found] == [i for i, _ in exact]
    assert [s for _, s in found] == pytest.approx([s for _, s in exact], abs=1e-6)


def test_the_vector_index_holds_fact_and_episode_vectors(mem):
    write_history(mem)
    vector = HashEmbedder().embed(["Alice lives in Berlin"])[0].tolist()
    top = cypher(mem, """
        CALL db.index.vector.queryNodes('fact_embedding', 3, $v) YIELD node, score
        RETURN node.text AS text, score""", v=vector)  # fmt: skip
    assert top[0]["text"] == "Alice lives in Berlin" and top[0]["score"] == pytest.approx(
        1.0, abs=1e-3
    )
    (episodes,) = cypher(
        mem, "MATCH (e:Episode) WHERE e.embedding IS NOT NULL RETURN count(e) AS n"
    )
    assert episodes["n"] == 2


def test_erase_leaves_nothing_of_the_subject_in_the_graph(mem):
    write_history(mem)
    alice = Entity.id_for("alice", "Alice")
    paris_text = text_owner("alice", "Alice lives in Paris")
    assert mem.backend.embeddings([paris_text])
    assert mem.erase("Alice", scope="alice").rows > 0
    everything = cypher(mem, """
        CALL () { MATCH (n) RETURN properties(n) AS p
                  UNION ALL MATCH ()-[r]->() RETURN properties(r) AS p }
        RETURN p""")  # fmt: skip
    for item in everything:
        text = repr({k: v for k, v in item["p"].items() if k != "embedding"})
        assert alice not in text and "Alice" not in text, text
    assert mem.backend.embeddings([paris_text]) == {}
    tombstones = [e for e in mem.backend.events("alice") if e.op == "erase"]
    assert len(tombstones) == 1 and tombstones[0].payload == "{}"
    assert mem.backend.integrity_check() == []


# -- push --------------------------------------------------------------------------------


def snapshot(backend, scopes, owners):
    """Everything a store holds, in comparable form."""
    out = {"scopes": backend.scopes()}
    for scope in scopes:
        out[scope] = {
            "rows": sorted(
                r.model_dump_json()
                for r in backend.rows(RowQuery(scope=scope, bounds=TemporalBounds.history()))
            ),  # fmt: skip
            "entities": [e.model_dump() for e in backend.entities(scope)],
            "episodes": [e.model_dump() for e in backend.episodes(scope)],
            "events": list(backend.events(scope)),
            "clock": backend.clock(scope),
        }
    out["embeddings"] = backend.embeddings(owners)
    stats = backend.stats()
    out["stats"] = {k: v for k, v in stats.items() if k not in ("bytes", "embeddings")}
    return out


def test_push_copies_an_embedded_store_exactly_and_idempotently(uri, tmp_path):
    source = Memory.open(tmp_path / "source.db", embedder=HashEmbedder())
    write_history(source, "alice")
    write_history(source, "bob")
    source.erase("Bob", scope="bob")
    source.remember("Dana", "lives_in", "Lima", valid_from="2023-01-01", valid_to="2099-01-01",
                    scope="dana", recorded_at="2024-05-01")  # fmt: skip
    scopes = source.backend.scopes()
    rows = [
        r
        for s in scopes
        for r in source.backend.rows(RowQuery(scope=s, bounds=TemporalBounds.history()))
    ]
    owners = sorted(
        {r.id for r in rows} | {r.fact_id for r in rows}
        | {text_owner(r.scope, r.text) for r in rows}
        | {e.id for s in scopes for e in source.backend.episodes(s)}
    )  # fmt: skip
    target = Neo4jBackend(uri)
    target.drop_all()
    try:
        counts = push(source.backend, target)
        assert counts["rows"] == len(rows) and counts["clocks"] == len(scopes)
        assert counts["events"] == sum(len(list(source.backend.events(s))) for s in scopes)
        assert snapshot(target, scopes, owners) == snapshot(source.backend, scopes, owners)
        assert target.integrity_check() == []

        # Every query mode on a grid of instants answers the same.
        recorded = sorted(
            ({r.recorded_at for r in rows} | {r.expired_at for r in rows}) - {POS_INF}
        )
        valid = sorted(
            ({r.valid_from for r in rows} | {r.valid_to for r in rows}) - {NEG_INF, POS_INF}
        )
        tick = timedelta(microseconds=1)
        known_grid = [POS_INF] + [t + d for t in recorded for d in (-tick, 0 * tick)]
        as_of_grid = [None] + [t + d for t in valid for d in (-tick, 0 * tick)]
        compared = 0
        for scope in scopes:
            for known_at in known_grid:
                for as_of in as_of_grid:
                    bounds = (
                        TemporalBounds.known_at(known_at)
                        if as_of is None
                        else TemporalBounds.as_of(as_of, known_at=known_at)
                    )
                    q = RowQuery(scope=scope, bounds=bounds)
                    a, b = source.backend.rows(q), target.rows(q)
                    assert [r.model_dump() for r in a] == [r.model_dump() for r in b], q
                    compared += 1
            for axis in ("recorded", "valid"):
                for start in recorded[:3]:
                    args = (scope, Changes(start, to_instant("2100-01-01"), axis))
                    assert source.backend.changed_rows(*args) == target.changed_rows(*args)
        assert compared > 500

        # Twice adds nothing.
        before = target.stats()
        assert push(source.backend, target) == dict.fromkeys(COUNTS, 0)
        assert target.stats() == before

        # New writes in the source after a push: only they are copied.
        source.supersede("Dana", "lives_in", "Quito", since="2024-01-01", scope="dana",
                         recorded_at="2024-06-01")  # fmt: skip
        counts = push(source.backend, target)
        assert (counts["rows"], counts["expired"], counts["events"]) == (2, 1, 1)
        assert [f.object for f in Memory(target, embedder=None).facts("Dana", scope="dana")] == [
            "Quito"
        ]

        # And back: Neo4j into a fresh embedded store.
        back = EmbeddedBackend(tmp_path / "back.db")
        push(target, back)
        scopes = source.backend.scopes()
        assert snapshot(back, scopes, owners) == snapshot(target, scopes, owners)
        back.close()
    finally:
        target.close()
        source.close()
