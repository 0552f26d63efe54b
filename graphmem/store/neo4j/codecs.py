"""Values between graphmem's model and Neo4j: rows, entities, episodes and events as
property maps and back, instants as UTC DateTimes, labels and relationship types."""

from __future__ import annotations

import hashlib
import re
from datetime import UTC, datetime, timedelta
from typing import Any

import numpy as np

from graphmem.model import Entity, Episode, Fact, Provenance, normalise_name
from graphmem.store.neo4j.cypher import (
    FACT_FIELDS,
    RESERVED_LABELS,
    RESERVED_TYPES,
    TIME_FIELDS,
)  # fmt: skip
from graphmem.store.protocol import Event
from graphmem.store.words import STOPWORDS
from graphmem.time.instant import format_instant, is_infinite

# -- values ------------------------------------------------------------------------------


def utc(t: datetime) -> datetime:
    return t if t.tzinfo is UTC else t.astimezone(UTC)


EPOCH = datetime(1970, 1, 1, tzinfo=UTC)


def wire(t: datetime) -> str:
    """An instant as a write statement receives it: ISO 8601 in UTC, which the statement
    turns into a DateTime with ``datetime()``.

    Why text, not a ``datetime`` parameter: the driver packs each ``datetime`` through its
    own pure-Python temporal types (~150 µs each on this project's machine: 16,000 took
    2.6 s), which made them most of a write batch's cost; a string costs nothing.

    >>> wire(datetime(2024, 3, 1, 12, 30, tzinfo=UTC))
    '2024-03-01T12:30:00Z'
    """
    return t.astimezone(UTC).isoformat().replace("+00:00", "Z")


def scope_key(scope: str) -> str:
    """The scope as one Lucene token (letters and digits, whatever the scope's spelling),
    kept on searchable nodes so a full-text query can ask for one tenant's matches.

    >>> scope_key("alice")
    'k4deaec0cce54da89'
    """
    return "k" + hashlib.blake2b(scope.encode(), digest_size=8).hexdigest()


def native(value: Any) -> datetime:
    """A stored instant as graphmem's (aware UTC, microseconds): from microseconds since
    1970 (``cypher.micros``) or a driver DateTime (stored in UTC).

    >>> native(0)
    datetime.datetime(1970, 1, 1, 0, 0, tzinfo=datetime.timezone.utc)
    """
    if isinstance(value, int):
        return EPOCH + timedelta(microseconds=value)
    t = value.to_native()
    if t.utcoffset() == timedelta(0):
        return t.replace(tzinfo=UTC)
    return t.astimezone(UTC)


def entity_label(entity_type: str) -> str:
    """The entity type as a node label: letters, digits and ``_``, not one of ours."""
    label = re.sub(r"\W+", "_", entity_type, flags=re.ASCII).strip("_") or "Thing"
    if label[0].isdigit():
        label = f"T_{label}"
    return f"{label}_" if label in RESERVED_LABELS else label


def relationship_type(predicate: str) -> str:
    """The predicate as a relationship type: ``lives_in`` -> ``LIVES_IN``."""
    rel = re.sub(r"\W+", "_", predicate, flags=re.ASCII).strip("_").upper() or "RELATED"
    if rel[0].isdigit():
        rel = f"P_{rel}"
    return f"{rel}_" if rel in RESERVED_TYPES else rel


def caption_day(t: datetime, open_end: str) -> str:
    if is_infinite(t):
        return open_end
    text = format_instant(t)
    return text[:10] if text[10:] in ("T00:00:00Z", "") else text[:16].replace("T", " ")


def edge_caption(row: Fact) -> str:
    """What Neo4j Browser shows on the edge: ``lives in (2019-01-01 → now)``."""
    caption = (
        f"{row.predicate.replace('_', ' ')} "
        f"({caption_day(row.valid_from, '…')} → {caption_day(row.valid_to, 'now')})"
    )
    if not row.is_current_belief:
        caption += ended_note(row.expired_by)
    return caption


def ended_note(expired_by: str | None) -> str:
    return f" ✗ {expired_by or 'expired'}"


def fact_props(row: Fact) -> dict[str, Any]:
    props: dict[str, Any] = {name: getattr(row, name) for name in FACT_FIELDS}
    for name in TIME_FIELDS:
        props[name] = wire(props[name])
    props["provenance"] = row.provenance.model_dump_json(exclude_defaults=True)
    props["confidence"] = float(row.confidence)
    props["caption"] = edge_caption(row)
    return props


def fact_from(m: dict[str, Any]) -> Fact:
    return Fact.model_construct(
        id=m["id"],
        fact_id=m["fact_id"],
        scope=m["scope"],
        subject=m["subject"],
        subject_id=m["subject_id"],
        predicate=m["predicate"],
        object=m["object"],
        object_id=m["object_id"],
        text=m["text"],
        valid_from=native(m["valid_from"]),
        valid_to=native(m["valid_to"]),
        recorded_at=native(m["recorded_at"]),
        expired_at=native(m["expired_at"]),
        expired_by=m["expired_by"],
        provenance=Provenance.model_validate_json(m["provenance"]),
        confidence=m["confidence"],
        change_point=bool(m.get("change_point")),
    )


def entity_from(m: dict[str, Any]) -> Entity:
    return Entity(
        id=m["id"], scope=m["scope"], name=m["name"], type=m["type"],
        aliases=tuple(m["aliases"] or ()),
    )  # fmt: skip


def entity_props(e: Entity) -> dict[str, Any]:
    props: dict[str, Any] = {
        "id": e.id, "scope": e.scope, "name": e.name, "type": e.type, "aliases": list(e.aliases),
    }  # fmt: skip
    if e.aliases:
        props["alias_keys"] = sorted({normalise_name(a) for a in e.aliases})
    return props


def episode_from(m: dict[str, Any]) -> Episode:
    return Episode.model_construct(
        id=m["id"], scope=m["scope"], session=m["session"], turn=m["turn"],
        speaker=m["speaker"], role=m["role"], text=m["text"],
        timestamp=native(m["timestamp"]), source=m["source"], embedding=None,
    )  # fmt: skip


def event_from(m: dict[str, Any]) -> Event:
    return Event(
        m["scope"], native(m["recorded_at"]), m["op"], m["subject_id"], m["predicate"],
        m["object_id"], m["payload"], tuple(m["row_ids"] or ()),
    )  # fmt: skip


def event_props(e: Event) -> dict[str, Any]:
    return {
        "scope": e.scope, "recorded_at": wire(e.recorded_at), "op": e.op,
        "subject_id": e.subject_id, "predicate": e.predicate, "object_id": e.object_id,
        "payload": e.payload, "row_ids": list(e.row_ids),
    }  # fmt: skip


def float32_list(values: Any) -> list[float]:
    """Stored as the embedded store stores it (float32), so both return the same numbers."""
    return np.asarray(values, dtype=np.float32).astype(float).tolist()


LUCENE_WORD = re.compile(r"[a-z0-9]+(?:'[a-z]+)?")


def lucene_query(text: str) -> str:
    """The question's words (no stop words) OR-ed, safe for Lucene's query syntax (words
    hold only letters, digits and an apostrophe; the index's analyzer stems them)."""
    words = dict.fromkeys(w for w in LUCENE_WORD.findall(text.lower()) if w not in STOPWORDS)
    return " OR ".join(words)


def scoped_lucene(words: str, scope: str) -> str:
    """A full-text query for ``words`` (``lucene_query``) among one scope's nodes: the
    scope clause has weight 0, so the scores are the words' alone.

    >>> scoped_lucene("paris OR berlin", "alice")
    '(paris OR berlin) AND scope_key:k4deaec0cce54da89^0'
    """
    return f"({words}) AND scope_key:{scope_key(scope)}^0"
