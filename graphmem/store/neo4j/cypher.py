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
# What a row's direct relationship carries: what browsing reads (the scope, the four
# times, the caption) and the row id that ties it to its :Fact node. The rest of the row
# is on the :Fact node only: a full copy doubled the properties every insert wrote.
DIRECT_FIELDS = ("id", "scope", *TIME_FIELDS, "expired_by", "caption")
# Labels graphmem gives its own nodes; an entity type may not borrow one.
RESERVED_LABELS = frozenset(
    {"Entity", "Fact", "Episode", "ErasedEpisode", "Event", "Clock", "Embedding", "Predicate"}
)
RESERVED_TYPES = frozenset({"SUBJECT", "OBJECT"})


def projection(var: str, fields: Sequence[str], times: Sequence[str] = ()) -> str:
    """``var {.a, .b, t: <t as microseconds>}``: the fields, with the ``times`` among them
    as integers (``micros``)."""
    parts = [f"{name}: {micros(f'{var}.{name}')}" if name in times else f".{name}"
             for name in fields]  # fmt: skip
    return var + " {" + ", ".join(parts) + "}"


def micros(expr: str) -> str:
    """A stored DateTime ``expr`` as microseconds since 1970, as reads return it
    (``codecs.native`` reads it back): the driver hydrates a DateTime through pure-Python
    temporal types, ~150 µs each, most of the time of a read of a few thousand rows.

    >>> micros("f.valid_from")
    'f.valid_from.epochSeconds * 1000000 + f.valid_from.microsecond'
    """
    return f"{expr}.epochSeconds * 1000000 + {expr}.microsecond"


FACT_MAP = projection("f", FACT_FIELDS, TIME_FIELDS)


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
SET k.requested = datetime(c.requested), k.assigned = datetime(c.assigned)
"""

CURRENT_BELIEF = TemporalBounds().cypher(row_times("f"))
# The same condition with the sentinel as the ``$pos_inf`` every statement is given.
CURRENT = TemporalBounds().cypher_text(row_times("f"), {"tb_recorded": "$pos_inf"})
CURRENT_ROWS = f"""
UNWIND $families AS fam
MATCH (f:Fact) USING INDEX SEEK f:Fact(scope, subject_id, predicate)
WHERE f.scope = fam.scope AND f.subject_id = fam.subject_id AND f.predicate = fam.predicate
  AND {CURRENT_BELIEF[0]}
RETURN {FACT_MAP} AS row
"""

# A write's start in one round trip: every clock locked (all of them first: the
# aggregation waits for the last), then the families' current rows read under the locks.
BEGIN_WRITE = f"""
CALL () {{ {LOCK_CLOCKS.strip()} }}
WITH collect({{scope: scope, requested: requested, assigned: assigned}}) AS clocks
OPTIONAL CALL () {{ {CURRENT_ROWS.strip()} }}
RETURN clocks, collect(row) AS rows
"""

MERGE_ENTITIES = """
UNWIND $entities AS e
MERGE (n:Entity {id: e.props.id})
  ON CREATE SET n += e.props, n:$(e.label)
"""

MERGE_EPISODES = """
UNWIND $episodes AS e
MERGE (n:Episode {id: e.id})
  ON CREATE SET n += e {.*, timestamp: datetime(e.timestamp)}
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
# Both ends by their ids (hinted), then the relationship between them, so the plan cannot
# depend on the statistics of the moment: with s and o bound the planner expands from
# whichever has fewer relationships (Expand(Into)). Unhinted, a plan made on a young
# database walked every relationship of the object (a city everyone lives in: 2,000-6,000
# db hits a row, 60% of a batch).
DIRECT_RELATIONSHIP = (
    "OPTIONAL MATCH (s:Entity)-[r]->(o:Entity) USING INDEX SEEK s:Entity(id) USING INDEX SEEK o:Entity(id)"
    " WHERE s.id = f.subject_id AND o.id = f.object_id AND r.id = f.id"
)

EXPIRE_ROWS = f"""
UNWIND $expire AS x
MATCH (f:Fact) USING INDEX SEEK f:Fact(id)
WHERE f.id = x.id AND {CURRENT}
WITH f, x, datetime(x.at) AS at, f.caption + x.note AS caption
SET f.expired_at = at, f.expired_by = x.by, f.caption = caption
WITH f, x, at, caption
{DIRECT_RELATIONSHIP}
SET r.expired_at = at, r.expired_by = x.by, r.caption = caption
"""

# Every read first (entities, the text's vector), then only writes: the planner needs no
# Eager barrier between them. Times arrive as text (``codecs.wire``). A row whose text's
# vector the batch gives (``row.given``) gets it from ``SET_EMBEDDINGS`` (sent once);
# another takes the one a row of its text holds, else one stored before any row of the
# text (``:Embedding``).
INSERT_ROWS = f"""
UNWIND $rows AS row
MATCH (s:Entity {{id: row.props.subject_id}})
OPTIONAL MATCH (o:Entity {{id: row.props.object_id}})
CALL (row) {{
  WITH row WHERE NOT coalesce(row.given, false)
  OPTIONAL MATCH (k:Fact) USING INDEX SEEK k:Fact(vector_key)
  WHERE k.vector_key = row.vector_key AND k.embedding IS NOT NULL
  WITH row, k LIMIT 1
  OPTIONAL MATCH (x:Embedding {{owner_id: row.vector_key}})
  RETURN coalesce(k.embedding, x.embedding) AS known
  UNION ALL
  WITH row WHERE row.given
  RETURN null AS known
}}
WITH row, s, o, known, row.props AS p
WITH row, s, o, known, p {{.*, valid_from: datetime(p.valid_from),
  valid_to: datetime(p.valid_to), recorded_at: datetime(p.recorded_at),
  expired_at: datetime(p.expired_at)}} AS props
CREATE (s)-[:SUBJECT {{scope: props.scope}}]->(f:Fact)
SET f = props {{.*, vector_key: row.vector_key, embedding: known, scope_key: row.scope_key}}
FOREACH (_ IN CASE WHEN o IS NULL THEN [] ELSE [1] END |
  CREATE (f)-[:OBJECT {{scope: props.scope}}]->(o)
  CREATE (s)-[r:$(row.type)]->(o)
  SET r = props {{{", ".join("." + name for name in DIRECT_FIELDS)}}})
RETURN count(*) AS created, count(o) AS linked
"""

APPEND_EVENTS = """
UNWIND $groups AS g
MATCH (c:Clock {scope: g.scope})
SET c.event_seq = coalesce(c.event_seq, 0) + size(g.events)
WITH g, c.event_seq - size(g.events) AS base
UNWIND range(0, size(g.events) - 1) AS i
WITH g.events[i] AS x, base + i + 1 AS seq
CREATE (e:Event)
SET e = x {.*, recorded_at: datetime(x.recorded_at)}, e.seq = seq
RETURN count(e) AS events
"""

# A vector is kept where the vector indexes see it: on the episode or entity of that id,
# on every :Fact row of that text (``vector_key``; an unchanged copy is not written
# again: each write is an HNSW update). Only a
# vector whose owner is no node yet waits on an ``(:Embedding {owner_id})`` node, which
# rows of that text inserted later read (``INSERT_ROWS``) and which goes once a node
# holds the vector.
SET_EMBEDDINGS = """
UNWIND $embeddings AS x
OPTIONAL MATCH (ep:Episode {id: x.owner})
OPTIONAL MATCH (n:Entity {id: x.owner})
SET ep.embedding = x.vector, n.embedding = x.vector
WITH x, ep IS NOT NULL OR n IS NOT NULL AS node
CALL (x) {
  OPTIONAL MATCH (f:Fact) USING INDEX SEEK f:Fact(vector_key) WHERE f.vector_key = x.owner
  FOREACH (_ IN CASE WHEN f.embedding = x.vector THEN [] ELSE [1] END |
    SET f.embedding = x.vector)
  RETURN count(f) > 0 AS rows
}
OPTIONAL MATCH (e:Embedding {owner_id: x.owner})
FOREACH (_ IN CASE WHEN node OR rows THEN [1] ELSE [] END | DETACH DELETE e)
FOREACH (_ IN CASE WHEN node OR rows THEN [] ELSE [1] END |
  MERGE (w:Embedding {owner_id: x.owner})
  SET w.embedding = x.vector, w.scope = coalesce(x.scope, w.scope))
"""

DELETE_EMBEDDINGS = """
UNWIND $owners AS owner
MATCH (e:Embedding {owner_id: owner})
DETACH DELETE e
"""

# An erased turn's passages (owner ids "<turn>#p<n>", graphmem.store.passage_index).
DELETE_PASSAGE_EMBEDDINGS = """
UNWIND $turns AS turn
MATCH (e:Embedding) WHERE e.owner_id STARTS WITH turn + $mark
DETACH DELETE e
"""

# A text's vector goes with the last row of that text (erase leaves nothing of the text).
DELETE_UNUSED_TEXT_EMBEDDINGS = """
UNWIND $keys AS key
MATCH (e:Embedding {owner_id: key})
WHERE NOT EXISTS { MATCH (:Fact {vector_key: key}) }
DETACH DELETE e
"""

# Also returns the erased rows' vectors by text: rows put back in their place (an erased
# turn's families, re-planned) keep their text's vector, which lives on the rows.
ERASE_ROWS = """
{anchor}
WITH f WHERE {where}
{direct}
DELETE r
WITH f, f.id AS id, f.fact_id AS fact_id, f.vector_key AS vector_key, f.embedding AS vector
DETACH DELETE f
RETURN collect(id) AS ids, collect(DISTINCT fact_id) AS fact_ids,
       collect(DISTINCT vector_key) AS vector_keys,
       collect(DISTINCT CASE WHEN vector IS NOT NULL THEN [vector_key, vector] END) AS vectors
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
    "row_ids": "MATCH (f:Fact) USING INDEX SEEK f:Fact(id) WHERE f.id IN $row_ids",
    "family": "MATCH (f:Fact) USING INDEX SEEK f:Fact(scope, subject_id, predicate) "
    "WHERE f.scope = $scope AND f.subject_id = $subject_id AND f.predicate = $predicate",
    "subject": "MATCH (f:Fact) USING INDEX SEEK f:Fact(subject_id) WHERE f.subject_id = $subject_id",
    "entity": "CALL () { "
    "MATCH (f:Fact) USING INDEX SEEK f:Fact(subject_id) WHERE f.subject_id = $entity_id RETURN f "
    "UNION MATCH (f:Fact) USING INDEX SEEK f:Fact(object_id) WHERE f.object_id = $entity_id RETURN f }",
    "object": "MATCH (f:Fact) USING INDEX SEEK f:Fact(object_id) WHERE f.object_id = $object_id",
    "scope": "MATCH (f:Fact) USING INDEX SEEK f:Fact(scope) WHERE f.scope = $scope",
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
  COUNT { MATCH (f:Fact) USING INDEX SEEK f:Fact(subject_id) WHERE f.subject_id = id AND f.scope = $scope }
  + COUNT { MATCH (f:Fact) USING INDEX SEEK f:Fact(object_id) WHERE f.object_id = id AND f.scope = $scope }
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

# Where ``SET_EMBEDDINGS`` keeps an owner's vector (one row of a text: they share it).
READ_EMBEDDINGS = """
UNWIND $ids AS id
OPTIONAL MATCH (ep:Episode {id: id})
OPTIONAL MATCH (n:Entity {id: id})
OPTIONAL MATCH (e:Embedding {owner_id: id})
WITH id, coalesce(ep.embedding, n.embedding, e.embedding,
  COLLECT { MATCH (f:Fact) USING INDEX SEEK f:Fact(vector_key)
            WHERE f.vector_key = id AND f.embedding IS NOT NULL
            RETURN f.embedding LIMIT 1 }[0]) AS vector
WHERE vector IS NOT NULL
RETURN id, vector
"""

STATS = f"""
RETURN COUNT {{ (f:Fact) WHERE $scope IS NULL OR f.scope = $scope }} AS rows,
       COUNT {{ (f:Fact) WHERE {CURRENT} AND ($scope IS NULL OR f.scope = $scope) }}
         AS current_rows,
       COUNT {{ (n:Entity) WHERE $scope IS NULL OR n.scope = $scope }} AS entities,
       COUNT {{ (e:Episode) WHERE $scope IS NULL OR e.scope = $scope }} AS episodes,
       COUNT {{ (e:Event) WHERE $scope IS NULL OR e.scope = $scope }} AS events,
       COUNT {{ (:Embedding) }} + COUNT {{ (e:Episode) WHERE e.embedding IS NOT NULL }}
         + COUNT {{ (n:Entity) WHERE n.embedding IS NOT NULL }}
         + size(COLLECT {{ MATCH (f:Fact) WHERE f.embedding IS NOT NULL
                          RETURN DISTINCT f.vector_key }}) AS embeddings
"""

# Searches: ``{label}`` is Fact or Episode, ``{where}`` the search filter on ``x``.
# Neo4j reports cosine as (1 + cos) / 2; graphmem (like the embedded store) uses cos.
# Every statement starts from the scope (an index seek on ``scope``, pinned by a hint)
# or from the search index, never from a time index whose entries are every tenant's.
SCOPE_SIZE = (
    "MATCH (x:{label}) USING INDEX SEEK x:{label}(scope) WHERE x.scope = $scope "
    "RETURN count(x) AS n"
)

LABEL_SIZE = "MATCH (x:{label}) RETURN count(x) AS n"

# A small scope: every allowed entry of the scope scored exactly (cost: the scope's rows).
EXACT_VECTOR_SEARCH = """
MATCH (x:{label}) USING INDEX SEEK x:{label}(scope)
WHERE {where} AND size(x.embedding) = size($vector)
WITH x, vector.similarity.cosine(x.embedding, $vector) AS similarity
ORDER BY similarity DESC, x.id
LIMIT $k
RETURN x.id AS id, 2 * similarity - 1 AS score
"""

# A large scope: the approximate index over every scope, asked for enough candidates that
# ``k`` of this scope's pass the filter (``fetch`` grows with the other tenants' share),
# the survivors re-scored exactly (the index ranks by quantised vectors: near ties come
# out of order; measured recall@10 0.945 -> 0.988 at 100 candidates).
INDEX_VECTOR_SEARCH = """
CALL db.index.vector.queryNodes($index, $fetch, $vector) YIELD node AS x
WITH x WHERE {where}
WITH x, vector.similarity.cosine(x.embedding, $vector) AS similarity
ORDER BY similarity DESC, x.id
LIMIT $k
RETURN x.id AS id, 2 * similarity - 1 AS score
"""

# Nodes written before ``scope_key`` existed get it once, when the scoped full-text
# indexes are created (every write sets it since).
SCOPES_WITHOUT_KEY = "MATCH (x:{label}) WHERE x.scope_key IS NULL RETURN DISTINCT x.scope AS scope"
SET_SCOPE_KEY = """
MATCH (x:{label}) USING INDEX SEEK x:{label}(scope) WHERE x.scope = $scope AND x.scope_key IS NULL
CALL (x) {{ SET x.scope_key = $key }} IN TRANSACTIONS OF 10000 ROWS
"""

# ``$text`` holds the words and the scope as a Lucene clause of weight 0
# (``codecs.scoped_lucene``): Lucene intersects the scope's postings with the words', so
# the statement reads only this scope's matches, and the scores are the words' alone.
# Lucene returns its best ``$fetch`` (``limit``): a large tenant's common word ("lives")
# matches most of its rows, all of which the time filter would otherwise read.
KEYWORD_SEARCH = """
CALL db.index.fulltext.queryNodes($index, $text, {{limit: $fetch}}) YIELD node AS x, score
WITH x, score WHERE {where}
RETURN x.id AS id, score
ORDER BY score DESC, id
LIMIT $k
"""

LUCENE_HITS = """
CALL db.index.fulltext.queryNodes($index, $text, {limit: $fetch}) YIELD node RETURN count(*) AS n
"""

SEARCH_INDEXES = {
    "facts": ("Fact", "fact_embedding", "fact_text_scoped"),
    "episodes": ("Episode", "episode_embedding", "episode_search_scoped"),
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
