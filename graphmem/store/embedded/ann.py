"""The embedded store's approximate nearest-neighbour index: faiss IVF over int8 codes.

Chosen by ``bench/bench_ann.py`` (the same clustered vectors and real question
embeddings, HNSW and IVF from faiss, hnswlib, usearch, sqlite-vec side by side). At 1M
vectors an inverted file of k-means cells beat faiss's HNSW graph on every count: recall@10
0.99+ against 0.84, a few ms a query against tens, a build of about a minute against
eleven, and an add that only files a vector under its nearest centroid (a graph insert
walks the graph). Question embeddings lie far from every fact, which a greedy graph walk
handles badly and a scan of the nearest cells does not mind. faiss applies a query's
mask as a native bitmap (``IDSelectorBitmap``) while it scans, so filtered-out entries
are never candidates. Codes are 8-bit scalar-quantised residuals (a quarter of
float32); the caller re-scores the best candidates exactly from the float32 vectors,
so scores are never the quantised ones.

Entries are filed under the caller's positions (faiss ids), so a mask over positions is
the filter as it is. Erasing a position removes its code; a position given a new vector
loses its old code first.

The cells are trained once, on the vectors of the first build. An index that has grown
to four times that size (``outgrown``) is rebuilt by the caller with cells for its size.

>>> import numpy as np
>>> index = AnnIndex.build(4, [7, 9], np.array([[1, 0, 0, 0], [0, 1, 0, 0]], dtype=np.float32))
>>> index.search(np.array([1, 0, 0, 0], dtype=np.float32), 1, None)[0].tolist()
[7]
"""

from __future__ import annotations

import math
import os
from collections.abc import Sequence

import numpy as np

# Entries a query scans (before its mask): at 1M facts, 32k in 4,000 cells found 0.99+ of
# the exact top 10 (bench_ann.py); fewer cells in a smaller index are scanned wider.
SCAN = 32_768
TRAIN_PER_CELL = 64  # k-means sample: faiss wants at least 39 points a cell
GROWTH = 4  # rebuilt once it holds this many times what its cells were trained on


def _faiss():
    import faiss

    return faiss


def cells_for(n: int) -> int:
    """How many k-means cells an index of ``n`` vectors gets: about 4·sqrt(n) (4,000 at
    1M), never fewer points than faiss needs to train them."""
    return max(1, min(int(4 * math.sqrt(n)), n // 39))


class AnnIndex:
    def __init__(self, index, present: np.ndarray):
        self.index = index
        self.present = present  # position -> holds a code
        self.dirty = True

    @classmethod
    def build(cls, dims: int, positions: Sequence[int], vectors: np.ndarray) -> AnnIndex:
        """An index over ``vectors`` (filed under ``positions``), its cells trained on them."""
        faiss = _faiss()
        n = len(positions)
        cells = cells_for(n)
        quantizer = faiss.IndexFlatIP(dims)
        index = faiss.IndexIVFScalarQuantizer(
            quantizer, dims, cells, faiss.ScalarQuantizer.QT_8bit, faiss.METRIC_INNER_PRODUCT
        )
        quantizer.this.disown()  # the index frees it
        index.own_fields = True
        # Code ranges per dimension: the sample's min/max widened by 10%.
        index.sq.rangestat = faiss.ScalarQuantizer.RS_minmax
        index.sq.rangestat_arg = 0.1
        index.cp.min_points_per_centroid = 1  # a small index: no warning per cell
        sample = vectors[:: max(1, n // (TRAIN_PER_CELL * cells))]
        index.train(np.ascontiguousarray(sample, dtype=np.float32))
        built = cls(index, np.zeros(0, dtype=bool))
        for start in range(0, n, 50_000):
            part = slice(start, start + 50_000)
            built.add(positions[part], vectors[part])
        return built

    def __len__(self) -> int:
        return int(self.index.ntotal)

    @property
    def cells(self) -> int:
        return int(self.index.nlist)

    def outgrown(self, n: int) -> bool:
        """Whether ``n`` entries are too many for the cells it was trained with."""
        # The fewest vectors that get this many cells: the index was built for at least that.
        built_for = max(39 * self.cells, (self.cells / 4) ** 2)
        return n >= GROWTH * built_for

    def add(self, positions: Sequence[int], vectors: np.ndarray) -> None:
        """File vectors under positions; a position already held loses its old code."""
        if len(positions) == 0:
            return
        ids = np.asarray(positions, dtype=np.int64)
        self.remove(ids)
        self.index.add_with_ids(np.ascontiguousarray(vectors, dtype=np.float32), ids)
        if ids.max() >= len(self.present):
            grown = np.zeros(max(int(ids.max()) + 1, 2 * len(self.present)), dtype=bool)
            grown[: len(self.present)] = self.present
            self.present = grown
        self.present[ids] = True
        self.dirty = True

    def remove(self, positions: Sequence[int]) -> None:
        """Erase positions: their codes leave the index and are never returned."""
        ids = np.asarray(positions, dtype=np.int64)
        ids = ids[ids < len(self.present)]
        ids = ids[self.present[ids]]
        if len(ids):
            self.index.remove_ids(ids)
            self.present[ids] = False
            self.dirty = True

    def search(
        self, query: np.ndarray, k: int, allowed: np.ndarray | None, *, share: float = 1.0
    ) -> tuple[np.ndarray, np.ndarray]:
        """Positions of the (about) ``k`` nearest among ``allowed`` (a mask over
        positions, ``share`` of them allowed), best first, with approximate scores."""
        faiss = _faiss()
        params = faiss.SearchParametersIVF()
        # A mask hides (1 - share) of what is scanned: scan wider when most is hidden.
        wide = SCAN / max(len(self), 1) / math.sqrt(max(share, 0.01))
        params.nprobe = max(1, min(self.cells, math.ceil(self.cells * wide)))
        if allowed is not None:
            bits = np.packbits(allowed, bitorder="little")
            params.sel = faiss.IDSelectorBitmap(len(bits), faiss.swig_ptr(bits))
        scores, found = self.index.search(query[None, :].astype(np.float32), k, params=params)
        hit = found[0] >= 0
        return found[0][hit], scores[0][hit]

    # -- persistence -------------------------------------------------------------------
    def save(self, path: str, *, scrub_old: bool = False) -> None:
        """Write the index atomically (a new file renamed over the old). After an
        erasure, ``scrub_old`` first overwrites the old file with zeros, so the erased
        codes do not outlive it in freed disk blocks."""
        faiss = _faiss()
        if scrub_old:
            delete(path)
        writer = faiss.VectorIOWriter()
        faiss.write_index(self.index, writer)
        _replace(path + ".faiss", faiss.vector_to_array(writer.data).tobytes())
        self.dirty = False

    @classmethod
    def load(cls, path: str, dims: int) -> AnnIndex | None:
        """The index saved at ``path``, or None when missing, unreadable or of another
        kind (an HNSW graph saved by an older version is rebuilt as an index)."""
        faiss = _faiss()
        try:
            index = faiss.read_index(path + ".faiss")  # of its own class already
        except (RuntimeError, OSError, ValueError):
            return None
        if not isinstance(index, faiss.IndexIVFScalarQuantizer) or index.d != dims:
            return None
        lists = index.invlists
        ids = [faiss.rev_swig_ptr(lists.get_ids(c), lists.list_size(c)).copy()
               for c in range(index.nlist) if lists.list_size(c)]  # fmt: skip
        held = np.concatenate(ids) if ids else np.zeros(0, dtype=np.int64)
        present = np.zeros(int(held.max()) + 1 if len(held) else 0, dtype=bool)
        present[held] = True
        loaded = cls(index, present)
        loaded.dirty = False
        return loaded

    @property
    def nbytes(self) -> int:
        """Codes, ids and centroids held in memory."""
        return int(len(self) * (self.index.code_size + 8) + self.cells * self.index.d * 4)


def _replace(name: str, data: bytes) -> None:
    with open(name + ".tmp", "wb") as fh:
        fh.write(data)
        fh.flush()
        os.fsync(fh.fileno())
    os.replace(name + ".tmp", name)


def delete(path: str) -> None:
    """Remove a saved index, overwriting its bytes with zeros first (``.labels``: the
    node map an older version kept beside its HNSW graph)."""
    from graphmem.store.embedded.vector_file import scrub

    scrub(path + ".faiss")
    scrub(path + ".labels")
