"""The Cypher export writes the graph the Neo4j backend writes: one data model.

A store rebuilt in Neo4j from ``graphmem export --format cypher`` answers the README's
Browser queries exactly as a store pushed there does, and graphmem itself reads it back.
"""

from __future__ import annotations

from importlib import resources
from pathlib import Path

import pytest
from conftest import neo4j_auth, wipe_neo4j

from graphmem import Memory
from graphmem.browse import entity_history, graph_now, graph_on
from graphmem.export import cypher_statements
from graphmem.store.push import push

neo4j = pytest.importorskip("neo4j")

DEMO_LOG = Path(str(resources.files("graphmem") / "data" / "demo_conversation.jsonl"))
SCOPE = "demo"
BROWSER_QUERIES = [
    graph_now(SCOPE),
    graph_on(SCOPE, "2024-02-20"),
    graph_on(SCOPE, "2024-02-20", known_at="2024-02-21"),
    entity_history(SCOPE, "Sam"),
]


def browser_answers(uri: str) -> list[list[tuple]]:
    """What each Browser query shows: every edge with its endpoints and time properties."""
    with neo4j.GraphDatabase.driver(uri, auth=neo4j_auth()) as driver:
        out = []
        for query in BROWSER_QUERIES:
            records, _, _ = driver.execute_query(query)
            out.append(sorted(
                (r["s"]["name"], r["r"].type, r["o"]["name"], r["r"]["caption"],
                 *(str(r["r"][k]) for k in ("valid_from", "valid_to", "recorded_at", "expired_at")))
                for r in records
            ))  # fmt: skip
        return out


def run_script(uri: str, statements: list[str]) -> None:
    with neo4j.GraphDatabase.driver(uri, auth=neo4j_auth()) as driver, driver.session() as s:
        for statement in statements:
            if not statement.startswith("//"):
                s.run(statement.removesuffix(";")).consume()


@pytest.fixture
def demo(tmp_path) -> Memory:
    mem = Memory.open(tmp_path / "demo.db", embedder=None)
    mem.load(DEMO_LOG, scope=SCOPE)
    mem.declare("lives_at", functional=True, literal=True, phrase="{subject} lives at {object}")
    mem.remember("Sam", "lives_at", "12 Rua Augusta", valid_from="2024-05-01", scope=SCOPE)
    yield mem
    mem.close()


def test_a_store_rebuilt_from_its_cypher_export_is_the_pushed_store(demo, neo4j_db):
    script = list(cypher_statements(demo))
    assert all(s.endswith(";") for s in script if not s.startswith("//"))

    run_script(neo4j_db, script)
    rebuilt = browser_answers(neo4j_db)
    with Memory.open(neo4j_db, embedder=None) as mem:
        rebuilt_facts = mem.facts("Sam", scope=SCOPE)
        rebuilt_history = [
            (r.id, r.expired_at, status) for r, status in mem.history("Sam", scope=SCOPE)
        ]
        rebuilt_events = [e.op for e in mem.backend.events(SCOPE)]
        assert (
            mem.ask("where does Sam live?", scope=SCOPE).answer
            == demo.ask("where does Sam live?", scope=SCOPE).answer
        )
        assert "lives_at" in {p.name for p in mem.backend.predicates()}

    wipe_neo4j(neo4j_db)
    with Memory.open(neo4j_db, embedder=None) as mem:
        push(demo.backend, mem.backend)
    pushed = browser_answers(neo4j_db)

    assert all(rebuilt), "every Browser query shows something"
    assert rebuilt == pushed
    assert rebuilt_facts == demo.facts("Sam", scope=SCOPE)
    assert rebuilt_history == [(r.id, r.expired_at, s) for r, s in demo.history("Sam", scope=SCOPE)]
    assert rebuilt_events == [e.op for e in demo.backend.events(SCOPE)]
