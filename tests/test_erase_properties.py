"""Property: erasing a turn leaves exactly the store that the log without it would have
written, on both backends, whatever the turns said (asserts, supersessions, retractions,
corrections, of functional and set-valued keys, conflicting or not)."""

from __future__ import annotations

import itertools
from datetime import timedelta

import pytest
from conftest import require_neo4j
from hypothesis import given, settings
from hypothesis import strategies as st

from graphmem import CandidateFact, Episode, Memory, Provenance
from graphmem.store.protocol import RowQuery
from graphmem.store.writes import WriteGroup
from graphmem.time.bounds import TemporalBounds
from graphmem.time.instant import NEG_INF, POS_INF, to_instant

BASE = to_instant("2030-01-01")
_scopes = itertools.count()


def at(point: int | None, default):
    return default if point is None else BASE + timedelta(days=point)


@st.composite
def turns(draw):
    """One operation per turn (a bulk load also plans each operation on its own)."""
    op = draw(st.sampled_from(["assert", "supersede", "retract", "correct"]))
    predicate = draw(st.sampled_from(["lives_in", "hobby"]))
    if op == "supersede":
        predicate = "lives_in"
    start = draw(st.one_of(st.none(), st.integers(0, 9)))
    length = draw(st.integers(1, 5))
    value = draw(st.sampled_from(["x", "y", "z"]))
    return {
        "op": op,
        "subject": draw(st.sampled_from(["a", "b"])),
        "predicate": predicate,
        "object": None if op == "retract" and draw(st.booleans()) else value,
        "wrong_object": draw(st.sampled_from(["x", "y"])) if op == "correct" else None,
        "start": start if op in ("assert", "correct") else (start or 0),
        "end": None if start is None or op not in ("assert", "correct") else start + length,
    }


def write(memory, scope, number, turn) -> None:
    episode = Episode(scope=scope, session="s", turn=number, speaker="user",
                      text=f"turn {number}", timestamp=BASE + timedelta(hours=number))  # fmt: skip
    op = CandidateFact(
        op=turn["op"], subject=turn["subject"], predicate=turn["predicate"],
        object=turn["object"], wrong_object=turn["wrong_object"],
        valid_from=at(turn["start"], NEG_INF), valid_to=at(turn["end"], POS_INF), scope=scope,
        provenance=Provenance(episode_id=episode.id, extractor="test"),
    )  # fmt: skip
    # As a bulk load writes a turn: an operation that conflicts is left out, but its event
    # stays in the log, so a replay without an earlier turn can take it up again.
    memory.write([WriteGroup([op], [episode], episode.timestamp)], lenient=True)


def beliefs(memory, scope):
    rows = memory.backend.rows(RowQuery(scope=scope, bounds=TemporalBounds.history()))
    return sorted(
        (r.subject, r.predicate, r.object, r.valid_from, r.valid_to, r.recorded_at,
         r.expired_at, r.expired_by, r.change_point)
        for r in rows
    )  # fmt: skip


def erasing_a_turn_equals_never_having_said_it(memory, log, data):
    erased = data.draw(st.integers(0, len(log) - 1))
    scope, never = f"full{next(_scopes)}", f"never{next(_scopes)}"
    for number, turn in enumerate(log):
        write(memory, scope, number, turn)
        if number != erased:
            write(memory, never, number, turn)
    episode = memory.backend.episodes(scope)[erased]

    memory.erase_episode(episode.id, scope=scope)

    assert beliefs(memory, scope) == beliefs(memory, never)
    assert [e.text for e in memory.backend.episodes(scope)] == [
        e.text for e in memory.backend.episodes(never)
    ]


@pytest.fixture(scope="module")
def embedded(tmp_path_factory):
    memory = Memory.open(tmp_path_factory.mktemp("erase") / "memory.db", embedder=None)
    yield memory
    memory.close()


@pytest.fixture(scope="module")
def neo4j():
    memory = Memory.open(require_neo4j(), embedder=None)
    memory.backend.drop_all()
    yield memory
    memory.backend.drop_all()
    memory.close()


LOGS = st.lists(turns(), min_size=1, max_size=7)


@settings(max_examples=60, deadline=None)
@given(log=LOGS, data=st.data())
def test_embedded_erasing_a_turn_equals_never_having_said_it(embedded, log, data):
    erasing_a_turn_equals_never_having_said_it(embedded, log, data)


@settings(max_examples=10, deadline=None)  # each example is some 40 Neo4j transactions
@given(log=LOGS, data=st.data())
def test_neo4j_erasing_a_turn_equals_never_having_said_it(neo4j, log, data):
    erasing_a_turn_equals_never_having_said_it(neo4j, log, data)
