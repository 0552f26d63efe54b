"""The searchable side of the embedded store: entries with their time columns.

One table holds fact rows, another episodes. Each entry has a position shared by the
vector index and the keyword index (the embedded store uses the row's or turn's SQLite
rowid, so positions, and the files indexed by them, survive a reopen), and int64
columns (scope code, valid and transaction bounds in microseconds) from which a query's
scope and time mode become a boolean mask, compiled by ``TemporalBounds.mask`` as every
other read is. The mask is applied inside both indexes, so nothing outside the scope or
time mode is ranked. Hits are positions: the caller knows what lives there.

A table is saved beside the database (``save``/``load``: its columns, scope codes and
keyword index, see ``table_file.py``), so a reopened store tokenises nothing again.

>>> import numpy as np
>>> from graphmem.time.bounds import TemporalBounds
>>> table = SearchTable()
>>> table.upsert(3, scope="s", text="Alice moved to Berlin", valid_from=0,
...              valid_to=2**62, recorded_at=0, expired_at=END)
>>> table.search("s", TemporalBounds(), vector=None, text="Berlin", k=5)["keyword"][0][0]
3
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from graphmem.store.embedded import table_file
from graphmem.store.embedded.keyword_index import KeywordIndex
from graphmem.store.embedded.vector_index import VectorIndex
from graphmem.time.bounds import TemporalBounds
from graphmem.time.instant import POS_INF, to_micros

END = to_micros(POS_INF)  # expired_at of a row still believed


class SearchTable:
    _COLUMNS = ("scope", "valid_from", "valid_to", "recorded_at", "expired_at")

    def __init__(self, vectors: VectorIndex | None = None):
        self.vectors = vectors  # sized by the first vector added, or the caller's
        self.keywords = KeywordIndex()
        self._size = 0  # one past the highest position used
        self._scopes: dict[str, int] = {}
        self._cols = {name: np.zeros(1024, dtype=np.int64) for name in self._COLUMNS}
        self._alive = np.zeros(1024, dtype=bool)
        self.dirty = False  # changed since saved (or loaded)

    def __len__(self) -> int:
        return int(self._alive[: self._size].sum())

    @property
    def size(self) -> int:
        """One past the highest position used (the length of a mask)."""
        return self._size

    def has(self, position: int) -> bool:
        return position < self._size and bool(self._alive[position])

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
        position: int,
        *,
        scope: str,
        text: str,
        valid_from: int,
        valid_to: int,
        recorded_at: int,
        expired_at: int,
    ) -> None:
        """Add the entry at ``position`` (times in microseconds), or update its time
        columns (a row being expired: a position's text never changes)."""
        if not (position < self._size and self._alive[position]):
            self._grow(position + 1)
            self._size = max(self._size, position + 1)
            self.keywords.add([position], [text])
            self._alive[position] = True
        code = self._scopes.get(scope)
        if code is None:
            code = self._scopes[scope] = len(self._scopes)
        cols = self._cols
        cols["scope"][position] = code
        cols["valid_from"][position] = valid_from
        cols["valid_to"][position] = valid_to
        cols["recorded_at"][position] = recorded_at
        cols["expired_at"][position] = expired_at
        self.dirty = True

    def remove(self, positions: Sequence[int]) -> None:
        """Erase entries: out of the keyword index and the columns (the vectors are
        the caller's: they may be shared with files it owns)."""
        gone = [int(p) for p in positions if self.has(int(p))]
        if not gone:
            return
        self.keywords.remove(gone)
        for pos in gone:
            self._alive[pos] = False
            for col in self._cols.values():
                col[pos] = 0
        self.dirty = True

    def mask(self, scope: str, bounds: TemporalBounds) -> np.ndarray:
        """The live entries of ``scope`` that ``bounds`` admits."""
        n = self._size
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
    ) -> dict[str, list[tuple[int, float]]]:
        """Top-k positions by vector similarity and by BM25, both among those allowed."""
        mask = self.mask(scope, bounds)
        out: dict[str, list[tuple[int, float]]] = {"vector": [], "keyword": []}
        if not mask.any():
            return out
        if vector is not None and self.vectors is not None:
            out["vector"] = self.vectors.search(np.asarray(vector, dtype=np.float32), k, mask)
        if text:
            out["keyword"] = self.keywords.search(text, k, mask)
        return out

    # -- saved beside the database -------------------------------------------------------
    def save(self, prefix: str, *, scrub_old: bool = False) -> str:
        """Write the table (columns, scope codes, keyword index); return its generation."""
        meta, arrays = self.keywords.arrays()
        n = self._size
        arrays["cols"] = np.stack([self._cols[c][:n] for c in self._COLUMNS])
        arrays["alive"] = self._alive[:n]
        meta |= {"size": n, "scopes": sorted(self._scopes, key=self._scopes.__getitem__)}
        generation = table_file.save(prefix, meta, arrays, scrub_old=scrub_old)
        # Read the keyword index back from the new files: what was added is now in them
        # (no longer held in memory), and the old files may have been scrubbed under
        # the postings mapped from them.
        found = table_file.load(prefix, generation)
        if found is not None:
            self.keywords = KeywordIndex.from_arrays(*found)
        self.dirty = False
        return generation

    @classmethod
    def load(
        cls, prefix: str, generation: str, vectors: VectorIndex | None = None
    ) -> SearchTable | None:
        """The table saved at ``prefix`` with that generation, or None."""
        found = table_file.load(prefix, generation)
        if found is None:
            return None
        meta, arrays = found
        try:
            table = cls(vectors)
            table.keywords = KeywordIndex.from_arrays(meta, arrays)
            n = int(meta["size"])
            cols, alive = arrays["cols"], arrays["alive"]
            if cols.shape != (len(cls._COLUMNS), n) or alive.shape != (n,):
                return None
            table._grow(n)
            for row, name in enumerate(cls._COLUMNS):
                table._cols[name][:n] = cols[row]
            table._alive[:n] = alive
            table._size = n
            table._scopes = {s: i for i, s in enumerate(meta["scopes"])}
        except (KeyError, ValueError, TypeError):
            return None
        table.dirty = False
        return table

    @property
    def nbytes(self) -> int:
        vectors = self.vectors.nbytes if self.vectors is not None else 0
        return vectors + sum(c.nbytes for c in self._cols.values())
