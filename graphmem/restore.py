"""Import a JSON-lines export into a store, keeping every id and all four timestamps.

``export_jsonl`` writes entities, every fact row ever recorded (current, ended,
superseded, corrected, retracted) and the conversation turns; ``import_jsonl`` puts
them back as they were, so every query mode answers the same on the new store. It is
idempotent (rows, entities and turns already there are skipped) and each scope is
written in one transaction. Embeddings are not exported; they are computed again.

>>> import io, os, tempfile
>>> from graphmem import Memory
>>> from graphmem.export import export_jsonl
>>> a = Memory.open(os.path.join(tempfile.mkdtemp(), "a.db"), embedder=None)
>>> _ = a.remember("Alice", "lives_in", "Paris", valid_from="2019-01-01")
>>> dump = io.StringIO(); _ = export_jsonl(a, dump); _ = dump.seek(0)
>>> b = Memory.open(os.path.join(tempfile.mkdtemp(), "b.db"), embedder=None)
>>> import_jsonl(b, dump)["rows"]
1
"""

from __future__ import annotations

import json
import os
from collections import defaultdict
from typing import IO, TYPE_CHECKING, Any

from pydantic import ValidationError

from graphmem.errors import LoadError
from graphmem.extraction.secrets import contains_secret, redact
from graphmem.model import Entity, Episode, Fact, Provenance, text_owner
from graphmem.predicates import Predicate
from graphmem.store.index_text import episode_index_text
from graphmem.store.passage_index import episode_passages
from graphmem.store.protocol import RowQuery, WriteBatch
from graphmem.time.bitemporal import Clock
from graphmem.time.bounds import TemporalBounds
from graphmem.time.instant import NEG_INF, is_open_end, to_instant
from graphmem.time.interval import Interval

if TYPE_CHECKING:
    from graphmem.memory import Memory

_TIMES = ("valid_from", "valid_to", "recorded_at", "expired_at")


def _fact(record: dict[str, Any]) -> Fact:
    fields = {k: v for k, v in record.items() if k not in ("kind", "status")}
    for name in _TIMES:
        fields[name] = to_instant(fields[name], field=name)
    fields["provenance"] = Provenance.model_validate(fields.get("provenance") or {})
    return Fact.model_validate(fields)


def _read(source: IO[str], name: str, scope: str | None = None) -> dict[str, dict[str, list]]:
    """Records grouped by scope and kind; a malformed line names its place. With
    ``scope``, a record of any other scope is refused."""
    by_scope: dict[str, dict[str, list]] = defaultdict(lambda: defaultdict(list))
    lines: dict[int, int] = {}  # id(item) -> its line, for errors found later
    for number, line in enumerate(source, start=1):
        if not line.strip():
            continue
        try:
            record = json.loads(line)
            kind = record.get("kind")
            if kind == "fact":
                item: Any = _fact(record)
            elif kind == "entity":
                item = Entity.model_validate({k: v for k, v in record.items() if k != "kind"})
            elif kind == "episode":
                item = Episode.model_validate({k: v for k, v in record.items() if k != "kind"})
            elif kind == "predicate":
                declared = Predicate(**{k: v for k, v in record.items() if k != "kind"})
                by_scope[_PREDICATES]["predicate"].append(declared)  # scope-free
                lines[id(declared)] = number
                continue
            else:
                raise ValueError(f"unknown record kind {kind!r}")
        except (ValueError, ValidationError, AttributeError, KeyError) as exc:
            raise LoadError(
                f"not a graphmem export record: {exc}", path=name, line=number
            ) from None
        if scope is not None and item.scope != scope:
            raise LoadError(f"record of scope {item.scope!r}, importing into {scope!r}",
                            path=name, line=number)  # fmt: skip
        by_scope[item.scope][kind].append(item)
        lines[id(item)] = number
    by_scope[_LINES] = lines  # type: ignore[assignment]
    return by_scope


_LINES = "\x00lines"
_PREDICATES = "\x00predicates"


def _declare(memory: Memory, predicates: list[Predicate], lines: dict[int, int], name: str
             ) -> list[Predicate]:  # fmt: skip
    """Make the file's declared predicates known (in memory only: stored once the whole
    file is found consistent); refuse one whose shape differs from this store's."""
    new = []
    for p in predicates:
        if p.name in memory.registry:
            old = memory.registry.get(p.name)
            if (old.functional, old.object_kind) != (p.functional, p.object_kind):
                raise LoadError(f"predicate {p.name!r} is {p.cardinality} {p.object_kind} here, "
                                f"{old.cardinality} {old.object_kind} in this store",
                                path=name, line=lines.get(id(p)))  # fmt: skip
            continue
        new.append(memory.registry.declare(
            p.name, functional=p.functional, object_kind=p.object_kind,
            subject_type=p.subject_type, object_type=p.object_type, phrase=p.phrase,
            description=p.description,
        ))  # fmt: skip
    return new


def _check(memory: Memory, scope: str, kinds: dict[str, list], lines: dict[int, int],
           name: str) -> None:  # fmt: skip
    """Refuse, naming the line, what would leave the store inconsistent: an inverted
    interval, an entity reference that is missing or of another scope, a literal where
    the predicate takes an entity, a fact or name holding a secret, two rows of a one-value predicate believed at the same
    time over overlapping valid time, and an id another scope already uses."""

    def fail(item: Any, message: str) -> None:
        raise LoadError(message, path=name, line=lines.get(id(item)))

    known = {e.id for e in memory.backend.entities(scope)} | {e.id for e in kinds["entity"]}
    # The one secret filter of every way in (Memory.write): no fact or name holds one.
    for item, values in [(r, (r.subject, r.object, r.text)) for r in kinds["fact"]] + [
        (e, (e.name, *e.aliases)) for e in kinds["entity"]
    ]:
        if any(contains_secret(v) for v in values):
            fail(item, f"{type(item).__name__.lower()} {item.id}: holds what looks like a "
                       "secret (a password, key or card number); graphmem never stores secrets")  # fmt: skip
    families: dict[tuple[str, str], list[Fact]] = defaultdict(list)
    for row in kinds["fact"]:
        if not Interval.well_formed(row.valid_from, row.valid_to):
            fail(row, f"fact {row.id}: valid_from is not before valid_to")
        if not Interval.well_formed(row.recorded_at, row.expired_at):
            fail(row, f"fact {row.id}: recorded_at is not before expired_at")
        if row.predicate not in memory.registry:
            fail(row, f"fact {row.id}: unknown predicate {row.predicate!r}")
        predicate = memory.registry.get(row.predicate)
        if row.subject_id not in known:
            fail(row, f"fact {row.id}: subject_id {row.subject_id!r} is no entity of {scope!r}")
        if predicate.object_kind == "entity" and row.object_id is None:
            fail(row, f"fact {row.id}: {row.predicate} takes an entity, object_id is null")
        if row.object_id is not None and row.object_id not in known:
            fail(row, f"fact {row.id}: object_id {row.object_id!r} is no entity of {scope!r}")
        if predicate.functional:
            families[(row.subject_id, row.predicate)].append(row)
    for (subject_id, predicate_name), fresh in families.items():
        stored = memory.backend.rows(RowQuery(scope=scope, subject_id=subject_id,
                                              predicate=predicate_name, bounds=TemporalBounds.history()))  # fmt: skip
        ids = {r.id for r in fresh}
        rows = [r for r in stored if r.id not in ids] + fresh
        for i, a in enumerate(rows):
            for b in rows[i + 1 :]:
                if b.id in ids and a.id in ids and a.id == b.id:
                    continue
                if TemporalBounds.of_row(a).admits(b):  # overlapping rectangles
                    fail(b, f"fact {b.id}: {b.predicate} holds one value at a time, and this "
                            f"row overlaps {a.id} in valid and recorded time")  # fmt: skip
    for other in memory.backend.scopes():
        if other == scope:
            continue
        ids = tuple(f.id for f in kinds["fact"])
        clash = memory.backend.rows(
            RowQuery(scope=other, bounds=TemporalBounds.history(), row_ids=ids)
        )
        if clash:
            taken = next(f for f in kinds["fact"] if f.id == clash[0].id)
            fail(taken, f"fact {taken.id}: that id is already a row of scope {other!r}")


def import_jsonl(memory: Memory, source: str | os.PathLike[str] | IO[str],
                 scope: str | None = None) -> dict[str, int]:  # fmt: skip
    """Put an export back; returns how many rows, entities, episodes and declared
    predicates were added.
    With ``scope``, every record must be of that scope. Nothing is written unless the
    whole file is consistent (:func:`_check`)."""
    name = os.fspath(source) if isinstance(source, str | os.PathLike) else getattr(
        source, "name", "<stream>")  # fmt: skip
    if isinstance(source, str | os.PathLike):
        with open(source, encoding="utf-8") as handle:
            grouped = _read(handle, name, scope)
    else:
        grouped = _read(source, name, scope)
    lines = grouped.pop(_LINES)
    declared = _declare(memory, grouped.pop(_PREDICATES, {}).get("predicate", []), lines, name)
    for each, kinds in grouped.items():
        _check(memory, each, kinds, lines, name)  # type: ignore[arg-type]
    counts = {"rows": 0, "entities": 0, "episodes": 0, "predicates": len(declared)}
    backend = memory.backend
    for predicate in declared:
        backend.put_predicate(predicate)
    for scope, kinds in grouped.items():
        facts: list[Fact] = kinds["fact"]
        have = {r.id for r in backend.rows(RowQuery(scope=scope, bounds=TemporalBounds.history(),
                                                    row_ids=tuple(f.id for f in facts)))}  # fmt: skip
        rows = [f for f in facts if f.id not in have]
        known = {e.id for e in backend.entities(scope)}
        entities = [e for e in kinds["entity"] if e.id not in known]
        present = backend.existing_episode_ids([e.id for e in kinds["episode"]])
        episodes = [
            e.model_copy(update={"text": redact(e.text)}) if contains_secret(e.text) else e
            for e in kinds["episode"]
            if e.id not in present
        ]
        if not (rows or entities or episodes):
            continue
        times = [t for f in rows for t in (f.recorded_at, f.expired_at) if not is_open_end(t)]
        times += [e.timestamp for e in episodes]
        latest = max(times, default=NEG_INF)
        session = backend.begin([], [scope])
        try:
            clock = session.clock(scope)
            if latest > clock.assigned:
                clock = Clock(max(clock.requested, latest), latest)
            batch = WriteBatch(
                clocks={scope: clock},
                entities=entities,
                episodes=episodes,
                insert=rows,
                embeddings=_embeddings(memory, scope, rows, episodes),
            )
            session.commit(batch)
        except BaseException:
            session.rollback()
            raise
        counts["rows"] += len(rows)
        counts["entities"] += len(entities)
        counts["episodes"] += len(episodes)
    return counts


def _embeddings(memory: Memory, scope: str, rows: list[Fact], episodes: list[Episode]):
    if memory.embedder is None:
        return {}
    owners = {text_owner(scope, r.text): r.text for r in rows}
    owners.update({e.id: episode_index_text(e) for e in episodes})
    owners.update((o, text) for e in episodes for o, _, text in episode_passages(e))
    if not owners:
        return {}
    vectors = memory.embedder.embed(list(owners.values()))
    return {owner: v.tolist() for owner, v in zip(owners, vectors, strict=True)}
