"""``Neo4jBackend``: the store protocol over a Neo4j database (see the package for the
data model, locking and schema).

Over 500 lines because it is one class with one method per protocol verb, each a few
lines around a statement of ``cypher.py``; the Cypher text, the value codecs, the schema
files and the connection errors live in their own modules.
"""

from __future__ import annotations

import math
import time
from collections import defaultdict
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager, suppress
from typing import Any

from graphmem.errors import GraphmemError, StoreError, TransientStoreError
from graphmem.model import Entity, Episode, Fact, normalise_name, text_owner
from graphmem.predicates import Predicate
from graphmem.store.index_text import index_text
from graphmem.store.integrity import overlapping_beliefs
from graphmem.store.neo4j.codecs import (
    entity_from,
    entity_label,
    entity_props,
    episode_from,
    event_from,
    fact_from,
    float32_list,
    lucene_query,
    native,
    scope_key,
    scoped_lucene,
)
from graphmem.store.neo4j.connection import (
    env_auth,
    failure_reason,
    open_failure,
    split_userinfo,
    store_error,
)
from graphmem.store.neo4j.cypher import (
    BEGIN_WRITE,
    CHECK_ROWS,
    CHECK_SCOPES,
    CHECK_STRUCTURE,
    CURRENT_BELIEF,
    DEGREES,
    DELETE_EMBEDDINGS,
    DELETE_PASSAGE_EMBEDDINGS,
    DELETE_UNUSED_TEXT_EMBEDDINGS,
    DIRECT_RELATIONSHIP,
    DROP_ALL,
    ENTITIES_NAMED,
    EPISODE_FIELDS,
    EPISODES_WITHOUT_SEARCH_TEXT,
    ERASE_EPISODES,
    ERASE_EVENTS,
    ERASE_ORPHANS,
    ERASE_ROWS,
    ERASE_WRITING_EVENTS,
    EVENT_FIELDS,
    EXACT_VECTOR_SEARCH,
    EXISTING_EPISODES,
    FACT_MAP,
    INDEX_VECTOR_SEARCH,
    KEYWORD_SEARCH,
    LABEL_SIZE,
    LOCK_CLOCKS,
    LUCENE_HITS,
    NEIGHBOURS,
    PREDICATE_FIELDS,
    PUT_ENTITY,
    READ_CLOCK,
    READ_EMBEDDINGS,
    READ_ENTITIES,
    READ_ENTITY,
    READ_PREDICATES,
    READ_ROWS,
    READ_SCOPES,
    ROW_ANCHORS,
    SCOPE_SIZE,
    SCOPES_WITHOUT_KEY,
    SEARCH_INDEXES,
    SET_SCOPE_KEY,
    SET_SEARCH_TEXT,
    STATS,
    TIME_FIELDS,
    key_filter,
    row_anchor,
    row_times,
    search_filter,
    select,
)
from graphmem.store.neo4j.schema import RETIRED, SHOW_SCHEMA, schema_name, schema_statements
from graphmem.store.neo4j.writes import (
    Statement,
    batch_statements,
    clock_statement,
    combined,
    event_statement,
    predicate_statement,
)
from graphmem.store.passage_index import PASSAGE_MARK
from graphmem.store.protocol import (
    Erased,
    Erasure,
    Event,
    Family,
    RowQuery,
    SearchTarget,
    WriteBatch,
)  # fmt: skip
from graphmem.time.bitemporal import Clock
from graphmem.time.bounds import Changes
from graphmem.time.instant import NEG_INF, POS_INF

try:
    import neo4j
    from neo4j import exceptions as neo4j_errors
except ImportError:  # pragma: no cover - a dependency, but the embedded backend runs without it
    neo4j = None  # type: ignore[assignment]
    neo4j_errors = None  # type: ignore[assignment]


# Vector search scores a scope's entries exactly while that reads fewer rows than the
# vector index would be asked for, and never more than EXACT_LIMIT (docs/scale.md has the
# measurements behind the rule); past that, the approximate index.
EXACT_LIMIT = 20_000
INDEX_FETCH_MIN = 100  # candidates asked of the vector index at least
INDEX_OVERFETCH = 4  # ... and this many times k over the scope's share of the index
KEYWORD_FETCH = 200  # a scope's best Lucene matches read at first (4x more while short)

_BEGIN_ATTEMPTS = 8


class Neo4jBackend:
    """graphmem's store in Neo4j 5.26+ (Community or Enterprise), over the official driver.

    The driver is thread-safe and so is this backend: every call uses its own session.
    """

    def __init__(
        self,
        uri: str,
        *,
        auth: Any = None,
        database: str | None = None,
        apply_schema: bool = True,
        **driver_options: Any,
    ):
        uri, uri_auth = split_userinfo(uri)
        self.location = uri
        self._database = database
        self._closed = False
        where = uri + (f" (database {database!r})" if database else "")
        if neo4j is None:
            raise StoreError(
                f"cannot open {where}: the Neo4j driver is not installed "
                "(pip install neo4j, or pip install -e .)"
            )
        options: dict[str, Any] = {
            "connection_timeout": 10.0,
            "max_transaction_retry_time": 30.0,
            "notifications_min_severity": "OFF",  # e.g. "unknown property" on an empty store
        }
        options.update(driver_options)
        try:
            auth = auth or uri_auth or env_auth()
            self._driver = neo4j.GraphDatabase.driver(uri, auth=auth, **options)
        except (ValueError, TypeError, neo4j_errors.ConfigurationError) as exc:
            raise StoreError(f"cannot open Neo4j store {where}: {failure_reason(exc)}") from None
        try:
            self._driver.verify_connectivity()
            self._driver.execute_query("RETURN 1", database_=database)
            if apply_schema:
                self.apply_schema()
        except GraphmemError:
            self._driver.close()
            raise
        except Exception as exc:  # noqa: BLE001 - one clear error instead of driver internals
            self._driver.close()
            raise StoreError(open_failure(where, exc, auth_given=bool(auth))) from None

    # -- plumbing ------------------------------------------------------------------------
    def _params(self, params: dict[str, Any]) -> dict[str, Any]:
        return {"pos_inf": POS_INF, "neg_inf": NEG_INF, **params}

    def _check_open(self) -> None:
        if self._closed:
            raise StoreError(f"{self.location}: the store is closed")

    def _session(self) -> Any:
        return self._driver.session(
            database=self._database,
            bookmark_manager=self._driver.execute_query_bookmark_manager,
        )

    @contextmanager
    def _errors(self, action: str) -> Iterator[None]:
        """Driver and server failures become one ``StoreError`` naming the store."""
        try:
            yield
        except GraphmemError:
            raise
        except Exception as exc:
            if neo4j_errors is None or not isinstance(
                exc, neo4j_errors.Neo4jError | neo4j_errors.DriverError
            ):
                raise
            raise store_error(self.location, action, exc) from None

    def _read(self, query: str, **params: Any) -> list[Any]:
        self._check_open()
        with self._errors("read"):
            records, _, _ = self._driver.execute_query(
                query,
                self._params(params),
                database_=self._database,
                routing_=neo4j.RoutingControl.READ,
            )
        return records

    def _write(self, action: str, work: Any) -> Any:
        """Run ``work(tx)`` as a managed write transaction (retried on transient errors)."""
        self._check_open()
        with self._errors(action), self._session() as session:
            return session.execute_write(work)

    def _run(self, tx: Any, query: str, **params: Any) -> Any:
        return tx.run(query, self._params(params))

    def apply_schema(self) -> list[str]:
        """Create the constraints and indexes of ``schema/*.cypher`` that do not exist yet
        (idempotent, also against another process doing the same) and drop the retired
        ones (``schema.RETIRED``); returns those created."""
        created = []
        with self._errors("apply the schema"), self._session() as session:

            def existing() -> set[str]:
                return {r["name"] for show in SHOW_SCHEMA for r in session.run(show)}

            names = existing()
            for name in sorted(names & set(RETIRED)):
                session.run(f"DROP INDEX {name} IF EXISTS").consume()
            for statement in schema_statements():
                name = schema_name(statement)
                if name is not None and name in names:
                    continue
                try:
                    session.run(statement).consume()
                except neo4j_errors.Neo4jError:
                    if name is None or name not in existing():
                        raise
                    continue  # another process created it at the same moment
                created.append(name or statement)
            if created:
                session.run("CALL db.awaitIndexes(300)").consume()
            _backfill_search_text(session)
            for label, index in (
                ("Fact", "fact_text_scoped"),
                ("Episode", "episode_search_scoped"),
            ):
                if index in created:
                    _backfill_scope_key(session, label)
        return created

    # -- writes --------------------------------------------------------------------------
    def begin(self, families: Iterable[Family], scopes: Iterable[str]) -> _Session:
        self._check_open()
        return _Session(self, list(dict.fromkeys(families)), scopes)

    def _lock_clocks(self, tx: Any, scopes: Iterable[str]) -> dict[str, Clock]:
        """Take the write lock of each scope's clock (in sorted order) and read it."""
        result = self._run(tx, LOCK_CLOCKS, scopes=sorted(set(scopes)))
        return {r["scope"]: Clock(native(r["requested"]), native(r["assigned"])) for r in result}

    def _apply(self, tx: Any, statements: Sequence[Statement]) -> None:
        """Run the statements as one (``writes.combined``: one round trip) and check it."""
        if not statements:
            return
        statement = combined(statements)
        result = self._run(tx, statement.cypher, **statement.params)
        if statement.check is None:
            result.consume()
        elif (problem := statement.check(result.single())) is not None:
            raise StoreError(f"{self.location}: {problem}; nothing was written")

    def _set_clocks(self, tx: Any, clocks: dict[str, Clock]) -> None:
        self._apply(tx, [clock_statement(clocks)])

    def _append_events(self, tx: Any, events: Sequence[Event]) -> None:
        self._apply(tx, [event_statement(events)])

    def _write_batch(self, tx: Any, batch: WriteBatch) -> None:
        """Everything a batch writes (``writes.batch_statements``), in one transaction."""
        self._apply(tx, batch_statements(batch))

    def _stamp(self, tx: Any, tombstone: Event) -> Event:
        """The tombstone's transaction time on the scope's clock, exactly as the embedded
        store gives it (erase never fails on the clock)."""
        clock = self._lock_clocks(tx, [tombstone.scope])[tombstone.scope]
        clock = clock.advance(max(tombstone.recorded_at, clock.requested))
        self._set_clocks(tx, {tombstone.scope: clock})
        return Event(tombstone.scope, clock.assigned, tombstone.op, None, None, None, "{}")

    def erase(self, erasure: Erasure, tombstone: Event) -> Erased:
        scope = erasure.scope

        def work(tx: Any) -> Erased:
            stamped = self._stamp(tx, tombstone)
            ids: set[str] = set()
            owners: set[str] = set()
            vector_keys: set[str] = set()
            vectors: dict[str, list[float]] = {}

            def take(anchor: str, where: str, **params: Any) -> None:
                cypher = ERASE_ROWS.format(
                    anchor=ROW_ANCHORS[anchor], where=where, direct=DIRECT_RELATIONSHIP
                )
                found = self._run(tx, cypher, scope=scope, **params).single()
                ids.update(found["ids"])
                owners.update(found["fact_ids"])
                vector_keys.update(found["vector_keys"])
                vectors.update((key, vector) for key, vector in found["vectors"])

            for subject_id, predicate, object_id in erasure.keys:
                key = {"subject_id": subject_id, "predicate": predicate, "object_id": object_id}
                take("entity", key_filter("f", predicate, object_id), entity_id=subject_id, **key)
                where = key_filter("e", predicate, object_id)
                self._run(tx, ERASE_EVENTS.format(where=where), scope=scope, **key).consume()
            if erasure.row_ids:
                take("row_ids", "f.scope = $scope", row_ids=list(erasure.row_ids))
            if ids:
                self._run(tx, ERASE_WRITING_EVENTS, scope=scope, ids=sorted(ids)).consume()
            if erasure.rows or erasure.events:
                keys = {text_owner(r.scope, r.text) for r in erasure.rows}
                kept = {key: vectors[key] for key in keys if key in vectors}
                self._write_batch(tx, WriteBatch(
                    insert=list(erasure.rows), events=list(erasure.events), embeddings=kept
                ))  # fmt: skip
            turns = self._run(
                tx, ERASE_EPISODES, scope=scope, ids=list(erasure.episode_ids)
            ).single()["erased"]
            gone = self._run(tx, ERASE_ORPHANS, scope=scope, ids=list(erasure.orphans)).single()[
                "ids"
            ]
            owners.update([*ids, *erasure.episode_ids, *gone])
            self._run(tx, DELETE_EMBEDDINGS, owners=sorted(owners)).consume()
            self._run(tx, DELETE_PASSAGE_EMBEDDINGS, turns=sorted(erasure.episode_ids),
                      mark=PASSAGE_MARK).consume()  # fmt: skip
            self._run(tx, DELETE_UNUSED_TEXT_EMBEDDINGS, keys=sorted(vector_keys)).consume()
            self._append_events(tx, [stamped])
            return Erased(len(ids), turns, len(gone), len(erasure.rows))

        # The strings live on in Neo4j's transaction logs until they are pruned (README,
        # "Erase"): a client cannot reach them.
        return self._write("erase", work)

    def put_entity(self, entity: Entity) -> None:
        """Create or replace an entity's record (its type and aliases; the name and scope
        of an existing entity stay). A new type moves the node to the new type label."""

        def work(tx: Any) -> None:
            old = self._run(tx, READ_ENTITY, scope=entity.scope, id=entity.id).single()
            old_label = entity_label(old["item"]["type"]) if old is not None else None
            self._run(
                tx, PUT_ENTITY, props=entity_props(entity), label=entity_label(entity.type),
                old_label=old_label,
            ).consume()  # fmt: skip

        self._write("store an entity", work)

    def drop_all(self) -> None:
        """Delete every node and relationship of the database (tests and development only;
        the schema stays)."""
        self._check_open()
        with self._errors("drop all data"), self._session() as session:
            for statement in DROP_ALL:
                session.run(statement).consume()

    # -- reads ---------------------------------------------------------------------------
    def clock(self, scope: str) -> Clock:
        found = self._read(READ_CLOCK, scope=scope)
        if not found:
            return Clock(NEG_INF, NEG_INF)
        return Clock(native(found[0]["requested"]), native(found[0]["assigned"]))

    def rows(self, query: RowQuery) -> list[Fact]:
        conditions, params = ["f.scope = $scope"], {"scope": query.scope}
        for name in ("subject_id", "predicate", "object_id"):
            if getattr(query, name) is not None:
                conditions.append(f"f.{name} = ${name}")
                params[name] = getattr(query, name)
        if query.entity_id is not None:
            conditions.append("(f.subject_id = $entity_id OR f.object_id = $entity_id)")
            params["entity_id"] = query.entity_id
        if query.row_ids is not None:
            conditions.append("f.id IN $row_ids")
            params["row_ids"] = list(query.row_ids)
        times, time_params = query.bounds.cypher(row_times("f"))
        limit = ""
        if query.limit is not None:
            limit, params["limit"] = "\nLIMIT $limit", query.limit
        cypher = READ_ROWS.format(
            anchor=row_anchor(query),
            where=" AND ".join([*conditions, times]),
            fact_map=FACT_MAP,
            limit=limit,
        )
        out = [fact_from(r["row"]) for r in self._read(cypher, **params, **time_params)]
        out.sort(key=lambda r: (r.subject, r.predicate, r.valid_from, r.recorded_at))
        return out

    def changed_rows(self, scope: str, changes: Changes) -> list[Fact]:
        times, params = changes.cypher(row_times("f"))
        cypher = READ_ROWS.format(
            anchor=ROW_ANCHORS["scope"], where=f"f.scope = $scope AND {times}", fact_map=FACT_MAP,
            limit="",
        )  # fmt: skip
        hits = [fact_from(r["row"]) for r in self._read(cypher, scope=scope, **params)]
        return sorted(hits, key=lambda r: (r.recorded_at, r.valid_from, r.id))

    def entity(self, scope: str, entity_id: str) -> Entity | None:
        found = self._read(READ_ENTITY, scope=scope, id=entity_id)
        return entity_from(found[0]["item"]) if found else None

    def entities(self, scope: str) -> list[Entity]:
        found = self._read(READ_ENTITIES, scope=scope)
        return sorted((entity_from(r["item"]) for r in found), key=lambda e: e.name)

    def entities_named(self, scope: str, names: Sequence[str]) -> list[Entity]:
        keys = sorted({normalise_name(n) for n in names} - {""})
        if not keys:
            return []
        ids = sorted({Entity.id_for(scope, n) for n in names})  # an entity's id: its name's key
        found = self._read(ENTITIES_NAMED, scope=scope, ids=ids, keys=keys)
        return [entity_from(r["item"]) for r in found]

    def degrees(self, scope: str, entity_ids: Sequence[str]) -> dict[str, int]:
        found = self._read(DEGREES, scope=scope, ids=list(entity_ids))
        return {r["id"]: r["degree"] for r in found}

    def neighbours(self, scope: str, entity_ids: Sequence[str]) -> set[str]:
        """Entities one fact away (in any belief), for graph expansion."""
        return {r["id"] for r in self._read(NEIGHBOURS, scope=scope, ids=list(entity_ids))}

    def episodes(
        self, scope: str, ids: Sequence[str] | None = None, *, session: str | None = None
    ) -> list[Episode]:
        where = ["e.scope = $scope"]
        if ids is not None:
            where.append("e.id IN $ids")
        if session is not None:
            where.append("e.session = $session")
        cypher = select("(e:Episode)", where, EPISODE_FIELDS, "e.timestamp, e.turn")
        found = self._read(cypher, scope=scope, ids=list(ids or ()), session=session)
        out = [episode_from(r["item"]) for r in found]
        # As SQLite orders them: by time, then turn with the missing turns first.
        out.sort(key=lambda e: (e.timestamp, e.turn is not None, e.turn or 0))
        return out

    def existing_episode_ids(self, ids: Sequence[str]) -> set[str]:
        found: set[str] = set()
        for chunk in range(0, len(ids), 5000):
            part = list(ids[chunk : chunk + 5000])
            found.update(r["id"] for r in self._read(EXISTING_EPISODES, ids=part))
        return found

    def events(self, scope: str | None = None) -> Iterator[Event]:
        where = ["e.scope = $scope"] if scope is not None else []
        cypher = select("(e:Event)", where, EVENT_FIELDS, "e.scope, e.seq")
        for r in self._read(cypher, scope=scope):
            yield event_from(r["item"])

    def predicates(self) -> list[Predicate]:
        found = [r["item"] for r in self._read(READ_PREDICATES)]
        return [Predicate(**{k: item[k] for k in PREDICATE_FIELDS if k in item}) for item in found]

    def put_predicate(self, predicate: Predicate) -> None:
        self._write(
            "declare a predicate", lambda tx: self._apply(tx, [predicate_statement(predicate)])
        )

    def scopes(self) -> list[str]:
        return sorted({r["scope"] for r in self._read(READ_SCOPES) if r["scope"] is not None})

    def embeddings(self, owner_ids: Sequence[str]) -> dict[str, list[float]]:
        out: dict[str, list[float]] = {}
        for chunk in range(0, len(owner_ids), 2000):
            part = list(owner_ids[chunk : chunk + 2000])
            out.update((r["id"], list(r["vector"])) for r in self._read(READ_EMBEDDINGS, ids=part))
        return out

    # -- retrieval -----------------------------------------------------------------------
    def search(
        self, target: SearchTarget, query: RowQuery, *, vector: Any, text: str | None, k: int
    ) -> dict[str, list[tuple[str, float]]]:
        """Top-k ids by vector similarity and by keyword relevance (the Lucene full-text
        index), both among the entries the query's scope and bounds allow: filtered
        before ranking."""
        label, vector_index, text_index = SEARCH_INDEXES[target]
        where, params = search_filter("x", target, query)
        out: dict[str, list[tuple[str, float]]] = {"vector": [], "keyword": []}
        if k <= 0:
            return out
        if vector is not None:
            out["vector"] = self._vector_search(label, vector_index, where, params, vector, k)
        words = lucene_query(text or "")
        if words:
            out["keyword"] = self._keyword_search(text_index, where, params, words, query, k)
        return out

    def _vector_search(
        self, label: str, index: str, where: str, params: dict[str, Any], vector: Any, k: int
    ) -> list[tuple[str, float]]:
        """Exact cosine over the scope's own entries (cost: the scope's rows, whatever
        the other tenants hold) while they are fewer than the candidates the index would
        need; else the approximate index over every scope, asked for as many candidates as
        the scope's share of the index makes ``k`` of them likely to pass the filter (four
        times more until they do, or the whole index was asked), re-scored exactly."""
        vector = float32_list(vector)
        size = self._scope_size(label, params["scope"])
        if size == 0:
            return []
        total = self._read(LABEL_SIZE.format(label=label))[0]["n"]
        fetch = min(total, max(INDEX_FETCH_MIN, math.ceil(INDEX_OVERFETCH * k * total / size)))
        # Scoring a row exactly and reading an index candidate cost about the same
        # (~30 µs each, measured): the path that reads fewer rows wins.
        if size <= min(EXACT_LIMIT, fetch):
            return self._exact_vector_search(label, where, params, vector, k)
        cypher = INDEX_VECTOR_SEARCH.format(where=where)
        while True:
            found = self._read(cypher, index=index, fetch=fetch, vector=vector, k=k, **params)
            if len(found) >= k or fetch >= total:
                return [(r["id"], r["score"]) for r in found]
            fetch = min(total, fetch * 4)

    def _keyword_search(
        self, index: str, where: str, params: dict[str, Any], words: str, query: RowQuery, k: int
    ) -> list[tuple[str, float]]:
        """The tenant's best Lucene matches that pass the time filter: Lucene is asked for
        its top ``KEYWORD_FETCH`` of this scope, four times more while fewer than ``k``
        pass and Lucene had more to give."""
        cypher = KEYWORD_SEARCH.format(where=where)
        lucene = scoped_lucene(words, query.scope)
        fetch = max(KEYWORD_FETCH, 4 * k)
        while True:
            found = self._read(cypher, index=index, text=lucene, fetch=fetch, k=k, **params)
            if len(found) >= k or self._lucene_hits(index, lucene, fetch) < fetch:
                return [(r["id"], r["score"]) for r in found]
            fetch *= 4

    def _lucene_hits(self, index: str, lucene: str, fetch: int) -> int:
        return self._read(LUCENE_HITS, index=index, text=lucene, fetch=fetch)[0]["n"]

    def _exact_vector_search(
        self, label: str, where: str, params: dict[str, Any], vector: list[float], k: int
    ) -> list[tuple[str, float]]:
        cypher = EXACT_VECTOR_SEARCH.format(label=label, where=where)
        found = self._read(cypher, vector=vector, k=k, **params)
        return [(r["id"], r["score"]) for r in found]

    def exact_search(
        self, target: SearchTarget, query: RowQuery, *, vector: Any, k: int
    ) -> list[tuple[str, float]]:
        """The brute-force baseline of ``search``'s vector half: every allowed entry of the
        scope scored exactly, whatever its size (benchmarks measure recall against it)."""
        label = SEARCH_INDEXES[target][0]
        where, params = search_filter("x", target, query)
        return self._exact_vector_search(label, where, params, float32_list(vector), k)

    def _scope_size(self, label: str, scope: str) -> int:
        """How many ``label`` nodes the scope holds (a count over the scope's index
        entries, no property read)."""
        return self._read(SCOPE_SIZE.format(label=label), scope=scope)[0]["n"]

    def stats(self, scope: str | None = None) -> dict[str, int]:
        counts = {k: int(v) for k, v in dict(self._read(STATS, scope=scope)[0]).items()}
        if scope is not None:  # as the embedded store: vectors and size are the store's
            del counts["embeddings"]
            return counts
        return {**counts, "bytes": 0}

    def integrity_check(self) -> list[str]:
        """Problems found (empty when healthy): the row invariants the embedded store
        checks, plus the graph's shape (each row linked to its entities and mirrored by its
        direct relationship, DateTime times, scope on every node and relationship)."""
        problems = []
        families: dict[Family, list[Fact]] = defaultdict(list)
        for r in self._read(CHECK_ROWS):
            row = fact_from(r["row"])
            families[(row.scope, row.subject_id, row.predicate)].append(row)
        for family, rows in families.items():
            problems += overlapping_beliefs(family, sorted(rows, key=lambda r: r.valid_from))
        for r in self._read(CHECK_STRUCTURE, time_fields=list(TIME_FIELDS)):
            problems.append(
                f"row {r['id']}: {r['subjects']} subject links, {r['objects']} object links, "
                f"{r['direct']} direct relationships, or malformed times"
            )
        for r in self._read(CHECK_SCOPES):
            problems.append(f"{r['n']} {r['what']} without a scope")
        return problems

    def close(self) -> None:
        if not self._closed:
            self._closed = True
            self._driver.close()

    def __repr__(self) -> str:
        return f"Neo4jBackend({self.location!r})"


class _Session:
    """An open write: an explicit transaction holding the scopes' clock locks."""

    def __init__(self, backend: Neo4jBackend, families: list[Family], scopes: Iterable[str]):
        self._backend = backend
        self._open = False
        self._tx: Any = None
        scopes = sorted(set(scopes) | {family[0] for family in families})
        keys = [{"scope": s, "subject_id": sub, "predicate": p} for s, sub, p in families]
        delay = 0.05
        for attempt in range(_BEGIN_ATTEMPTS):
            self._neo_session = backend._session()
            try:
                with backend._errors("begin a write"):
                    self._tx = self._neo_session.begin_transaction()
                    self._open = True
                    found = backend._run(
                        self._tx, BEGIN_WRITE, scopes=scopes, families=keys, **CURRENT_BELIEF[1]
                    ).single()
                    self._clocks = {c["scope"]: Clock(native(c["requested"]),
                                                      native(c["assigned"]))
                                    for c in found["clocks"]}  # fmt: skip
                    self._rows: dict[Family, list[Fact]] = defaultdict(list)
                    for r in found["rows"]:
                        row = fact_from(r)
                        self._rows[(row.scope, row.subject_id, row.predicate)].append(row)
                return
            except TransientStoreError:
                self.rollback()
                if attempt == _BEGIN_ATTEMPTS - 1:
                    raise
                time.sleep(delay)
                delay = min(delay * 2, 1.0)
            except BaseException:
                self.rollback()
                raise

    def clock(self, scope: str) -> Clock:
        return self._clocks.get(scope, Clock(NEG_INF, NEG_INF))

    def current_rows(self, family: Family) -> list[Fact]:
        return list(self._rows.get(family, ()))

    def commit(self, batch: WriteBatch) -> None:
        if not self._open:
            raise StoreError(f"{self._backend.location}: this write is already finished")
        try:
            with self._backend._errors("commit a write"):
                self._backend._write_batch(self._tx, batch)
                self._tx.commit()
        except BaseException:
            self.rollback()
            raise
        self._finish()

    def rollback(self) -> None:
        if self._tx is not None and self._open:
            with suppress(Exception):  # the connection may already be gone
                self._tx.rollback()
        self._finish()

    def _finish(self) -> None:
        self._open = False
        with suppress(Exception):
            self._neo_session.close()


def _backfill_search_text(session: Any) -> None:
    """Give episodes stored before ``search_text`` existed the text they are searched by."""
    while True:
        found = [r.data() for r in session.run(EPISODES_WITHOUT_SEARCH_TEXT)]
        if not found:
            return
        episodes = [{"id": r["id"], "search_text": index_text(r["speaker"], r["text"])}
                    for r in found]  # fmt: skip
        session.run(SET_SEARCH_TEXT, episodes=episodes).consume()


def _backfill_scope_key(session: Any, label: str) -> None:
    """Give ``label`` nodes stored before ``scope_key`` existed their scope's key."""
    scopes = [r["scope"] for r in session.run(SCOPES_WITHOUT_KEY.format(label=label))]
    for scope in scopes:
        if scope is not None:
            cypher = SET_SCOPE_KEY.format(label=label)
            session.run(cypher, scope=scope, key=scope_key(scope)).consume()
