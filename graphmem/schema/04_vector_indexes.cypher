// graphmem Neo4j schema, part 4: vector indexes (all-MiniLM-L6-v2: 384 dimensions, cosine).
// Each vector is kept as `embedding` (LIST<FLOAT>) on the nodes it describes, which these
// indexes cover (an (:Embedding {owner_id}) node holds one only while no node owns it). Query with
// db.index.vector.queryNodes('fact_embedding', $k, $vector) (Neo4j 5.26 has no SEARCH
// clause); it returns (1 + cosine) / 2. Vectors of another length are stored, not indexed.

CREATE VECTOR INDEX fact_embedding IF NOT EXISTS FOR (f:Fact) ON f.embedding
OPTIONS {indexConfig: {`vector.dimensions`: 384, `vector.similarity_function`: 'cosine'}};
CREATE VECTOR INDEX episode_embedding IF NOT EXISTS FOR (e:Episode) ON e.embedding
OPTIONS {indexConfig: {`vector.dimensions`: 384, `vector.similarity_function`: 'cosine'}};
CREATE VECTOR INDEX entity_embedding IF NOT EXISTS FOR (n:Entity) ON n.embedding
OPTIONS {indexConfig: {`vector.dimensions`: 384, `vector.similarity_function`: 'cosine'}};
