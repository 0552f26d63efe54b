"""The embedded store's SQLite file: its schema, and rows, turns and erase keys as SQL
values and back."""

from __future__ import annotations

import functools
import json

from graphmem.model import Entity, Episode, Fact, Provenance, normalise_name
from graphmem.time.instant import NEG_INF, POS_INF, from_micros, to_micros

LITERAL = ""  # the graph node of literal values (never an entity id)

SCHEMA_VERSION = "3"  # 2: rows.change_point; 3: the names table, read indexes

SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS clock (
  scope TEXT PRIMARY KEY, requested INTEGER NOT NULL, assigned INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS events (
  seq INTEGER PRIMARY KEY AUTOINCREMENT, scope TEXT NOT NULL, recorded_at INTEGER NOT NULL,
  op TEXT NOT NULL, subject_id TEXT, predicate TEXT, object_id TEXT,
  payload TEXT NOT NULL, row_ids TEXT NOT NULL);
CREATE INDEX IF NOT EXISTS events_subject ON events(scope, subject_id);
CREATE TABLE IF NOT EXISTS entities (
  id TEXT PRIMARY KEY, scope TEXT NOT NULL, name TEXT NOT NULL, type TEXT NOT NULL,
  aliases TEXT NOT NULL, changed INTEGER NOT NULL);
CREATE INDEX IF NOT EXISTS entities_changed ON entities(changed);
CREATE INDEX IF NOT EXISTS entities_scope ON entities(scope);
-- Every (normalised) name and alias of an entity; the latest written wins a name.
CREATE TABLE IF NOT EXISTS names (
  seq INTEGER PRIMARY KEY AUTOINCREMENT, scope TEXT NOT NULL, name TEXT NOT NULL,
  entity_id TEXT NOT NULL);
CREATE INDEX IF NOT EXISTS names_name ON names(scope, name);
CREATE INDEX IF NOT EXISTS names_entity ON names(entity_id);
CREATE TABLE IF NOT EXISTS rows (
  id TEXT PRIMARY KEY, fact_id TEXT NOT NULL, scope TEXT NOT NULL,
  subject TEXT NOT NULL, subject_id TEXT NOT NULL, predicate TEXT NOT NULL,
  object TEXT NOT NULL, object_id TEXT, text TEXT NOT NULL,
  valid_from INTEGER NOT NULL, valid_to INTEGER NOT NULL,
  recorded_at INTEGER NOT NULL, expired_at INTEGER NOT NULL, expired_by TEXT,
  provenance TEXT NOT NULL, confidence REAL NOT NULL, change_point INTEGER NOT NULL,
  changed INTEGER NOT NULL);
CREATE INDEX IF NOT EXISTS rows_family ON rows(scope, subject_id, predicate);
CREATE INDEX IF NOT EXISTS rows_changed ON rows(changed);
-- Reads are served from SQLite (no mirror in memory): by object, by predicate.
CREATE INDEX IF NOT EXISTS rows_object ON rows(scope, object_id);
CREATE INDEX IF NOT EXISTS rows_predicate ON rows(scope, predicate);
CREATE TABLE IF NOT EXISTS episodes (
  id TEXT PRIMARY KEY, scope TEXT NOT NULL, session TEXT NOT NULL, turn INTEGER,
  speaker TEXT NOT NULL, role TEXT, text TEXT NOT NULL, timestamp INTEGER NOT NULL,
  source TEXT, changed INTEGER NOT NULL);
CREATE INDEX IF NOT EXISTS episodes_scope ON episodes(scope, session, timestamp);
CREATE INDEX IF NOT EXISTS episodes_changed ON episodes(changed);
CREATE TABLE IF NOT EXISTS embeddings (
  owner_id TEXT PRIMARY KEY, vector BLOB NOT NULL, changed INTEGER NOT NULL);
CREATE INDEX IF NOT EXISTS embeddings_changed ON embeddings(changed);
-- The ids of erased turns, nothing else: loading the same log again skips them.
CREATE TABLE IF NOT EXISTS erased_episodes (id TEXT PRIMARY KEY, scope TEXT NOT NULL);
-- Predicates a user declared (scope-free: a predicate means the same in every scope).
CREATE TABLE IF NOT EXISTS predicates (
  name TEXT PRIMARY KEY, functional INTEGER NOT NULL, object_kind TEXT NOT NULL,
  subject_type TEXT NOT NULL, object_type TEXT NOT NULL, phrase TEXT NOT NULL,
  description TEXT NOT NULL);
"""

ROW_COLUMNS = (
    "id, fact_id, scope, subject, subject_id, predicate, object, object_id, text, "
    "valid_from, valid_to, recorded_at, expired_at, expired_by, provenance, confidence, "
    "change_point"
)


@functools.lru_cache(maxsize=4096)
def provenance_from(text: str) -> Provenance:
    # Many rows share a provenance (one turn, one loader): parse each distinct one once.
    return Provenance.model_validate_json(text)


_POS, _NEG = to_micros(POS_INF), to_micros(NEG_INF)
_FIELDS = frozenset(Fact.model_fields)
_new = object.__new__
_set = object.__setattr__


def instant(us: int):
    """A stored instant (the sentinels are shared objects: most rows have one)."""
    if us == _POS:
        return POS_INF
    if us == _NEG:
        return NEG_INF
    return from_micros(us)


def fact_from_row(r: tuple) -> Fact:
    """A row read back. It was validated when written, so it is not validated again:
    the fields are set as ``model_construct`` would set them, at half its cost (reads
    of many rows are dominated by this)."""
    fact = _new(Fact)
    _set(fact, "__dict__", {
        "id": r[0], "fact_id": r[1], "scope": r[2], "subject": r[3], "subject_id": r[4],
        "predicate": r[5], "object": r[6], "object_id": r[7], "text": r[8],
        "valid_from": instant(r[9]), "valid_to": instant(r[10]),
        "recorded_at": instant(r[11]), "expired_at": instant(r[12]), "expired_by": r[13],
        "provenance": provenance_from(r[14]), "confidence": r[15],
        "change_point": bool(r[16]),
    })  # fmt: skip
    _set(fact, "__pydantic_fields_set__", set(_FIELDS))
    _set(fact, "__pydantic_extra__", None)
    _set(fact, "__pydantic_private__", None)
    return fact


ENTITY_COLUMNS = "id, scope, name, type, aliases"


def entity_from_row(r: tuple) -> Entity:
    return Entity(id=r[0], scope=r[1], name=r[2], type=r[3], aliases=tuple(json.loads(r[4])))


def entity_names(entity: Entity) -> list[tuple[str, str, str]]:
    """The ``names`` rows of an entity: (scope, normalised name, entity id)."""
    return [(entity.scope, normalise_name(n), entity.id) for n in (entity.name, *entity.aliases)]


def fact_params(f: Fact, changed: int) -> tuple:
    return (
        f.id, f.fact_id, f.scope, f.subject, f.subject_id, f.predicate, f.object, f.object_id,
        f.text, to_micros(f.valid_from), to_micros(f.valid_to), to_micros(f.recorded_at),
        to_micros(f.expired_at), f.expired_by, f.provenance.model_dump_json(exclude_defaults=True),
        f.confidence, int(f.change_point), changed,
    )  # fmt: skip


EPISODE_COLUMNS = "id, scope, session, turn, speaker, role, text, timestamp, source"


def key_where(
    scope: str, subject_id: str, predicate: str | None, object_id: str | None
) -> tuple[str, list]:
    """The rows (or events) of an erased key: SQL and its parameters. A whole subject
    also takes every fact that points at it."""
    where, params = "scope=? AND subject_id=?", [scope, subject_id]
    if predicate is not None:
        where += " AND predicate=?"
        params.append(predicate)
    if object_id is not None:
        where += " AND object_id=?"
        params.append(object_id)
    elif predicate is None:
        where = f"({where}) OR (scope=? AND object_id=?)"
        params += [scope, subject_id]
    return f"({where})", params


def episode_from_row(r: tuple) -> Episode:
    return Episode.model_construct(
        id=r[0], scope=r[1], session=r[2], turn=r[3], speaker=r[4], role=r[5], text=r[6],
        timestamp=from_micros(r[7]), source=r[8], embedding=None,
    )  # fmt: skip
