"""Entity resolution: one entity per real-world thing within a scope, never across scopes."""

from __future__ import annotations

import pytest

from graphmem.model import Entity, normalise_name


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("Berlin", "berlin"),
        ("New  York", "new york"),
        ("Zürich", "Zurich"),
        ("the Acme", "Acme"),
        ('"Acme"', "acme."),
        ("  Ana ", "ANA"),
    ],
)
def test_names_that_differ_only_in_form_are_one_entity(a, b):
    assert normalise_name(a) == normalise_name(b)
    assert Entity.id_for("s", a) == Entity.id_for("s", b)


@pytest.mark.parametrize(
    ("a", "b"), [("Ana", "Anna"), ("The Hague", "Hague Hotel"), ("Paris", "Paris TX")]
)
def test_different_names_stay_apart(a, b):
    assert Entity.id_for("s", a) != Entity.id_for("s", b)


def test_the_same_name_in_two_scopes_is_two_entities():
    assert Entity.id_for("alice", "Berlin") != Entity.id_for("bob", "Berlin")


def test_aliases_route_writes_and_reads_to_one_entity(memory):
    memory.remember("Robert Smith", "lives_in", "Zürich", valid_from="2020-01-01", scope="t")
    memory.alias("Robert Smith", "Bob", scope="t")
    memory.supersede("bob", "lives_in", "Oslo", since="2024-01-01", scope="t")

    assert [(f.subject, f.object) for f in memory.facts("Bob", scope="t")] == [
        ("Robert Smith", "Oslo")
    ]
    assert [f.object for f in memory.facts("robert smith", as_of="2021-01-01", scope="t")] == [
        "Zürich"
    ]
    assert [f.object for f in memory.facts(object="Zurich", as_of="2021-01-01", scope="t")] == [
        "Zürich"
    ]
    # The alias is the scope's own business.
    memory.remember("Bob", "lives_in", "Rome", scope="u")
    assert [f.subject for f in memory.facts("Bob", scope="u")] == ["Bob"]
