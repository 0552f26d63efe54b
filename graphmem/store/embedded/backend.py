"""The embedded default backend: a networkx graph in memory, durable in one SQLite file.

(Over 500 lines: one class, one method per protocol verb plus the in-memory mirror it
keeps in step; the SQL schema and codecs are in ``sqlite.py``, the indexes beside it.)

SQLite (WAL mode) holds the truth: the event log, the rows, entities, episodes,
embeddings and each scope's clock. Every write is one SQLite transaction, so a crash
leaves either all of a call or none of it. The process keeps a ``MultiDiGraph`` of
entities (nodes) and rows (edges keyed by row id) for fast reads and graph expansion,
and catches up incrementally when another process commits (``PRAGMA data_version``).

>>> import tempfile, os
>>> backend = EmbeddedBackend(os.path.join(tempfile.mkdtemp(), "m.db"))
>>> backend.stats()["rows"]
0
"""

from __future__ import annotations

import contextlib
import json
import os
import sqlite3
import threading
import uuid
from collections import defaultdict
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path

import networkx as nx
import numpy as np

from graphmem.errors import StoreError
from graphmem.model import Entity, Episode, Fact, normalise_name, text_owner
from graphmem.predicates import Predicate
from graphmem.store.embedded.search_table import SearchTable
from graphmem.store.embedded.sidecar import Sidecar
from graphmem.store.embedded.sqlite import (
    EPISODE_COLUMNS,
    LITERAL,
    ROW_COLUMNS,
    SCHEMA,
    SCHEMA_VERSION,
    episode_from_row,
    fact_from_row,
    fact_params,
    key_where,
)
from graphmem.store.embedded.vector_file import scrub
from graphmem.store.embedded.vector_index import VectorIndex
from graphmem.store.index_text import episode_index_text
from graphmem.store.integrity import overlapping_beliefs
from graphmem.store.passage_index import passage_owner_range
from graphmem.store.protocol import (
    Erased,
    Erasure,
    Event,
    Family,
    Key,
    RowQuery,
    SearchTarget,
    WriteBatch,
)
from graphmem.time.bitemporal import Clock
from graphmem.time.bounds import Changes
from graphmem.time.instant import NEG_INF, POS_INF, from_micros, to_micros


class EmbeddedBackend:
    """Embedded store in one SQLite file. Thread-safe; several processes may share a file."""

    def __init__(self, path: str | os.PathLike[str], *, durability: str = "full"):
        self.location = str(path)
        self._lock = threading.RLock()
        try:
            Path(self.location).parent.mkdir(parents=True, exist_ok=True)
            self._db = sqlite3.connect(
                self.location, isolation_level=None, check_same_thread=False, timeout=60
            )
            self._db.execute("PRAGMA journal_mode=WAL")
            sync = {"full": "FULL", "normal": "NORMAL"}[durability]
            self._db.execute(f"PRAGMA synchronous={sync}")
            self._db.execute("PRAGMA busy_timeout=60000")
            # Erased content is overwritten, not just unlinked (privacy; see erase()).
            self._db.execute("PRAGMA secure_delete=ON")
            self._db.executescript(SCHEMA)
            self._db.execute("BEGIN IMMEDIATE")
            self._check_version()
            self._db.execute("COMMIT")
        except (sqlite3.DatabaseError, KeyError) as exc:
            raise StoreError(f"cannot open embedded store {self.location}: {exc}") from exc
        self._sync = durability == "full"
        self._sidecar = Sidecar(self.location)
        self._vectors: dict[str, VectorIndex] = {}
        self._open_vectors()
        self._reset_memory()
        self._refresh()

    def _check_version(self) -> None:
        found = self._db.execute("SELECT value FROM meta WHERE key='schema'").fetchone()
        if found is None:
            self._db.execute("INSERT INTO meta VALUES ('schema', ?)", (SCHEMA_VERSION,))
            self._db.execute("INSERT INTO meta VALUES ('change', '0')")
            self._db.execute("INSERT INTO meta VALUES ('erase_epoch', '0')")
        elif found[0] == "1":  # stated change points arrived in version 2
            self._db.execute("ALTER TABLE rows ADD COLUMN change_point INTEGER NOT NULL DEFAULT 0")
            self._db.execute("UPDATE meta SET value=? WHERE key='schema'", (SCHEMA_VERSION,))
        elif found[0] != SCHEMA_VERSION:
            raise StoreError(
                f"{self.location}: schema version {found[0]}, this graphmem reads {SCHEMA_VERSION}"
            )

    # -- the in-memory mirror ----------------------------------------------------------
    def _reset_memory(self) -> None:
        self.graph = nx.MultiDiGraph()
        self._rows: dict[str, Fact] = {}
        self._family: dict[Family, set[str]] = defaultdict(set)
        self._scope_rows: dict[str, set[str]] = defaultdict(set)
        self._predicate_rows: dict[tuple[str, str], set[str]] = defaultdict(set)
        self._entities: dict[str, Entity] = {}
        self._names: dict[tuple[str, str], str] = {}  # (scope, normalised name) -> entity id
        self._clocks: dict[str, Clock] = {}
        self._tables = {t: SearchTable(self._vectors.get(t)) for t in ("facts", "episodes")}
        self._unwritten: dict[str, dict[int, np.ndarray]] = {"facts": {}, "episodes": {}}
        self._missing: dict[str, dict[int, str]] = {"facts": {}, "episodes": {}}
        self._pending: dict[str, dict[str, dict]] = {"facts": {}, "episodes": {}}
        self._seen = -1
        self._erase_epoch = "0"
        self._data_version = -1
        self._damaged: dict[str, str] = {}  # "row r_..." -> why it cannot be read

    def _meta(self, key: str) -> str:
        return self._db.execute("SELECT value FROM meta WHERE key=?", (key,)).fetchone()[0]

    # -- the vectors, in files beside the database (see sidecar.py) ---------------------
    def _open_vectors(self) -> None:
        """Use the vector files if their stamp agrees with the database; otherwise scrub
        them (they may hold erased vectors) and start them again from SQLite."""
        self._vectors_seen = -1  # the change counter up to which the vectors are complete
        self._vectors_epoch = self._meta("erase_epoch")
        side = self._sidecar
        if not side.owned:
            return
        found = self._db.execute("SELECT value FROM meta WHERE key='vectors_token'").fetchone()
        stamp = side.read_stamp()
        valid = (
            stamp is not None
            and found is not None
            and stamp.get("token") == found[0]
            and stamp.get("epoch") == self._vectors_epoch
            and isinstance(stamp.get("change"), int)
            and stamp["change"] <= int(self._meta("change"))
        )
        if valid:
            for target, info in stamp.get("tables", {}).items():
                index = VectorIndex(int(info["dims"]), path=side.base(target))
                if len(index) != info["count"]:  # a file lost or replaced: not this one
                    valid = False
                self._vectors[target] = index
        if valid:
            self._vectors_token = found[0]
            self._vectors_seen = stamp["change"]
            return
        self._delete_vector_files()
        self._vectors_token = uuid.uuid4().hex
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")
            self._db.execute(
                "INSERT OR REPLACE INTO meta VALUES ('vectors_token', ?)", (self._vectors_token,)
            )
            self._db.execute("COMMIT")

    def _delete_vector_files(self) -> None:
        self._vectors = {}
        self._vectors_seen = -1
        if not self._sidecar.owned:
            return
        self._sidecar.drop_stamp()
        for name in self._sidecar.files():
            scrub(name)

    def _has_vector(self, target: str, position: int) -> bool:
        index = self._vectors.get(target)
        return (index is not None and index.has(position)) or position in self._unwritten[target]

    def _write_vectors(self) -> None:
        """Write the vectors gathered by indexing (and fetch from SQLite the ones a new
        entry shares with an older text), then stamp the files."""
        for target, missing in self._missing.items():
            owners = sorted(set(missing.values()))
            found: dict[str, np.ndarray] = {}
            for chunk in range(0, len(owners), 500):
                part = owners[chunk : chunk + 500]
                marks = ",".join("?" * len(part))
                for owner, blob in self._db.execute(
                    f"SELECT owner_id, vector FROM embeddings WHERE owner_id IN ({marks})", part
                ):
                    found[owner] = np.frombuffer(blob, dtype=np.float32)
            for position, owner in missing.items():
                if owner in found and position not in self._unwritten[target]:
                    self._unwritten[target][position] = found[owner]
            missing.clear()
        wrote = False
        for target, pending in self._unwritten.items():
            if not pending:
                continue
            positions = list(pending)
            vectors = np.stack([pending[p] for p in positions]).astype(np.float32, copy=False)
            index = self._vectors.get(target)
            if index is None:
                path = self._sidecar.base(target) if self._sidecar.owned else None
                index = self._vectors[target] = VectorIndex(vectors.shape[1], path=path)
                self._tables[target].vectors = index
            index.add(positions, vectors)
            pending.clear()
            wrote = True
        seen_before = self._vectors_seen
        self._vectors_seen = self._seen
        if wrote or seen_before != self._seen:
            self._stamp_vectors()

    def _stamp_vectors(self, *, graph: bool = False) -> None:
        if not self._sidecar.owned:
            return
        for index in self._vectors.values():
            if self._sync or graph:
                index.persist(graph=graph)
        tables = {t: {"dims": i.dimensions, "count": len(i)} for t, i in self._vectors.items()}
        self._sidecar.write_stamp(
            {"token": self._vectors_token, "epoch": self._vectors_epoch,
             "change": self._vectors_seen, "tables": tables},
            sync=self._sync,
        )  # fmt: skip

    def _refresh(self) -> None:
        """Catch up with commits made by other connections (cheap when there were none).
        Reads run in one read transaction: a consistent snapshot of another process's
        commits, so the change counter and the rows it covers agree."""
        version = self._db.execute("PRAGMA data_version").fetchone()[0]
        if version == self._data_version and self._seen >= 0:
            return
        if self._db.in_transaction:
            self._catch_up(version)
            return
        self._db.execute("BEGIN")
        try:
            self._catch_up(version)
        finally:
            self._db.execute("COMMIT")

    def _catch_up(self, version: int) -> None:
        self._data_version = version
        epoch = self._meta("erase_epoch")
        if epoch != self._erase_epoch:
            self._reset_memory()
            if epoch != self._vectors_epoch:  # another process erased: start the vectors again
                self._delete_vector_files()
                self._reset_memory()
                self._vectors_epoch = epoch
            self._erase_epoch = epoch
        seen = self._seen
        # Vectors already in the files (complete up to _vectors_seen) are not read again.
        since = max(seen, self._vectors_seen)
        vectors = {
            owner: np.frombuffer(blob, dtype=np.float32)
            for owner, blob in self._db.execute(
                "SELECT owner_id, vector FROM embeddings WHERE changed > ?", (since,)
            )
        }
        # A record no graphmem wrote (a damaged or hand-edited file) is left out and
        # reported by integrity_check: it never stops the store opening.
        for r in self._db.execute(
            f"SELECT rowid, changed, {ROW_COLUMNS} FROM rows WHERE changed > ? ORDER BY changed",
            (seen,),
        ):
            with self._unless_damaged("row", r[2]):
                self._index_row(fact_from_row(r[2:]), vectors, r[0], fresh=r[1] > since)
        for r in self._db.execute(
            f"SELECT rowid, changed, {EPISODE_COLUMNS} FROM episodes WHERE changed > ?", (seen,)
        ):
            with self._unless_damaged("episode", r[2]):
                self._index_episode(episode_from_row(r[2:]), vectors, r[0], fresh=r[1] > since)
        for ident, scope, name, type_, aliases in self._db.execute(
            "SELECT id, scope, name, type, aliases FROM entities WHERE changed > ?", (seen,)
        ):
            with self._unless_damaged("entity", ident):
                self._index_entity(
                    Entity(id=ident, scope=scope, name=name, type=type_,
                           aliases=tuple(json.loads(aliases)))
                )  # fmt: skip
        for scope, requested, assigned in self._db.execute("SELECT * FROM clock"):
            self._clocks[scope] = Clock(from_micros(requested), from_micros(assigned))
        self._seen = int(self._meta("change"))
        self._write_vectors()

    @contextlib.contextmanager
    def _unless_damaged(self, kind: str, ident: object) -> Iterator[None]:
        try:
            yield
        except (ValueError, TypeError, OverflowError, KeyError) as exc:
            self._damaged[f"{kind} {ident}"] = f"{type(exc).__name__}: {exc}"[:200]

    def _index_entity(self, entity: Entity) -> None:
        self._entities[entity.id] = entity
        for name in (entity.name, *entity.aliases):
            self._names[(entity.scope, normalise_name(name))] = entity.id
        self.graph.add_node(entity.id, entity=entity)

    def _index_row(
        self, row: Fact, vectors: dict[str, np.ndarray], position: int, *, fresh: bool
    ) -> None:
        """Mirror a row; its vector goes to ``position`` (its rowid) unless already there.
        A ``fresh`` row (newer than the vector files) whose text's vector is not among
        ``vectors`` takes it from SQLite (rows of one text share one embedding)."""
        old = self._rows.get(row.id)
        self._rows[row.id] = row
        if old is None:
            self._family[(row.scope, row.subject_id, row.predicate)].add(row.id)
            self._scope_rows[row.scope].add(row.id)
            self._predicate_rows[(row.scope, row.predicate)].add(row.id)
        # A literal value (no object id, as the model allows) hangs off one shared
        # non-entity node, so every row stays reachable from its subject.
        self.graph.add_edge(row.subject_id, row.object_id or LITERAL, key=row.id)
        if not self._has_vector("facts", position):  # (reopened: most are in the files)
            self._queue_vector("facts", position, text_owner(row.scope, row.text), vectors, fresh)
        self._queue_search(
            "facts", row.id, scope=row.scope, text=row.text, vector=None, position=position,
            valid_from=row.valid_from, valid_to=row.valid_to,
            recorded_at=row.recorded_at, expired_at=row.expired_at,
        )  # fmt: skip

    def _index_episode(
        self, episode: Episode, vectors: dict[str, np.ndarray], position: int, *, fresh: bool
    ) -> None:
        # An episode is an observation: known from when it was said, about that moment.
        if not self._has_vector("episodes", position):
            self._queue_vector("episodes", position, episode.id, vectors, fresh)
        self._queue_search(
            "episodes", episode.id, scope=episode.scope, text=episode_index_text(episode),
            vector=None, position=position,
            valid_from=episode.timestamp, valid_to=POS_INF,
            recorded_at=episode.timestamp, expired_at=POS_INF,
        )  # fmt: skip

    def _queue_vector(
        self, target: str, position: int, owner: str, vectors: dict[str, np.ndarray], fresh: bool
    ) -> None:
        """Gather the vector of an entry that has none yet (a position's text never
        changes, so neither does its vector)."""
        vector = vectors.get(owner)
        if vector is not None:
            self._unwritten[target][position] = vector
        elif fresh:
            self._missing[target][position] = owner

    def _queue_search(self, target: str, ident: str, **entry) -> None:
        """Search indexes are built lazily, at the next search: stores that are only
        written and read by key (bulk loads, reopen) never pay for tokenising they do
        not use. (Vectors are written at once, by position: see _write_vectors.)"""
        self._pending[target][ident] = entry

    def _flush_search(self) -> None:
        for target, queue in self._pending.items():
            table = self._tables[target]
            for ident, entry in queue.items():
                table.upsert(ident, **entry)
            queue.clear()

    # -- writes ------------------------------------------------------------------------
    def begin(self, families: Iterable[Family], scopes: Iterable[str]) -> _Session:
        self._lock.acquire()
        try:
            self._db.execute("BEGIN IMMEDIATE")
            self._refresh()
        except BaseException:
            if self._db.in_transaction:
                self._db.execute("ROLLBACK")
            self._lock.release()
            raise
        return _Session(self)

    def _apply(self, batch: WriteBatch) -> None:
        change = int(self._meta("change")) + 1
        db = self._db
        for scope, clock in batch.clocks.items():
            db.execute(
                "INSERT INTO clock VALUES (?, ?, ?) ON CONFLICT(scope) DO UPDATE SET "
                "requested=excluded.requested, assigned=excluded.assigned",
                (scope, to_micros(clock.requested), to_micros(clock.assigned)),
            )
        db.executemany(
            "INSERT INTO entities VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT(id) DO NOTHING",
            [(e.id, e.scope, e.name, e.type, json.dumps(list(e.aliases)), change)
             for e in batch.entities if e.id not in self._entities],
        )  # fmt: skip
        db.executemany(
            "INSERT OR IGNORE INTO episodes VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            [(e.id, e.scope, e.session, e.turn, e.speaker, e.role, e.text,
              to_micros(e.timestamp), e.source, change) for e in batch.episodes],
        )  # fmt: skip
        db.executemany(
            "UPDATE rows SET expired_at=?, expired_by=?, changed=? WHERE id=? AND expired_at=?",
            [(to_micros(at), by, change, rid, to_micros(POS_INF)) for rid, at, by in batch.expire],
        )
        db.executemany(
            f"INSERT INTO rows ({ROW_COLUMNS}, changed) VALUES ({', '.join('?' * 18)})",
            [fact_params(f, change) for f in batch.insert],
        )
        db.executemany(
            "INSERT INTO events (scope, recorded_at, op, subject_id, predicate, object_id, "
            "payload, row_ids) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            [(e.scope, to_micros(e.recorded_at), e.op, e.subject_id, e.predicate, e.object_id,
              e.payload, json.dumps(list(e.row_ids))) for e in batch.events],
        )  # fmt: skip
        db.executemany(
            "INSERT OR REPLACE INTO embeddings VALUES (?, ?, ?)",
            [(owner, np.asarray(vec, dtype=np.float32).tobytes(), change)
             for owner, vec in batch.embeddings.items()],
        )  # fmt: skip
        db.execute("UPDATE meta SET value=? WHERE key='change'", (str(change),))
        # Search positions are rowids (stable across reopens: the vector files use them).
        self._positions = {
            "facts": dict(db.execute("SELECT id, rowid FROM rows WHERE changed=?", (change,))),
            "episodes": {},
        }
        ids = [e.id for e in batch.episodes]
        for chunk in range(0, len(ids), 500):
            part = ids[chunk : chunk + 500]
            marks = ",".join("?" * len(part))
            self._positions["episodes"].update(
                db.execute(f"SELECT id, rowid FROM episodes WHERE id IN ({marks})", part)
            )

    def _after_commit(self, batch: WriteBatch) -> None:
        """Mirror a committed batch in memory without re-reading it."""
        vectors = {k: np.asarray(v, dtype=np.float32) for k, v in batch.embeddings.items()}
        for entity in batch.entities:
            if entity.id not in self._entities:
                self._index_entity(entity)
        positions = self._positions
        for rid, at, by in batch.expire:
            expired = self._rows[rid].model_copy(update={"expired_at": at, "expired_by": by})
            self._index_row(expired, vectors, positions["facts"][rid], fresh=True)
        for row in batch.insert:
            self._index_row(row, vectors, positions["facts"][row.id], fresh=True)
        for episode in batch.episodes:
            self._index_episode(episode, vectors, positions["episodes"][episode.id], fresh=True)
        self._clocks.update(batch.clocks)
        self._seen = int(self._meta("change"))
        self._data_version = self._db.execute("PRAGMA data_version").fetchone()[0]
        self._write_vectors()

    @contextlib.contextmanager
    def _exclusive(self) -> Iterator[None]:
        """One write transaction outside the planned write path (erase, entity records):
        our lock and SQLite's, a fresh view of other processes' commits, all or nothing."""
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                self._refresh()
                yield
                self._db.execute("COMMIT")
            except BaseException:
                self._db.execute("ROLLBACK")
                raise

    def erase(self, erasure: Erasure, tombstone: Event) -> Erased:
        scope = erasure.scope
        with self._lock:
            with self._exclusive():
                tombstone = self._stamp(tombstone)
                keys = [key_where(scope, *key) for key in erasure.keys]
                if erasure.row_ids:
                    marks = ",".join("?" * len(erasure.row_ids))
                    keys.append((f"(scope=? AND id IN ({marks}))", [scope, *erasure.row_ids]))
                where = " OR ".join(w for w, _ in keys) or "0"
                params = [p for _, ps in keys for p in ps]
                found = self._db.execute(f"SELECT id, text, rowid FROM rows WHERE {where}", params)
                ids, texts = set(), set()
                erased = {"facts": [], "episodes": []}  # search positions, for the vectors
                for row_id, text, position in found.fetchall():
                    ids.add(row_id)
                    texts.add(text)
                    erased["facts"].append(position)
                self._db.execute(f"DELETE FROM rows WHERE {where}", params)
                self._erase_events(scope, erasure.keys, ids)
                if erasure.rows or erasure.events:
                    self._apply(WriteBatch(insert=list(erasure.rows), events=list(erasure.events)))
                turns = self._erase_turns(scope, erasure.episode_ids, erased["episodes"])
                entities = self._erase_orphans(scope, erasure.orphans)
                kept = self._texts_in_use(scope, texts)
                self._delete_embeddings([text_owner(scope, t) for t in sorted(texts - kept)])
                self._tombstone(tombstone)
            self._erase_vectors(erased)
            self._scrub()
            return Erased(len(ids), turns, entities, len(erasure.rows))

    def _erase_events(self, scope: str, keys: Sequence[Key], row_ids: set[str]) -> None:
        """The events of the keys, and every event that wrote an erased row."""
        for key in keys:
            where, params = key_where(scope, *key)
            self._db.execute(f"DELETE FROM events WHERE {where}", params)
        if row_ids:
            wrote = [
                (seq,)
                for seq, written in self._db.execute(
                    "SELECT seq, row_ids FROM events WHERE scope=?", (scope,)
                )
                if row_ids.intersection(json.loads(written))
            ]
            self._db.executemany("DELETE FROM events WHERE seq=?", wrote)

    def _erase_turns(self, scope: str, episode_ids: Sequence[str], positions: list[int]) -> int:
        """Delete the turns, keeping only their ids (so a re-load skips them)."""
        erased = 0
        for chunk in range(0, len(episode_ids), 500):
            part = list(episode_ids[chunk : chunk + 500])
            marks = ",".join("?" * len(part))
            positions += [
                r[0]
                for r in self._db.execute(
                    f"SELECT rowid FROM episodes WHERE scope=? AND id IN ({marks})", [scope, *part]
                )
            ]
            erased += self._db.execute(
                f"DELETE FROM episodes WHERE scope=? AND id IN ({marks})", [scope, *part]
            ).rowcount
            self._db.executemany(
                "INSERT OR IGNORE INTO erased_episodes VALUES (?, ?)", [(i, scope) for i in part]
            )
        self._delete_embeddings(list(episode_ids))
        for turn in episode_ids:  # and the vectors of their passages
            self._db.execute(
                "DELETE FROM embeddings WHERE owner_id > ? AND owner_id < ?",
                passage_owner_range(turn),
            )
        return erased

    def _erase_orphans(self, scope: str, entity_ids: Sequence[str]) -> int:
        """Delete the entities that no row names any more, with their vectors."""
        gone = [
            entity_id
            for entity_id in entity_ids
            if self._db.execute(
                "SELECT 1 FROM rows WHERE scope=? AND (subject_id=? OR object_id=?) LIMIT 1",
                (scope, entity_id, entity_id),
            ).fetchone()
            is None
        ]
        erased = sum(
            self._db.execute("DELETE FROM entities WHERE id=? AND scope=?", (e, scope)).rowcount
            for e in gone
        )
        self._delete_embeddings(gone)
        return erased

    def _texts_in_use(self, scope: str, texts: set[str]) -> set[str]:
        found: set[str] = set()
        ordered = sorted(texts)
        for chunk in range(0, len(ordered), 500):
            part = ordered[chunk : chunk + 500]
            marks = ",".join("?" * len(part))
            found.update(
                r[0]
                for r in self._db.execute(
                    f"SELECT DISTINCT text FROM rows WHERE scope=? AND text IN ({marks})",
                    [scope, *part],
                )
            )
        return found

    def put_entity(self, entity: Entity) -> None:
        """Create or replace an entity's record (its name, type and aliases)."""
        with self._lock:
            with self._exclusive():
                change = int(self._meta("change")) + 1
                self._db.execute(
                    "INSERT INTO entities VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT(id) DO UPDATE SET "
                    "type=excluded.type, aliases=excluded.aliases, changed=excluded.changed",
                    (entity.id, entity.scope, entity.name, entity.type,
                     json.dumps(list(entity.aliases)), change),
                )  # fmt: skip
                self._db.execute("UPDATE meta SET value=? WHERE key='change'", (str(change),))
            self._index_entity(entity)
            self._seen = change
            self._data_version = self._db.execute("PRAGMA data_version").fetchone()[0]

    def _erase_vectors(self, positions: dict[str, list[int]]) -> None:
        """After an erase commits: zero the erased entries' vectors, in memory and in the
        vector files, and their codes in the HNSW graph and its saved file. (A crash
        before this leaves the files stamped with the old erase epoch: the next open
        scrubs them and starts again from SQLite, so nothing erased survives.)"""
        for target, index in self._vectors.items():
            index.remove(positions[target])
            if self._sidecar.owned:
                index.persist()
        self._vectors_epoch = self._meta("erase_epoch")

    def _scrub(self) -> None:
        """After an erase: move the WAL into the (securely deleted) file so no old page
        version survives, and rebuild the in-memory mirror and its indexes."""
        self._db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        self._reset_memory()  # erasing is rare: rebuild the mirror rather than patch it
        self._refresh()

    def _delete_embeddings(self, owner_ids: list[str]) -> None:
        self._db.executemany("DELETE FROM embeddings WHERE owner_id=?", [(o,) for o in owner_ids])

    def _stamp(self, tombstone: Event) -> Event:
        """Give the tombstone its transaction time on the scope's clock (erase never fails
        on the clock: it asks for no earlier time than the latest one)."""
        clock = self._clocks.get(tombstone.scope, Clock(NEG_INF, NEG_INF))
        clock = clock.advance(max(tombstone.recorded_at, clock.requested))
        self._db.execute(
            "INSERT INTO clock VALUES (?, ?, ?) ON CONFLICT(scope) DO UPDATE SET "
            "requested=excluded.requested, assigned=excluded.assigned",
            (tombstone.scope, to_micros(clock.requested), to_micros(clock.assigned)),
        )
        return Event(tombstone.scope, clock.assigned, tombstone.op, None, None, None, "{}")

    def _tombstone(self, tombstone: Event) -> None:
        self._db.execute(
            "INSERT INTO events (scope, recorded_at, op, payload, row_ids) VALUES (?, ?, ?, ?, ?)",
            (tombstone.scope, to_micros(tombstone.recorded_at), tombstone.op, "{}", "[]"),
        )
        for key in ("erase_epoch", "change"):
            self._db.execute(
                "UPDATE meta SET value=CAST(CAST(value AS INTEGER) + 1 AS TEXT) WHERE key=?", (key,)
            )

    # -- reads -------------------------------------------------------------------------
    def clock(self, scope: str) -> Clock:
        with self._lock:
            self._refresh()
            return self._clocks.get(scope, Clock(NEG_INF, NEG_INF))

    def rows(self, query: RowQuery) -> list[Fact]:
        with self._lock:
            self._refresh()
            candidates = self._candidates(query)
            out = [
                row for rid in candidates if (row := self._rows.get(rid)) and _matches(row, query)
            ]
        out.sort(key=lambda r: (r.subject, r.predicate, r.valid_from, r.recorded_at))
        return out[: query.limit] if query.limit is not None else out

    def _candidates(self, q: RowQuery) -> Iterable[str]:
        if q.row_ids is not None:
            return q.row_ids
        if q.subject_id is not None and q.predicate is not None:
            return self._family.get((q.scope, q.subject_id, q.predicate), ())
        if q.subject_id is not None or q.entity_id is not None:
            node = q.subject_id or q.entity_id
            if node not in self.graph:
                return ()
            out = {k for _, _, k in self.graph.out_edges(node, keys=True)}
            if q.entity_id is not None:  # as subject or object (a self-loop counts once)
                out.update(k for _, _, k in self.graph.in_edges(node, keys=True))
            return out
        if q.object_id is not None:
            if q.object_id not in self.graph:
                return ()
            return [k for _, _, k in self.graph.in_edges(q.object_id, keys=True)]
        if q.predicate is not None:
            return self._predicate_rows.get((q.scope, q.predicate), ())
        return self._scope_rows.get(q.scope, ())

    def changed_rows(self, scope: str, changes: Changes) -> list[Fact]:
        with self._lock:
            self._refresh()
            rows = [self._rows[rid] for rid in self._scope_rows.get(scope, ())]
        hits = [r for r in rows if changes.admits(r)]
        return sorted(hits, key=lambda r: (r.recorded_at, r.valid_from, r.id))

    def entity(self, scope: str, entity_id: str) -> Entity | None:
        with self._lock:
            self._refresh()
            found = self._entities.get(entity_id)
        return found if found is not None and found.scope == scope else None

    def entities(self, scope: str) -> list[Entity]:
        with self._lock:
            self._refresh()
            return sorted(
                (e for e in self._entities.values() if e.scope == scope), key=lambda e: e.name
            )

    def episodes(
        self, scope: str, ids: Sequence[str] | None = None, *, session: str | None = None
    ) -> list[Episode]:
        sql = f"SELECT {EPISODE_COLUMNS} FROM episodes WHERE scope=?"
        params: list = [scope]
        if ids is not None:
            sql += f" AND id IN ({','.join('?' * len(ids))})"
            params += list(ids)
        if session is not None:
            sql += " AND session=?"
            params.append(session)
        with self._lock:
            rows = self._db.execute(sql + " ORDER BY timestamp, turn", params).fetchall()
        return [episode_from_row(r) for r in rows]

    def existing_episode_ids(self, ids: Sequence[str]) -> set[str]:
        found: set[str] = set()
        with self._lock:
            for chunk in range(0, len(ids), 500):
                part = list(ids[chunk : chunk + 500])
                marks = ",".join("?" * len(part))
                found.update(
                    r[0]
                    for r in self._db.execute(
                        f"SELECT id FROM episodes WHERE id IN ({marks}) "
                        f"UNION SELECT id FROM erased_episodes WHERE id IN ({marks})",
                        part + part,
                    )
                )
        return found

    def events(self, scope: str | None = None) -> Iterator[Event]:
        sql = "SELECT scope, recorded_at, op, subject_id, predicate, object_id, payload, row_ids FROM events"
        params: tuple = ()
        if scope is not None:
            sql += " WHERE scope=?"
            params = (scope,)
        with self._lock:
            rows = self._db.execute(sql + " ORDER BY seq", params).fetchall()
        for r in rows:
            yield Event(
                r[0], from_micros(r[1]), r[2], r[3], r[4], r[5], r[6], tuple(json.loads(r[7]))
            )

    def predicates(self) -> list[Predicate]:
        with self._lock:
            found = self._db.execute(
                "SELECT name, functional, object_kind, subject_type, object_type, phrase, "
                "description FROM predicates ORDER BY name"
            ).fetchall()
        return [Predicate(r[0], bool(r[1]), *r[2:]) for r in found]

    def put_predicate(self, predicate: Predicate) -> None:
        p = predicate
        with self._lock:  # the first declaration stays (Memory.declare refuses a new shape)
            self._db.execute(
                "INSERT INTO predicates VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING",
                (p.name, int(p.functional), p.object_kind, p.subject_type, p.object_type,
                 p.phrase, p.description),
            )  # fmt: skip

    def scopes(self) -> list[str]:
        with self._lock:
            found = self._db.execute(
                "SELECT scope FROM clock UNION SELECT scope FROM episodes UNION SELECT scope FROM entities"
            ).fetchall()
        return sorted(r[0] for r in found)

    def embeddings(self, owner_ids: Sequence[str]) -> dict[str, list[float]]:
        out: dict[str, list[float]] = {}
        with self._lock:
            for chunk in range(0, len(owner_ids), 500):
                part = list(owner_ids[chunk : chunk + 500])
                marks = ",".join("?" * len(part))
                for owner, blob in self._db.execute(
                    f"SELECT owner_id, vector FROM embeddings WHERE owner_id IN ({marks})", part
                ):
                    out[owner] = np.frombuffer(blob, dtype=np.float32).tolist()
        return out

    def search(
        self, target: SearchTarget, query: RowQuery, *, vector, text: str | None, k: int
    ) -> dict[str, list[tuple[str, float]]]:
        with self._lock:
            self._refresh()
            self._flush_search()
            return self._tables[target].search(
                query.scope, query.bounds, vector=vector, text=text, k=k
            )

    def entities_named(self, scope: str, names: Sequence[str]) -> list[Entity]:
        with self._lock:
            self._refresh()
            ids = {self._names.get((scope, normalise_name(n))) for n in names}
            return [self._entities[i] for i in ids if i is not None and i in self._entities]

    def degrees(self, scope: str, entity_ids: Sequence[str]) -> dict[str, int]:
        with self._lock:
            self._refresh()
            return {i: int(self.graph.degree(i)) if i in self.graph else 0 for i in entity_ids}

    def neighbours(self, scope: str, entity_ids: Sequence[str]) -> set[str]:
        """Entities one fact away (in any belief), for graph expansion."""
        with self._lock:
            self._refresh()
            out: set[str] = set()
            for node in entity_ids:
                if node in self.graph:
                    out.update(self.graph.successors(node))
                    out.update(self.graph.predecessors(node))
            return {n for n in out if n in self._entities and self._entities[n].scope == scope}

    def stats(self, scope: str | None = None) -> dict[str, int]:
        with self._lock:
            self._refresh()
            where, args = ("WHERE scope = ?", (scope,)) if scope is not None else ("", ())

            def count(table: str) -> int:
                return self._db.execute(f"SELECT count(*) FROM {table} {where}", args).fetchone()[0]

            out = {
                "rows": count("rows"),
                "current_rows": sum(
                    1
                    for r in self._rows.values()
                    if scope in (None, r.scope) and r.is_current_belief
                ),
                "entities": count("entities"),
                "episodes": count("episodes"),
                "events": count("events"),
            }
            if scope is None:  # the store's alone: vectors are kept without a scope column
                out["embeddings"] = count("embeddings")
                size = os.path.getsize(self.location) if os.path.exists(self.location) else 0
                out["bytes"] = size
            return out

    def integrity_check(self) -> list[str]:
        """Problems found (empty when healthy): SQLite's own check plus the row invariants."""
        problems = [r[0] for r in self._db.execute("PRAGMA integrity_check") if r[0] != "ok"]
        with self._lock:
            self._refresh()
            problems += [
                f"{what}: unreadable, left out ({why})" for what, why in self._damaged.items()
            ]
            for family, ids in self._family.items():
                rows = sorted((self._rows[i] for i in ids), key=lambda r: r.valid_from)
                problems += overlapping_beliefs(family, rows)
        return problems

    def close(self) -> None:
        """Save the HNSW graph beside the database (when it changed) and close."""
        with self._lock:
            with contextlib.suppress(sqlite3.ProgrammingError):  # closed already
                if self._sidecar.owned:
                    self._refresh()  # an erase by another process reaches the files first
                    self._stamp_vectors(graph=True)
            self._sidecar.close()
            self._db.close()


def _matches(row: Fact, q: RowQuery) -> bool:
    if row.scope != q.scope:
        return False
    if q.subject_id is not None and row.subject_id != q.subject_id:
        return False
    if q.predicate is not None and row.predicate != q.predicate:
        return False
    if q.object_id is not None and row.object_id != q.object_id:
        return False
    if q.entity_id is not None and q.entity_id not in (row.subject_id, row.object_id):
        return False
    return q.bounds.admits(row)


class _Session:
    """An open write on the embedded store: SQLite's write lock and ours are held."""

    def __init__(self, backend: EmbeddedBackend):
        self._backend = backend
        self._open = True

    def clock(self, scope: str) -> Clock:
        return self._backend._clocks.get(scope, Clock(NEG_INF, NEG_INF))

    def current_rows(self, family: Family) -> list[Fact]:
        b = self._backend
        rows = (b._rows[rid] for rid in b._family.get(family, ()))
        return [r for r in rows if r.is_current_belief]

    def commit(self, batch: WriteBatch) -> None:
        b = self._backend
        try:
            b._apply(batch)
            b._db.execute("COMMIT")
        except BaseException:
            self.rollback()
            raise
        b._after_commit(batch)
        self._close()

    def rollback(self) -> None:
        if self._open:
            if self._backend._db.in_transaction:
                self._backend._db.execute("ROLLBACK")
            self._close()

    def _close(self) -> None:
        if self._open:
            self._open = False
            self._backend._lock.release()
