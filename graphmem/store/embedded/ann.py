"""The embedded store's approximate nearest-neighbour graph: faiss HNSW over int8 codes.

Chosen by ``bench/bench_ann.py`` (same clustered vectors, hnswlib, usearch, faiss,
sqlite-vec side by side): faiss applies a query's mask as a native bitmap
(``IDSelectorBitmap``) during the graph walk, where hnswlib calls back into Python for
every node it visits (tens to hundreds of ms under a 10% or 1% mask); usearch's Python
search takes no filter at all. Codes are 8-bit scalar-quantised (a quarter of float32),
and the best candidates are re-scored exactly by the caller from the float32 vectors,
so scores are never the quantised ones.

Nodes are numbered in insertion order; ``labels`` maps each node to the caller's
position. A position erased has its node's codes overwritten with zeros and its label
set to -1; a position given a new vector gets a new node (HNSW cannot move one).

>>> import numpy as np
>>> g = AnnGraph(4)
>>> g.add([7, 9], np.array([[1, 0, 0, 0], [0, 1, 0, 0]], dtype=np.float32))
>>> g.search(np.array([1, 0, 0, 0], dtype=np.float32), 1, None)[0].tolist()
[7]
"""

from __future__ import annotations

import os
from collections.abc import Sequence

import numpy as np

M = 32  # graph degree (2*M links on the base layer): faiss's default, recall 0.99+ at 1M
EF_CONSTRUCTION = 64
# Questions are not statements: a query's embedding lies farther from every fact than
# the facts from each other, and the graph walk needs a wide beam to find the exact top
# 10. Measured at 100k facts with bench_search_latency's questions (int8 codes, 40
# re-scored): recall@10 0.87 at ef 128, 0.94 at 256, 0.99 at 512.
EF_SEARCH = 512  # at least; raised for selective masks


def _faiss():
    import faiss

    return faiss


class AnnGraph:
    def __init__(self, dims: int):
        self.dims = dims
        self.index = None  # made by the first add, whose vectors set the code ranges
        self.labels = np.zeros(0, dtype=np.int64)  # node -> position (-1: erased)
        self.node_of: dict[int, int] = {}  # position -> its live node
        self.dirty = False

    def __len__(self) -> int:
        return len(self.node_of)

    def add(self, positions: Sequence[int], vectors: np.ndarray) -> None:
        if len(positions) == 0:
            return
        vectors = np.ascontiguousarray(vectors, dtype=np.float32)
        stale = [self.node_of[p] for p in positions if p in self.node_of]
        if stale:  # a position given a new vector: retire its old node
            self._scrub(stale)
        first = 0 if self.index is None else self.index.ntotal
        if self.index is None:
            self.index = _bulk_build(vectors)
        else:
            self.index.add(vectors)
        self.labels = np.concatenate([self.labels, np.asarray(positions, dtype=np.int64)])
        for offset, pos in enumerate(positions):
            self.node_of[int(pos)] = first + offset
        self.dirty = True

    def remove(self, positions: Sequence[int]) -> None:
        """Erase positions: their nodes' codes are zeroed, they are never returned."""
        nodes = [self.node_of.pop(int(p)) for p in positions if int(p) in self.node_of]
        if nodes:
            self._scrub(nodes)

    def _scrub(self, nodes: Sequence[int]) -> None:
        faiss = _faiss()
        storage = faiss.downcast_index(self.index.storage)
        codes = faiss.rev_swig_ptr(storage.codes.data(), storage.codes.size())
        codes = codes.reshape(-1, storage.code_size)
        codes[np.asarray(nodes)] = 0
        self.labels[np.asarray(nodes)] = -1
        self.dirty = True

    def search(
        self, query: np.ndarray, k: int, allowed: np.ndarray | None, *, ef: int = EF_SEARCH
    ) -> tuple[np.ndarray, np.ndarray]:
        """Positions of the (about) ``k`` nearest among ``allowed`` (a mask over
        positions), best first, with their approximate scores."""
        faiss = _faiss()
        if self.index is None:
            return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.float32)
        params = faiss.SearchParametersHNSW()
        params.efSearch = max(ef, k)
        labels = self.labels
        nodes = np.flatnonzero(labels >= 0) if allowed is None else None
        if allowed is not None or len(nodes) < len(labels):
            if allowed is None:
                keep = labels >= 0
            else:
                inside = (labels >= 0) & (labels < len(allowed))
                keep = np.zeros(len(labels), dtype=bool)
                keep[inside] = allowed[labels[inside]]
            bits = np.packbits(keep, bitorder="little")
            params.sel = faiss.IDSelectorBitmap(len(keep), faiss.swig_ptr(bits))
        scores, found = self.index.search(query[None, :].astype(np.float32), k, params=params)
        hit = found[0] >= 0
        return labels[found[0][hit]], scores[0][hit]

    # -- persistence -------------------------------------------------------------------
    def save(self, path: str, *, scrub_old: bool = False) -> None:
        """Write the graph and its labels atomically (a new file renamed over the old).
        After an erasure, ``scrub_old`` first overwrites the old files with zeros, so
        the erased codes do not outlive them in freed disk blocks."""
        faiss = _faiss()
        if scrub_old:
            delete(path)
        if self.index is None:
            return
        writer = faiss.VectorIOWriter()
        faiss.write_index(self.index, writer)
        _replace(path + ".labels", self.labels.tobytes())
        _replace(path + ".faiss", faiss.vector_to_array(writer.data).tobytes())
        self.dirty = False

    @classmethod
    def load(cls, path: str, dims: int) -> AnnGraph | None:
        """The graph saved at ``path``, or None when missing or unreadable."""
        faiss = _faiss()
        try:
            index = faiss.read_index(path + ".faiss")
            labels = np.fromfile(path + ".labels", dtype=np.int64)
        except (RuntimeError, OSError, ValueError):
            return None
        if index.d != dims or index.ntotal != len(labels):
            return None
        graph = cls.__new__(cls)
        graph.dims, graph.index, graph.labels, graph.dirty = dims, index, labels, False
        live = np.flatnonzero(labels >= 0)
        graph.node_of = dict(zip(labels[live].tolist(), live.tolist(), strict=True))
        return graph

    @property
    def nbytes(self) -> int:
        """Codes, links and labels held in memory."""
        n = 0 if self.index is None else self.index.ntotal
        return int(n * (self.dims + 2 * M * 4 + 8) + n / max(M - 1, 1) * M * 4)


def _bulk_build(vectors: np.ndarray):
    """An HNSW graph over int8 codes of ``vectors``. The graph is built over float32
    (faiss's int8 distance is ~3x slower to build with: 62 s against 21 s for 100k
    vectors on 2 cores) and then given the int8 codes as its storage; the float32 copy
    is freed. Code ranges: per dimension, the batch's min/max widened by 10%."""
    faiss = _faiss()
    n, dims = vectors.shape
    flat = faiss.IndexHNSWFlat(dims, M, faiss.METRIC_INNER_PRODUCT)
    flat.hnsw.efConstruction = EF_CONSTRUCTION
    flat.add(vectors)
    index = faiss.IndexHNSWSQ(dims, faiss.ScalarQuantizer.QT_8bit, M, faiss.METRIC_INNER_PRODUCT)
    storage = faiss.downcast_index(index.storage)
    storage.sq.rangestat = faiss.ScalarQuantizer.RS_minmax
    storage.sq.rangestat_arg = 0.1
    index.train(vectors[:: max(1, n // 20_000)])
    index.storage.add(vectors)
    index.hnsw = flat.hnsw  # the graph's links, copied
    index.ntotal = flat.ntotal
    index.hnsw.efConstruction = EF_CONSTRUCTION
    del flat
    return index


def _replace(name: str, data: bytes) -> None:
    with open(name + ".tmp", "wb") as fh:
        fh.write(data)
        fh.flush()
        os.fsync(fh.fileno())
    os.replace(name + ".tmp", name)


def delete(path: str) -> None:
    """Remove a saved graph, overwriting its bytes with zeros first."""
    from graphmem.store.embedded.vector_file import scrub

    scrub(path + ".faiss")
    scrub(path + ".labels")
