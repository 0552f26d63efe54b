// graphmem Neo4j schema, part 3: full-text (Lucene) indexes for keyword search.
// Query with db.index.fulltext.queryNodes('fact_text', $q) and filter scope and time in WHERE.

CREATE FULLTEXT INDEX fact_text IF NOT EXISTS FOR (f:Fact) ON EACH [f.text];
CREATE FULLTEXT INDEX episode_text IF NOT EXISTS FOR (e:Episode) ON EACH [e.text];
CREATE FULLTEXT INDEX entity_text IF NOT EXISTS FOR (n:Entity) ON EACH [n.name];
