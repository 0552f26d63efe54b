// graphmem Neo4j schema, part 2: range indexes on scope, keys and the four time properties.
// Fact rows are :Fact nodes (see graphmem/store/neo4j/__init__.py for why), so one label carries
// every index whatever the predicate. Times are Neo4j DateTime in UTC; open ends are the
// sentinels 0001-01-01T00:00:00Z and 9999-12-31T23:59:59.999999Z, never null.

// The family a write reads under lock: (scope, subject, predicate).
CREATE INDEX fact_family IF NOT EXISTS FOR (f:Fact) ON (f.scope, f.subject_id, f.predicate);
CREATE INDEX fact_scope IF NOT EXISTS FOR (f:Fact) ON (f.scope);
CREATE INDEX fact_subject IF NOT EXISTS FOR (f:Fact) ON (f.subject_id);
CREATE INDEX fact_object IF NOT EXISTS FOR (f:Fact) ON (f.object_id);
// The key of the fact text's embedding (rows of one text share one vector).
CREATE INDEX fact_vector_key IF NOT EXISTS FOR (f:Fact) ON (f.vector_key);
CREATE INDEX fact_valid_from IF NOT EXISTS FOR (f:Fact) ON (f.valid_from);
CREATE INDEX fact_valid_to IF NOT EXISTS FOR (f:Fact) ON (f.valid_to);
CREATE INDEX fact_recorded_at IF NOT EXISTS FOR (f:Fact) ON (f.recorded_at);
CREATE INDEX fact_expired_at IF NOT EXISTS FOR (f:Fact) ON (f.expired_at);
CREATE INDEX entity_scope IF NOT EXISTS FOR (n:Entity) ON (n.scope);
CREATE INDEX entity_name IF NOT EXISTS FOR (n:Entity) ON (n.name);
// Normalised aliases, only on entities that have some.
CREATE INDEX entity_alias_keys IF NOT EXISTS FOR (n:Entity) ON (n.alias_keys);
CREATE INDEX episode_scope IF NOT EXISTS FOR (e:Episode) ON (e.scope, e.session);
CREATE INDEX episode_timestamp IF NOT EXISTS FOR (e:Episode) ON (e.timestamp);
CREATE INDEX event_subject IF NOT EXISTS FOR (e:Event) ON (e.scope, e.subject_id);
CREATE INDEX event_object IF NOT EXISTS FOR (e:Event) ON (e.scope, e.object_id);
// Search starts from a scope's own episodes (a small tenant's are scored exactly).
CREATE INDEX episode_of_scope IF NOT EXISTS FOR (e:Episode) ON (e.scope);
