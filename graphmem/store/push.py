"""Copy a store into another: typically a local embedded store into Neo4j.

>>> import pathlib, tempfile
>>> from graphmem import Memory
>>> from graphmem.store import open_backend
>>> folder = pathlib.Path(tempfile.mkdtemp())
>>> mem = Memory.open(folder / "memory.db", embedder=None)
>>> _ = mem.remember("Alice", "lives_in", "Berlin", valid_from="2024-03-01")
>>> target = open_backend(folder / "copy.db")  # typically open_backend("bolt://host:7687")
>>> counts = push(mem.backend, target)
>>> counts["rows"], counts["entities"]
(1, 2)
>>> push(mem.backend, target)["rows"]  # idempotent
0

Everything is kept as it is: row ids, fact ids and all four timestamps (expired rows
too), entities, episodes, the event log, each scope's clock and the embeddings of rows,
fact texts, entities and episodes. The copy goes through the target's own write path
(``begin`` / ``commit`` of a ``WriteBatch``, under the scope's lock), in batches, so any
backend can be a source or a target.

It is idempotent: what the target already holds is skipped, so a second run adds
nothing. Run again after more writes to the source, it adds the new rows, events and
episodes and closes target rows that the source has since expired. It copies, it does
not mirror deletions: rows erased from the source after an earlier push stay in the
target (erase them there too).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Sequence
from typing import TypeVar

from graphmem.errors import ConflictError
from graphmem.model import text_owner
from graphmem.store.protocol import Backend, Event, RowQuery, WriteBatch
from graphmem.time.bitemporal import Clock
from graphmem.time.bounds import TemporalBounds
from graphmem.time.instant import NEG_INF

T = TypeVar("T")

COUNTS = (
    "rows", "expired", "entities", "episodes", "events", "embeddings", "clocks", "predicates",
)  # fmt: skip


def push(source: Backend, target: Backend, *, batch_size: int = 2000) -> dict[str, int]:
    """Copy everything ``source`` holds that ``target`` lacks; returns what was added per
    kind (``rows`` inserted, target rows ``expired`` to match the source, ``entities``,
    ``episodes``, ``events``, ``embeddings``, scope ``clocks`` moved forward and declared
    ``predicates``)."""
    counts = dict.fromkeys(COUNTS, 0)
    # Declared predicates first: the target cannot read the rows keyed by them without.
    held = {p.name: p for p in target.predicates()}
    missing = []
    for predicate in source.predicates():
        old = held.get(predicate.name)
        if old is None:
            missing.append(predicate)
        elif (old.functional, old.object_kind) != (predicate.functional, predicate.object_kind):
            raise ConflictError(
                f"push: predicate {predicate.name!r} is {predicate.cardinality} "
                f"{predicate.object_kind} here but {old.cardinality} {old.object_kind} in the "
                "target; nothing was copied"
            )
    for predicate in missing:
        target.put_predicate(predicate)
    counts["predicates"] = len(missing)
    for scope in source.scopes():
        _push_scope(source, target, scope, counts, batch_size)
    return counts


def _push_scope(
    source: Backend, target: Backend, scope: str, counts: dict[str, int], batch_size: int
) -> None:
    rows = source.rows(RowQuery(scope=scope, bounds=TemporalBounds.history()))
    held = {r.id: r for r in target.rows(RowQuery(scope=scope, bounds=TemporalBounds.history()))}
    insert = [r for r in rows if r.id not in held]
    expire = [
        (r.id, r.expired_at, r.expired_by or "superseded")
        for r in rows
        if r.id in held and not r.is_current_belief and held[r.id].is_current_belief
    ]
    all_entities, all_episodes = source.entities(scope), source.episodes(scope)
    held_entities = {e.id for e in target.entities(scope)}
    entities = [e for e in all_entities if e.id not in held_entities]
    held_episodes = target.existing_episode_ids([e.id for e in all_episodes])
    episodes = [e for e in all_episodes if e.id not in held_episodes]
    events = _missing_events(list(source.events(scope)), list(target.events(scope)))

    # Embeddings belong to rows, logical facts, fact texts, entities or episodes.
    owners = list(
        dict.fromkeys(
            [r.id for r in rows]
            + [r.fact_id for r in rows]
            + [text_owner(r.scope, r.text) for r in rows]
            + [e.id for e in all_entities]
            + [e.id for e in all_episodes]
        )
    )
    vectors = source.embeddings(owners)
    held_vectors = target.embeddings(list(vectors))
    embeddings = {o: v for o, v in vectors.items() if held_vectors.get(o) != v}

    theirs, ours = _clock(source, scope), _clock(target, scope)
    clock = Clock(max(theirs.requested, ours.requested), max(theirs.assigned, ours.assigned))
    work = [
        ("entities", entities), ("episodes", episodes), ("insert", insert), ("expire", expire),
        ("events", events), ("embeddings", list(embeddings.items())),
    ]  # fmt: skip
    if clock == ours and not any(items for _, items in work):
        return
    for kind, items in work:
        for chunk in _chunks(items, batch_size):
            batch = WriteBatch(clocks={scope: clock})
            if kind == "embeddings":
                batch.embeddings = dict(chunk)
            else:
                setattr(batch, kind, list(chunk))
            _commit(target, scope, batch)
    if not any(items for _, items in work):
        _commit(target, scope, WriteBatch(clocks={scope: clock}))  # only the clock moved
    counts["rows"] += len(insert)
    counts["expired"] += len(expire)
    counts["entities"] += len(entities)
    counts["episodes"] += len(episodes)
    counts["events"] += len(events)
    counts["embeddings"] += len(embeddings)
    counts["clocks"] += clock != ours


def snapshot(source: Backend, scope: str) -> WriteBatch:
    """Everything a scope holds except embeddings, as one batch that would write it into
    an empty store: its clock, entities, turns, every row (expired ones as they stand) and
    the event log. The Cypher export renders it with the Neo4j backend's statements."""
    return WriteBatch(
        clocks={scope: _clock(source, scope)},
        entities=source.entities(scope),
        episodes=source.episodes(scope),
        insert=source.rows(RowQuery(scope=scope, bounds=TemporalBounds.history())),
        events=list(source.events(scope)),
    )


def _commit(target: Backend, scope: str, batch: WriteBatch) -> None:
    session = target.begin([], [scope])
    try:
        session.commit(batch)
    except BaseException:
        session.rollback()
        raise


def _missing_events(source: list[Event], target: list[Event]) -> list[Event]:
    """Source events the target lacks, in source order (equal events count as many times
    as they occur)."""
    have = Counter(target)
    missing = []
    for event in source:
        if have[event]:
            have[event] -= 1
        else:
            missing.append(event)
    return missing


def _clock(backend: Backend, scope: str) -> Clock:
    clock = getattr(backend, "clock", None)
    return clock(scope) if clock is not None else Clock(NEG_INF, NEG_INF)


def _chunks(items: Sequence[T], size: int) -> Iterator[Sequence[T]]:
    for start in range(0, len(items), size):
        yield items[start : start + size]
