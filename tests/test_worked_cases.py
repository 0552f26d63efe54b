"""The worked cases of DESIGN.md, on every backend: what a user sees in each time mode."""

from __future__ import annotations

import pytest

from graphmem import (
    ConflictError,
    EmptyIntervalError,
    Entity,
    InvalidFactError,
    InvalidTimeError,
    TransactionTimeError,
)
from graphmem.time.instant import POS_INF, to_instant

S = "alice"


def values(mem, subject="Alice", predicate="lives_in", **mode):
    return sorted(f.object for f in mem.facts(subject, predicate, scope=S, **mode))


def test_a_move_with_a_known_date(memory):
    memory.remember("Alice", "lives_in", "Paris", valid_from="2019-01-01", scope=S,
                    recorded_at="2019-01-05")  # fmt: skip
    memory.supersede("Alice", "lives_in", "Berlin", since="2024-03-01", scope=S,
                     recorded_at="2024-03-02")  # fmt: skip

    assert values(memory) == ["Berlin"]
    assert values(memory, as_of="2024-02-29T23:59:59Z") == ["Paris"]
    assert values(memory, as_of="2024-03-01") == ["Berlin"]  # visible at valid_from
    assert values(memory, as_of="2018-12-31") == []
    # What we had on record before we were told of the move:
    assert values(memory, known_at="2024-03-01") == ["Paris"]
    timeline = memory.timeline("Alice", "lives_in", scope=S)
    assert [(e.object, str(e.valid)) for e in timeline] == [
        ("Paris", "[2019-01-01T00:00:00Z, 2024-03-01T00:00:00Z)"),
        ("Berlin", "[2024-03-01T00:00:00Z, inf)"),
    ]
    assert [e.status for e in timeline] == ["ended", "current"]


def test_a_change_stated_late_holds_only_until_the_next_recorded_change(memory):
    memory.remember("Alice", "lives_in", "Paris", valid_from="2019-01-01", scope=S,
                    recorded_at="2019-01-05")  # fmt: skip
    memory.supersede("Alice", "lives_in", "Berlin", since="2024-03-01", scope=S,
                     recorded_at="2024-03-02")  # fmt: skip
    # Told in April that she had lived in Rome from 2022: a back-dated change.
    memory.supersede("Alice", "lives_in", "Rome", since="2022-01-01", scope=S,
                     recorded_at="2024-04-01")  # fmt: skip

    assert [e.object for e in memory.timeline("Alice", "lives_in", scope=S)] == [
        "Paris", "Rome", "Berlin"
    ]  # fmt: skip
    assert values(memory, as_of="2023-01-01") == ["Rome"]
    assert values(memory) == ["Berlin"]
    # Before April we believed she was in Paris in 2023.
    assert values(memory, as_of="2023-01-01", known_at="2024-03-31") == ["Paris"]


def test_change_points_arriving_in_any_order_give_the_same_timeline(memory_factory):
    changes = [("2020-01-01", "Paris"), ("2021-06-01", "Rome"), ("2023-01-01", "Oslo")]
    timelines = []
    for order in (changes, changes[::-1], [changes[1], changes[0], changes[2]]):
        mem = memory_factory()
        scope = f"order-{len(timelines)}"
        for since, city in order:
            mem.supersede("Alice", "lives_in", city, since=since, scope=scope)
        timelines.append(
            [(e.object, e.valid_from, e.valid_to) for e in mem.timeline("Alice", scope=scope)]
        )
    assert timelines[0] == timelines[1] == timelines[2]
    assert [city for city, _, _ in timelines[0]] == ["Paris", "Rome", "Oslo"]


def test_a_correction_removes_the_mistake_but_not_what_was_known_before(memory):
    memory.remember("Alice", "lives_in", "Berlin", valid_from="2024-01-01", scope=S,
                    recorded_at="2024-01-10")  # fmt: skip
    memory.correct("Alice", "lives_in", wrong="Berlin", right="Lisbon", scope=S,
                   recorded_at="2024-01-11")  # fmt: skip

    assert values(memory) == ["Lisbon"]
    assert values(memory, as_of="2024-06-01") == ["Lisbon"]
    assert [e.object for e in memory.timeline("Alice", scope=S)] == ["Lisbon"]
    # On 10 January we believed Berlin; that belief is still on record.
    assert values(memory, known_at="2024-01-10T12:00:00Z") == ["Berlin"]
    statuses = {(f.object, status) for f, status in memory.history("Alice", scope=S)}
    assert statuses == {("Berlin", "corrected"), ("Lisbon", "current")}


def test_a_correction_without_a_right_value_just_removes(memory):
    memory.remember("Alice", "works_at", "Acme", valid_from="2024-01-01", scope=S,
                    recorded_at="2024-01-10")  # fmt: skip
    memory.correct("Alice", "works_at", wrong="Acme", scope=S, recorded_at="2024-01-11")
    assert values(memory, predicate="works_at") == []
    assert values(memory, predicate="works_at", known_at="2024-01-10T01:00:00Z") == ["Acme"]


def test_a_future_dated_change_before_and_after_it_takes_effect(memory):
    memory.remember("Alice", "works_at", "Acme", valid_from="2020-01-01", scope=S,
                    recorded_at="2024-01-01")  # fmt: skip
    memory.supersede("Alice", "works_at", "Globex", since="2099-01-01", scope=S,
                     recorded_at="2024-02-01")  # fmt: skip

    assert values(memory, predicate="works_at") == ["Acme"]  # not yet
    assert values(memory, predicate="works_at", as_of="2099-01-01") == ["Globex"]
    assert values(memory, predicate="works_at", as_of="2098-12-31T23:59:59Z") == ["Acme"]


def test_a_set_valued_predicate_gains_and_loses_members(memory):
    memory.remember("Alice", "owns_pet", "Tom", valid_from="2020-01-01", scope=S,
                    recorded_at="2020-01-02")  # fmt: skip
    memory.remember("Alice", "owns_pet", "Rex", valid_from="2022-01-01", scope=S,
                    recorded_at="2022-01-02")  # fmt: skip
    memory.retract("Alice", "owns_pet", "Tom", at="2023-05-01", scope=S, recorded_at="2023-05-02")

    assert values(memory, predicate="owns_pet", as_of="2021-01-01") == ["Tom"]
    assert values(memory, predicate="owns_pet", as_of="2022-06-01") == ["Rex", "Tom"]
    assert values(memory, predicate="owns_pet") == ["Rex"]
    assert values(memory, predicate="owns_pet", known_at="2023-05-01") == ["Rex", "Tom"]


def test_retracting_a_functional_value_ends_it(memory):
    memory.remember("Alice", "works_at", "Acme", valid_from="2020-01-01", scope=S)
    memory.retract("Alice", "works_at", at="2024-01-01", scope=S)
    assert values(memory, predicate="works_at") == []
    assert values(memory, predicate="works_at", as_of="2023-12-31") == ["Acme"]


def test_reasserting_the_same_fact_changes_nothing(memory):
    first = memory.remember("Alice", "lives_in", "Paris", valid_from="2019-01-01", scope=S)
    again = memory.remember("Alice", "lives_in", "Paris", valid_from="2019-01-01", scope=S)
    assert first.changed and not again.changed
    assert len(memory.history("Alice", scope=S)) == 1


def test_erase_leaves_nothing_of_the_subject(memory):
    memory.remember("Alice", "lives_in", "Paris", valid_from="2019-01-01", scope=S)
    memory.supersede("Alice", "lives_in", "Berlin", since="2024-01-01", scope=S)
    memory.remember("Bob", "partner", "Alice", scope=S)
    memory.remember("Bob", "lives_in", "Oslo", scope=S)

    assert memory.erase("Alice", scope=S).rows == 4  # 3 rows of Alice + Bob's partner fact

    assert memory.history("Alice", scope=S) == []
    assert values(memory, known_at="2024-06-01") == []
    assert values(memory, subject="Bob", predicate="partner") == []
    assert values(memory, subject="Bob") == ["Oslo"]
    assert "Alice" not in {e.name for e in memory.entities(scope=S)}
    alice = Entity.id_for(S, "Alice")
    for event in memory.backend.events(S):
        assert alice not in (event.subject_id, event.object_id) and "Alice" not in event.payload
    tombstones = [ev for ev in memory.backend.events(S) if ev.op == "erase"]
    assert len(tombstones) == 1 and tombstones[0].payload == "{}"


def test_scopes_are_separate(memory):
    memory.remember("Alice", "lives_in", "Paris", scope="tenant-a")
    memory.remember("Alice", "lives_in", "Rome", scope="tenant-b")
    assert [f.object for f in memory.facts("Alice", scope="tenant-a")] == ["Paris"]
    assert [f.object for f in memory.facts("Alice", scope="tenant-b")] == ["Rome"]
    assert memory.facts("Alice", scope="tenant-c") == []


def test_everything_survives_close_and_reopen(memory_factory):
    mem = memory_factory()
    mem.remember("Alice", "lives_in", "Paris", valid_from="2019-01-01", scope=S,
                 recorded_at="2019-01-05")  # fmt: skip
    mem.supersede("Alice", "lives_in", "Berlin", since="2024-03-01", scope=S,
                  recorded_at="2024-03-02")  # fmt: skip
    before = [f.model_dump() for f, _ in mem.history("Alice", scope=S)]
    mem.close()
    again = memory_factory()
    assert [f.model_dump() for f, _ in again.history("Alice", scope=S)] == before
    # The clock survives too: an earlier transaction time is still refused.
    with pytest.raises(TransactionTimeError):
        again.remember("Alice", "hobby", "chess", scope=S, recorded_at="2024-03-01")


@pytest.mark.parametrize(
    ("call", "error"),
    [
        (lambda m: m.remember("Alice", "lives_in", "Rome", valid_from="2020-01-01", scope=S),
         ConflictError),
        (lambda m: m.remember("Alice", "lives_in", "Rome", valid_from="2025-01-01",
                              valid_to="2024-01-01", scope=S), EmptyIntervalError),
        (lambda m: m.remember("Alice", "lives_in", "Rome", valid_from="2024-01-01",
                              valid_to="2024-01-01", scope=S), EmptyIntervalError),
        (lambda m: m.remember("Alice", "live_in", "Rome", scope=S), InvalidFactError),
        (lambda m: m.remember("Alice", "lives_in", "  ", scope=S), InvalidFactError),
        (lambda m: m.remember("Alice", "hobby", "chess", scope=S, recorded_at="2018-01-01"),
         TransactionTimeError),
        (lambda m: m.supersede("Alice", "hobby", "chess", scope=S), InvalidFactError),
        (lambda m: m.facts("Alice", as_of="not a date at all", scope=S), InvalidTimeError),
    ],
    ids=["conflict", "inverted", "empty", "unknown-predicate", "blank-object", "past-tx",
         "supersede-set-valued", "bad-date"],
)  # fmt: skip
def test_bad_input_raises_a_clear_error_and_writes_nothing(memory, call, error):
    memory.remember("Alice", "lives_in", "Paris", valid_from="2019-01-01", scope=S,
                    recorded_at="2019-01-05")  # fmt: skip
    before = memory.stats()
    with pytest.raises(error) as raised:
        call(memory)
    assert str(raised.value)
    after = memory.stats()
    assert (after["rows"], after["events"]) == (before["rows"], before["events"])


def test_a_batch_is_all_or_nothing(memory):
    from graphmem import CandidateFact

    good = CandidateFact(subject="Bob", predicate="lives_in", object="Oslo", scope=S)
    clash_a = CandidateFact(subject="Cy", predicate="lives_in", object="Rome", scope=S)
    clash_b = CandidateFact(subject="Cy", predicate="lives_in", object="Nice", scope=S)
    with pytest.raises(ConflictError):
        memory.apply([good, clash_a, clash_b])
    assert memory.facts("Bob", scope=S) == []
    assert memory.stats()["rows"] == 0


def test_one_write_that_states_and_then_ends_a_fact_keeps_the_stretch(memory):
    # one turn: "joined the choir in 2020 ... quit it in 2022" (fresh row cut in one write)
    from graphmem import CandidateFact

    start = CandidateFact(op="assert", subject="Bob", predicate="hobby", object="choir",
                          valid_from="2020-01-01", scope=S)  # fmt: skip
    stop = CandidateFact(op="retract", subject="Bob", predicate="hobby", object="choir",
                         valid_from="2022-01-01", scope=S)  # fmt: skip
    memory.apply([start, stop], recorded_at="2023-01-01")
    (fact,) = memory.facts("Bob", "hobby", as_of="2021-06-01", scope=S)
    assert (fact.object, fact.valid_from, fact.valid_to) == (
        "choir", to_instant("2020-01-01"), to_instant("2022-01-01"))  # fmt: skip


def test_naive_datetimes_are_refused(memory):
    from datetime import datetime

    with pytest.raises(InvalidTimeError, match="naive"):
        memory.remember("Alice", "lives_in", "Paris", valid_from=datetime(2020, 1, 1), scope=S)


def test_open_ends_are_infinite_sentinels(memory):
    memory.remember("Alice", "lives_in", "Paris", scope=S)
    (fact,) = memory.facts("Alice", scope=S)
    assert fact.valid_to == POS_INF and fact.expired_at == POS_INF
    assert fact.valid_from < to_instant("0002-01-01")
