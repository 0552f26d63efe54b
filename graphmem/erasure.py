"""What an erase removes: the policy, decided once, above every backend.

Erasing is for privacy, so it errs toward forgetting:

- ``plan_erase`` (a key, or a whole subject): the rows of the key, or every row of the
  subject, every row pointing at it and every literal value equal to one of its names;
  the turns that stated those rows; every turn that names an erased value (for a whole
  subject: that names the subject or is spoken by it), with the names matched word by
  word, case- and accent-blind ("Zorblatt's" names Zorblatt); and the entities that no
  row names afterwards. A turn that also said other things goes whole.
- ``plan_turn_erase`` (one turn): the families it wrote to are re-planned from their
  logs without its operations, so whatever it superseded or retracted holds again, as
  if it had never been said. Rows the log cannot account for are never re-planned:
  the erase is refused instead.

Either way an erased turn keeps its id and nothing else, so loading the same log again
skips it. The backend applies the plan in one transaction (``Backend.erase``).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from datetime import datetime
from itertools import groupby

from pydantic import ValidationError

from graphmem.errors import InvalidFactError, StoreError
from graphmem.model import CandidateFact, Fact, normalise_name
from graphmem.predicates import PredicateRegistry
from graphmem.store.protocol import Backend, Erasure, Event, RowQuery
from graphmem.store.writes import replay
from graphmem.time.bounds import TemporalBounds

_WORD = re.compile(r"\w+")


def _words(text: str) -> str:
    """Text as its matching words, space-separated and space-padded."""
    return " " + " ".join(_WORD.findall(normalise_name(text))) + " "


def _mentions(text: str, names: Iterable[str]) -> bool:
    said = _words(text)
    return any(name in said for name in names)


def _name_forms(names: Iterable[str]) -> set[str]:
    return {form for form in map(_words, names) if form.strip()}


def plan_erase(
    backend: Backend,
    scope: str,
    subject_id: str,
    names: Sequence[str],
    predicate: str | None = None,
    object_id: str | None = None,
) -> Erasure:
    """The erasure of a key (``predicate``, optionally ``object_id``) or, with neither,
    of the whole subject ``subject_id``, called ``names`` by the user."""
    whole = predicate is None
    if whole:
        query = RowQuery(scope=scope, entity_id=subject_id, bounds=TemporalBounds.history())
    else:
        query = RowQuery(scope=scope, subject_id=subject_id, predicate=predicate,
                         object_id=object_id, bounds=TemporalBounds.history())  # fmt: skip
    rows = backend.rows(query)
    literal_ids: list[str] = []
    if whole:
        entity = backend.entity(scope, subject_id)
        forms = _name_forms([*names, *((entity.name, *entity.aliases) if entity else ())])
        literal = [
            r
            for r in backend.rows(RowQuery(scope=scope, bounds=TemporalBounds.history()))
            if r.object_id != subject_id and _words(r.object) in forms
        ]
        literal_ids = [r.id for r in literal]
        rows += literal
    else:
        forms = _name_forms(_value_names(backend, scope, rows))
    stated = {r.provenance.episode_id for r in rows if r.provenance.episode_id}
    turns = [
        e.id
        for e in backend.episodes(scope)
        if e.id in stated or _mentions(e.text, forms) or (whole and _words(e.speaker) in forms)
    ]
    return Erasure(
        scope=scope,
        keys=((subject_id, predicate, object_id),),
        row_ids=tuple(literal_ids),
        episode_ids=tuple(turns),
        orphans=_entities_of(rows, also=(subject_id, object_id)),
    )


def _value_names(backend: Backend, scope: str, rows: Sequence[Fact]) -> list[str]:
    """The values of erased rows as users may write them: the value, and the names and
    aliases of a value that is an entity."""
    names = [r.object for r in rows]
    for object_id in {r.object_id for r in rows if r.object_id}:
        entity = backend.entity(scope, object_id)
        if entity is not None:
            names += [entity.name, *entity.aliases]
    return names


def _entities_of(rows: Iterable[Fact], also: Iterable[str | None] = ()) -> tuple[str, ...]:
    ids = {r.subject_id for r in rows} | {r.object_id for r in rows if r.object_id}
    ids.update(i for i in also if i)
    return tuple(sorted(ids))


def plan_turn_erase(
    backend: Backend, registry: PredicateRegistry, scope: str, episode_id: str
) -> Erasure:
    """The erasure of one turn, as if it had never been said (see the module doc)."""
    if not backend.episodes(scope, [episode_id]):
        raise InvalidFactError(f"erase: no turn {episode_id!r} in scope {scope!r}")
    log = [e for e in backend.events(scope) if e.subject_id is not None and e.op != "erase"]
    operations = {id(e): _operation(e) for e in log}
    said = [e for e in log if operations[id(e)].provenance.episode_id == episode_id]
    rows = [
        r
        for r in backend.rows(RowQuery(scope=scope, bounds=TemporalBounds.history()))
        if r.provenance.episode_id == episode_id
    ]
    families = sorted({(e.subject_id, e.predicate) for e in said}
                      | {(r.subject_id, r.predicate) for r in rows})  # fmt: skip
    old_rows: list[Fact] = []
    new_rows: list[Fact] = []
    new_events: list[Event] = []
    for subject_id, predicate in families:
        events = sorted(
            (e for e in log if (e.subject_id, e.predicate) == (subject_id, predicate)),
            key=lambda e: e.recorded_at,
        )
        stored = backend.rows(RowQuery(scope=scope, subject_id=subject_id,
                                       predicate=predicate, bounds=TemporalBounds.history()))  # fmt: skip
        if _shape(replay(registry, _writes(events, operations))[0]) != _shape(stored):
            raise StoreError(
                f"erase: the log of {stored[0].subject if stored else subject_id!r} "
                f"{predicate} does not account for its rows (imported or written by an "
                "older graphmem), so it cannot be re-planned without this turn; nothing "
                "was erased. Erase the facts by key instead: erase(subject, predicate)"
            )
        kept = [e for e in events if operations[id(e)].provenance.episode_id != episode_id]
        rows_now, events_now = replay(registry, _writes(kept, operations))
        old_rows += stored
        new_rows += rows_now
        new_events += events_now
    return Erasure(
        scope=scope,
        keys=tuple((s, p, None) for s, p in families),
        episode_ids=(episode_id,),
        orphans=_entities_of(old_rows),
        rows=tuple(new_rows),
        events=tuple(new_events),
    )


def _operation(event: Event) -> CandidateFact:
    try:
        return CandidateFact.model_validate_json(event.payload)
    except ValidationError as exc:
        raise StoreError(
            f"erase: an event of {event.predicate} at {event.recorded_at} holds no readable "
            f"operation ({exc.errors()[0]['msg']}); nothing was erased"
        ) from None


def _writes(
    events: Sequence[Event], operations: dict[int, CandidateFact]
) -> list[tuple[datetime, list[CandidateFact]]]:
    """Events grouped into the writes they came from (one transaction time each)."""
    return [
        (tx, [operations[id(e)] for e in group])
        for tx, group in groupby(events, key=lambda e: e.recorded_at)
    ]


def _shape(rows: Iterable[Fact]) -> list[tuple]:
    """Rows as comparable content: everything but their generated ids."""
    return sorted(
        (r.subject, r.object, r.object_id or "", r.valid_from, r.valid_to, r.recorded_at,
         r.expired_at, r.expired_by or "", r.change_point, r.confidence,
         r.provenance.model_dump_json())
        for r in rows
    )  # fmt: skip
