"""What the view page is given to draw (``graphmem.view.data``), read through ``Memory``:
the graph at one valid instant as believed at one transaction instant, the given-up
facts marked, the scope's extent for the sliders, one entity's rows for its pictures.
"""

from __future__ import annotations

import pytest

from graphmem import Memory
from graphmem.view import data

SCOPE = "alice"


@pytest.fixture
def memory(tmp_path):
    mem = Memory.open(tmp_path / "m.db", embedder=None)
    mem.remember("Alice", "lives_in", "Paris", valid_from="2019-01-01", scope=SCOPE,
                 recorded_at="2019-01-02")  # fmt: skip
    mem.supersede("Alice", "lives_in", "Berlin", since="2024-03-01", scope=SCOPE,
                  recorded_at="2024-03-02")  # fmt: skip
    mem.remember("Alice", "works_at", "Acme", valid_from="2022-01-01", scope=SCOPE,
                 recorded_at="2024-03-03")  # fmt: skip
    mem.correct("Alice", "works_at", wrong="Acme", right="Initech", scope=SCOPE,
                recorded_at="2024-06-01")  # fmt: skip
    mem.remember("Alice", "allergic_to", "peanuts", scope=SCOPE, recorded_at="2024-06-02")
    yield mem
    mem.close()


def _edges(graph: dict) -> dict[tuple[str, str], dict]:
    return {(e["predicate"], e["object"]): e for e in graph["edges"]}


def test_the_graph_now_marks_what_is_no_longer_believed(memory):
    graph = data.graph(memory, scope=SCOPE)
    edges = _edges(graph)
    assert {k for k, e in edges.items() if e["believed"]} == {
        ("lives_in", "Berlin"), ("works_at", "Initech"), ("allergic_to", "peanuts")}  # fmt: skip
    assert edges[("lives_in", "Paris")]["status"] == "superseded"
    assert edges[("works_at", "Acme")]["caption"] == "works_at · since 2022-01-01 · corrected"
    assert edges[("allergic_to", "peanuts")]["caption"] == "allergic_to · always"
    nodes = {n["label"]: n for n in graph["nodes"]}
    assert nodes["peanuts"]["kind"] == "value" and nodes["Berlin"]["kind"] == "entity"
    assert not nodes["Acme"]["believed"] and nodes["Initech"]["believed"]
    plain = _edges(data.graph(memory, scope=SCOPE, expired=False))
    assert all(e["believed"] for e in plain.values()) and ("lives_in", "Paris") not in plain


def test_valid_time_and_transaction_time_move_the_graph(memory):
    past = _edges(data.graph(memory, scope=SCOPE, as_of="2023-06-01"))
    assert past[("lives_in", "Paris")]["status"] == "ended"
    assert past[("lives_in", "Paris")]["interval"] == "2019-01-01 → 2024-03-01"
    assert ("lives_in", "Berlin") not in past
    believed = _edges(data.graph(memory, scope=SCOPE, as_of="2023-06-01", known_at="2024-04-01"))
    assert believed[("works_at", "Acme")]["believed"]
    assert ("works_at", "Initech") not in believed
    before = _edges(data.graph(memory, scope=SCOPE, as_of="2023-06-01", known_at="2024-03-02"))
    assert set(before) == {("lives_in", "Paris")}


def test_the_overview_gives_the_sliders_their_range_and_stops(memory):
    view = data.overview(memory, scope=SCOPE)
    assert view["recorded"]["stops"][0] == "2019-01-02T00:00:00Z"
    assert "2024-06-01T00:00:00Z" in view["recorded"]["stops"]
    assert "2024-03-01T00:00:00Z" in view["valid"]["stops"]
    assert view["valid"]["min"] < "2019-01-01" and view["entities"] == sorted(view["entities"])
    assert SCOPE in view["scopes"]
    assert len(view["links"]) == 5  # Paris, Berlin, Acme, Initech, peanuts: each ever joined


def test_an_entity_gives_its_timeline_and_every_row_by_key(memory):
    alice = data.entity(memory, "Alice", scope=SCOPE)
    assert [(e["predicate"], e["object"]) for e in alice["timeline"]
            if e["predicate"] == "lives_in"] == [("lives_in", "Paris"), ("lives_in", "Berlin")]  # fmt: skip
    rows = alice["keys"]["works_at"]
    acme = next(r for r in rows if r["object"] == "Acme")
    assert acme["status"] == "corrected" and acme["expired_at"] == "2024-06-01T00:00:00Z"
    assert next(r for r in rows if r["object"] == "Initech")["expired_at"] is None  # open
    then = data.entity(memory, "Alice", scope=SCOPE, known_at="2024-04-01")
    assert ("works_at", "Acme") in {(e["predicate"], e["object"]) for e in then["timeline"]}
