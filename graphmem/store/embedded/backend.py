"""The embedded default backend: one SQLite file, with search indexes beside it.

(Over 500 lines: one class, one method per protocol verb plus the indexes it keeps in
step; the SQL schema and codecs are in ``sqlite.py``, the indexes beside it.)

SQLite (WAL mode) holds the truth: the event log, the rows, entities, episodes,
embeddings and each scope's clock. Every write is one SQLite transaction, so a crash
leaves either all of a call or none of it. Reads (rows by key, subject, object or
predicate; entities by id or name; a node's neighbours, for graph expansion) are
served from SQLite through its indexes: nothing is mirrored in memory, so opening a
store of any size reads nothing but its clocks. The search tables (time columns and
keyword index) and the vectors live in files beside the database, stamped against
it, and catch up incrementally when this or another process commits (``PRAGMA
data_version`` and each record's change counter).

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

import numpy as np

from graphmem.errors import StoreError
from graphmem.model import Entity, Episode, Fact, normalise_name, text_owner
from graphmem.predicates import Predicate
from graphmem.store.embedded import table_file
from graphmem.store.embedded.search_table import SearchTable
from graphmem.store.embedded.sidecar import Sidecar
from graphmem.store.embedded.sqlite import (
    ENTITY_COLUMNS,
    EPISODE_COLUMNS,
    ROW_COLUMNS,
    SCHEMA,
    SCHEMA_VERSION,
    entity_from_row,
    entity_names,
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
from graphmem.time.bounds import COLUMNS as TIME_COLUMNS
from graphmem.time.bounds import Changes, TemporalBounds
from graphmem.time.instant import NEG_INF, POS_INF, from_micros, to_micros

TARGETS = ("facts", "episodes")
_TIMES = {c: c for pair in TIME_COLUMNS.values() for c in pair}  # SQL column names
_LOWEST, _HIGHEST = to_micros(NEG_INF), to_micros(POS_INF)


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
            # Reads go to SQLite: keep its hot pages (64 MiB; the OS caches the rest).
            self._db.execute("PRAGMA cache_size=-65536")
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
            return
        version = found[0]
        if version == "1":  # stated change points arrived in version 2
            self._db.execute("ALTER TABLE rows ADD COLUMN change_point INTEGER NOT NULL DEFAULT 0")
            version = "2"
        if version == "2":  # version 3 looks names up in SQLite, not in a mirror
            self._fill_names()
            version = "3"
        if version != SCHEMA_VERSION:
            raise StoreError(
                f"{self.location}: schema version {found[0]}, this graphmem reads {SCHEMA_VERSION}"
            )
        if found[0] != version:
            self._db.execute("UPDATE meta SET value=? WHERE key='schema'", (version,))

    def _fill_names(self) -> None:
        """The names table of a store written before it existed (in write order, so the
        latest entity to take a name keeps it, as the mirror that preceded it did)."""
        rows = self._db.execute(
            f"SELECT {ENTITY_COLUMNS} FROM entities ORDER BY changed, rowid"
        ).fetchall()
        names = []
        for r in rows:
            with contextlib.suppress(ValueError, TypeError):  # damaged: integrity_check says
                names += entity_names(entity_from_row(r))
        self._db.executemany("INSERT INTO names (scope, name, entity_id) VALUES (?, ?, ?)", names)

    # -- what the process holds -------------------------------------------------------
    def _reset_memory(self) -> None:
        """Forget what the process holds (after another process's erase, or at open):
        the clocks, and the search tables (loaded again, from their files or SQLite, by
        the next search)."""
        self._clocks: dict[str, Clock] = {}
        self._tables: dict[str, SearchTable] | None = None
        self._search_seen = -1  # the change counter up to which the tables are complete
        self._unwritten: dict[str, dict[int, np.ndarray]] = {"facts": {}, "episodes": {}}
        self._missing: dict[str, dict[int, str]] = {"facts": {}, "episodes": {}}
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
        self._search_saved: dict | None = None  # the stamp's word on the search tables
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
            saved = stamp.get("search")
            self._search_saved = saved if isinstance(saved, dict) else None
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
        """Scrub every file beside the database (vectors, graph, search tables)."""
        self._vectors = {}
        self._vectors_seen = -1
        self._search_saved = None
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
                if self._tables is not None:
                    self._tables[target].vectors = index
            index.add(positions, vectors)
            pending.clear()
            wrote = True
        seen_before = self._vectors_seen
        self._vectors_seen = self._seen
        if wrote or seen_before != self._seen:
            self._stamp_vectors()

    def _stamp_vectors(self, *, with_ann: bool = False) -> None:
        if not self._sidecar.owned:
            return
        for index in self._vectors.values():
            if self._sync or with_ann:
                index.persist(with_ann=with_ann)
        tables = {t: {"dims": i.dimensions, "count": len(i)} for t, i in self._vectors.items()}
        self._sidecar.write_stamp(
            {"token": self._vectors_token, "epoch": self._vectors_epoch,
             "change": self._vectors_seen, "tables": tables, "search": self._search_saved},
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
        """The clocks, and the vectors of what is newer than the vector files (at open:
        nothing, when the files are current). Rows are not read: reads go to SQLite."""
        self._data_version = version
        epoch = self._meta("erase_epoch")
        if epoch != self._erase_epoch:
            self._reset_memory()
            if epoch != self._vectors_epoch:  # another process erased: start the vectors again
                self._delete_vector_files()
                self._reset_memory()
                self._vectors_epoch = epoch
            self._erase_epoch = epoch
        change = int(self._meta("change"))
        since = self._vectors_seen  # vectors already in the files are not read again
        if since < change:
            vectors = {
                owner: np.frombuffer(blob, dtype=np.float32)
                for owner, blob in self._db.execute(
                    "SELECT owner_id, vector FROM embeddings WHERE changed > ?", (since,)
                )
            }
            for position, scope, text in self._db.execute(
                "SELECT rowid, scope, text FROM rows WHERE changed > ?", (since,)
            ):
                if not self._has_vector("facts", position):
                    self._queue_vector("facts", position, text_owner(scope, text), vectors)
            for position, ident in self._db.execute(
                "SELECT rowid, id FROM episodes WHERE changed > ?", (since,)
            ):
                if not self._has_vector("episodes", position):
                    self._queue_vector("episodes", position, ident, vectors)
        for scope, requested, assigned in self._db.execute("SELECT * FROM clock"):
            self._clocks[scope] = Clock(from_micros(requested), from_micros(assigned))
        self._seen = change
        self._write_vectors()

    @contextlib.contextmanager
    def _unless_damaged(self, kind: str, ident: object) -> Iterator[None]:
        """A record no graphmem wrote (a damaged or hand-edited file) is left out of a
        read and reported by integrity_check: it never stops the store opening."""
        try:
            yield
        except (ValueError, TypeError, OverflowError, KeyError) as exc:
            self._damaged[f"{kind} {ident}"] = f"{type(exc).__name__}: {exc}"[:200]

    def _queue_vector(
        self, target: str, position: int, owner: str, vectors: dict[str, np.ndarray]
    ) -> None:
        """Gather the vector of an entry that has none yet (a position's text never
        changes, so neither does its vector); one not among ``vectors`` is fetched
        from SQLite (rows of one text share one embedding)."""
        vector = vectors.get(owner)
        if vector is not None:
            self._unwritten[target][position] = vector
        else:
            self._missing[target][position] = owner

    # -- the search tables, in files beside the database -------------------------------
    def _search_ready(self) -> dict[str, SearchTable]:
        """The search tables, complete up to the last commit: loaded from their files
        (when the stamp vouches for them) or started empty, then caught up from SQLite
        with every record changed since (new rows and turns, rows since expired)."""
        if self._tables is None:
            self._tables = self._load_tables()
        if self._search_seen >= self._seen:
            return self._tables
        since, added = self._search_seen, 0
        facts, episodes = self._tables["facts"], self._tables["episodes"]
        for position, ident, scope, text, *times in self._db.execute(
            "SELECT rowid, id, scope, text, valid_from, valid_to, recorded_at, expired_at "
            "FROM rows WHERE changed > ?", (since,),
        ):  # fmt: skip
            if not all(_LOWEST <= t <= _HIGHEST for t in times):
                self._damaged[f"row {ident}"] = "ValueError: a time out of range"
                continue
            added += not facts.has(position)
            facts.upsert(position, scope=scope, text=text, valid_from=times[0],
                         valid_to=times[1], recorded_at=times[2], expired_at=times[3])  # fmt: skip
        for r in self._db.execute(
            f"SELECT rowid, {EPISODE_COLUMNS} FROM episodes WHERE changed > ?", (since,)
        ):
            with self._unless_damaged("episode", r[1]):
                episode = episode_from_row(r[1:])
                at = to_micros(episode.timestamp)
                if not _LOWEST <= at <= _HIGHEST:
                    raise ValueError("a time out of range")
                # An episode is an observation: known from when it was said, about that moment.
                added += not episodes.has(r[0])
                episodes.upsert(r[0], scope=episode.scope, text=episode_index_text(episode),
                                valid_from=at, valid_to=_HIGHEST, recorded_at=at,
                                expired_at=_HIGHEST)  # fmt: skip
        self._search_seen = self._seen
        size = sum(len(t) for t in self._tables.values())
        if added > max(size // 10, 1_000):
            # Save a large build at once, not only at close (as the ANN index is).
            self._save_tables()
        return self._tables

    def _load_tables(self) -> dict[str, SearchTable]:
        saved = self._search_saved
        tables: dict[str, SearchTable | None] = {}
        if (
            saved is not None
            and saved.get("epoch") == self._erase_epoch
            and isinstance(saved.get("change"), int)
            and saved["change"] <= self._seen
        ):
            for target in TARGETS:
                generation = saved.get("tables", {}).get(target)
                tables[target] = SearchTable.load(
                    self._table_prefix(target), str(generation), self._vectors.get(target)
                )
        if all(tables.get(t) is not None for t in TARGETS):
            self._search_seen = saved["change"]
            return tables  # type: ignore[return-value]
        if self._sidecar.owned:  # stale or foreign: it may hold erased words
            for target in TARGETS:
                table_file.delete(self._table_prefix(target))
        self._search_saved = None
        self._search_seen = -1
        return {t: SearchTable(self._vectors.get(t)) for t in TARGETS}

    def _table_prefix(self, target: str) -> str:
        return self._sidecar.base("search." + target)

    def _save_tables(self, *, scrub_old: bool = False) -> None:
        """Write the search tables beside the database and stamp them."""
        if not self._sidecar.owned or self._tables is None:
            return
        generations = {
            t: table.save(self._table_prefix(t), scrub_old=scrub_old)
            for t, table in self._tables.items()
        }
        self._search_saved = {
            "change": self._search_seen, "epoch": self._erase_epoch, "tables": generations
        }  # fmt: skip
        self._stamp_vectors()

    def _flush_search(self) -> None:
        """(Kept for callers that fill the search tables ahead of a search.)"""
        self._search_ready()

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
        fresh = {e.id: e for e in batch.entities}
        for known in self._existing("entities", list(fresh)):
            del fresh[known]  # an entity's record stays as first written (put_entity edits it)
        db.executemany(
            "INSERT INTO entities VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT(id) DO NOTHING",
            [(e.id, e.scope, e.name, e.type, json.dumps(list(e.aliases)), change)
             for e in fresh.values()],
        )  # fmt: skip
        db.executemany(
            "INSERT INTO names (scope, name, entity_id) VALUES (?, ?, ?)",
            [n for e in fresh.values() for n in entity_names(e)],
        )
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

    def _existing(self, table: str, ids: Sequence[str]) -> set[str]:
        found: set[str] = set()
        for chunk in range(0, len(ids), 500):
            part = list(ids[chunk : chunk + 500])
            marks = ",".join("?" * len(part))
            found.update(
                r[0]
                for r in self._db.execute(f"SELECT id FROM {table} WHERE id IN ({marks})", part)
            )
        return found

    def _after_commit(self, batch: WriteBatch) -> None:
        """Write a committed batch's vectors at their positions without re-reading them
        (the search tables catch up from SQLite at the next search)."""
        vectors = {k: np.asarray(v, dtype=np.float32) for k, v in batch.embeddings.items()}
        positions = self._positions
        for row in batch.insert:
            position = positions["facts"][row.id]
            if not self._has_vector("facts", position):
                self._queue_vector("facts", position, text_owner(row.scope, row.text), vectors)
        for episode in batch.episodes:
            position = positions["episodes"][episode.id]
            if not self._has_vector("episodes", position):
                self._queue_vector("episodes", position, episode.id, vectors)
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
                    keys.append((f"(+scope=? AND id IN ({marks}))", [scope, *erasure.row_ids]))
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
            self._erase_search(erased)
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
                    f"SELECT rowid FROM episodes WHERE +scope=? AND id IN ({marks})", [scope, *part]
                )
            ]
            erased += self._db.execute(
                f"DELETE FROM episodes WHERE +scope=? AND id IN ({marks})", [scope, *part]
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
        self._db.executemany("DELETE FROM names WHERE entity_id=?", [(e,) for e in gone])
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
                self._db.executemany(
                    "INSERT INTO names (scope, name, entity_id) VALUES (?, ?, ?)",
                    entity_names(entity),
                )
                self._db.execute("UPDATE meta SET value=? WHERE key='change'", (str(change),))
            self._seen = change
            self._data_version = self._db.execute("PRAGMA data_version").fetchone()[0]

    def _erase_vectors(self, positions: dict[str, list[int]]) -> None:
        """After an erase commits: zero the erased entries' vectors, in memory and in the
        vector files, and their codes in the ANN index and its saved file. (A crash
        before this leaves the files stamped with the old erase epoch: the next open
        scrubs them and starts again from SQLite, so nothing erased survives.)"""
        for target, index in self._vectors.items():
            index.remove(positions[target])
            if self._sidecar.owned:
                index.persist()
        self._vectors_epoch = self._meta("erase_epoch")

    def _erase_search(self, positions: dict[str, list[int]]) -> None:
        """After an erase commits: take the erased entries out of the search tables and
        rewrite their files over the old ones (scrubbed first: they hold erased words).
        The tables are caught up as the files knew them (the old erase epoch), then
        stamped with the new one."""
        if self._tables is not None or self._search_saved is not None:
            tables = self._search_ready()
            for target, table in tables.items():
                table.remove(positions[target])
        self._erase_epoch = self._meta("erase_epoch")
        self._data_version = -1  # (the clocks: the tombstone moved one)
        if self._tables is not None and self._sidecar.owned:
            self._save_tables(scrub_old=True)

    def _scrub(self) -> None:
        """After an erase: move the WAL into the (securely deleted) file so no old page
        version survives, and catch up (the clocks)."""
        self._db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
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
            ids = list(query.row_ids) if query.row_ids is not None else None
            out = []
            for chunk in range(0, len(ids), 500) if ids is not None else [0]:
                part = ids[chunk : chunk + 500] if ids is not None else None
                where, params = _row_where(query, part)
                out += [r for r in self._facts(where, params) if _matches(r, query)]
        out.sort(key=lambda r: (r.subject, r.predicate, r.valid_from, r.recorded_at))
        return out[: query.limit] if query.limit is not None else out

    def _facts(self, where: str, params: Sequence) -> list[Fact]:
        """The rows ``where`` selects, read back (a damaged one is left out and noted)."""
        out = []
        for r in self._db.execute(f"SELECT {ROW_COLUMNS} FROM rows WHERE {where}", params):
            try:
                out.append(fact_from_row(r))
            except (ValueError, TypeError, OverflowError, KeyError) as exc:
                self._damaged[f"row {r[0]}"] = f"{type(exc).__name__}: {exc}"[:200]
        return out

    def _facts_by_id(self, ids: Sequence[str]) -> list[Fact]:
        out = []
        for chunk in range(0, len(ids), 500):
            part = list(ids[chunk : chunk + 500])
            out += self._facts(f"id IN ({','.join('?' * len(part))})", part)
        return out

    def changed_rows(self, scope: str, changes: Changes) -> list[Fact]:
        with self._lock:
            self._refresh()
            where, params = changes.sql(_TIMES)
            rows = self._facts(f"scope=? AND {where}", [scope, *params])
        hits = [r for r in rows if changes.admits(r)]
        return sorted(hits, key=lambda r: (r.recorded_at, r.valid_from, r.id))

    def _entities(self, where: str, params: Sequence) -> list[Entity]:
        out = []
        for r in self._db.execute(f"SELECT {ENTITY_COLUMNS} FROM entities WHERE {where}", params):
            with self._unless_damaged("entity", r[0]):
                out.append(entity_from_row(r))
        return out

    def entity(self, scope: str, entity_id: str) -> Entity | None:
        with self._lock:
            self._refresh()
            found = self._entities("id=? AND +scope=?", (entity_id, scope))
        return found[0] if found else None

    def entities(self, scope: str) -> list[Entity]:
        with self._lock:
            self._refresh()
            return sorted(self._entities("scope=?", (scope,)), key=lambda e: e.name)

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
            hits = self._search_ready()[target].search(
                query.scope, query.bounds, vector=vector, text=text, k=k
            )
            positions = sorted({p for found in hits.values() for p, _ in found})
            table = "rows" if target == "facts" else "episodes"
            ids: dict[int, str] = {}
            for chunk in range(0, len(positions), 500):
                part = positions[chunk : chunk + 500]
                marks = ",".join("?" * len(part))
                ids.update(
                    self._db.execute(
                        f"SELECT rowid, id FROM {table} WHERE rowid IN ({marks})", part
                    )
                )
        return {
            kind: [(ids[p], score) for p, score in found if p in ids]
            for kind, found in hits.items()
        }

    def entities_named(self, scope: str, names: Sequence[str]) -> list[Entity]:
        with self._lock:
            self._refresh()
            ids = set()
            for name in names:
                found = self._db.execute(
                    "SELECT entity_id FROM names WHERE scope=? AND name=? ORDER BY seq DESC LIMIT 1",
                    (scope, normalise_name(name)),
                ).fetchone()
                if found is not None:
                    ids.add(found[0])
            ordered = list(ids)
            out = []
            for chunk in range(0, len(ordered), 500):
                part = ordered[chunk : chunk + 500]
                out += self._entities(f"id IN ({','.join('?' * len(part))})", part)
            return out

    def degrees(self, scope: str, entity_ids: Sequence[str]) -> dict[str, int]:
        """Rows naming each entity, as subject or object (a self-loop counts twice)."""
        with self._lock:
            self._refresh()
            out = {}
            for node in entity_ids:
                out[node] = sum(
                    self._db.execute(
                        f"SELECT count(*) FROM rows WHERE scope=? AND {column}=?", (scope, node)
                    ).fetchone()[0]
                    for column in ("subject_id", "object_id")
                )
            return out

    def neighbours(self, scope: str, entity_ids: Sequence[str]) -> set[str]:
        """Entities one fact away (in any belief), for graph expansion."""
        with self._lock:
            self._refresh()
            out: set[str] = set()
            nodes = list(dict.fromkeys(entity_ids))
            for chunk in range(0, len(nodes), 400):
                part = nodes[chunk : chunk + 400]
                marks = ",".join("?" * len(part))
                out.update(
                    r[0]
                    for r in self._db.execute(
                        f"SELECT object_id FROM rows WHERE scope=? AND subject_id IN ({marks}) "
                        f"UNION SELECT subject_id FROM rows WHERE scope=? AND object_id IN ({marks})",
                        [scope, *part, scope, *part],
                    )
                    if r[0]
                )
            found = sorted(out)
            return {
                e.id
                for chunk in range(0, len(found), 500)
                for e in self._entities(
                    f"+scope=? AND id IN ({','.join('?' * len(found[chunk : chunk + 500]))})",
                    [scope, *found[chunk : chunk + 500]],
                )
            }

    def stats(self, scope: str | None = None) -> dict[str, int]:
        with self._lock:
            self._refresh()
            where, args = ("WHERE scope = ?", (scope,)) if scope is not None else ("", ())

            def count(table: str) -> int:
                return self._db.execute(f"SELECT count(*) FROM {table} {where}", args).fetchone()[0]

            current, params = TemporalBounds().sql(_TIMES)
            if scope is not None:
                current, params = f"scope=? AND {current}", [scope, *params]
            out = {
                "rows": count("rows"),
                "current_rows": self._db.execute(
                    f"SELECT count(*) FROM rows WHERE {current}", params
                ).fetchone()[0],
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
            families: dict[Family, list[Fact]] = defaultdict(list)
            for row in self._facts("1", ()):  # every record read back: the damaged noted
                families[(row.scope, row.subject_id, row.predicate)].append(row)
            self._entities("1", ())
            for r in self._db.execute(f"SELECT {EPISODE_COLUMNS} FROM episodes"):
                with self._unless_damaged("episode", r[0]):
                    episode_from_row(r)
            problems += [
                f"{what}: unreadable, left out ({why})" for what, why in self._damaged.items()
            ]
            for family, rows in families.items():
                rows.sort(key=lambda r: r.valid_from)
                problems += overlapping_beliefs(family, rows)
        return problems

    def close(self) -> None:
        """Save the ANN index beside the database (when it changed) and close."""
        with self._lock:
            with contextlib.suppress(sqlite3.ProgrammingError):  # closed already
                if self._sidecar.owned:
                    self._refresh()  # an erase by another process reaches the files first
                    # The search tables are brought up to date and saved, so that the
                    # next open's first search tokenises nothing (a bulk load pays here).
                    tables = self._search_ready()
                    if any(t.dirty for t in tables.values()):
                        self._save_tables()  # (stamps the vectors too)
                    self._stamp_vectors(with_ann=True)
            self._sidecar.close()
            self._db.close()


def _row_where(q: RowQuery, ids: list[str] | None) -> tuple[str, list]:
    """The SQL that narrows a row query to its candidates through an index (scope and
    keys, then the time bounds; ``ids``: a part of ``q.row_ids``); ``_matches`` stays
    the exact test."""
    # By ids, the id index must serve (SQLite would otherwise take a scope index and
    # read the whole scope): "+scope" keeps it off the scope column.
    where, params = ["scope=?" if ids is None else "+scope=?"], [q.scope]
    for column, value in (("subject_id", q.subject_id), ("predicate", q.predicate),
                          ("object_id", q.object_id)):  # fmt: skip
        if value is not None:
            where.append(f"{column}=?")
            params.append(value)
    if ids is not None:
        where.append(f"id IN ({','.join('?' * len(ids))})" if ids else "0")
        params += ids
    times, values = q.bounds.sql(_TIMES)
    where.append(times)
    params += values
    if q.entity_id is None:
        return " AND ".join(where), params
    # As subject or as object: two conjunctions, so each is served by its own index.
    both = " AND ".join(where)
    return (
        f"(subject_id=? AND {both}) OR (object_id=? AND {both})",
        [q.entity_id, *params, q.entity_id, *params],
    )


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
        scope, subject_id, predicate = family
        current, params = TemporalBounds().sql(_TIMES)
        rows = self._backend._facts(
            f"scope=? AND subject_id=? AND predicate=? AND {current}",
            [scope, subject_id, predicate, *params],
        )
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
