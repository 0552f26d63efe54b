"""Reopening an embedded store reads nothing up front, and answers exactly as before.

Reads are served from SQLite through its indexes (no in-memory mirror); the search
tables (time columns and keyword index) are saved beside the database under the
vectors' stamp, so a reopened store tokenises nothing again. A stale, foreign or
missing search file is detected and rebuilt from SQLite; an erased word is gone from
the files; another process's writes are caught up by ``PRAGMA data_version``.
"""

from __future__ import annotations

import shutil
import sqlite3

import pytest

from graphmem import Episode, Memory

S = "s"


def side_files(path) -> list:
    return sorted(p for p in path.parent.iterdir() if p.name.startswith(path.name + ".vectors."))


def search_files(path) -> list:
    return [p for p in side_files(path) if ".vectors.search." in p.name]


def write_story(mem: Memory) -> None:
    mem.remember("Alice", "lives_in", "Paris", valid_from="2019-01-01", scope=S,
                 recorded_at="2020-01-01")  # fmt: skip
    mem.remember("Alice", "works_at", "Acme", valid_from="2019-06-01", scope=S,
                 recorded_at="2020-02-01")  # fmt: skip
    mem.remember("Alice", "hobby", "chess", scope=S, recorded_at="2020-03-01")
    mem.remember("Bob", "lives_in", "Oslo", scope=S, recorded_at="2020-04-01")
    mem.remember("Bob", "friend", "Alice", scope=S, recorded_at="2020-04-02")
    mem.remember("Carol", "lives_in", "Rome", scope="other", recorded_at="2020-04-03")
    mem.add_episodes(
        [
            Episode(
                scope=S,
                speaker="Alice",
                text="I moved to Berlin last month",
                timestamp="2024-02-10",
            )
        ]  # fmt: skip
    )
    mem.supersede("Alice", "lives_in", "Berlin", since="2024-01-01", scope=S,
                  recorded_at="2024-02-10")  # fmt: skip
    mem.retract("Alice", "works_at", "Acme", at="2024-03-01", scope=S, recorded_at="2024-03-02")
    mem.alias("Alice", "Ali", scope=S)


def answers(mem: Memory) -> dict:
    """Every kind of read, in a comparable form."""

    def rows(found) -> list:
        return sorted((f.id, f.object, f.valid_from, f.valid_to, f.recorded_at, f.expired_at)
                      for f in found)  # fmt: skip

    def hits(result) -> list:
        return [(h.text, round(h.score, 6)) for h in result.hits]

    out = {
        "now": rows(mem.facts("Alice", scope=S)),
        "as_of": rows(mem.facts("Alice", as_of="2020-06-01", scope=S)),
        "known_at": rows(mem.facts("Alice", as_of="2020-06-01", known_at="2021-01-01", scope=S)),
        "object": rows(mem.facts(object="Alice", scope=S)),
        "predicate": rows(mem.facts(predicate="lives_in", scope=S)),
        "scope": rows(mem.facts(scope=S)),
        "timeline": [(r.object, r.valid_from) for r in mem.timeline("Alice", scope=S)],
        "changes": [(c.kind, c.fact.id) for c in mem.changes(since="2023-01-01", scope=S)],
        "entities": [(e.id, e.name, e.aliases) for e in mem.entities(scope=S)],
        "stats": mem.stats(scope=S),
        "search": hits(mem.search("where does Alice live", scope=S)),
        "search_past": hits(mem.search("Alice job", as_of="2020-06-01", scope=S)),
        "search_alias": hits(mem.search("where does Ali live", scope=S)),
        "search_history": hits(mem.search("Alice Paris", history=True, scope=S)),
    }
    backend = mem.backend
    alice = next(e.id for e in mem.entities(scope=S) if e.name == "Alice")
    out["neighbours"] = sorted(backend.neighbours(S, [alice]))
    out["degrees"] = backend.degrees(S, [alice])
    out["named"] = sorted(e.id for e in backend.entities_named(S, ["ali", "BOB"]))
    return out


def test_a_reopened_store_answers_every_read_as_it_did_before_closing(tmp_path):
    path = tmp_path / "m.db"
    mem = Memory.open(path)
    write_story(mem)
    before = answers(mem)
    mem.close()
    assert search_files(path), "the search tables are saved beside the database"

    mem = Memory.open(path)
    assert mem.backend._tables is None, "opening reads no row and loads no search table"
    assert answers(mem) == before
    assert mem.backend.integrity_check() == []
    mem.close()


def test_a_reopened_store_tokenises_nothing_it_had_indexed(tmp_path, monkeypatch):
    path = tmp_path / "m.db"
    mem = Memory.open(path)
    write_story(mem)
    mem.close()
    from graphmem.store.embedded import keyword_index

    calls = []
    monkeypatch.setattr(keyword_index, "tokenize", lambda text: calls.append(text) or [])
    mem = Memory.open(path)
    mem.backend._search_ready()
    assert calls == []
    mem.close()


@pytest.mark.parametrize("damage", ["stale", "foreign", "missing", "garbled"])
def test_a_search_file_that_disagrees_with_the_database_is_rebuilt_from_it(tmp_path, damage):
    path = tmp_path / "m.db"
    mem = Memory.open(path)
    write_story(mem)
    mem.close()
    saved = tmp_path / "saved"
    saved.mkdir()
    for f in side_files(path):
        shutil.copy(f, saved / f.name)
    mem = Memory.open(path)
    mem.remember("Dora", "owns_pet", "Rex", scope=S)
    expected = answers(mem)
    mem.close()
    if damage == "stale":  # the files as they were before Dora's write (a crash)
        for f in saved.iterdir():
            shutil.copy(f, tmp_path / f.name)
    elif damage == "foreign":  # another save's files under this one's stamp
        other = tmp_path / "other.db"
        o = Memory.open(other)
        o.remember("Zed", "hobby", "golf", scope=S)
        o.close()
        for f in search_files(other):
            shutil.copy(f, tmp_path / f.name.replace("other.db", "m.db"))
    elif damage == "missing":
        next(f for f in search_files(path) if f.name.endswith("facts.kw_pos.npy")).unlink()
    else:
        next(f for f in search_files(path) if f.name.endswith("facts.json")).write_text("{")

    mem = Memory.open(path)
    assert answers(mem) == expected
    assert "Dora has a pet Rex" in [h.text for h in mem.search("Dora's pet", scope=S).hits]
    mem.close()


def test_an_erased_word_is_gone_from_the_search_files(tmp_path):
    path = tmp_path / "m.db"
    mem = Memory.open(path)
    mem.remember("Zorblatt", "lives_in", "Quux", scope=S)
    mem.remember("Bob", "lives_in", "Oslo", scope=S)
    assert mem.search("Zorblatt", scope=S).facts
    mem.close()
    assert b"zorblat" in b"".join(f.read_bytes() for f in search_files(path))

    mem = Memory.open(path)
    mem.erase("Zorblatt", scope=S)
    assert all(
        "Zorblatt" not in h.text for h in mem.search("Zorblatt Quux", scope=S, history=True).hits
    )
    mem.close()
    data = b"".join(f.read_bytes() for f in side_files(path))
    assert b"zorblat" not in data and b"quux" not in data
    assert b"oslo" in data

    mem = Memory.open(path)
    assert [f.text for f in mem.search("Oslo", scope=S).facts][:1] == ["Bob lives in Oslo"]
    mem.remember("Carol", "lives_in", "Lima", scope=S)  # indexed in memory, beside the files
    assert mem.search("Lima", scope=S).facts
    mem.erase("Carol", scope=S)  # the files are rewritten (the old ones scrubbed) ...
    bob = mem.backend._db.execute("SELECT rowid FROM rows WHERE subject='Bob'").fetchone()[0]
    keywords = mem.backend._search_ready()["facts"].keywords
    assert [p for p, _ in keywords.search("Oslo", 5)] == [bob]  # ... and still answer
    mem.close()
    assert b"lima" not in b"".join(f.read_bytes() for f in side_files(path))


def test_another_process_catches_up_rows_and_search_by_data_version(tmp_path):
    path = tmp_path / "m.db"
    first = Memory.open(path)
    second = Memory.open(path)  # not the side files' owner: its tables stay in memory
    assert first.backend._sidecar.owned and not second.backend._sidecar.owned
    first.remember("Alice", "lives_in", "Berlin", scope=S)
    assert second.search("where does Alice live", scope=S).facts[0].text == "Alice lives in Berlin"
    second.supersede("Alice", "lives_in", "Rome", since="2025-01-01", scope=S)
    second.remember("Bob", "hobby", "chess", scope=S)
    assert [f.object for f in first.facts("Alice", as_of="2025-06-01", scope=S)] == ["Rome"]
    assert any("chess" in f.text for f in first.search("chess hobby", scope=S).facts)
    assert answers(first) == answers(second)
    second.close()
    first.close()


def test_a_version_2_store_is_given_its_names_table_in_place(tmp_path):
    path = tmp_path / "old.db"
    mem = Memory.open(path, embedder=None)
    mem.remember("Alice", "lives_in", "Paris", scope=S)
    mem.alias("Alice", "Ali", scope=S)
    mem.close()
    db = sqlite3.connect(path)  # as a store written by schema version 2 looks
    db.execute("DROP TABLE names")
    db.execute("UPDATE meta SET value='2' WHERE key='schema'")
    db.commit()
    db.close()

    mem = Memory.open(path, embedder=None)
    assert [e.name for e in mem.backend.entities_named(S, ["ali"])] == ["Alice"]
    assert mem.backend._meta("schema") == "3"
    mem.close()
