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
  The ``:Fact`` node carries the row's properties: id, fact_id, scope, subject,
  subject_id, predicate, object, object_id, text, valid_from, valid_to, recorded_at,
  expired_at, expired_by, provenance (JSON), confidence, and a ``caption`` such as
  ``lives in (2019-01-01 → now)`` (``✗ superseded`` once expired). The direct
  relationship carries what browsing reads: id, scope, the four times, expired_by and
  the caption (``cypher.DIRECT_FIELDS``; a full copy doubled what every insert wrote).

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
- Embeddings: an ``embedding`` property (LIST<FLOAT>, float32 values) on what it
  describes, where the 384-d cosine vector indexes see it: every ``:Fact`` row of that
  text (owner: the text's ``text_owner`` key, kept as ``f.vector_key``; rows inserted
  later with the same text get it too), the ``:Episode`` or ``:Entity`` with that id.
  Only a vector whose owner is no node (yet) is kept on an
  ``(:Embedding {owner_id, scope, embedding})`` node; it goes when a node takes it.

Every node and relationship carries ``scope``; every read filters scope and time mode in
Cypher ``WHERE``. Times are Neo4j ``DateTime`` in UTC; open ends are the sentinels
``0001-01-01T00:00:00Z`` and ``9999-12-31T23:59:59.999999Z``, never null, so the query
modes of ``graphmem.time.bitemporal`` are plain comparisons, written once
(``TemporalBounds.cypher``). Searches filter before ranking and read the tenant's own rows:
the full-text query carries the scope (``scope_key``, weight 0) so Lucene returns only
the tenant's best matches, and the time filter runs before ``LIMIT``; vector search
scores the scope's entries exactly (from the scope index) while that reads fewer rows
than the vector index would need, and otherwise asks the index for ``k`` over the
scope's share of it, re-scored exactly, and more until ``k`` pass (docs/scale.md).

Writes and locking
------------------
``begin(families, scopes)`` opens an explicit transaction, MERGEs the ``:Clock`` of every
scope it touches and writes a property on it (taking Neo4j's exclusive lock, so writers of
one scope queue there; scopes are locked in sorted order, so writers cannot deadlock on
them), then reads the clocks and the current rows of all families under that lock, all
in one statement (``cypher.BEGIN_WRITE``). ``commit(batch)`` writes the batch in the same
transaction with its UNWIND statements (``writes.batch_statements``) run as one
(``writes.combined``: one round trip) and commits, so a write costs three round trips
whatever its size. A transient failure (deadlock, leader switch, lost connection) during
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
EXISTS``), so opening is idempotent and cheap once applied; indexes of earlier versions
that graphmem no longer keeps (``schema.RETIRED``) are dropped. An existing index of the same
name is kept as it is (change a definition under a new name). Queries pin their
indexes in hints (USING INDEX), so ``apply_schema=False`` needs a database that has it.
"""

from graphmem.store.neo4j.backend import EXACT_LIMIT, Neo4jBackend
from graphmem.store.neo4j.connection import env_auth
from graphmem.store.neo4j.schema import schema_dir, schema_statements

__all__ = ["EXACT_LIMIT", "Neo4jBackend", "env_auth", "schema_dir", "schema_statements"]
