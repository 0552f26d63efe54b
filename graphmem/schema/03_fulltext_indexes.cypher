// graphmem Neo4j schema, part 3: full-text (Lucene) indexes for keyword search.
// The English analyzer drops stop words and stems ("moved" finds "move").
// Query with db.index.fulltext.queryNodes('fact_text', $q) and filter scope and time in
// WHERE before LIMIT (Neo4jBackend.search uses the scoped indexes at the end of this file).

CREATE FULLTEXT INDEX fact_text IF NOT EXISTS FOR (f:Fact) ON EACH [f.text]
OPTIONS {indexConfig: {`fulltext.analyzer`: 'english'}};
CREATE FULLTEXT INDEX episode_text IF NOT EXISTS FOR (e:Episode) ON EACH [e.text]
OPTIONS {indexConfig: {`fulltext.analyzer`: 'english'}};
CREATE FULLTEXT INDEX entity_text IF NOT EXISTS FOR (n:Entity) ON EACH [n.name]
OPTIONS {indexConfig: {`fulltext.analyzer`: 'english'}};
// What episodes are searched by: their words with who said them (``search_text``, from
// graphmem.store.index_text, as the embedded store's keyword index and every
// embedding), so "When did Priya start pottery?" finds Priya's "I signed up for pottery".
CREATE FULLTEXT INDEX episode_search IF NOT EXISTS FOR (e:Episode) ON EACH [e.search_text]
OPTIONS {indexConfig: {`fulltext.analyzer`: 'english'}};
// What search reads: the same words beside the node's ``scope_key`` (a token made from its
// scope, ``codecs.scope_key``), so a query ``(words) AND scope_key:<key>^0`` reads only its
// own tenant's matches, Lucene intersecting the two, with the words' scores unchanged.
// (fact_text and episode_search stay for Cypher written by hand.)
CREATE FULLTEXT INDEX fact_text_scoped IF NOT EXISTS FOR (f:Fact) ON EACH [f.text, f.scope_key]
OPTIONS {indexConfig: {`fulltext.analyzer`: 'english'}};
CREATE FULLTEXT INDEX episode_search_scoped IF NOT EXISTS
FOR (e:Episode) ON EACH [e.search_text, e.scope_key]
OPTIONS {indexConfig: {`fulltext.analyzer`: 'english'}};
