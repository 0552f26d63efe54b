// graphmem Neo4j schema, part 4: vector indexes (all-MiniLM-L6-v2: 384 dimensions, cosine).
// The `embedding` property (LIST<FLOAT>) sits on the node it describes; query with
// db.index.vector.queryNodes('fact_embedding', $k, $vector) (Neo4j 5.26 has no SEARCH clause).
// Vectors of another length are stored but not indexed.

CREATE VECTOR INDEX fact_embedding IF NOT EXISTS FOR (f:Fact) ON f.embedding
OPTIONS {indexConfig: {`vector.dimensions`: 384, `vector.similarity_function`: 'cosine'}};
CREATE VECTOR INDEX episode_embedding IF NOT EXISTS FOR (e:Episode) ON e.embedding
OPTIONS {indexConfig: {`vector.dimensions`: 384, `vector.similarity_function`: 'cosine'}};
CREATE VECTOR INDEX entity_embedding IF NOT EXISTS FOR (n:Entity) ON n.embedding
OPTIONS {indexConfig: {`vector.dimensions`: 384, `vector.similarity_function`: 'cosine'}};
CREATE VECTOR INDEX embedding_embedding IF NOT EXISTS FOR (e:Embedding) ON e.embedding
OPTIONS {indexConfig: {`vector.dimensions`: 384, `vector.similarity_function`: 'cosine'}};
