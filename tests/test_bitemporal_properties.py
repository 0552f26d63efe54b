"""A Hypothesis state machine checks the store against a tiny reference model.

The model keeps, for every key, the value at each point of a small time grid, and a
snapshot of that map after every transaction. It is deliberately naive (pointwise, no
intervals, no rows) so it can be trusted; the store must agree with it in every query
mode, and its rows must keep the invariants of DESIGN.md:

- well-formed intervals; transaction time strictly increasing;
- at most one value per functional key at any (known_at, as_of);
- rows of one key disjoint as valid x transaction rectangles;
- append-only except erase; ``known_at=T`` answers never change after later writes;
- a write over V changes nothing outside V (the model sets only points in V);
- idempotent re-assertion; supersessions in any order give one timeline;
- visible at valid_from, invisible at valid_to (the grid checks both sides);
- after erase nothing of the key remains; all of it survives close and reopen.
"""

from __future__ import annotations

import copy
import os
from datetime import timedelta

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    initialize,
    invariant,
    precondition,
    rule,
)

from graphmem import ConflictError, Entity, Memory, TransactionTimeError
from graphmem.store.protocol import RowQuery
from graphmem.time.bounds import TemporalBounds
from graphmem.time.instant import NEG_INF, POS_INF, to_instant

BASE = to_instant("2030-01-01")
GRID = list(range(-1, 11))  # point -1 is "long before", 10 "long after"; 0..9 are change points
SUBJECTS = ["a", "b"]
FUNCTIONAL = "lives_in"
SET_VALUED = "hobby"
VALUES = ["x", "y", "z"]
SCOPE = "prop"


def at(p: int):
    """The instant of grid point p (points -1 and 10 lie far outside the change points)."""
    return BASE + timedelta(days={-1: -100, 10: 100}.get(p, p))


def bound(p: int | None, default):
    return default if p is None else at(p)


def window_end(start: int | None, length: int | None) -> int | None:
    """The end point of a generated window; past the last change point it stays open."""
    if length is None or (start or 0) + length > 9:
        return None
    return (start or 0) + length


points = st.integers(min_value=0, max_value=9)
maybe_points = st.one_of(st.none(), points)


class Model:
    """Functional keys: {(s, p): {point: value}}; set-valued: {(s, p): {point: set()}}."""

    def __init__(self):
        self.functional = {s: {} for s in SUBJECTS}
        self.members = {s: {} for s in SUBJECTS}
        # Stated change points of functional keys: where a supersession began (kept while
        # the point still holds a value).
        self.change_points = {s: set() for s in SUBJECTS}

    def forget_deleted_points(self, s):
        self.change_points[s] = {p for p in self.change_points[s] if self.functional[s].get(p)}

    def value(self, s, p):
        return self.functional[s].get(p)

    def answer(self, s, p):
        """The sorted objects visible for subject s at point p (both predicates)."""
        out = {(FUNCTIONAL, self.value(s, p))} if self.value(s, p) else set()
        out |= {(SET_VALUED, v) for v in self.members[s].get(p, set())}
        return sorted(out)


class BitemporalMachine(RuleBasedStateMachine):
    backend = "embedded"

    @initialize()
    def open_store(self):
        self.tmp = os.path.join(self._tmpdir, f"m{id(self)}.db")
        if os.path.exists(self.tmp):
            os.remove(self.tmp)
        self.mem = self._open()
        if self.backend == "neo4j":
            self.mem.backend.drop_all()
        self.model = Model()
        self.snapshots: list[tuple] = []  # (transaction time, model copy)
        self.tx = to_instant("2040-01-01")
        self.last_recorded = NEG_INF
        self.seen_rows: dict[str, object] = {}

    def _open(self):
        if self.backend == "neo4j":
            return Memory.open(self._neo4j_uri, embedder=None)
        return Memory.open(self.tmp, embedder=None)

    # -- helpers ---------------------------------------------------------------------
    def _next_tx(self):
        self.tx += timedelta(seconds=1)
        return self.tx

    def _committed(self, result):
        if result.changed:
            recorded = result.recorded_at[SCOPE]
            assert recorded > self.last_recorded, "transaction time must strictly increase"
            self.last_recorded = recorded
            self.snapshots.append((recorded, copy.deepcopy(self.model)))

    def _new_model(self):
        return copy.deepcopy(self.model)

    # -- operations ------------------------------------------------------------------
    @rule(s=st.sampled_from(SUBJECTS), v=st.sampled_from(VALUES), start=maybe_points,
          length=st.one_of(st.none(), st.integers(1, 5)))  # fmt: skip
    def assert_functional(self, s, v, start, length):
        end = window_end(start, length)
        lo, hi = (-1 if start is None else start), (11 if end is None else end)
        new = self._new_model()
        clash = False
        for p in GRID:
            if lo <= p < hi:
                if new.functional[s].get(p) not in (None, v):
                    clash = True
                new.functional[s][p] = v
        try:
            result = self.mem.remember(
                s, FUNCTIONAL, v, valid_from=bound(start, NEG_INF), valid_to=bound(end, POS_INF),
                scope=SCOPE, recorded_at=self._next_tx(),
            )  # fmt: skip
        except ConflictError:
            assert clash, "conflict reported where the model has none"
            return
        assert not clash, "a second value was accepted for a functional key"
        self.model = new
        self._committed(result)

    @rule(s=st.sampled_from(SUBJECTS), v=st.sampled_from(VALUES), start=maybe_points,
          length=st.one_of(st.none(), st.integers(1, 5)))  # fmt: skip
    def assert_member(self, s, v, start, length):
        end = window_end(start, length)
        lo, hi = (-1 if start is None else start), (11 if end is None else end)
        for p in GRID:
            if lo <= p < hi:
                self.model.members[s].setdefault(p, set()).add(v)
        result = self.mem.remember(
            s, SET_VALUED, v, valid_from=bound(start, NEG_INF), valid_to=bound(end, POS_INF),
            scope=SCOPE, recorded_at=self._next_tx(),
        )  # fmt: skip
        self._committed(result)

    @rule(s=st.sampled_from(SUBJECTS), v=st.sampled_from(VALUES), t0=points)
    def supersede(self, s, v, t0):
        values = self.model.functional[s]
        marks = self.model.change_points[s]
        end = next(
            (
                p
                for p in GRID
                if p > t0
                and values.get(p) is not None
                and (values.get(p) != values.get(p - 1) or p in marks)
            ),
            11,
        )
        for p in GRID:
            if t0 <= p < end:
                values[p] = v
                marks.discard(p)
        marks.add(t0)
        result = self.mem.supersede(
            s, FUNCTIONAL, v, since=at(t0), scope=SCOPE, recorded_at=self._next_tx()
        )
        self._committed(result)

    @rule(s=st.sampled_from(SUBJECTS), v=st.one_of(st.none(), st.sampled_from(VALUES)),
          t0=points, functional=st.booleans())  # fmt: skip
    def retract(self, s, v, t0, functional):
        for p in GRID:
            if p >= t0:
                if functional and (v is None or self.model.functional[s].get(p) == v):
                    self.model.functional[s].pop(p, None)
                if not functional:
                    members = self.model.members[s].get(p, set())
                    members.difference_update(members if v is None else {v})
        self.model.forget_deleted_points(s)
        predicate = FUNCTIONAL if functional else SET_VALUED
        result = self.mem.retract(
            s, predicate, v, at=at(t0), scope=SCOPE, recorded_at=self._next_tx()
        )
        self._committed(result)

    @rule(s=st.sampled_from(SUBJECTS), wrong=st.one_of(st.none(), st.sampled_from(VALUES)),
          right=st.one_of(st.none(), st.sampled_from(VALUES)), start=maybe_points,
          length=st.one_of(st.none(), st.integers(1, 5)), functional=st.booleans())  # fmt: skip
    def correct(self, s, wrong, right, start, length, functional):
        if not functional and wrong is None:
            return  # a set-valued correction must name the wrong member (tested elsewhere)
        end = window_end(start, length)
        lo, hi = (-1 if start is None else start), (11 if end is None else end)
        if functional:
            values = self.model.functional[s]
            hit = [p for p in GRID if lo <= p < hi and values.get(p) and wrong in (None, values[p])]
            for p in hit:
                values.pop(p)
                self.model.change_points[s].discard(p)
                if right:
                    values[p] = right
        else:
            members = self.model.members[s]
            hit = [p for p in GRID if lo <= p < hi and wrong in members.get(p, set())]
            for p in hit:
                members[p].discard(wrong)
                if right:
                    members[p].add(right)
        predicate = FUNCTIONAL if functional else SET_VALUED
        result = self.mem.correct(
            s, predicate, wrong=wrong, right=right, valid_from=bound(start, NEG_INF),
            valid_to=bound(end, POS_INF), scope=SCOPE, recorded_at=self._next_tx(),
        )  # fmt: skip
        self._committed(result)

    @rule(s=st.sampled_from(SUBJECTS))
    def erase(self, s):
        self.mem.erase(s, scope=SCOPE)
        self.model.functional[s] = {}
        self.model.members[s] = {}
        self.model.change_points[s] = set()
        for _, snapshot in self.snapshots:
            snapshot.functional[s] = {}
            snapshot.members[s] = {}
        subject_id = Entity.id_for(SCOPE, s)
        self.seen_rows = {k: r for k, r in self.seen_rows.items() if r.subject_id != subject_id}
        self.last_recorded = self.mem.backend.clock(SCOPE).assigned if hasattr(
            self.mem.backend, "clock") else self.last_recorded  # fmt: skip
        self.tx = max(self.tx, self.last_recorded)

    @precondition(lambda self: self.last_recorded > NEG_INF)
    @rule()
    def write_in_the_past_is_refused(self):
        before = self.mem.stats()["rows"]
        past = self.last_recorded - timedelta(hours=1)
        with pytest.raises(TransactionTimeError):
            self.mem.remember("a", SET_VALUED, "x", scope=SCOPE, recorded_at=past)
        assert self.mem.stats()["rows"] == before

    @rule()
    def reopen(self):
        self.mem.close()
        self.mem = self._open()

    # -- invariants ------------------------------------------------------------------
    def _observed(self, s, p, known_at=POS_INF):
        facts = self.mem.facts(s, as_of=at(p), known_at=known_at, scope=SCOPE)
        return sorted((f.predicate, f.object) for f in facts)

    @invariant()
    def current_belief_matches_the_model(self):
        if not hasattr(self, "mem"):
            return
        for s in SUBJECTS:
            for p in GRID:
                assert self._observed(s, p) == self.model.answer(s, p), (s, p)

    @invariant()
    @precondition(lambda self: hasattr(self, "mem") and self.snapshots)
    def past_beliefs_never_change(self):
        # The latest snapshot every step; all of them now and then (cost grows with steps).
        chosen = self.snapshots if len(self.snapshots) % 4 == 0 else self.snapshots[-1:]
        for recorded, snapshot in chosen:
            for s in SUBJECTS:
                for p in GRID:
                    expected = snapshot.answer(s, p)
                    assert self._observed(s, p, known_at=recorded) == expected, (recorded, s, p)
                    later = recorded + timedelta(microseconds=500_000)
                    if all(r <= recorded or r > later for r, _ in self.snapshots):
                        assert self._observed(s, p, known_at=later) == expected

    @invariant()
    def rows_are_well_formed_disjoint_and_append_only(self):
        if not hasattr(self, "mem"):
            return
        rows = self.mem.backend.rows(RowQuery(scope=SCOPE, bounds=TemporalBounds.history()))
        by_key: dict[tuple, list] = {}
        for row in rows:
            assert row.valid_from < row.valid_to
            assert row.recorded_at < row.expired_at
            key = (row.subject_id, row.predicate)
            if row.predicate == SET_VALUED:
                key += (row.object_id,)
            by_key.setdefault(key, []).append(row)
            seen = self.seen_rows.get(row.id)
            if seen is not None:
                unchanged = row.model_dump(exclude={"expired_at", "expired_by"})
                assert unchanged == seen.model_dump(exclude={"expired_at", "expired_by"})
                assert seen.expired_at in (POS_INF, row.expired_at), "expired twice"
            self.seen_rows[row.id] = row
        assert {r.id for r in rows} >= set(self.seen_rows), "a row disappeared without erase"
        for key_rows in by_key.values():
            for i, a in enumerate(key_rows):
                for b in key_rows[i + 1 :]:
                    overlap_valid = a.valid_from < b.valid_to and b.valid_from < a.valid_to
                    overlap_tx = a.recorded_at < b.expired_at and b.recorded_at < a.expired_at
                    assert not (overlap_valid and overlap_tx), f"rows {a.id} and {b.id} overlap"

    def teardown(self):
        if hasattr(self, "mem"):
            self.mem.close()


MACHINE_SETTINGS = settings(
    max_examples=int(os.environ.get("GRAPHMEM_PROPERTY_EXAMPLES", "60")),
    stateful_step_count=18,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)


@pytest.mark.parametrize("backend", ["embedded", "neo4j"])
def test_store_agrees_with_the_reference_model(backend, tmp_path, request):
    machine = type(f"BitemporalMachine_{backend}", (BitemporalMachine,), {})
    machine.backend = backend
    machine._tmpdir = str(tmp_path)
    if backend == "neo4j":
        machine._neo4j_uri = request.getfixturevalue("neo4j_db")  # wiped at teardown
    examples = MACHINE_SETTINGS.max_examples if backend == "embedded" else 15
    machine.TestCase.settings = settings(MACHINE_SETTINGS, max_examples=examples)
    machine.TestCase().runTest()


operation = st.tuples(
    st.sampled_from(["supersede", "assert", "retract", "correct"]),
    st.sampled_from(VALUES),
    points,
)


def _run(mem: Memory, subject: str, op: tuple, tx) -> None:
    kind, value, t0 = op
    if kind == "supersede":
        mem.supersede(subject, FUNCTIONAL, value, since=at(t0), scope=SCOPE, recorded_at=tx)
    elif kind == "assert":
        mem.remember(subject, SET_VALUED, value, valid_from=at(t0), scope=SCOPE, recorded_at=tx)
    elif kind == "retract":
        mem.retract(subject, FUNCTIONAL, at=at(t0), scope=SCOPE, recorded_at=tx)
    else:
        mem.correct(subject, FUNCTIONAL, right=value, valid_from=at(t0), scope=SCOPE,
                    recorded_at=tx)  # fmt: skip


@settings(max_examples=60, deadline=None)
@given(first=st.lists(operation, max_size=3), a=operation, b=operation)
def test_writes_to_different_keys_commute(tmp_path_factory, first, a, b):
    """Applying a write to key A then one to key B, or B then A, ends in the same timeline."""
    timelines = []
    for order in ((("a", a), ("b", b)), (("b", b), ("a", a))):
        mem = Memory.open(tmp_path_factory.mktemp("commute") / "m.db", embedder=None)
        tx = to_instant("2040-01-01")
        for op in first:
            tx += timedelta(seconds=1)
            _run(mem, "a", op, tx)
        for subject, op in order:
            tx += timedelta(seconds=1)
            _run(mem, subject, op, tx)
        timelines.append(
            [
                (e.subject, e.predicate, e.object, e.valid_from, e.valid_to)
                for s in ("a", "b")
                for e in mem.timeline(s, scope=SCOPE)
            ]  # fmt: skip
        )
        mem.close()
    assert timelines[0] == timelines[1]


@settings(max_examples=60, deadline=None)
@given(
    changes=st.lists(
        st.tuples(st.sampled_from(VALUES), points), min_size=1, max_size=5, unique_by=lambda c: c[1]
    ),  # fmt: skip
    data=st.data(),
)
def test_supersessions_in_any_order_give_one_timeline(tmp_path_factory, changes, data):
    """Change points told in any order (late, back-dated) end in the same timeline."""
    shuffled = data.draw(st.permutations(changes))
    timelines = []
    for order in (changes, shuffled):
        mem = Memory.open(tmp_path_factory.mktemp("order") / "m.db", embedder=None)
        tx = to_instant("2040-01-01")
        for value, t0 in order:
            tx += timedelta(seconds=1)
            mem.supersede("a", FUNCTIONAL, value, since=at(t0), scope=SCOPE, recorded_at=tx)
        timelines.append(
            [(e.object, e.valid_from, e.valid_to) for e in mem.timeline("a", scope=SCOPE)]
        )
        mem.close()
    assert timelines[0] == timelines[1]
