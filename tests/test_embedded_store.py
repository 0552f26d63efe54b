"""Embedded-store specifics: file format upgrades and a clear error for a damaged file."""

from __future__ import annotations

import sqlite3

import pytest

from graphmem import Memory, StoreError


def test_a_version_1_store_is_upgraded_in_place(tmp_path):
    path = tmp_path / "old.db"
    mem = Memory.open(path, embedder=None)
    mem.remember("Alice", "lives_in", "Paris", valid_from="2019-01-01", scope="s")
    mem.close()
    db = sqlite3.connect(path)  # make it look like a store written by schema version 1
    db.execute("ALTER TABLE rows DROP COLUMN change_point")
    db.execute("UPDATE meta SET value='1' WHERE key='schema'")
    db.commit()
    db.close()

    mem = Memory.open(path, embedder=None)
    mem.supersede("Alice", "lives_in", "Berlin", since="2024-01-01", scope="s")
    assert [e.object for e in mem.timeline("Alice", scope="s")] == ["Paris", "Berlin"]


def test_a_file_that_is_not_a_store_is_one_clear_error(tmp_path):
    path = tmp_path / "notes.db"
    path.write_text("these are my notes, not a database\n" * 100)
    with pytest.raises(StoreError, match="notes.db"):
        Memory.open(path, embedder=None)


def test_a_lenient_bulk_write_reports_invalid_proposals_and_writes_the_rest(tmp_path):
    from graphmem import CandidateFact
    from graphmem.store.writes import WriteGroup

    mem = Memory.open(tmp_path / "m.db", embedder=None)
    good = CandidateFact(subject="Ana", predicate="lives_in", object="Porto", scope="s")
    invalid = CandidateFact(
        op="correct", subject="Ana", predicate="hobby", object="chess", scope="s"
    )  # a set-valued correction must name the wrong member
    result = mem.write([WriteGroup([invalid, good])], lenient=True)
    assert len(result.skipped) == 1 and "wrong_object" in result.skipped[0]
    assert [f.object for f in mem.facts("Ana", scope="s")] == ["Porto"]
