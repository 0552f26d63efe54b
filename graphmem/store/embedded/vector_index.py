"""An in-process vector index whose filter applies *before* ranking.

Entries live at positions ``0..n`` chosen by the caller (``SearchTable``), which passes
a boolean mask of the positions a query may see (its scope and time mode). When few entries pass, the search is exact
over exactly those (a matrix product); when many pass and the index is large, an HNSW
graph (hnswlib) is searched with the mask as its filter, so filtered-out entries are
never candidates. Vectors are unit length, so inner product is cosine similarity.

>>> import numpy as np
>>> index = VectorIndex(3)
>>> index.add([0, 1], np.array([[1, 0, 0], [0, 1, 0]], dtype=np.float32))
>>> index.search(np.array([1, 0, 0], dtype=np.float32), 1)
[(0, 1.0)]
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

EXACT_LIMIT = 20_000  # up to this many allowed entries an exact scan is fast (~5 ms) and exact
HNSW_MIN_SIZE = 50_000  # the HNSW graph is built once the index holds this many entries
# HNSW parameters. M=12 / ef_construction=64 build ~40% faster than 16 / 100 (100k
# vectors: 30 s instead of 48 s on 2 busy cores) for a little recall, won back at query
# time by a wider beam (ef >= 128: recall@10 ~0.9 against an exact scan on clustered data).
HNSW_M = 12  # graph degree (2*M links on the base layer)
HNSW_EF_CONSTRUCTION = 64
HNSW_EF_SEARCH = 128  # at least; raised for larger k and for selective masks


class VectorIndex:
    def __init__(self, dimensions: int, *, hnsw_min_size: int = HNSW_MIN_SIZE):
        self.dimensions = dimensions
        self._vectors = np.zeros((1024, dimensions), dtype=np.float32)
        self._has = np.zeros(1024, dtype=bool)  # positions holding a live vector
        self._size = 0  # one past the highest position used
        self._hnsw = None
        self._hnsw_count = 0
        self._hnsw_min_size = hnsw_min_size

    def __len__(self) -> int:
        return int(self._has[: self._size].sum())

    def _grow(self, needed: int) -> None:
        capacity = self._vectors.shape[0]
        if needed <= capacity:
            return
        while capacity < needed:
            capacity *= 2
        vectors = np.zeros((capacity, self.dimensions), dtype=np.float32)
        vectors[: self._size] = self._vectors[: self._size]
        has = np.zeros(capacity, dtype=bool)
        has[: self._size] = self._has[: self._size]
        self._vectors, self._has = vectors, has

    def add(self, positions: Sequence[int], vectors: np.ndarray) -> None:
        if len(positions) == 0:
            return
        top = max(positions) + 1
        self._grow(top)
        self._size = max(self._size, top)
        index = np.asarray(positions)
        self._vectors[index] = vectors
        self._has[index] = True

    def vector(self, position: int) -> np.ndarray | None:
        if position < self._size and self._has[position]:
            return self._vectors[position].copy()
        return None

    def remove(self, positions: Sequence[int]) -> None:
        """Erase entries: never returned again, their vectors zeroed, and the HNSW graph
        (which would still hold a copy) dropped, to be rebuilt on the next large query."""
        for pos in positions:
            if pos < self._size and self._has[pos]:
                self._has[pos] = False
                self._vectors[pos] = 0.0
                self._hnsw, self._hnsw_count = None, 0

    def search(
        self, query: np.ndarray, k: int, allowed: np.ndarray | None = None
    ) -> list[tuple[int, float]]:
        """The ``k`` nearest positions among ``allowed`` (default: all), best first."""
        n = self._size
        if n == 0 or k <= 0:
            return []
        mask = self._has[:n] if allowed is None else (allowed[:n] & self._has[:n])
        count = int(mask.sum())
        if count == 0:
            return []
        if count <= EXACT_LIMIT or n < self._hnsw_min_size:
            return self._exact(query, k, np.flatnonzero(mask))
        return self._approximate(query, k, mask, count / n)

    def _exact(self, query: np.ndarray, k: int, positions: np.ndarray) -> list[tuple[int, float]]:
        scores = np.take(self._vectors, positions, axis=0) @ query
        top = min(k, len(positions))
        best = np.argpartition(-scores, top - 1)[:top]
        best = best[np.argsort(-scores[best])]
        return [(int(positions[i]), float(scores[i])) for i in best]

    def _approximate(
        self, query: np.ndarray, k: int, mask: np.ndarray, share: float
    ) -> list[tuple[int, float]]:
        index = self._ensure_hnsw()
        # The filter hides (1 - share) of what the graph walk meets: widen the beam a
        # little when most entries are filtered out.
        index.set_ef(int(min(max(HNSW_EF_SEARCH, 2 * k) / math.sqrt(max(share, 0.01)), 2000)))
        labels, distances = index.knn_query(query, k=k, filter=lambda label: bool(mask[label]))
        return [
            (int(label), float(1.0 - dist))
            for label, dist in zip(labels[0], distances[0], strict=True)
        ]

    def _ensure_hnsw(self):
        import hnswlib

        n = self._size
        if self._hnsw is None:
            self._hnsw = hnswlib.Index(space="ip", dim=self.dimensions)
            self._hnsw.init_index(
                max_elements=max(n + n // 4, 1024), ef_construction=HNSW_EF_CONSTRUCTION, M=HNSW_M
            )
        if self._hnsw.get_max_elements() < n:
            self._hnsw.resize_index(n + n // 4)
        if self._hnsw_count < n:
            fresh = np.arange(self._hnsw_count, n)
            self._hnsw.add_items(self._vectors[fresh], fresh)
            self._hnsw_count = n
        return self._hnsw

    def build(self) -> None:
        """Build the HNSW graph now (otherwise the first large filtered query does)."""
        if self._size >= self._hnsw_min_size:
            self._ensure_hnsw()

    @property
    def nbytes(self) -> int:
        return int(self._vectors.nbytes + self._has.nbytes)

    @property
    def hnsw_nbytes(self) -> int:
        """Memory the HNSW graph holds, estimated from hnswlib's layout: per allocated
        element its vector copy, base-layer links and label (plus a lock and a label-map
        entry), and upper-layer links for the ~1/(M-1) elements that have them."""
        if self._hnsw is None:
            return 0
        capacity = self._hnsw.get_max_elements()
        count = self._hnsw.get_current_count()
        per_element = self.dimensions * 4 + (2 * HNSW_M * 4 + 4) + 8
        upper = count / max(HNSW_M - 1, 1) * (HNSW_M * 4 + 4 + 8)
        return int(capacity * per_element + count * (40 + 32) + upper)
