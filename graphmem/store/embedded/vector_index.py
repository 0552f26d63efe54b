"""An in-process vector index whose filter applies *before* ranking.

Entries live at positions chosen by the caller (``SearchTable``: the row's or turn's
SQLite rowid), which passes a boolean mask of the positions a query may see (its
scope and time mode). When few entries pass, the search is exact over exactly those
(a matrix product); when many pass and the index is large, an inverted file of
k-means cells (faiss IVF over int8 codes, see ``ann.py``) is scanned with the mask as its
filter, so filtered-out entries are never candidates, and its best candidates are
re-scored exactly. Vectors are unit length, so
inner product is cosine similarity.

With a ``path`` the vectors live in a mapped float32 file (``vector_file.py``) and the
ANN index is saved beside it (``persist``), so a reopened store neither re-reads every
vector from SQLite nor rebuilds the index: it adds to the index what is new.

>>> import numpy as np
>>> index = VectorIndex(3)
>>> index.add([0, 1], np.array([[1, 0, 0], [0, 1, 0]], dtype=np.float32))
>>> index.search(np.array([1, 0, 0], dtype=np.float32), 1)
[(0, 1.0)]
"""

from __future__ import annotations

import os
from collections.abc import Sequence

import numpy as np

from graphmem.store.embedded import ann
from graphmem.store.embedded.vector_file import VectorFile

EXACT_LIMIT = 20_000  # up to this many allowed entries an exact scan is fast (~5 ms) and exact
ANN_MIN_SIZE = 50_000  # the ANN index is built once this many entries are held
RERANK = 4  # the ANN index is asked for RERANK x k candidates, re-scored exactly


class VectorIndex:
    def __init__(
        self, dimensions: int, *, ann_min_size: int = ANN_MIN_SIZE, path: str | None = None
    ):
        self.dimensions = dimensions
        self.path = path
        self._file = VectorFile(path, dimensions)
        self._ann: ann.AnnIndex | None = None
        self._ann_tried = False  # a saved index was looked for
        self._written: set[int] = set()  # positions written since the index saw them
        self._erased_since_save = False
        self._ann_min_size = ann_min_size

    def __len__(self) -> int:
        return int(self._file.has[: self._file.size].sum())

    @property
    def _size(self) -> int:
        return self._file.size

    def has(self, position: int) -> bool:
        return position < self._file.size and bool(self._file.has[position])

    def add(self, positions: Sequence[int], vectors: np.ndarray) -> None:
        if len(positions) == 0:
            return
        self._file.write(positions, vectors)
        self._written.update(int(p) for p in positions)

    def vector(self, position: int) -> np.ndarray | None:
        if self.has(position):
            return np.array(self._file.vectors[position])
        return None

    def remove(self, positions: Sequence[int]) -> None:
        """Erase entries: never returned again, their vectors zeroed in memory and in the
        file, and their codes in the ANN index (the saved one too, at ``persist``)."""
        gone = [int(p) for p in positions if self.has(int(p))]
        if not gone:
            return
        self._file.erase(gone)
        self._written.difference_update(gone)
        index = self._load_index()
        if index is not None:
            index.remove(gone)
        self._erased_since_save = True

    def search(
        self, query: np.ndarray, k: int, allowed: np.ndarray | None = None
    ) -> list[tuple[int, float]]:
        """The ``k`` nearest positions among ``allowed`` (default: all), best first."""
        n = self._file.size
        if n == 0 or k <= 0:
            return []
        has = self._file.has[:n]
        if allowed is not None and len(allowed) < n:  # positions the caller has not seen
            allowed = np.concatenate([allowed, np.zeros(n - len(allowed), dtype=bool)])
        mask = has if allowed is None else (allowed[:n] & has)
        count = int(mask.sum())
        if count == 0:
            return []
        if count <= EXACT_LIMIT or n < self._ann_min_size:
            if count > n // 2:  # most allowed: one product over all beats gathering rows
                scores = self._file.vectors[:n] @ query
                positions = np.flatnonzero(mask)
                return self._top(positions, scores[positions], k)
            return self._exact(query, k, np.flatnonzero(mask))
        return self._approximate(query, k, mask, count / n)

    def _exact(self, query: np.ndarray, k: int, positions: np.ndarray) -> list[tuple[int, float]]:
        return self._top(positions, np.take(self._file.vectors, positions, axis=0) @ query, k)

    @staticmethod
    def _top(positions: np.ndarray, scores: np.ndarray, k: int) -> list[tuple[int, float]]:
        top = min(k, len(positions))
        best = np.argpartition(-scores, top - 1)[:top]
        best = best[np.argsort(-scores[best])]
        return [(int(positions[i]), float(scores[i])) for i in best]

    def _approximate(
        self, query: np.ndarray, k: int, mask: np.ndarray, share: float
    ) -> list[tuple[int, float]]:
        found, _ = self._ensure_index().search(query, RERANK * k, mask, share=share)
        if not len(found):
            return self._exact(query, k, np.flatnonzero(mask))
        return self._exact(query, k, np.sort(found))

    def _load_index(self) -> ann.AnnIndex | None:
        if self._ann is None and not self._ann_tried and self.path is not None:
            self._ann_tried = True
            if os.path.exists(self.path + ".ann.faiss"):
                self._ann = ann.AnnIndex.load(self.path + ".ann", self.dimensions)
        return self._ann

    def _ensure_index(self) -> ann.AnnIndex:
        index = self._load_index()
        n = self._file.size
        held = np.flatnonzero(self._file.has[:n])
        if index is None or index.outgrown(len(held)):
            # Cells trained on what is held now (a first build, or one grown fourfold).
            index = self._ann = ann.AnnIndex.build(
                self.dimensions, held, np.asarray(self._file.vectors[held])
            )
            fresh = held
        else:  # what the index lacks: new positions, and those written since it saw them
            covered = np.zeros(n, dtype=bool)
            covered[: min(n, len(index.present))] = index.present[:n]
            stale = [p for p in self._written if p < n and covered[p]]
            fresh = np.union1d(np.flatnonzero(self._file.has[:n] & ~covered),
                               np.asarray(stale, dtype=np.int64))  # fmt: skip
            for start in range(0, len(fresh), 50_000):
                part = fresh[start : start + 50_000]
                index.add(part, np.asarray(self._file.vectors[part]))
        self._written.clear()
        if self.path is not None and len(fresh) > max(len(index) // 10, 1_000):
            # Save a large build at once, not only at close: a process that never closes
            # the store (killed, or a script that just ends) must not leave it to rebuild.
            index.save(self.path + ".ann", scrub_old=self._erased_since_save)
            self._erased_since_save = False
        return index

    def build(self) -> None:
        """Build the ANN index now (otherwise the first large filtered query does)."""
        if self._file.size >= self._ann_min_size:
            self._ensure_index()

    def persist(self, *, with_ann: bool = False) -> None:
        """Flush the vectors to their file; with ``with_ann``, save the ANN index too (when
        it changed), overwriting erased codes in the old file first."""
        self._file.flush()
        if self.path is None:
            return
        if self._erased_since_save or (with_ann and self._ann is not None and self._ann.dirty):
            if self._ann is not None:
                self._ann.save(self.path + ".ann", scrub_old=self._erased_since_save)
            self._erased_since_save = False

    def delete_files(self) -> None:
        """Overwrite this index's files with zeros and remove them."""
        if self.path is not None:
            self._file.delete()
            ann.delete(self.path + ".ann")

    @property
    def nbytes(self) -> int:
        return self._file.nbytes

    @property
    def ann_nbytes(self) -> int:
        """Memory the ANN index holds (int8 codes, ids, centroids)."""
        return self._ann.nbytes if self._ann is not None else 0

    @property
    def ann_built(self) -> bool:
        return self._ann is not None
