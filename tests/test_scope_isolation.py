"""No read API, in any time mode, ever returns another scope's data.

Every scope's names carry the scope's tag; after random writes to many scopes, each read
(facts, timeline, history, changes, search with graph expansion, ask, context, entities,
episodes) in each mode must mention only its own scope's tag. Runs on every backend.
"""

from __future__ import annotations

import os

import pytest
from conftest import require_neo4j, wipe_neo4j
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from graphmem import Episode, Memory
from graphmem.model import id_key, stable_id

TAGS = [f"q{i}x" for i in range(12)]
CITIES = ["Berlin", "Oslo", "Lisbon"]
MODES = [
    {},
    {"as_of": "2021-06-01"},
    {"known_at": "2022-01-01"},
    {"as_of": "2020-01-01", "known_at": "2023-01-01"},
]

write = st.tuples(
    st.sampled_from(TAGS),
    st.sampled_from(["remember", "supersede", "retract", "episode"]),
    st.sampled_from(CITIES),
    st.integers(2019, 2024),
)


@pytest.fixture(scope="module", params=["embedded", "neo4j"])
def shared_memory(request, tmp_path_factory):
    if request.param == "embedded":
        mem = Memory.open(tmp_path_factory.mktemp("iso") / "m.db")
    else:
        mem = Memory.open(require_neo4j())
        mem.backend.drop_all()
    yield mem
    mem.close()
    if request.param == "neo4j":
        wipe_neo4j(mem.backend.location)


def tagged(tag: str, name: str) -> str:
    return f"{name}{tag}"


def leaked(text: str, own: str) -> list[str]:
    return [t for t in TAGS if t != own and t in text]


@settings(
    max_examples=int(os.environ.get("GRAPHMEM_ISOLATION_EXAMPLES", "8")),
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(writes=st.lists(write, min_size=3, max_size=12))
def test_reads_never_cross_scopes(shared_memory, writes):
    mem = shared_memory
    clock = {}
    for tag, op, city, year in writes:
        person, place = tagged(tag, "Person"), tagged(tag, city)
        # Each scope's own clock moves forward; the scopes' writes interleave freely.
        at = clock[tag] = max(clock.get(tag, 0) + 1, year * 10)
        recorded = f"{at // 10}-0{1 + at % 10 % 9}-01"
        try:
            if op == "remember":
                mem.remember(person, "owns_pet", tagged(tag, "Pet"), valid_from=f"{year}-01-01",
                             scope=tag, recorded_at=recorded)  # fmt: skip
            elif op == "supersede":
                mem.supersede(person, "lives_in", place, since=f"{year}-01-01", scope=tag,
                              recorded_at=recorded)  # fmt: skip
            elif op == "retract":
                mem.retract(person, "lives_in", at=f"{year}-06-01", scope=tag, recorded_at=recorded)
            else:
                mem.add_episodes([Episode(scope=tag, speaker=person, session=f"s{tag}",
                                          text=f"I love {place} and my friend {person}",
                                          timestamp=recorded)])  # fmt: skip
        except Exception as exc:  # noqa: BLE001 - only the clock may refuse an old time
            assert "transaction time" in str(exc)

    for tag in {w[0] for w in writes}:
        person = tagged(tag, "Person")
        for mode in MODES:
            seen: list[str] = []
            seen += [f.model_dump_json() for f in mem.facts(scope=tag, **mode)]
            seen += [f.model_dump_json() for f in mem.facts(person, scope=tag, **mode)]
            known = {k: v for k, v in mode.items() if k == "known_at"}
            seen += [e.model_dump_json() for e in mem.timeline(person, scope=tag, **known)]
            result = mem.search(f"where does {person} live Berlin Oslo Lisbon pet", scope=tag,
                                history=True, **mode)  # fmt: skip
            seen += [h.model_dump_json() for h in result.hits]
            seen.append(mem.ask(f"where does {person} live?", scope=tag, **known).model_dump_json())
            seen.append(mem.context(f"{person} Berlin", scope=tag, **known))
        seen += [f.model_dump_json() for f, _ in mem.history(person, scope=tag)]
        seen += [c.model_dump_json() for c in mem.changes("2000-01-01", scope=tag)]
        seen += [e.model_dump_json() for e in mem.entities(scope=tag)]
        seen += [e.model_dump_json() for e in mem.backend.episodes(tag)]
        for text in seen:
            assert leaked(text, tag) == [], f"scope {tag} saw {leaked(text, tag)}: {text[:300]}"


# Any text, the unit separator (which ids once joined parts with) and lone surrogates.
id_part = st.text(alphabet=st.characters(codec=None) | st.sampled_from("\x1f\ud800:0"))


@given(a=st.lists(id_part, max_size=4), b=st.lists(id_part, max_size=4))
def test_ids_of_different_parts_never_meet(a, b):
    if a != b:
        assert id_key(*a) != id_key(*b)


def test_ids_of_ordinary_parts_are_the_ids_stores_already_hold():
    # Made by joining with \x1f before any part could hold one; stores on disk keep them.
    assert stable_id("alice", "s1", "0", prefix="ep_") == "ep_a3ede839635f75a49d3e14ac"
    assert stable_id("alice", "zurich", prefix="ent_") == "ent_bedd9703f1fb94b47f39d216"


def test_a_unit_separator_in_a_scope_or_session_cannot_merge_two_scopes_turns():
    turn = {"speaker": "Ann", "text": "hi", "timestamp": "2024-01-01T00:00:00Z"}
    one = Episode(scope="a\x1fb", session="c", **turn)
    other = Episode(scope="a", session="b\x1fc", **turn)
    assert one.id != other.id


def test_stats_of_a_scope_count_that_scope_alone(memory):
    memory.add_episodes([Episode(scope="st-two", speaker="Ann", text="hi",
                                 timestamp="2024-01-01T00:00:00Z")])  # fmt: skip
    for scope, city in (("st-one", "Oslo"), ("st-two", "Rome"), ("st-two", "Pisa")):
        memory.remember("Ann", "visited", city, valid_from="2020-01-01", scope=scope)
    memory.supersede("Ann", "lives_in", "Oslo", since="2021-01-01", scope="st-one")
    one, two, whole = memory.stats(scope="st-one"), memory.stats(scope="st-two"), memory.stats()
    assert one == {"rows": 2, "current_rows": 2, "entities": 2, "episodes": 0, "events": 2}
    assert two == {"rows": 2, "current_rows": 2, "entities": 3, "episodes": 1, "events": 2}
    assert memory.stats(scope="st-none") == dict.fromkeys(one, 0)
    assert {k: whole[k] for k in one} == {k: one[k] + two[k] for k in one}
