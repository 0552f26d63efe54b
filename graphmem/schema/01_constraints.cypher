// graphmem Neo4j schema, part 1: uniqueness constraints (Neo4j 5.26, Community).
// Applied idempotently by graphmem.store.neo4j on open (statements split on ';',
// each one skipped when an index or constraint of that name exists).
// Every constraint is backed by a range index, so lookups by these keys are index seeks.

CREATE CONSTRAINT entity_id IF NOT EXISTS FOR (n:Entity) REQUIRE n.id IS UNIQUE;
CREATE CONSTRAINT fact_row_id IF NOT EXISTS FOR (f:Fact) REQUIRE f.id IS UNIQUE;
CREATE CONSTRAINT episode_id IF NOT EXISTS FOR (e:Episode) REQUIRE e.id IS UNIQUE;
// An erased turn keeps only its id (a re-load of the same log skips it).
CREATE CONSTRAINT erased_episode_id IF NOT EXISTS FOR (e:ErasedEpisode) REQUIRE e.id IS UNIQUE;
// Events are numbered per scope (the scope's :Clock hands out the numbers under its lock).
CREATE CONSTRAINT event_seq IF NOT EXISTS FOR (e:Event) REQUIRE (e.scope, e.seq) IS UNIQUE;
CREATE CONSTRAINT clock_scope IF NOT EXISTS FOR (c:Clock) REQUIRE c.scope IS UNIQUE;
// Embeddings whose owner is not a node (e.g. a logical fact id) live on their own node.
CREATE CONSTRAINT embedding_owner IF NOT EXISTS FOR (e:Embedding) REQUIRE e.owner_id IS UNIQUE;
// Declared predicates are scope-free: one node a name.
CREATE CONSTRAINT predicate_name IF NOT EXISTS FOR (p:Predicate) REQUIRE p.name IS UNIQUE;
