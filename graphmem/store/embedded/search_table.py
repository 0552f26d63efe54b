"""The searchable side of the embedded store: entries with their time columns.

One table holds fact rows, another episodes. Each entry has a position shared by the
vector index and the keyword index (the embedded store uses the row's or turn's SQLite
rowid, so positions, and the vector file indexed by them, survive a reopen), and int64 columns (scope code, valid and
transaction bounds in microseconds) from which a query's scope and time mode become a
boolean mask, compiled by ``TemporalBounds.mask`` as every other read is. The mask is
applied inside both indexes, so nothing outside the scope or time mode is ranked.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

import numpy as np

from graphmem.store.embedded.keyword_index import KeywordIndex
from graphmem.store.embedded.vector_index import VectorIndex
from graphmem.time.bounds import TemporalBounds
from graphmem.time.instant import to_micros


class SearchTable:
    _COLUMNS = ("scope", "valid_from", "valid_to", "recorded_at", "expired_at")

    def __init__(self, vectors: VectorIndex | None = None):
        self.vectors = vectors  # sized by the first vector added, or the caller's
        self.keywords = KeywordIndex()
        self._ids: list[str] = []
        self._positions: dict[str, int] = {}
        self._vector_keys: dict[str, int] = {}  # vector key -> a position holding that vector
        self._scopes: dict[str, int] = {}
        self._cols = {name: np.zeros(1024, dtype=np.int64) for name in self._COLUMNS}
        self._alive = np.zeros(1024, dtype=bool)

    def __len__(self) -> int:
        return int(self._alive[: len(self._ids)].sum())

    def _grow(self, needed: int) -> None:
        capacity = self._alive.shape[0]
        if needed <= capacity:
            return
        while capacity < needed:
            capacity *= 2
        for name, col in self._cols.items():
            grown = np.zeros(capacity, dtype=np.int64)
            grown[: len(col)] = col
            self._cols[name] = grown
        alive = np.zeros(capacity, dtype=bool)
        alive[: len(self._alive)] = self._alive
        self._alive = alive

    def upsert(
        self,
        ident: str,
        *,
        scope: str,
        text: str,
        vector: np.ndarray | None,
        vector_key: str | None = None,
        position: int | None = None,
        valid_from: datetime,
        valid_to: datetime,
        recorded_at: datetime,
        expired_at: datetime,
    ) -> None:
        """Add an entry, or update its time columns (a row being expired).

        Entries with the same ``vector_key`` (rows of one text) share a vector: one
        passed once is reused for later entries that come without it. ``position``
        places a new entry (default: after the last); the caller that chooses positions
        may also have written its vector into ``vectors`` itself."""
        pos = self._positions.get(ident)
        if pos is None:
            pos = len(self._ids) if position is None else position
            self._grow(pos + 1)
            if pos >= len(self._ids):
                self._ids.extend([""] * (pos + 1 - len(self._ids)))  # "" : no entry there
            self._ids[pos] = ident
            self._positions[ident] = pos
            self.keywords.add([pos], [text])
            self._alive[pos] = True
        if vector is None and vector_key in self._vector_keys and self.vectors is not None:
            vector = self.vectors.vector(self._vector_keys[vector_key])
        if vector is not None:
            if self.vectors is None:
                self.vectors = VectorIndex(len(vector))
            self.vectors.add([pos], np.asarray(vector, dtype=np.float32)[None, :])
            if vector_key is not None:
                self._vector_keys[vector_key] = pos
        code = self._scopes.setdefault(scope, len(self._scopes))
        values = (code, to_micros(valid_from), to_micros(valid_to), to_micros(recorded_at),
                  to_micros(expired_at))  # fmt: skip
        for name, value in zip(self._COLUMNS, values, strict=True):
            self._cols[name][pos] = value

    def remove(self, ids: Sequence[str]) -> None:
        positions = [p for i in ids if (p := self._positions.get(i)) is not None]
        if self.vectors is not None:
            self.vectors.remove(positions)
        self.keywords.remove(positions)
        for pos in positions:
            self._alive[pos] = False
        gone = set(positions)
        self._vector_keys = {k: p for k, p in self._vector_keys.items() if p not in gone}

    def mask(self, scope: str, bounds: TemporalBounds) -> np.ndarray:
        """The live entries of ``scope`` that ``bounds`` admits."""
        n = len(self._ids)
        code = self._scopes.get(scope)
        if code is None:
            return np.zeros(n, dtype=bool)
        columns = {name: col[:n] for name, col in self._cols.items()}
        return self._alive[:n] & (columns["scope"] == code) & bounds.mask(columns)

    def search(
        self,
        scope: str,
        bounds: TemporalBounds,
        *,
        vector: np.ndarray | None,
        text: str | None,
        k: int,
    ) -> dict[str, list[tuple[str, float]]]:
        """Top-k by vector similarity and by BM25, both among the entries allowed."""
        mask = self.mask(scope, bounds)
        out: dict[str, list[tuple[str, float]]] = {"vector": [], "keyword": []}
        if not mask.any():
            return out
        if vector is not None and self.vectors is not None:
            hits = self.vectors.search(np.asarray(vector, dtype=np.float32), k, mask)
            out["vector"] = [(self._ids[p], s) for p, s in hits]
        if text:
            out["keyword"] = [(self._ids[p], s) for p, s in self.keywords.search(text, k, mask)]
        return out

    @property
    def nbytes(self) -> int:
        vectors = self.vectors.nbytes if self.vectors is not None else 0
        return vectors + sum(c.nbytes for c in self._cols.values())
