"""Declared predicates live with the store: known again on every open, on both backends."""

from __future__ import annotations

import pytest

from graphmem.errors import ConflictError, InvalidFactError


def test_a_declared_predicate_is_known_after_reopening(memory_factory):
    mem = memory_factory()
    with pytest.raises(InvalidFactError, match="unknown predicate 'lives_at'"):
        mem.remember("Ann", "lives_at", "12 Elm Street")
    mem.declare("lives_at", functional=True, literal=True, phrase="{subject} lives at {object}")
    mem.declare("lives_at", functional=True, literal=True)  # the same shape again: a no-op
    mem.close()

    again = memory_factory()
    declared = {p.name: p for p in again.predicates()}["lives_at"]
    assert (declared.functional, declared.object_kind) == (True, "literal")
    assert declared.phrase == "{subject} lives at {object}"
    written = again.remember("Ann", "lives_at", "12 Elm Street", valid_from="2024-01-01")
    assert written.inserted[0].text == "Ann lives at 12 Elm Street"
    again.supersede("Ann", "lives_at", "3 Oak Road", since="2024-06-01")  # functional
    assert [f.object for f in again.facts("Ann", "lives_at")] == ["3 Oak Road"]


def test_a_set_valued_entity_predicate_keeps_many_values(memory_factory):
    mem = memory_factory()
    mem.declare("mentors", functional=False)
    mem.close()
    again = memory_factory()
    again.remember("Ann", "mentors", "Bob")
    again.remember("Ann", "mentors", "Cy")
    assert sorted(f.object for f in again.facts("Ann", "mentors")) == ["Bob", "Cy"]
    assert {e.name for e in again.entities()} >= {"Ann", "Bob", "Cy"}


def test_redeclaring_a_builtin_or_another_shape_is_refused(memory_factory):
    mem = memory_factory()
    with pytest.raises(InvalidFactError, match="'lives_in': a built-in predicate"):
        mem.declare("lives_in", functional=True)
    mem.declare("badge", functional=True, literal=True)
    with pytest.raises(InvalidFactError, match="'badge': already declared as functional literal"):
        mem.declare("badge", functional=False, literal=True)
    with pytest.raises(InvalidFactError, match="phrase"):
        mem.declare("pal", functional=False, phrase="{subj} and {object}")
    with pytest.raises(InvalidFactError, match="lower_snake_case"):
        mem.declare("Bad Name", functional=False)
    mem.close()
    again = memory_factory()  # nothing refused was stored
    names = {p.name for p in again.predicates()}
    assert "badge" in names and "pal" not in names and "Bad Name" not in names
    assert again.scopes() == []  # a declaration belongs to no scope


def test_push_carries_the_declared_predicates(memory_factory, tmp_path):
    from graphmem import Memory
    from graphmem.store.push import push

    source = Memory.open(tmp_path / "source.db", embedder=None)
    source.declare("lives_at", functional=True, literal=True)
    source.remember("Ann", "lives_at", "1 Elm St", scope="ann")
    target = memory_factory()
    counts = push(source.backend, target.backend)
    assert counts["predicates"] == 1 and counts["rows"] == 1
    target.close()
    again = memory_factory()  # a fresh open knows the predicate, from the target itself
    assert [f.object for f in again.facts("Ann", "lives_at", scope="ann")] == ["1 Elm St"]
    assert push(source.backend, again.backend)["predicates"] == 0

    source.close()
    other = Memory.open(tmp_path / "other.db", embedder=None)
    other.declare("lives_at", functional=False)
    with pytest.raises(ConflictError, match="'lives_at' is set entity here"):
        push(other.backend, again.backend)
    other.close()
