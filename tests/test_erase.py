"""Erase forgets everything, on both backends: the facts, the turns that said them, the
entities left with no facts, their vectors and index entries; by a name or an alias. And
erasing one turn leaves the store as if the log had never held it."""

from __future__ import annotations

import io
import json

import pytest
from conftest import require_neo4j

from graphmem import InvalidFactError, Memory
from graphmem.export import export_jsonl
from graphmem.store.protocol import RowQuery
from graphmem.time.bounds import TemporalBounds

S = "erase"

LOG = [
    ("2024-01-08T09:00:00Z", "Hi! I've lived in Paris since 2019."),
    ("2024-01-08T09:01:00Z", "I work at Zorblatt as a data engineer."),
    ("2024-01-08T09:02:00Z", "Zorblatt's office is a long way from home."),
    ("2024-01-08T09:03:00Z", "I like green tea."),
    ("2024-03-02T10:00:00Z", "We moved to Berlin last week."),
]


def write_log(path, turns=LOG):
    with open(path, "w", encoding="utf-8") as out:
        for timestamp, text in turns:
            record = {"session": "s1", "timestamp": timestamp, "speaker": "user",
                      "role": "user", "text": text}  # fmt: skip
            out.write(json.dumps(record) + "\n")
    return path


@pytest.fixture
def loaded(memory, tmp_path):
    memory.load(write_log(tmp_path / "chat.jsonl"), scope=S)
    return memory


def texts(memory):
    return [e.text for e in memory.backend.episodes(S)]


def everything(memory) -> str:
    """All a scope holds, as one text: rows, events, entities, turns and an export."""
    out = io.StringIO()
    export_jsonl(memory, out, scope=S)
    rows = memory.backend.rows(RowQuery(scope=S, bounds=TemporalBounds.history()))
    events = [e.payload for e in memory.backend.events(S)]
    return "\n".join([out.getvalue(), repr(rows), repr(events)])


def test_erasing_a_value_takes_the_turns_that_said_or_named_it(loaded):
    assert "Zorblatt" in everything(loaded)

    erased = loaded.erase("Zorblatt", scope=S)

    assert (erased.rows, erased.turns, erased.entities) == (1, 2, 1)
    assert texts(loaded) == [LOG[0][1], LOG[3][1], LOG[4][1]]
    assert "zorblatt" not in everything(loaded).lower()
    assert loaded.search("Zorblatt office", scope=S).hits == []
    assert "Zorblatt" not in loaded.ask("where do I work?", scope=S).answer
    assert "Zorblatt" not in loaded.context("where do I work?", scope=S)
    assert loaded.backend.integrity_check() == []


def test_the_rest_of_the_memory_stays(loaded):
    before = loaded.facts("user", "lives_in", scope=S)
    loaded.erase("Zorblatt", scope=S)
    assert loaded.facts("user", "lives_in", scope=S) == before
    assert [f.object for f in loaded.facts("user", "likes", scope=S)] == ["green tea"]


def test_loading_the_same_log_again_does_not_bring_erased_turns_back(loaded, tmp_path):
    loaded.erase("Zorblatt", scope=S)
    report = loaded.load(write_log(tmp_path / "again.jsonl"), scope=S)
    assert report.episodes_added == 0
    assert "zorblatt" not in everything(loaded).lower()


def test_erasing_by_an_alias_erases_the_entity(memory):
    memory.remember("Robert Smith", "lives_in", "Oslo", scope=S)
    memory.remember("Robert Smith", "works_at", "Acme", scope=S)
    memory.alias("Robert Smith", "Bob", scope=S)

    erased = memory.erase("Bob", scope=S)

    assert erased.rows == 2
    assert memory.facts("Robert Smith", scope=S) == []
    assert {e.name for e in memory.entities(scope=S)} == set()  # Oslo and Acme went too


def test_erasing_a_key_takes_its_turns_and_leaves_other_keys(loaded):
    erased = loaded.erase("user", "works_at", scope=S)
    assert erased.rows == 1 and erased.turns == 2
    assert "Zorblatt" not in {e.name for e in loaded.entities(scope=S)}
    assert loaded.facts("user", "lives_in", scope=S)  # the subject's other facts stay
    assert "user" in {e.name for e in loaded.entities(scope=S)}


def test_a_literal_value_equal_to_an_erased_name_goes_too(memory):
    memory.remember("Ann", "favourite_book", "Zorblatt", scope=S)  # a literal value
    memory.remember("Ann", "lives_in", "Oslo", scope=S)
    assert memory.erase("zorblatt", scope=S).rows == 1
    assert [f.predicate for f in memory.facts("Ann", scope=S)] == ["lives_in"]


def test_erase_of_an_unknown_name_deletes_nothing_else(loaded):
    before = everything(loaded)
    erased = loaded.erase("Quetzalcoatl", scope=S)
    assert (erased.rows, erased.turns, erased.entities) == (0, 0, 0)
    assert [line for line in everything(loaded).splitlines() if "erase" not in line] == [
        line for line in before.splitlines() if "erase" not in line
    ]


# -- one turn, as if it had never been said -------------------------------------------------


def beliefs(memory, scope=S):
    """Every row ever written, without generated ids: what the store says and said."""
    rows = memory.backend.rows(RowQuery(scope=scope, bounds=TemporalBounds.history()))
    return sorted(
        (r.subject, r.predicate, r.object, r.valid_from, r.valid_to, r.recorded_at,
         r.expired_at, r.expired_by)
        for r in rows
    )  # fmt: skip


def test_erasing_a_turn_leaves_the_store_as_if_it_had_never_been_said(memory, tmp_path):
    memory.load(write_log(tmp_path / "full.jsonl"), scope=S)
    never_said = [t for t in LOG if "Berlin" not in t[1]]
    memory.load(write_log(tmp_path / "without.jsonl", never_said), scope="never-said")
    moved = next(e for e in memory.backend.episodes(S) if "Berlin" in e.text)
    assert [f.object for f in memory.facts("user", "lives_in", scope=S)] == ["Berlin"]

    erased = memory.erase_episode(moved.id, scope=S)

    assert erased.turns == 1 and erased.rewritten > 0
    assert [f.object for f in memory.facts("user", "lives_in", scope=S)] == ["Paris"]
    assert beliefs(memory) == beliefs(memory, "never-said")
    assert "Berlin" not in everything(memory)
    assert memory.backend.integrity_check() == []


def test_an_erased_turn_stays_erased_when_the_log_is_loaded_again(loaded, tmp_path):
    moved = next(e for e in loaded.backend.episodes(S) if "Berlin" in e.text)
    loaded.erase_episode(moved.id, scope=S)
    loaded.load(write_log(tmp_path / "again.jsonl"), scope=S)
    assert [f.object for f in loaded.facts("user", "lives_in", scope=S)] == ["Paris"]
    assert "Berlin" not in everything(loaded)


def test_erasing_a_turn_that_stated_nothing_removes_only_the_turn(loaded):
    office = next(e for e in loaded.backend.episodes(S) if "office" in e.text)
    before = beliefs(loaded)
    erased = loaded.erase_episode(office.id, scope=S)
    assert (erased.turns, erased.rows) == (1, 0)
    assert beliefs(loaded) == before
    assert office.text not in texts(loaded)


def test_erasing_an_unknown_turn_is_an_error(memory):
    with pytest.raises(InvalidFactError, match="no turn 'ep_nope'"):
        memory.erase_episode("ep_nope", scope=S)


# -- the bytes are gone ------------------------------------------------------------------


def test_the_sqlite_file_and_its_wal_hold_no_byte_of_what_was_erased(tmp_path):
    path = tmp_path / "memory.db"
    memory = Memory.open(path, embedder=None)
    memory.load(write_log(tmp_path / "chat.jsonl"), scope=S)
    memory.search("Zorblatt", scope=S)  # builds the keyword index too
    memory.erase("Zorblatt", scope=S)
    files = [p for p in tmp_path.iterdir() if p.name.startswith("memory.db")]
    for file in files:
        assert b"orblatt" not in file.read_bytes(), file.name
    memory.close()
    for file in files:
        assert not file.exists() or b"orblatt" not in file.read_bytes(), file.name


def test_no_node_or_relationship_of_neo4j_holds_what_was_erased(tmp_path):
    memory = Memory.open(require_neo4j(), embedder=None)
    try:
        memory.backend.drop_all()
        memory.load(write_log(tmp_path / "chat.jsonl"), scope=S)
        memory.erase("Zorblatt", scope=S)
        with memory.backend._session() as session:
            found = session.run(
                "CALL () { MATCH (n) RETURN properties(n) AS p"
                " UNION ALL MATCH ()-[r]->() RETURN properties(r) AS p } RETURN p"
            ).value()
        for properties in found:
            assert "orblatt" not in repr(properties).lower(), properties
    finally:
        memory.backend.drop_all()
        memory.close()
