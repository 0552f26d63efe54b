"""Turning operations into one atomic ``WriteBatch``, the same way for every backend.

Operations are ``CandidateFact`` values (assert, supersede, retract, correct). For
each (scope, subject, predicate) family touched, the current rows are read once under
the backend's lock, every operation is planned with ``KeyState`` (the bitemporal
logic), and the net effect becomes rows to expire and rows to insert, all stamped with
one transaction time per scope. If any operation is invalid, nothing is written.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import datetime

from graphmem.errors import ConflictError, GraphmemError, InvalidFactError
from graphmem.model import CandidateFact, Entity, Episode, Fact, FactInput, normalise_name
from graphmem.predicates import Predicate, PredicateRegistry
from graphmem.store.protocol import Backend, Event, Family, WriteBatch
from graphmem.time.bitemporal import Clock, CurrentRow, KeyState
from graphmem.time.instant import NEG_INF, POS_INF, is_open_end, now
from graphmem.time.interval import Interval


def new_id(prefix: str) -> str:
    return f"{prefix}{uuid.uuid4().hex[:24]}"


@dataclass
class WriteResult:
    """What a write did. ``recorded_at`` maps each scope to its transaction time."""

    inserted: list[Fact] = field(default_factory=list)
    expired: list[str] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)  # conflicts left out (lenient writes)
    skipped_groups: list[int] = field(default_factory=list)  # the group of each, by index
    episodes: int = 0
    recorded_at: dict[str, datetime] = field(default_factory=dict)

    @property
    def changed(self) -> bool:
        return bool(self.inserted or self.expired or self.episodes)


def as_operation(fact: FactInput) -> CandidateFact:
    return CandidateFact(
        op="assert",
        subject=fact.subject,
        predicate=fact.predicate,
        object=fact.object,
        valid_from=fact.valid_from,
        valid_to=fact.valid_to,
        scope=fact.scope,
        provenance=fact.provenance,
        confidence=fact.confidence,
        subject_type=fact.subject_type,
        object_type=fact.object_type,
    )


class _Family:
    """The rows of one (scope, subject, predicate) during a write, one KeyState per key."""

    def __init__(self, predicate: Predicate, rows: list[Fact]):
        self.predicate = predicate
        self.stored = {row.id: row for row in rows}
        self.states: dict[str, KeyState] = {}
        self.last_op = "assert"
        self.last_op_index = 0  # id() of the last operation on this family
        self.fact_ids: dict[int, str] = {}
        self.rows_by_op: dict[int, list[str]] = {}
        self.expired_ids: list[str] = []
        self.new_rows: list[Fact] = []
        for row in rows:
            self.state(row.object_id or "").rows.append(
                CurrentRow(row.id, row.object_id or "", row.valid, row.change_point)
            )
        for state in self.states.values():
            state.rows.sort(key=lambda r: r.valid)

    def state(self, object_id: str) -> KeyState:
        # A functional key is the whole family; a set-valued key adds the object.
        key = "" if self.predicate.functional else object_id
        if key not in self.states:
            self.states[key] = KeyState([])
        return self.states[key]

    def all_states(self) -> list[KeyState]:
        return list(self.states.values())


@dataclass(frozen=True)
class WriteGroup:
    """Operations and episodes that share one transaction time (e.g. one turn of a log)."""

    operations: Sequence[CandidateFact] = ()
    episodes: Sequence[Episode] = ()
    recorded_at: datetime | None = None  # None: the wall clock


def plan_write(
    backend: Backend,
    registry: PredicateRegistry,
    groups: Sequence[WriteGroup],
    *,
    embeddings: dict[str, list[float]] | None = None,
    lenient: bool = False,
) -> WriteResult:
    """Apply every group, in order, in one atomic transaction; returns what changed.

    Each group gets its own transaction time (so a batch of log turns keeps each turn's
    time); if any operation of any group is invalid, nothing at all is written.
    ``lenient=True`` (bulk loads) leaves out an operation that is invalid or conflicts
    with what is known, reporting it in ``WriteResult.skipped``, instead of failing the
    whole batch.
    """
    families: dict[Family, Predicate] = {}
    skipped: list[str] = []
    skipped_groups: list[int] = []
    if lenient:  # bulk loads: an invalid proposal is reported, the rest is written
        groups = [
            _valid_only(g, registry, skipped, skipped_groups, i) for i, g in enumerate(groups)
        ]
    for group in groups:
        for op in group.operations:
            predicate = registry.get(op.predicate)
            _validate(op, predicate)
            families[(op.scope, Entity.id_for(op.scope, op.subject), op.predicate)] = predicate
    scopes = sorted(
        {op.scope for g in groups for op in g.operations}
        | {e.scope for g in groups for e in g.episodes}
    )
    session = backend.begin(families, scopes)
    try:
        batch = WriteBatch(embeddings=dict(embeddings or {}))
        result = WriteResult(skipped=skipped, skipped_groups=skipped_groups)
        clocks = {scope: session.clock(scope) for scope in scopes}
        current = {fam: session.current_rows(fam) for fam in families}
        entities: dict[str, Entity] = {}
        inserted_at: dict[str, int] = {}  # row id -> index in batch.insert
        for index, group in enumerate(groups):
            _plan_group(
                group, families, current, clocks, entities, batch, result, inserted_at, lenient,
                index,
            )  # fmt: skip
        batch.entities = list(entities.values())
        if batch.expire or batch.insert or batch.episodes:
            batch.clocks = clocks
            session.commit(batch)
        else:
            session.rollback()
            result.recorded_at = {}
        return result
    except BaseException:
        session.rollback()
        raise


def _plan_group(
    group, families, current, clocks, entities, batch, result, inserted_at, lenient, index
) -> None:
    requested = group.recorded_at or now()
    scopes = {op.scope for op in group.operations} | {e.scope for e in group.episodes}
    for scope in sorted(scopes):
        clocks[scope] = clocks[scope].advance(requested)
    touched: dict[Family, _Family] = {}
    for op in group.operations:
        fam = (op.scope, Entity.id_for(op.scope, op.subject), op.predicate)
        if fam not in touched:
            touched[fam] = _Family(families[fam], current[fam])
        try:
            _apply(op, families[fam], touched[fam], entities)
        except ConflictError as exc:
            if not lenient:
                raise
            result.skipped.append(str(exc))
            result.skipped_groups.append(index)
    before = len(batch.insert), len(batch.expire)
    for fam, family in touched.items():
        tx = clocks[fam[0]].assigned
        _emit(fam, family, tx, batch, result, inserted_at)
        expired = set(family.expired_ids)
        current[fam] = [r for r in current[fam] if r.id not in expired] + family.new_rows
    batch.episodes.extend(group.episodes)
    result.episodes += len(group.episodes)
    batch.events.extend(_events(group.operations, touched, clocks))
    if (len(batch.insert), len(batch.expire)) != before or group.episodes:
        for scope in scopes:
            result.recorded_at[scope] = clocks[scope].assigned


def _valid_only(
    group: WriteGroup, registry: PredicateRegistry, skipped: list[str], where: list[int], index: int
) -> WriteGroup:
    kept = []
    for op in group.operations:
        try:
            _validate(op, registry.get(op.predicate))
        except GraphmemError as exc:
            skipped.append(str(exc))
            where.append(index)
            continue
        kept.append(op)
    return WriteGroup(kept, group.episodes, group.recorded_at)


def _validate(op: CandidateFact, predicate: Predicate) -> None:
    where = f"{op.op} {op.subject!r} {op.predicate}"
    if op.op in ("assert", "supersede") and not op.object:
        raise InvalidFactError(f"{where}: an object is required")
    if op.op == "supersede" and not predicate.functional:
        raise InvalidFactError(
            f"{where}: supersede needs a functional predicate; {op.predicate!r} is set-valued "
            "(retract the old member and assert the new one)"
        )
    if op.op == "correct" and not predicate.functional and op.wrong_object is None:
        raise InvalidFactError(f"{where}: correcting a set-valued predicate needs wrong_object")
    if op.op in ("assert", "correct") and not Interval.well_formed(op.valid_from, op.valid_to):
        Interval(op.valid_from, op.valid_to)  # raises EmptyIntervalError with the bounds
    if op.op in ("supersede", "retract") and is_open_end(op.valid_from):
        raise InvalidFactError(f"{where}: the change time must be finite")
    for name in (op.subject, op.object, op.wrong_object):
        if name is not None and not normalise_name(name):
            raise InvalidFactError(f"{where}: names must not be blank")


def _entity(scope: str, name: str, type_: str) -> Entity:
    return Entity.model_construct(
        id=Entity.id_for(scope, name),
        scope=scope,
        name=" ".join(name.split()),
        type=type_,
        aliases=(),
    )


def _apply(
    op: CandidateFact, predicate: Predicate, family: _Family, entities: dict[str, Entity]
) -> None:
    subject = _entity(op.scope, op.subject, op.subject_type or predicate.subject_type)
    entities.setdefault(subject.id, subject)
    obj = None
    if op.object is not None:
        obj = _entity(op.scope, op.object, op.object_type or predicate.object_type)
        entities.setdefault(obj.id, obj)
    wrong = Entity.id_for(op.scope, op.wrong_object) if op.wrong_object else None
    origin = (op, subject, obj)
    family.last_op, family.last_op_index = op.op, id(op)
    if op.op == "assert":
        assert obj is not None
        try:
            family.state(obj.id).assert_value(obj.id, Interval(op.valid_from, op.valid_to), origin)
        except ConflictError as exc:
            message = _names(exc, family, entities)
            raise ConflictError(f"{op.subject} {op.predicate}: {message}") from None
    elif op.op == "supersede":
        assert obj is not None
        family.state(obj.id).supersede(obj.id, op.valid_from, origin)
    elif op.op == "retract":
        target = obj.id if obj is not None else None
        states = (
            [family.state(target)] if target and not predicate.functional else family.all_states()
        )
        for state in states:
            state.retract(op.valid_from, target)
    elif op.op == "correct":
        window = Interval(op.valid_from, op.valid_to)
        states = (
            [family.state(wrong)] if wrong and not predicate.functional else family.all_states()
        )
        removed = [piece for state in states for piece in state.correct(window, wrong)]
        if obj is not None:
            for piece in removed:
                family.state(obj.id).put(obj.id, piece, replace=True, origin=origin)


def _names(exc: ConflictError, family: _Family, entities: dict[str, Entity]) -> str:
    """The conflict message with entity ids replaced by the names users wrote."""
    message = str(exc)
    names = {row.object_id: row.object for row in family.stored.values()}
    names.update({e.id: e.name for e in entities.values()})
    for ident, name in names.items():
        if ident:
            message = message.replace(repr(ident), repr(name))
    return message


def _emit(
    fam_key: Family,
    family: _Family,
    tx: datetime,
    batch: WriteBatch,
    result: WriteResult,
    inserted_at: dict[str, int],
) -> None:
    """Turn the family's net plan into rows: leftovers copy their source, new facts their op."""
    scope, subject_id, predicate_name = fam_key
    ended_by = _ENDED_BY[family.last_op]
    for state in family.all_states():
        plan = state.plan()
        for row_id in plan.expire:
            family.expired_ids.append(row_id)
            result.expired.append(row_id)
            if row_id in inserted_at:  # written earlier in this same batch: close it there
                i = inserted_at[row_id]
                batch.insert[i] = batch.insert[i].model_copy(
                    update={"expired_at": tx, "expired_by": ended_by}
                )
            else:
                batch.expire.append((row_id, tx, ended_by))
        for new in plan.insert:
            if new.source is not None:
                row = family.stored[new.source].model_copy(
                    update={
                        "id": new_id("r_"),
                        "valid_from": new.valid.start,
                        "valid_to": new.valid.end,
                        "recorded_at": tx,
                        "expired_at": POS_INF,
                        "expired_by": None,
                        "change_point": new.change_point,
                    }
                )
                family.rows_by_op.setdefault(family.last_op_index, []).append(row.id)
            else:
                op, subject, obj = new.origin  # type: ignore[misc]
                # Built from validated operations: skip re-validating every field.
                row = Fact.model_construct(
                    id=new_id("r_"),
                    fact_id=family.fact_ids.setdefault(id(op), new_id("f_")),
                    scope=scope,
                    subject=subject.name,
                    subject_id=subject_id,
                    predicate=predicate_name,
                    object=obj.name,
                    object_id=obj.id,
                    text=family.predicate.render(subject.name, obj.name),
                    valid_from=new.valid.start,
                    valid_to=new.valid.end,
                    recorded_at=tx,
                    provenance=op.provenance,
                    confidence=op.confidence,
                    change_point=new.change_point,
                )
                family.rows_by_op.setdefault(id(op), []).append(row.id)
            inserted_at[row.id] = len(batch.insert)
            batch.insert.append(row)
            family.new_rows.append(row)
            result.inserted.append(row)


def _events(
    operations: Sequence[CandidateFact], working: dict[Family, _Family], clocks: dict
) -> list[Event]:
    """One event per operation, naming the rows it wrote (leftovers go to the last one)."""
    events = []
    for op in operations:
        subject_id = Entity.id_for(op.scope, op.subject)
        family = working[(op.scope, subject_id, op.predicate)]
        row_ids = family.rows_by_op.pop(id(op), [])
        events.append(
            Event(
                scope=op.scope,
                recorded_at=clocks[op.scope].assigned,
                op=op.op,
                subject_id=subject_id,
                predicate=op.predicate,
                object_id=Entity.id_for(op.scope, op.object) if op.object else None,
                payload=op.model_dump_json(),
                row_ids=tuple(row_ids),
            )
        )
    return events


# The operation that ends a row names how it ended; a row is only ever ended once.
_ENDED_BY = {
    "assert": "superseded",
    "supersede": "superseded",
    "retract": "retracted",
    "correct": "corrected",
}


class _Replay:
    """A stand-in backend holding only the families being re-planned, in memory: the
    same planner runs over it, so a replay means exactly what the original writes did."""

    def __init__(self) -> None:
        self.rows: dict[str, Fact] = {}
        self.events: list[Event] = []
        self._clocks: dict[str, Clock] = {}

    def begin(self, families: Iterable[Family], scopes: Iterable[str]) -> _Replay:
        return self

    def clock(self, scope: str) -> Clock:
        return self._clocks.get(scope, Clock(NEG_INF, NEG_INF))

    def current_rows(self, family: Family) -> list[Fact]:
        return [
            r
            for r in self.rows.values()
            if (r.scope, r.subject_id, r.predicate) == family and r.is_current_belief
        ]

    def commit(self, batch: WriteBatch) -> None:
        for row_id, at, by in batch.expire:
            self.rows[row_id] = self.rows[row_id].model_copy(
                update={"expired_at": at, "expired_by": by}
            )
        self.rows.update((row.id, row) for row in batch.insert)
        self.events.extend(batch.events)
        self._clocks.update(batch.clocks)

    def rollback(self) -> None:
        pass


def replay(
    registry: PredicateRegistry, writes: Sequence[tuple[datetime, Sequence[CandidateFact]]]
) -> tuple[list[Fact], list[Event]]:
    """The rows and events that ``writes`` (each a transaction time and the operations
    written then, in time order) leave, planned from nothing. Erasing a turn re-plans
    the families it touched from their logs without it, as if it had never been said.
    Operations that conflict are left out, as a bulk load leaves them out.

    >>> from graphmem.time.instant import to_instant
    >>> op = CandidateFact(subject="Ann", predicate="lives_in", object="Oslo")
    >>> writes = [(to_instant("2024-01-01T00:00:00Z"), [op])]
    >>> rows, events = replay(PredicateRegistry.with_builtins(), writes)
    >>> [(r.object, r.recorded_at.year) for r in rows]
    [('Oslo', 2024)]
    """
    scratch = _Replay()
    groups = [WriteGroup(tuple(ops), (), tx) for tx, ops in writes]
    plan_write(scratch, registry, groups, lenient=True)  # type: ignore[arg-type]
    return list(scratch.rows.values()), scratch.events
