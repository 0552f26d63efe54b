// graphmem Neo4j schema, part 3: full-text (Lucene) indexes for keyword search.
// The English analyzer drops stop words and stems ("moved" finds "move").

CREATE FULLTEXT INDEX entity_text IF NOT EXISTS FOR (n:Entity) ON EACH [n.name]
OPTIONS {indexConfig: {`fulltext.analyzer`: 'english'}};
// What search reads: a fact's text, or what an episode is searched by (its words with who
// said them, ``search_text`` from graphmem.store.index_text, as the embedded store's
// keyword index and every embedding, so "When did Priya start pottery?" finds Priya's "I
// signed up for pottery"), beside the node's ``scope_key`` (a token made from its scope,
// ``codecs.scope_key``). A query ``(words) AND scope_key:<key>^0`` reads only its own
// tenant's matches, Lucene intersecting the two, with the words' scores unchanged; in
// Cypher written by hand, db.index.fulltext.queryNodes('fact_text_scoped', 'text:(paris)')
// searches every tenant. Filter scope and time in WHERE before LIMIT.
// (The unscoped fact_text, episode_text and episode_search of earlier versions indexed
// the same words a second time, a quarter of a write's server time: schema.RETIRED.)
CREATE FULLTEXT INDEX fact_text_scoped IF NOT EXISTS FOR (f:Fact) ON EACH [f.text, f.scope_key]
OPTIONS {indexConfig: {`fulltext.analyzer`: 'english'}};
CREATE FULLTEXT INDEX episode_search_scoped IF NOT EXISTS
FOR (e:Episode) ON EACH [e.search_text, e.scope_key]
OPTIONS {indexConfig: {`fulltext.analyzer`: 'english'}};
