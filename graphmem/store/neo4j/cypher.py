"""Every Cypher statement the Neo4j backend runs, and the pieces they are built from.

The data model these statements write and read is described in ``graphmem.store.neo4j``;
time conditions come from ``TemporalBounds.cypher``, never written here by hand.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from graphmem.store.protocol import RowQuery, SearchTarget
from graphmem.time.bounds import TemporalBounds, well_formed_cypher

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


def projection(var: str, fields: Sequence[str]) -> str:
    return var + " {" + ", ".join(f".{name}" for name in fields) + "}"


FACT_MAP = projection("f", FACT_FIELDS)


def row_times(var: str) -> dict[str, str]:
    """A fact row's four time columns."""
    return {name: f"{var}.{name}" for name in TIME_FIELDS}


def episode_times(var: str) -> dict[str, str]:
    """An episode's times as the embedded search table sees them: an observation, known
    from when it was said, about that moment onwards."""
    ts = f"{var}.timestamp"
    return {"valid_from": ts, "valid_to": "$pos_inf", "recorded_at": ts, "expired_at": "$pos_inf"}


def search_filter(var: str, target: SearchTarget, query: RowQuery) -> tuple[str, dict[str, Any]]:
    """A search's scope and time bounds as a ``WHERE`` body on ``var``."""
    cols = row_times(var) if target == "facts" else episode_times(var)
    times, params = query.bounds.cypher(cols)
    return f"{var}.scope = $scope AND {times}", {"scope": query.scope, **params}


def key_filter(var: str, predicate: str | None, object_id: str | None) -> str:
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


def select(match: str, where: Sequence[str], fields: Sequence[str], order: str = "") -> str:
    """``MATCH ... WHERE ... RETURN <var> {fields} AS item``: the simple reads."""
    var = match[1 : match.index(":")]
    cypher = f"MATCH {match}"
    if where:
        cypher += " WHERE " + " AND ".join(where)
    cypher += f" RETURN {projection(var, fields)} AS item"
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

CURRENT_BELIEF = TemporalBounds().cypher(row_times("f"))
# The same condition with the sentinel as the ``$pos_inf`` every statement is given.
CURRENT = TemporalBounds().cypher_text(row_times("f"), {"tb_recorded": "$pos_inf"})
CURRENT_ROWS = f"""
UNWIND $families AS fam
MATCH (f:Fact {{scope: fam.scope, subject_id: fam.subject_id, predicate: fam.predicate}})
WHERE {CURRENT_BELIEF[0]}
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
WHERE f.id = x.id AND {CURRENT}
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


def row_anchor(q: RowQuery) -> str:
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

READ_ENTITY = select("(n:Entity {id: $id})", ["n.scope = $scope"], ENTITY_FIELDS)
READ_ENTITIES = select("(n:Entity)", ["n.scope = $scope"], ENTITY_FIELDS)

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
RETURN {projection("n", ENTITY_FIELDS)} AS item
"""

# Episodes stored before ``search_text`` existed: indexed by their text alone until given
# it, which applying the schema does once (``episode_index_text``, as every write does).
EPISODES_WITHOUT_SEARCH_TEXT = """
MATCH (e:Episode) WHERE e.search_text IS NULL
RETURN e.id AS id, e.speaker AS speaker, e.text AS text LIMIT 5000
"""
SET_SEARCH_TEXT = """
UNWIND $episodes AS x MATCH (e:Episode {id: x.id}) SET e.search_text = x.search_text
"""

DEGREES = """
UNWIND $ids AS id
RETURN id,
  COUNT { MATCH (f:Fact) USING INDEX f:Fact(subject_id) WHERE f.subject_id = id AND f.scope = $scope }
  + COUNT { MATCH (f:Fact) USING INDEX f:Fact(object_id) WHERE f.object_id = id AND f.scope = $scope }
  AS degree
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

STATS = f"""
RETURN COUNT {{ (f:Fact) WHERE $scope IS NULL OR f.scope = $scope }} AS rows,
       COUNT {{ (f:Fact) WHERE {CURRENT} AND ($scope IS NULL OR f.scope = $scope) }}
         AS current_rows,
       COUNT {{ (n:Entity) WHERE $scope IS NULL OR n.scope = $scope }} AS entities,
       COUNT {{ (e:Episode) WHERE $scope IS NULL OR e.scope = $scope }} AS episodes,
       COUNT {{ (e:Event) WHERE $scope IS NULL OR e.scope = $scope }} AS events,
       COUNT {{ (:Embedding) }} AS embeddings
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

SEARCH_INDEXES = {
    "facts": ("Fact", "fact_embedding", "fact_text"),
    "episodes": ("Episode", "episode_embedding", "episode_search"),
}

# A row's direct relationship mirrors it: the same id and the same (copied) expiry.
CHECK_STRUCTURE = f"""
MATCH (f:Fact)
WITH f,
     COUNT {{ (:Entity {{id: f.subject_id}})-[:SUBJECT]->(f) }} AS subjects,
     COUNT {{ (f)-[:OBJECT]->(:Entity {{id: f.object_id}}) }} AS objects,
     COUNT {{ (s:Entity)-[:SUBJECT]->(f)-[:OBJECT]->(o:Entity), (s)-[r]->(o)
             WHERE r.id = f.id AND r.expired_at = f.expired_at }} AS direct
WHERE subjects <> 1 OR objects <> direct
   OR objects <> CASE WHEN f.object_id IS NULL THEN 0 ELSE 1 END
   OR any(k IN $time_fields WHERE valueType(f[k]) <> 'ZONED DATETIME NOT NULL')
   OR NOT ({well_formed_cypher(row_times("f"))})
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
