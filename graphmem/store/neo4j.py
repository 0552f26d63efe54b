"""The Neo4j backend: the embedded store's bitemporal rows, in a graph you can browse.

Opened by ``Memory.open("bolt://host:7687")`` (or ``neo4j://``, ``neo4j+s://``...);
``auth=("user", "password")`` or ``bolt://user:password@host:7687``, and with neither,
``GRAPHMEM_NEO4J_USER`` (default ``neo4j``) / ``GRAPHMEM_NEO4J_PASSWORD`` from the
environment (``scripts/neo4j/start.sh`` keeps its password in ``.neo4j/password``);
``database=`` for a named database. It behaves exactly like ``EmbeddedBackend`` (the same contract tests run
on both); everything temporal is planned above it by ``graphmem.store.writes``.

Data model
----------
- Entities: ``(:Entity:<Type> {id, scope, name, type, aliases})``; the second label is the
  entity type made a safe identifier (``Person``, ``Place``; a type that would collide with
  one of graphmem's own labels gets a trailing ``_``).
- Fact rows, reified: ``(s:Entity)-[:SUBJECT]->(f:Fact)-[:OBJECT]->(o:Entity)``, plus a
  direct relationship ``(s)-[:LIVES_IN]->(o)`` whose type is the predicate upper-cased.
  Both the ``:Fact`` node and the direct relationship carry the row's properties: id,
  fact_id, scope, subject, subject_id, predicate, object, object_id, text, valid_from,
  valid_to, recorded_at, expired_at, expired_by, provenance (JSON), confidence, and a
  ``caption`` such as ``lives in (2019-01-01 → now)`` (``✗ superseded`` once expired).

  Why reify: Neo4j range, full-text and vector indexes are declared per label or per
  relationship type, and predicates are open-ended (users declare their own). One
  ``:Fact`` label gives every row, whatever its predicate, the same indexes (the four
  times, scope, the family key, full-text on text, a vector index on ``embedding``) and a
  uniqueness constraint on the row id, all declared once in ``schema/*.cypher``. The
  direct predicate-typed relationship keeps Neo4j Browser readable (``Alice -LIVES_IN->
  Paris`` with its interval as caption) and lets people write natural Cypher; a single
  ``:FACT`` type would have worked for indexes but shows every edge as "FACT". graphmem
  itself reads only the ``:Fact`` nodes; writes keep both in step in one transaction.
- Episodes: ``(:Episode {id, scope, session, turn, speaker, role, text, timestamp, source})``.
- Events (the append-only log): ``(:Event {scope, seq, recorded_at, op, subject_id,
  predicate, object_id, payload, row_ids})``; ``seq`` counts per scope, handed out by the
  scope's clock under its lock, so ``events(scope)`` is in write order (``events()`` of all
  scopes comes grouped by scope, each in write order).
- Clocks: ``(:Clock {scope, requested, assigned, event_seq})``.
- Embeddings: each vector once, as the embedded store keeps it, in
  ``(:Embedding {owner_id, scope, embedding})`` (owner: a fact text's
  ``text_owner`` key, an episode id...), and copied as an ``embedding`` property
  (LIST<FLOAT>, float32 values) onto what it describes, where the 384-d cosine vector
  indexes see it: every ``:Fact`` row of that text (``f.vector_key``), the ``:Episode``
  or ``:Entity`` with that id. Rows inserted later with the same text get the copy too.

Every node and relationship carries ``scope``; every read filters scope and time mode in
Cypher ``WHERE``. Times are Neo4j ``DateTime`` in UTC; open ends are the sentinels
``0001-01-01T00:00:00Z`` and ``9999-12-31T23:59:59.999999Z``, never null, so the query
modes of ``graphmem.time.bitemporal`` are plain comparisons, written once
(``_time_filter``). Searches filter before ranking: the full-text index yields every
match and the filter runs before ``LIMIT``; vector search scores exactly the entries the
filter allows while they are few (``EXACT_LIMIT``), and otherwise asks the vector index
for ever more candidates until ``k`` pass the filter.

Writes and locking
------------------
``begin(families, scopes)`` opens an explicit transaction, MERGEs the ``:Clock`` of every
scope it touches and writes a property on it (taking Neo4j's exclusive lock, so writers of
one scope queue there; scopes are locked in sorted order, so writers cannot deadlock on
them), then reads the clocks and the current rows of all families under that lock.
``commit(batch)`` writes the batch in the same transaction with a few UNWIND statements
and commits. A transient failure (deadlock, leader switch, lost connection) during
``begin`` is retried; during ``commit`` it rolls back and raises ``TransientStoreError``
(a ``StoreError``): nothing was written and the caller may simply run the write again.
If the connection drops during the commit itself, the outcome is unknown and a plain
``StoreError`` says so. ``erase`` and other writes run as managed transactions
(``session.execute_write``), and reads as managed read transactions
(``driver.execute_query``), which the driver retries on transient errors by itself.

Schema
------
``schema/*.cypher`` (constraints, range, full-text and vector indexes) is applied on open:
each statement whose index or constraint name does not exist yet is run (``IF NOT
EXISTS``), so opening is idempotent and cheap once applied. An existing index of the same
name is kept as it is (change a definition under a new name). Queries pin their
indexes in hints (USING INDEX), so ``apply_schema=False`` needs a database that has it.
"""

from __future__ import annotations

import os
import re
import time
from collections import defaultdict
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager, suppress
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlsplit, urlunsplit

import numpy as np

from graphmem.errors import GraphmemError, StoreError, TransientStoreError
from graphmem.model import Entity, Episode, Fact, Provenance, normalise_name, text_owner
from graphmem.predicates import Predicate
from graphmem.retrieval.index_text import episode_index_text, index_text
from graphmem.retrieval.keyword_index import STOPWORDS
from graphmem.retrieval.search_table import SearchFilter
from graphmem.store.protocol import (
    ChangeAxis,
    Erased,
    Erasure,
    Event,
    Family,
    RowQuery,
    SearchTarget,
    WriteBatch,
)
from graphmem.time.bitemporal import Clock
from graphmem.time.instant import NEG_INF, POS_INF, format_instant

try:
    import neo4j
    from neo4j import exceptions as neo4j_errors
except ImportError:  # pragma: no cover - a dependency, but the embedded backend runs without it
    neo4j = None  # type: ignore[assignment]
    neo4j_errors = None  # type: ignore[assignment]


EXACT_LIMIT = 20_000  # vector search scores every allowed entry exactly up to this many

# -- Cypher: every statement the backend runs ------------------------------------------

FACT_FIELDS = (
    "id", "fact_id", "scope", "subject", "subject_id", "predicate", "object", "object_id",
    "text", "valid_from", "valid_to", "recorded_at", "expired_at", "expired_by", "provenance",
    "confidence", "change_point",
)  # fmt: skip
ENTITY_FIELDS = ("id", "scope", "name", "type", "aliases")
EPISODE_FIELDS = (
    "id", "scope", "session", "turn", "speaker", "role", "text", "timestamp", "source",
)  # fmt: skip
EVENT_FIELDS = (
    "scope", "recorded_at", "op", "subject_id", "predicate", "object_id", "payload", "row_ids",
)  # fmt: skip
TIME_FIELDS = ("valid_from", "valid_to", "recorded_at", "expired_at")
# Labels graphmem gives its own nodes; an entity type may not borrow one.
RESERVED_LABELS = frozenset(
    {"Entity", "Fact", "Episode", "ErasedEpisode", "Event", "Clock", "Embedding", "Predicate"}
)
RESERVED_TYPES = frozenset({"SUBJECT", "OBJECT"})


def _projection(var: str, fields: Sequence[str]) -> str:
    return var + " {" + ", ".join(f".{name}" for name in fields) + "}"


FACT_MAP = _projection("f", FACT_FIELDS)


def _row_times(var: str) -> dict[str, str]:
    """A fact row's four time columns."""
    return {name: f"{var}.{name}" for name in TIME_FIELDS}


def _episode_times(var: str) -> dict[str, str]:
    """An episode's times as the embedded search table sees them: an observation, known
    from when it was said, about that moment onwards."""
    ts = f"{var}.timestamp"
    return {"valid_from": ts, "valid_to": "$pos_inf", "recorded_at": ts, "expired_at": "$pos_inf"}


def _time_filter(
    cols: dict[str, str],
    *,
    known_at: datetime | None = None,
    as_of: datetime | None = None,
    valid_overlap: tuple[datetime, datetime] | None = None,
) -> tuple[list[str], dict[str, Any]]:
    """The query modes of ``graphmem.time.bitemporal`` as Cypher conditions: the one place
    they are written for Neo4j. ``cols`` names the four time columns (``_row_times``).

    - ``known_at`` (``believed_at``): ``recorded_at <= known_at < expired_at``; at
      ``POS_INF`` (the current belief) ``expired_at`` is the open-end sentinel.
    - ``as_of`` (``valid_at``): ``valid_from <= as_of < valid_to``.
    - ``valid_overlap`` (``valid_overlaps``): the valid interval overlaps ``[start, end)``.
    ``None`` applies no filter. Every query gets ``$pos_inf`` (``Neo4jBackend._params``).
    """
    conditions: list[str] = []
    params: dict[str, Any] = {}
    if known_at is not None:
        if known_at >= POS_INF:
            conditions.append(f"{cols['expired_at']} = $pos_inf")
        else:
            conditions.append(
                f"{cols['recorded_at']} <= $known_at AND $known_at < {cols['expired_at']}"
            )
            params["known_at"] = _utc(known_at)
    if as_of is not None:
        conditions.append(f"{cols['valid_from']} <= $as_of AND $as_of < {cols['valid_to']}")
        params["as_of"] = _utc(as_of)
    if valid_overlap is not None:
        conditions.append(
            f"{cols['valid_from']} < $overlap_end AND $overlap_start < {cols['valid_to']}"
        )
        params["overlap_start"], params["overlap_end"] = map(_utc, valid_overlap)
    return conditions, params


def _search_filter(var: str, target: SearchTarget, f: SearchFilter) -> tuple[str, dict[str, Any]]:
    """A search's scope and time mode as a ``WHERE`` body on ``var``."""
    cols = _row_times(var) if target == "facts" else _episode_times(var)
    conditions, params = _time_filter(
        cols,
        known_at=None if f.include_expired else f.known_at,
        as_of=f.as_of,
        valid_overlap=f.valid_overlap,
    )
    return " AND ".join([f"{var}.scope = $scope", *conditions]), {"scope": f.scope, **params}


def _in_window(var: str, prop: str) -> str:
    """``prop`` lies in the half-open window ``($start, $end]`` (the changes views)."""
    return f"($start < {var}.{prop} AND {var}.{prop} <= $end)"


def _key_filter(var: str, predicate: str | None, object_id: str | None) -> str:
    """What an erase removes (rows or events ``var``): the key, or a whole subject with
    every fact pointing at it. Parameters: $scope, $subject_id, $predicate, $object_id."""
    where = f"{var}.scope = $scope AND {var}.subject_id = $subject_id"
    if predicate is not None:
        where += f" AND {var}.predicate = $predicate"
    if object_id is not None:
        where += f" AND {var}.object_id = $object_id"
    elif predicate is None:
        where = f"({where}) OR ({var}.scope = $scope AND {var}.object_id = $subject_id)"
    return where


def _select(match: str, where: Sequence[str], fields: Sequence[str], order: str = "") -> str:
    """``MATCH ... WHERE ... RETURN <var> {fields} AS item``: the simple reads."""
    var = match[1 : match.index(":")]
    cypher = f"MATCH {match}"
    if where:
        cypher += " WHERE " + " AND ".join(where)
    cypher += f" RETURN {_projection(var, fields)} AS item"
    return cypher + (f" ORDER BY {order}" if order else "")


LOCK_CLOCKS = """
UNWIND $scopes AS scope
MERGE (c:Clock {scope: scope})
  ON CREATE SET c.requested = $neg_inf, c.assigned = $neg_inf, c.event_seq = 0
SET c._lock = true
REMOVE c._lock
RETURN c.scope AS scope, c.requested AS requested, c.assigned AS assigned
"""

SET_CLOCKS = """
UNWIND $clocks AS c
MERGE (k:Clock {scope: c.scope})
  ON CREATE SET k.event_seq = 0
SET k.requested = c.requested, k.assigned = c.assigned
"""

CURRENT_ROWS = f"""
UNWIND $families AS fam
MATCH (f:Fact {{scope: fam.scope, subject_id: fam.subject_id, predicate: fam.predicate}})
WHERE {_time_filter(_row_times("f"), known_at=POS_INF)[0][0]}
RETURN {FACT_MAP} AS row
"""

MERGE_ENTITIES = """
UNWIND $entities AS e
MERGE (n:Entity {id: e.props.id})
  ON CREATE SET n += e.props, n:$(e.label)
"""

MERGE_EPISODES = """
UNWIND $episodes AS e
MERGE (n:Episode {id: e.id})
  ON CREATE SET n += e
"""

PUT_ENTITY = """
MERGE (n:Entity {id: $props.id})
  ON CREATE SET n += $props
  ON MATCH SET n.type = $props.type, n.aliases = $props.aliases,
               n.alias_keys = $props.alias_keys
WITH n
CALL (n) {
  WITH n WHERE $old_label IS NOT NULL AND $old_label <> $label
  REMOVE n:$($old_label)
}
SET n:$($label)
"""

# A row's direct relationship, found from its :Fact node (two hops, then the relationships
# between its subject and object: never a scan of a busy entity's relationships).
DIRECT_RELATIONSHIP = (
    "OPTIONAL MATCH (s:Entity)-[:SUBJECT]->(f)-[:OBJECT]->(o:Entity), (s)-[r {id: f.id}]->(o)"
)

EXPIRE_ROWS = f"""
UNWIND $expire AS x
MATCH (f:Fact) USING INDEX f:Fact(id)
WHERE f.id = x.id AND f.expired_at = $pos_inf
SET f.expired_at = x.at, f.expired_by = x.by, f.caption = f.caption + x.note
WITH f, x
{DIRECT_RELATIONSHIP}
SET r.expired_at = x.at, r.expired_by = x.by, r.caption = f.caption
"""

INSERT_ROWS = """
UNWIND $rows AS row
MATCH (s:Entity {id: row.props.subject_id})
OPTIONAL MATCH (o:Entity {id: row.props.object_id})
CREATE (s)-[:SUBJECT {scope: row.props.scope}]->(f:Fact)
SET f = row.props, f.vector_key = row.vector_key
FOREACH (_ IN CASE WHEN o IS NULL THEN [] ELSE [1] END |
  CREATE (f)-[:OBJECT {scope: row.props.scope}]->(o)
  CREATE (s)-[r:$(row.type)]->(o)
  SET r = row.props)
WITH f, o, row
OPTIONAL MATCH (known:Embedding {owner_id: row.vector_key})
SET f.embedding = known.embedding
RETURN count(f) AS created, count(o) AS linked
"""

APPEND_EVENTS = """
UNWIND $groups AS g
MATCH (c:Clock {scope: g.scope})
SET c.event_seq = coalesce(c.event_seq, 0) + size(g.events)
WITH g, c.event_seq - size(g.events) AS base
UNWIND range(0, size(g.events) - 1) AS i
CREATE (e:Event)
SET e = g.events[i], e.seq = base + i + 1
RETURN count(e) AS created
"""

SET_EMBEDDINGS = """
UNWIND $embeddings AS x
MERGE (e:Embedding {owner_id: x.owner})
SET e.embedding = x.vector
WITH x, e
OPTIONAL MATCH (ep:Episode {id: x.owner})
OPTIONAL MATCH (n:Entity {id: x.owner})
SET ep.embedding = x.vector, n.embedding = x.vector
WITH x, e, coalesce(ep.scope, n.scope) AS owner_scope
CALL (x) {
  OPTIONAL MATCH (f:Fact {vector_key: x.owner})
  SET f.embedding = x.vector
  RETURN head(collect(f.scope)) AS row_scope
}
SET e.scope = coalesce(x.scope, owner_scope, row_scope, e.scope)
"""

DELETE_EMBEDDINGS = """
UNWIND $owners AS owner
MATCH (e:Embedding {owner_id: owner})
DETACH DELETE e
"""

# A text's vector goes with the last row of that text (erase leaves nothing of the text).
DELETE_UNUSED_TEXT_EMBEDDINGS = """
UNWIND $keys AS key
MATCH (e:Embedding {owner_id: key})
WHERE NOT EXISTS { MATCH (:Fact {vector_key: key}) }
DETACH DELETE e
"""

ERASE_ROWS = """
{anchor}
WITH f WHERE {where}
{direct}
DELETE r
WITH f, f.id AS id, f.fact_id AS fact_id, f.vector_key AS vector_key
DETACH DELETE f
RETURN collect(id) AS ids, collect(DISTINCT fact_id) AS fact_ids,
       collect(DISTINCT vector_key) AS vector_keys
"""

ERASE_EVENTS = "MATCH (e:Event) WHERE {where} DELETE e"

# An erased turn leaves its id only (so a re-load skips it), never its content.
ERASE_EPISODES = """
UNWIND $ids AS id
MERGE (x:ErasedEpisode {id: id}) ON CREATE SET x.scope = $scope
WITH id
OPTIONAL MATCH (e:Episode {id: id}) WHERE e.scope = $scope
DETACH DELETE e
RETURN count(e) AS erased
"""

ERASE_WRITING_EVENTS = """
MATCH (e:Event) WHERE e.scope = $scope AND any(x IN e.row_ids WHERE x IN $ids)
DELETE e
"""

ERASE_ORPHANS = """
UNWIND $ids AS id
MATCH (n:Entity {id: id}) WHERE n.scope = $scope
  AND NOT EXISTS { MATCH (f:Fact {subject_id: id}) }
  AND NOT EXISTS { MATCH (f:Fact {object_id: id}) }
DETACH DELETE n
RETURN collect(id) AS ids
"""

# Where a row read starts: always an index seek chosen here (with a hint, so the plan
# does not depend on statistics), then the remaining filters.
ROW_ANCHORS = {
    "row_ids": "MATCH (f:Fact) USING INDEX f:Fact(id) WHERE f.id IN $row_ids",
    "family": "MATCH (f:Fact) USING INDEX f:Fact(scope, subject_id, predicate) "
    "WHERE f.scope = $scope AND f.subject_id = $subject_id AND f.predicate = $predicate",
    "subject": "MATCH (f:Fact) USING INDEX f:Fact(subject_id) WHERE f.subject_id = $subject_id",
    "entity": "CALL () { "
    "MATCH (f:Fact) USING INDEX f:Fact(subject_id) WHERE f.subject_id = $entity_id RETURN f "
    "UNION MATCH (f:Fact) USING INDEX f:Fact(object_id) WHERE f.object_id = $entity_id RETURN f }",
    "object": "MATCH (f:Fact) USING INDEX f:Fact(object_id) WHERE f.object_id = $object_id",
    "scope": "MATCH (f:Fact) USING INDEX f:Fact(scope) WHERE f.scope = $scope",
}


def _row_anchor(q: RowQuery) -> str:
    if q.row_ids is not None:
        return ROW_ANCHORS["row_ids"]
    if q.subject_id is not None:
        return ROW_ANCHORS["family" if q.predicate is not None else "subject"]
    if q.entity_id is not None:
        return ROW_ANCHORS["entity"]
    return ROW_ANCHORS["object" if q.object_id is not None else "scope"]


READ_ROWS = """
{anchor}
WITH f WHERE {where}
RETURN {fact_map} AS row
ORDER BY f.subject, f.predicate, f.valid_from, f.recorded_at{limit}
"""

READ_CLOCK = (
    "MATCH (c:Clock {scope: $scope}) RETURN c.requested AS requested, c.assigned AS assigned"
)

READ_ENTITY = _select("(n:Entity {id: $id})", ["n.scope = $scope"], ENTITY_FIELDS)
READ_ENTITIES = _select("(n:Entity)", ["n.scope = $scope"], ENTITY_FIELDS)

ENTITIES_NAMED = f"""
CALL () {{
  UNWIND $ids AS id
  MATCH (n:Entity {{id: id}}) WHERE n.scope = $scope
  RETURN n
  UNION
  MATCH (n:Entity) WHERE n.scope = $scope AND n.alias_keys IS NOT NULL
    AND any(key IN n.alias_keys WHERE key IN $keys)
  RETURN n
}}
RETURN {_projection("n", ENTITY_FIELDS)} AS item
"""

NEIGHBOURS = """
UNWIND $ids AS id
MATCH (:Entity {id: id})-[r]-(m:Entity)
WHERE r.scope = $scope AND m.scope = $scope
RETURN DISTINCT m.id AS id
"""

EXISTING_EPISODES = """
UNWIND $ids AS id
CALL (id) {
  MATCH (e:Episode {id: id}) RETURN e.id AS found
  UNION MATCH (x:ErasedEpisode {id: id}) RETURN x.id AS found
}
RETURN found AS id
"""

# Declared predicates: scope-free (a predicate means the same in every scope); the first
# declaration stays (Memory.declare refuses a new shape for a known name).
PREDICATE_FIELDS = (
    "name", "functional", "object_kind", "subject_type", "object_type", "phrase", "description",
)  # fmt: skip
PUT_PREDICATE = "MERGE (p:Predicate {name: $props.name}) ON CREATE SET p += $props"
READ_PREDICATES = "MATCH (p:Predicate) RETURN p{.*} AS item ORDER BY p.name"

READ_SCOPES = """
CALL () {
  MATCH (c:Clock) RETURN c.scope AS scope
  UNION MATCH (e:Episode) RETURN e.scope AS scope
  UNION MATCH (n:Entity) RETURN n.scope AS scope
}
RETURN scope
"""

READ_EMBEDDINGS = """
UNWIND $ids AS id
MATCH (e:Embedding {owner_id: id})
RETURN id, e.embedding AS vector
"""

STATS = """
RETURN COUNT { (f:Fact) WHERE $scope IS NULL OR f.scope = $scope } AS rows,
       COUNT { (f:Fact) WHERE f.expired_at = $pos_inf AND ($scope IS NULL OR f.scope = $scope) }
         AS current_rows,
       COUNT { (n:Entity) WHERE $scope IS NULL OR n.scope = $scope } AS entities,
       COUNT { (e:Episode) WHERE $scope IS NULL OR e.scope = $scope } AS episodes,
       COUNT { (e:Event) WHERE $scope IS NULL OR e.scope = $scope } AS events,
       COUNT { (:Embedding) } AS embeddings
"""

# Searches: ``{label}`` is Fact or Episode, ``{where}`` the search filter on ``x``.
# Neo4j reports cosine as (1 + cos) / 2; graphmem (like the embedded store) uses cos.
COUNT_VECTORS = "MATCH (x:{label}) WHERE {where} AND x.embedding IS NOT NULL RETURN count(x) AS n"

EXACT_VECTOR_SEARCH = """
MATCH (x:{label}) WHERE {where} AND size(x.embedding) = size($vector)
WITH x, vector.similarity.cosine(x.embedding, $vector) AS similarity
ORDER BY similarity DESC, x.id
LIMIT $k
RETURN x.id AS id, 2 * similarity - 1 AS score
"""

INDEX_VECTOR_SEARCH = """
CALL db.index.vector.queryNodes($index, $fetch, $vector) YIELD node AS x, score
WITH x, score WHERE {where}
RETURN x.id AS id, 2 * score - 1 AS score
ORDER BY score DESC, id
LIMIT $k
"""

KEYWORD_SEARCH = """
CALL db.index.fulltext.queryNodes($index, $text) YIELD node AS x, score
WITH x, score WHERE {where}
RETURN x.id AS id, score
ORDER BY score DESC, id
LIMIT $k
"""

_SEARCH_INDEXES = {
    "facts": ("Fact", "fact_embedding", "fact_text"),
    "episodes": ("Episode", "episode_embedding", "episode_search"),
}

CHECK_STRUCTURE = """
MATCH (f:Fact)
WITH f,
     COUNT { (:Entity {id: f.subject_id})-[:SUBJECT]->(f) } AS subjects,
     COUNT { (f)-[:OBJECT]->(:Entity {id: f.object_id}) } AS objects,
     COUNT { (s:Entity)-[:SUBJECT]->(f)-[:OBJECT]->(o:Entity), (s)-[r]->(o)
             WHERE r.id = f.id AND r.expired_at = f.expired_at } AS direct
WHERE subjects <> 1 OR objects <> direct
   OR objects <> CASE WHEN f.object_id IS NULL THEN 0 ELSE 1 END
   OR any(k IN $time_fields WHERE valueType(f[k]) <> 'ZONED DATETIME NOT NULL')
   OR NOT (f.valid_from < f.valid_to AND f.recorded_at < f.expired_at)
RETURN f.id AS id, subjects, objects, direct
LIMIT 100
"""

CHECK_SCOPES = """
CALL () {
  MATCH (n) WHERE n.scope IS NULL RETURN 'node ' + coalesce(head(labels(n)), '?') AS what
  UNION ALL
  MATCH ()-[r]->() WHERE r.scope IS NULL RETURN 'relationship ' + type(r) AS what
}
RETURN what, count(*) AS n
"""

CHECK_ROWS = f"MATCH (f:Fact) RETURN {FACT_MAP} AS row"

# Relationships first, then nodes, in small transactions: a hub node (a city thousands of
# facts point at) detached in one go can exceed the transaction memory pool.
DROP_ALL = (
    "MATCH ()-[r]->() CALL (r) { DELETE r } IN TRANSACTIONS OF 5000 ROWS",
    "MATCH (n) CALL (n) { DELETE n } IN TRANSACTIONS OF 5000 ROWS",
)

SHOW_SCHEMA = ("SHOW INDEXES YIELD name RETURN name", "SHOW CONSTRAINTS YIELD name RETURN name")

_SCHEMA_NAME = re.compile(
    r"^CREATE\s+(?:CONSTRAINT|(?:RANGE\s+|TEXT\s+|POINT\s+|FULLTEXT\s+|VECTOR\s+)?INDEX)\s+"
    r"`?(\w+)`?",
    re.IGNORECASE,
)


# -- values ------------------------------------------------------------------------------


def _utc(t: datetime) -> datetime:
    return t if t.tzinfo is UTC else t.astimezone(UTC)


def _native(value: Any) -> datetime:
    """A Neo4j DateTime (stored in UTC) as graphmem's instant (aware UTC, microseconds)."""
    t = value.to_native()
    if t.utcoffset() == timedelta(0):
        return t.replace(tzinfo=UTC)
    return t.astimezone(UTC)


def _label(entity_type: str) -> str:
    """The entity type as a node label: letters, digits and ``_``, not one of ours."""
    label = re.sub(r"\W+", "_", entity_type, flags=re.ASCII).strip("_") or "Thing"
    if label[0].isdigit():
        label = f"T_{label}"
    return f"{label}_" if label in RESERVED_LABELS else label


def _rel_type(predicate: str) -> str:
    """The predicate as a relationship type: ``lives_in`` -> ``LIVES_IN``."""
    rel = re.sub(r"\W+", "_", predicate, flags=re.ASCII).strip("_").upper() or "RELATED"
    if rel[0].isdigit():
        rel = f"P_{rel}"
    return f"{rel}_" if rel in RESERVED_TYPES else rel


def _day(t: datetime, open_end: str) -> str:
    if t in (NEG_INF, POS_INF):
        return open_end
    text = format_instant(t)
    return text[:10] if text[10:] in ("T00:00:00Z", "") else text[:16].replace("T", " ")


def _caption(row: Fact) -> str:
    """What Neo4j Browser shows on the edge: ``lives in (2019-01-01 → now)``."""
    caption = (
        f"{row.predicate.replace('_', ' ')} "
        f"({_day(row.valid_from, '…')} → {_day(row.valid_to, 'now')})"
    )
    if row.expired_at < POS_INF:
        caption += _ended_note(row.expired_by)
    return caption


def _ended_note(expired_by: str | None) -> str:
    return f" ✗ {expired_by or 'expired'}"


def _fact_props(row: Fact) -> dict[str, Any]:
    props: dict[str, Any] = {name: getattr(row, name) for name in FACT_FIELDS}
    for name in TIME_FIELDS:
        props[name] = _utc(props[name])
    props["provenance"] = row.provenance.model_dump_json(exclude_defaults=True)
    props["confidence"] = float(row.confidence)
    props["caption"] = _caption(row)
    return props


def _fact(m: dict[str, Any]) -> Fact:
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
        valid_from=_native(m["valid_from"]),
        valid_to=_native(m["valid_to"]),
        recorded_at=_native(m["recorded_at"]),
        expired_at=_native(m["expired_at"]),
        expired_by=m["expired_by"],
        provenance=Provenance.model_validate_json(m["provenance"]),
        confidence=m["confidence"],
        change_point=bool(m.get("change_point")),
    )


def _entity(m: dict[str, Any]) -> Entity:
    return Entity(
        id=m["id"], scope=m["scope"], name=m["name"], type=m["type"],
        aliases=tuple(m["aliases"] or ()),
    )  # fmt: skip


def _entity_props(e: Entity) -> dict[str, Any]:
    props: dict[str, Any] = {
        "id": e.id, "scope": e.scope, "name": e.name, "type": e.type, "aliases": list(e.aliases),
    }  # fmt: skip
    if e.aliases:
        props["alias_keys"] = sorted({normalise_name(a) for a in e.aliases})
    return props


def _episode(m: dict[str, Any]) -> Episode:
    return Episode.model_construct(
        id=m["id"], scope=m["scope"], session=m["session"], turn=m["turn"],
        speaker=m["speaker"], role=m["role"], text=m["text"],
        timestamp=_native(m["timestamp"]), source=m["source"], embedding=None,
    )  # fmt: skip


def _event(m: dict[str, Any]) -> Event:
    return Event(
        m["scope"], _native(m["recorded_at"]), m["op"], m["subject_id"], m["predicate"],
        m["object_id"], m["payload"], tuple(m["row_ids"] or ()),
    )  # fmt: skip


def _event_props(e: Event) -> dict[str, Any]:
    return {
        "scope": e.scope, "recorded_at": _utc(e.recorded_at), "op": e.op,
        "subject_id": e.subject_id, "predicate": e.predicate, "object_id": e.object_id,
        "payload": e.payload, "row_ids": list(e.row_ids),
    }  # fmt: skip


def _vector(values: Any) -> list[float]:
    """Stored as the embedded store stores it (float32), so both return the same numbers."""
    return np.asarray(values, dtype=np.float32).astype(float).tolist()


_WORD = re.compile(r"[a-z0-9]+(?:'[a-z]+)?")


def _lucene_query(text: str) -> str:
    """The question's words (no stop words) OR-ed, safe for Lucene's query syntax (words
    hold only letters, digits and an apostrophe; the index's analyzer stems them)."""
    words = dict.fromkeys(w for w in _WORD.findall(text.lower()) if w not in STOPWORDS)
    return " OR ".join(words)


# -- schema files ------------------------------------------------------------------------

# Episodes stored before ``search_text`` existed: indexed by their text alone until given
# it, which opening the store does once (``episode_index_text``, as every write does).
EPISODES_WITHOUT_SEARCH_TEXT = """
MATCH (e:Episode) WHERE e.search_text IS NULL
RETURN e.id AS id, e.speaker AS speaker, e.text AS text LIMIT 5000
"""
SET_SEARCH_TEXT = """
UNWIND $episodes AS x MATCH (e:Episode {id: x.id}) SET e.search_text = x.search_text
"""


def _backfill_search_text(session: Any) -> None:
    while True:
        found = [r.data() for r in session.run(EPISODES_WITHOUT_SEARCH_TEXT)]
        if not found:
            return
        episodes = [
            {"id": r["id"], "search_text": index_text(r["speaker"], r["text"])} for r in found
        ]
        session.run(SET_SEARCH_TEXT, episodes=episodes).consume()


def schema_dir() -> Path:
    """Where ``schema/*.cypher`` live: ``$GRAPHMEM_SCHEMA_DIR``, else the installed
    ``graphmem.schema`` package (``graphmem/schema/`` in the repository)."""
    import graphmem.schema

    candidates = [os.environ.get("GRAPHMEM_SCHEMA_DIR"), Path(graphmem.schema.__file__).parent]
    for candidate in candidates:
        if candidate and any(Path(candidate).glob("*.cypher")):
            return Path(candidate)
    raise StoreError(
        "cannot find graphmem's Neo4j schema (schema/*.cypher); set GRAPHMEM_SCHEMA_DIR "
        "to the folder that holds them"
    )


def schema_statements(directory: Path | None = None) -> list[str]:
    """The schema as statements: every ``*.cypher`` file in name order, ``//`` comments
    dropped, split on ``;``."""
    statements = []
    for path in sorted((directory or schema_dir()).glob("*.cypher")):
        lines = [ln for ln in path.read_text().splitlines() if not ln.strip().startswith("//")]
        statements += [s.strip() for s in "\n".join(lines).split(";") if s.strip()]
    return statements


def _schema_name(statement: str) -> str | None:
    found = _SCHEMA_NAME.match(statement)
    return found.group(1) if found else None


# -- errors ------------------------------------------------------------------------------


def _reason(exc: BaseException) -> str:
    if neo4j_errors is not None and isinstance(exc, neo4j_errors.Neo4jError):
        message = (exc.message or str(exc)).strip()
        return f"{exc.code}: {message}" if exc.code else message
    text = str(exc).strip().splitlines()
    return text[-1] if text else type(exc).__name__


def _store_error(location: str, action: str, exc: BaseException) -> StoreError:
    if isinstance(exc, neo4j_errors.IncompleteCommit):
        return StoreError(
            f"{location}: {action}: the connection was lost while committing, so the write "
            f"may or may not have been stored ({_reason(exc)})"
        )
    if isinstance(
        exc,
        neo4j_errors.TransientError | neo4j_errors.ServiceUnavailable | neo4j_errors.SessionExpired,
    ):
        return TransientStoreError(
            f"{location}: {action} failed on a transient Neo4j error and was rolled back; "
            f"retry ({_reason(exc)})"
        )
    return StoreError(f"{location}: {action} failed: {_reason(exc)}")


def _open_failure(where: str, exc: BaseException, *, auth_given: bool = True) -> str:
    if isinstance(exc, neo4j_errors.AuthError):
        refused = "the user or password was refused" if auth_given else "no password was given"
        return (
            f"cannot open Neo4j store {where}: authentication failed ({refused}); "
            "give the password with "
            "auth=(user, password), bolt://user:password@host or GRAPHMEM_NEO4J_USER / "
            "GRAPHMEM_NEO4J_PASSWORD (scripts/neo4j/start.sh keeps it in .neo4j/password) "
            f"({_reason(exc)})"
        )
    if isinstance(exc, neo4j_errors.ServiceUnavailable):
        return (
            f"cannot open Neo4j store {where}: no Neo4j answers there (is it running? "
            f"scripts/neo4j/start.sh starts a local one): {_reason(exc)}"
        )
    if isinstance(exc, neo4j_errors.Neo4jError) and exc.code and "DatabaseNotFound" in exc.code:
        return f"cannot open Neo4j store {where}: the database does not exist ({_reason(exc)})"
    return f"cannot open Neo4j store {where}: {_reason(exc)}"


def _split_userinfo(uri: str) -> tuple[str, tuple[str, str] | None]:
    """``bolt://user:pw@host`` -> (``bolt://host``, (user, pw)); the URI we print has no secret."""
    parts = urlsplit(uri)
    if "@" not in parts.netloc:
        return uri, None
    userinfo, host = parts.netloc.rsplit("@", 1)
    user, _, password = userinfo.partition(":")
    return urlunsplit(parts._replace(netloc=host)), (unquote(user), unquote(password))


def env_auth(user: str | None = None, password: str | None = None) -> tuple[str, str] | None:
    """``(user, password)`` from the arguments, else ``GRAPHMEM_NEO4J_USER`` (default
    ``neo4j``) / ``GRAPHMEM_NEO4J_PASSWORD``; None when no password is given anywhere and
    no user is named (then the driver connects without auth)."""
    user = user or os.environ.get("GRAPHMEM_NEO4J_USER") or None
    password = password or os.environ.get("GRAPHMEM_NEO4J_PASSWORD") or None
    if user is None and password is None:
        return None
    return (user or "neo4j", password or "")


_BEGIN_ATTEMPTS = 8


class Neo4jBackend:
    """graphmem's store in Neo4j 5.26+ (Community or Enterprise), over the official driver.

    The driver is thread-safe and so is this backend: every call uses its own session.
    """

    def __init__(
        self,
        uri: str,
        *,
        auth: Any = None,
        database: str | None = None,
        apply_schema: bool = True,
        **driver_options: Any,
    ):
        uri, uri_auth = _split_userinfo(uri)
        self.location = uri
        self._database = database
        self._closed = False
        where = uri + (f" (database {database!r})" if database else "")
        if neo4j is None:
            raise StoreError(
                f"cannot open {where}: the Neo4j driver is not installed "
                "(pip install neo4j, or pip install -e .)"
            )
        options: dict[str, Any] = {
            "connection_timeout": 10.0,
            "max_transaction_retry_time": 30.0,
            "notifications_min_severity": "OFF",  # e.g. "unknown property" on an empty store
        }
        options.update(driver_options)
        try:
            auth = auth or uri_auth or env_auth()
            self._driver = neo4j.GraphDatabase.driver(uri, auth=auth, **options)
        except (ValueError, TypeError, neo4j_errors.ConfigurationError) as exc:
            raise StoreError(f"cannot open Neo4j store {where}: {_reason(exc)}") from None
        try:
            self._driver.verify_connectivity()
            self._driver.execute_query("RETURN 1", database_=database)
            if apply_schema:
                self.apply_schema()
        except GraphmemError:
            self._driver.close()
            raise
        except Exception as exc:  # noqa: BLE001 - one clear error instead of driver internals
            self._driver.close()
            raise StoreError(_open_failure(where, exc, auth_given=bool(auth))) from None

    # -- plumbing ------------------------------------------------------------------------
    def _params(self, params: dict[str, Any]) -> dict[str, Any]:
        return {"pos_inf": POS_INF, "neg_inf": NEG_INF, **params}

    def _check_open(self) -> None:
        if self._closed:
            raise StoreError(f"{self.location}: the store is closed")

    def _session(self) -> Any:
        return self._driver.session(
            database=self._database,
            bookmark_manager=self._driver.execute_query_bookmark_manager,
        )

    @contextmanager
    def _errors(self, action: str) -> Iterator[None]:
        """Driver and server failures become one ``StoreError`` naming the store."""
        try:
            yield
        except GraphmemError:
            raise
        except Exception as exc:
            if neo4j_errors is None or not isinstance(
                exc, neo4j_errors.Neo4jError | neo4j_errors.DriverError
            ):
                raise
            raise _store_error(self.location, action, exc) from None

    def _read(self, query: str, **params: Any) -> list[Any]:
        self._check_open()
        with self._errors("read"):
            records, _, _ = self._driver.execute_query(
                query,
                self._params(params),
                database_=self._database,
                routing_=neo4j.RoutingControl.READ,
            )
        return records

    def _write(self, action: str, work: Any) -> Any:
        """Run ``work(tx)`` as a managed write transaction (retried on transient errors)."""
        self._check_open()
        with self._errors(action), self._session() as session:
            return session.execute_write(work)

    def _run(self, tx: Any, query: str, **params: Any) -> Any:
        return tx.run(query, self._params(params))

    def apply_schema(self) -> list[str]:
        """Create the constraints and indexes of ``schema/*.cypher`` that do not exist yet
        (idempotent, also against another process doing the same); returns those created."""
        created = []
        with self._errors("apply the schema"), self._session() as session:

            def existing() -> set[str]:
                return {r["name"] for show in SHOW_SCHEMA for r in session.run(show)}

            names = existing()
            for statement in schema_statements():
                name = _schema_name(statement)
                if name is not None and name in names:
                    continue
                try:
                    session.run(statement).consume()
                except neo4j_errors.Neo4jError:
                    if name is None or name not in existing():
                        raise
                    continue  # another process created it at the same moment
                created.append(name or statement)
            if created:
                session.run("CALL db.awaitIndexes(300)").consume()
            _backfill_search_text(session)
        return created

    # -- writes --------------------------------------------------------------------------
    def begin(self, families: Iterable[Family], scopes: Iterable[str]) -> _Session:
        self._check_open()
        return _Session(self, list(dict.fromkeys(families)), scopes)

    def _lock_clocks(self, tx: Any, scopes: Iterable[str]) -> dict[str, Clock]:
        """Take the write lock of each scope's clock (in sorted order) and read it."""
        result = self._run(tx, LOCK_CLOCKS, scopes=sorted(set(scopes)))
        return {r["scope"]: Clock(_native(r["requested"]), _native(r["assigned"])) for r in result}

    def _set_clocks(self, tx: Any, clocks: dict[str, Clock]) -> None:
        self._run(
            tx, SET_CLOCKS,
            clocks=[{"scope": s, "requested": _utc(c.requested), "assigned": _utc(c.assigned)}
                    for s, c in clocks.items()],
        ).consume()  # fmt: skip

    def _append_events(self, tx: Any, events: Sequence[Event]) -> None:
        groups: dict[str, list[dict[str, Any]]] = defaultdict(list)
        for event in events:
            groups[event.scope].append(_event_props(event))
        created = self._run(
            tx, APPEND_EVENTS, groups=[{"scope": s, "events": e} for s, e in groups.items()]
        ).single()["created"]
        if created != len(events):
            raise StoreError(f"{self.location}: an event's scope has no clock; nothing written")

    def _write_batch(self, tx: Any, batch: WriteBatch) -> None:
        """Everything a batch writes, in the order the rows need it (entities first)."""
        self._set_clocks(tx, batch.clocks)
        if batch.entities:
            entities = [
                {"label": _label(e.type), "props": _entity_props(e)} for e in batch.entities
            ]
            self._run(tx, MERGE_ENTITIES, entities=entities).consume()
        if batch.episodes:
            episodes = [
                {name: getattr(e, name) for name in EPISODE_FIELDS}
                | {"timestamp": _utc(e.timestamp), "search_text": episode_index_text(e)}
                for e in batch.episodes
            ]
            self._run(tx, MERGE_EPISODES, episodes=episodes).consume()
        if batch.expire:
            expire = [
                {"id": rid, "at": _utc(at), "by": by, "note": _ended_note(by)}
                for rid, at, by in batch.expire
            ]
            self._run(tx, EXPIRE_ROWS, expire=expire).consume()
        if batch.insert:
            rows = [
                {"type": _rel_type(r.predicate), "props": _fact_props(r),
                 "vector_key": text_owner(r.scope, r.text)}
                for r in batch.insert
            ]  # fmt: skip
            counts = self._run(tx, INSERT_ROWS, rows=rows).single()
            linked = sum(1 for r in batch.insert if r.object_id is not None)
            if (counts["created"], counts["linked"]) != (len(rows), linked):
                raise StoreError(
                    f"{self.location}: a row refers to an entity that is not stored; "
                    "nothing was written"
                )
        if batch.embeddings:
            owner_scope = {text_owner(r.scope, r.text): r.scope for r in batch.insert}
            owner_scope.update({e.id: e.scope for e in batch.episodes})
            default = next(iter(batch.clocks)) if len(batch.clocks) == 1 else None
            embeddings = [
                {"owner": owner, "vector": _vector(vector),
                 "scope": owner_scope.get(owner, default)}
                for owner, vector in batch.embeddings.items()
            ]  # fmt: skip
            self._run(tx, SET_EMBEDDINGS, embeddings=embeddings).consume()
        if batch.events:
            self._append_events(tx, batch.events)

    def _stamp(self, tx: Any, tombstone: Event) -> Event:
        """The tombstone's transaction time on the scope's clock, exactly as the embedded
        store gives it (erase never fails on the clock)."""
        clock = self._lock_clocks(tx, [tombstone.scope])[tombstone.scope]
        clock = clock.advance(max(tombstone.recorded_at, clock.requested))
        self._set_clocks(tx, {tombstone.scope: clock})
        return Event(tombstone.scope, clock.assigned, tombstone.op, None, None, None, "{}")

    def erase(self, erasure: Erasure, tombstone: Event) -> Erased:
        scope = erasure.scope

        def work(tx: Any) -> Erased:
            stamped = self._stamp(tx, tombstone)
            ids: set[str] = set()
            owners: set[str] = set()
            vector_keys: set[str] = set()

            def take(anchor: str, where: str, **params: Any) -> None:
                cypher = ERASE_ROWS.format(
                    anchor=ROW_ANCHORS[anchor], where=where, direct=DIRECT_RELATIONSHIP
                )
                found = self._run(tx, cypher, scope=scope, **params).single()
                ids.update(found["ids"])
                owners.update(found["fact_ids"])
                vector_keys.update(found["vector_keys"])

            for subject_id, predicate, object_id in erasure.keys:
                key = {"subject_id": subject_id, "predicate": predicate, "object_id": object_id}
                take("entity", _key_filter("f", predicate, object_id), entity_id=subject_id, **key)
                where = _key_filter("e", predicate, object_id)
                self._run(tx, ERASE_EVENTS.format(where=where), scope=scope, **key).consume()
            if erasure.row_ids:
                take("row_ids", "f.scope = $scope", row_ids=list(erasure.row_ids))
            if ids:
                self._run(tx, ERASE_WRITING_EVENTS, scope=scope, ids=sorted(ids)).consume()
            if erasure.rows or erasure.events:
                self._write_batch(
                    tx, WriteBatch(insert=list(erasure.rows), events=list(erasure.events))
                )
            turns = self._run(
                tx, ERASE_EPISODES, scope=scope, ids=list(erasure.episode_ids)
            ).single()["erased"]
            gone = self._run(tx, ERASE_ORPHANS, scope=scope, ids=list(erasure.orphans)).single()[
                "ids"
            ]
            owners.update([*ids, *erasure.episode_ids, *gone])
            self._run(tx, DELETE_EMBEDDINGS, owners=sorted(owners)).consume()
            self._run(tx, DELETE_UNUSED_TEXT_EMBEDDINGS, keys=sorted(vector_keys)).consume()
            self._append_events(tx, [stamped])
            return Erased(len(ids), turns, len(gone), len(erasure.rows))

        # The strings live on in Neo4j's transaction logs until they are pruned (README,
        # "Erase"): a client cannot reach them.
        return self._write("erase", work)

    def put_entity(self, entity: Entity) -> None:
        """Create or replace an entity's record (its type and aliases; the name and scope
        of an existing entity stay). A new type moves the node to the new type label."""

        def work(tx: Any) -> None:
            old = self._run(tx, READ_ENTITY, scope=entity.scope, id=entity.id).single()
            old_label = _label(old["item"]["type"]) if old is not None else None
            self._run(
                tx, PUT_ENTITY, props=_entity_props(entity), label=_label(entity.type),
                old_label=old_label,
            ).consume()  # fmt: skip

        self._write("store an entity", work)

    def drop_all(self) -> None:
        """Delete every node and relationship of the database (tests and development only;
        the schema stays)."""
        self._check_open()
        with self._errors("drop all data"), self._session() as session:
            for statement in DROP_ALL:
                session.run(statement).consume()

    # -- reads ---------------------------------------------------------------------------
    def clock(self, scope: str) -> Clock:
        found = self._read(READ_CLOCK, scope=scope)
        if not found:
            return Clock(NEG_INF, NEG_INF)
        return Clock(_native(found[0]["requested"]), _native(found[0]["assigned"]))

    def rows(self, query: RowQuery) -> list[Fact]:
        conditions, params = ["f.scope = $scope"], {"scope": query.scope}
        for name in ("subject_id", "predicate", "object_id"):
            if getattr(query, name) is not None:
                conditions.append(f"f.{name} = ${name}")
                params[name] = getattr(query, name)
        if query.entity_id is not None:
            conditions.append("(f.subject_id = $entity_id OR f.object_id = $entity_id)")
            params["entity_id"] = query.entity_id
        if query.row_ids is not None:
            conditions.append("f.id IN $row_ids")
            params["row_ids"] = list(query.row_ids)
        times, time_params = _time_filter(
            _row_times("f"),
            known_at=None if query.include_expired else query.known_at,
            as_of=query.as_of,
            valid_overlap=query.valid_overlap,
        )
        limit = ""
        if query.limit is not None:
            limit, params["limit"] = "\nLIMIT $limit", query.limit
        cypher = READ_ROWS.format(
            anchor=_row_anchor(query),
            where=" AND ".join(conditions + times),
            fact_map=FACT_MAP,
            limit=limit,
        )
        out = [_fact(r["row"]) for r in self._read(cypher, **params, **time_params)]
        out.sort(key=lambda r: (r.subject, r.predicate, r.valid_from, r.recorded_at))
        return out

    def changed_rows(
        self, scope: str, start: datetime, end: datetime, axis: ChangeAxis, known_at: datetime
    ) -> list[Fact]:
        if axis == "recorded":
            conditions = [f"({_in_window('f', 'recorded_at')} OR {_in_window('f', 'expired_at')})"]
            params: dict[str, Any] = {}
        else:
            conditions, params = _time_filter(_row_times("f"), known_at=known_at)
            conditions.append(f"({_in_window('f', 'valid_from')} OR {_in_window('f', 'valid_to')})")
        cypher = READ_ROWS.format(
            anchor=ROW_ANCHORS["scope"],
            where=" AND ".join(["f.scope = $scope", *conditions]),
            fact_map=FACT_MAP,
            limit="",
        )
        found = self._read(cypher, scope=scope, start=_utc(start), end=_utc(end), **params)
        hits = [_fact(r["row"]) for r in found]
        return sorted(hits, key=lambda r: (r.recorded_at, r.valid_from, r.id))

    def entity(self, scope: str, entity_id: str) -> Entity | None:
        found = self._read(READ_ENTITY, scope=scope, id=entity_id)
        return _entity(found[0]["item"]) if found else None

    def entities(self, scope: str) -> list[Entity]:
        found = self._read(READ_ENTITIES, scope=scope)
        return sorted((_entity(r["item"]) for r in found), key=lambda e: e.name)

    def entities_named(self, scope: str, names: Sequence[str]) -> list[Entity]:
        keys = sorted({normalise_name(n) for n in names} - {""})
        if not keys:
            return []
        ids = sorted({Entity.id_for(scope, n) for n in names})  # an entity's id: its name's key
        found = self._read(ENTITIES_NAMED, scope=scope, ids=ids, keys=keys)
        return [_entity(r["item"]) for r in found]

    def neighbours(self, scope: str, entity_ids: Sequence[str]) -> set[str]:
        """Entities one fact away (in any belief), for graph expansion."""
        return {r["id"] for r in self._read(NEIGHBOURS, scope=scope, ids=list(entity_ids))}

    def episodes(
        self, scope: str, ids: Sequence[str] | None = None, *, session: str | None = None
    ) -> list[Episode]:
        where = ["e.scope = $scope"]
        if ids is not None:
            where.append("e.id IN $ids")
        if session is not None:
            where.append("e.session = $session")
        cypher = _select("(e:Episode)", where, EPISODE_FIELDS, "e.timestamp, e.turn")
        found = self._read(cypher, scope=scope, ids=list(ids or ()), session=session)
        out = [_episode(r["item"]) for r in found]
        # As SQLite orders them: by time, then turn with the missing turns first.
        out.sort(key=lambda e: (e.timestamp, e.turn is not None, e.turn or 0))
        return out

    def existing_episode_ids(self, ids: Sequence[str]) -> set[str]:
        found: set[str] = set()
        for chunk in range(0, len(ids), 5000):
            part = list(ids[chunk : chunk + 5000])
            found.update(r["id"] for r in self._read(EXISTING_EPISODES, ids=part))
        return found

    def events(self, scope: str | None = None) -> Iterator[Event]:
        where = ["e.scope = $scope"] if scope is not None else []
        cypher = _select("(e:Event)", where, EVENT_FIELDS, "e.scope, e.seq")
        for r in self._read(cypher, scope=scope):
            yield _event(r["item"])

    def predicates(self) -> list[Predicate]:
        found = [r["item"] for r in self._read(READ_PREDICATES)]
        return [Predicate(**{k: item[k] for k in PREDICATE_FIELDS if k in item}) for item in found]

    def put_predicate(self, predicate: Predicate) -> None:
        props = {k: getattr(predicate, k) for k in PREDICATE_FIELDS}
        self._write(
            "declare a predicate", lambda tx: self._run(tx, PUT_PREDICATE, props=props).consume()
        )

    def scopes(self) -> list[str]:
        return sorted({r["scope"] for r in self._read(READ_SCOPES) if r["scope"] is not None})

    def embeddings(self, owner_ids: Sequence[str]) -> dict[str, list[float]]:
        out: dict[str, list[float]] = {}
        for chunk in range(0, len(owner_ids), 2000):
            part = list(owner_ids[chunk : chunk + 2000])
            out.update((r["id"], list(r["vector"])) for r in self._read(READ_EMBEDDINGS, ids=part))
        return out

    # -- retrieval -----------------------------------------------------------------------
    def search(
        self, target: SearchTarget, f: SearchFilter, *, vector: Any, text: str | None, k: int
    ) -> dict[str, list[tuple[str, float]]]:
        """Top-k ids by vector similarity and by keyword relevance (the Lucene full-text
        index), both among the entries ``f`` allows: filtered before ranking."""
        label, vector_index, text_index = _SEARCH_INDEXES[target]
        where, params = _search_filter("x", target, f)
        out: dict[str, list[tuple[str, float]]] = {"vector": [], "keyword": []}
        if k <= 0:
            return out
        if vector is not None:
            out["vector"] = self._vector_search(label, vector_index, where, params, vector, k)
        query = _lucene_query(text or "")
        if query:
            cypher = KEYWORD_SEARCH.format(where=where)
            found = self._read(cypher, index=text_index, text=query, k=k, **params)
            out["keyword"] = [(r["id"], r["score"]) for r in found]
        return out

    def _vector_search(
        self, label: str, index: str, where: str, params: dict[str, Any], vector: Any, k: int
    ) -> list[tuple[str, float]]:
        vector = _vector(vector)
        allowed = self._read(COUNT_VECTORS.format(label=label, where=where), **params)[0]["n"]
        if allowed == 0:
            return []
        if allowed <= EXACT_LIMIT:
            cypher = EXACT_VECTOR_SEARCH.format(label=label, where=where)
            found = self._read(cypher, vector=vector, k=k, **params)
            return [(r["id"], r["score"]) for r in found]
        # Many allowed: the approximate index, asked for more until k pass the filter.
        total = self._read(COUNT_VECTORS.format(label=label, where="true"))
        fetch = max(10 * k, 100)
        cypher = INDEX_VECTOR_SEARCH.format(where=where)
        while True:
            found = self._read(cypher, index=index, fetch=fetch, vector=vector, k=k, **params)
            if len(found) >= min(k, allowed) or fetch >= total[0]["n"]:
                return [(r["id"], r["score"]) for r in found]
            fetch *= 4

    def stats(self, scope: str | None = None) -> dict[str, int]:
        counts = {k: int(v) for k, v in dict(self._read(STATS, scope=scope)[0]).items()}
        if scope is not None:  # as the embedded store: vectors and size are the store's
            del counts["embeddings"]
            return counts
        return {**counts, "bytes": 0}

    def integrity_check(self) -> list[str]:
        """Problems found (empty when healthy): the row invariants the embedded store
        checks, plus the graph's shape (each row linked to its entities and mirrored by its
        direct relationship, DateTime times, scope on every node and relationship)."""
        from graphmem.store.embedded import _overlapping_beliefs

        problems = []
        families: dict[Family, list[Fact]] = defaultdict(list)
        for r in self._read(CHECK_ROWS):
            row = _fact(r["row"])
            families[(row.scope, row.subject_id, row.predicate)].append(row)
        for family, rows in families.items():
            problems += _overlapping_beliefs(family, sorted(rows, key=lambda r: r.valid_from))
        for r in self._read(CHECK_STRUCTURE, time_fields=list(TIME_FIELDS)):
            problems.append(
                f"row {r['id']}: {r['subjects']} subject links, {r['objects']} object links, "
                f"{r['direct']} direct relationships, or malformed times"
            )
        for r in self._read(CHECK_SCOPES):
            problems.append(f"{r['n']} {r['what']} without a scope")
        return problems

    def close(self) -> None:
        if not self._closed:
            self._closed = True
            self._driver.close()

    def __repr__(self) -> str:
        return f"Neo4jBackend({self.location!r})"


class _Session:
    """An open write: an explicit transaction holding the scopes' clock locks."""

    def __init__(self, backend: Neo4jBackend, families: list[Family], scopes: Iterable[str]):
        self._backend = backend
        self._open = False
        self._tx: Any = None
        scopes = sorted(set(scopes) | {family[0] for family in families})
        keys = [{"scope": s, "subject_id": sub, "predicate": p} for s, sub, p in families]
        delay = 0.05
        for attempt in range(_BEGIN_ATTEMPTS):
            self._neo_session = backend._session()
            try:
                with backend._errors("begin a write"):
                    self._tx = self._neo_session.begin_transaction()
                    self._open = True
                    self._clocks = backend._lock_clocks(self._tx, scopes)
                    self._rows: dict[Family, list[Fact]] = defaultdict(list)
                    for r in backend._run(self._tx, CURRENT_ROWS, families=keys):
                        row = _fact(r["row"])
                        self._rows[(row.scope, row.subject_id, row.predicate)].append(row)
                return
            except TransientStoreError:
                self.rollback()
                if attempt == _BEGIN_ATTEMPTS - 1:
                    raise
                time.sleep(delay)
                delay = min(delay * 2, 1.0)
            except BaseException:
                self.rollback()
                raise

    def clock(self, scope: str) -> Clock:
        return self._clocks.get(scope, Clock(NEG_INF, NEG_INF))

    def current_rows(self, family: Family) -> list[Fact]:
        return list(self._rows.get(family, ()))

    def commit(self, batch: WriteBatch) -> None:
        if not self._open:
            raise StoreError(f"{self._backend.location}: this write is already finished")
        try:
            with self._backend._errors("commit a write"):
                self._backend._write_batch(self._tx, batch)
                self._tx.commit()
        except BaseException:
            self.rollback()
            raise
        self._finish()

    def rollback(self) -> None:
        if self._tx is not None and self._open:
            with suppress(Exception):  # the connection may already be gone
                self._tx.rollback()
        self._finish()

    def _finish(self) -> None:
        self._open = False
        with suppress(Exception):
            self._neo_session.close()
