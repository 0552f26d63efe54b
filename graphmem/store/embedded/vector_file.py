"""Vectors at positions, in memory or in a float32 file beside the database, mapped.

A ``VectorFile`` is two arrays indexed by position: the vectors (float32, ``dims``
wide) and a flag per position saying whether it holds one. With a path they live in
two files (``<path>.f32`` and ``<path>.has``) mapped into memory, so reopening a store
reads nothing up front and the pages a query touches are the operating system's to
keep or drop; without one they are ordinary arrays. Files grow by doubling.

Erasing a position overwrites its bytes with zeros in place: the vector is gone from
the file too, not just hidden (``secure_delete`` in SQLite's terms).

>>> import numpy as np
>>> f = VectorFile(None, 3)
>>> f.write([0, 5], np.eye(3, dtype=np.float32)[:2])
>>> f.size, bool(f.has[5]), f.vectors[5].tolist()
(6, True, [0.0, 1.0, 0.0])
>>> f.erase([5]); f.vectors[5].tolist(), bool(f.has[5])
([0.0, 0.0, 0.0], False)
"""

from __future__ import annotations

import os
from collections.abc import Sequence

import numpy as np

_INITIAL = 1024


class VectorFile:
    def __init__(self, path: str | None, dims: int):
        self.path = path
        self.dims = dims
        if path is None:
            self.vectors = np.zeros((_INITIAL, dims), dtype=np.float32)
            self.has = np.zeros(_INITIAL, dtype=bool)
            self.size = 0
            return
        capacity = _INITIAL
        if os.path.exists(path + ".has"):
            capacity = max(_INITIAL, os.path.getsize(path + ".has"))
        self._map(capacity)
        found = np.flatnonzero(self.has)
        self.size = int(found[-1]) + 1 if len(found) else 0  # one past the highest used

    def _map(self, capacity: int) -> None:
        assert self.path is not None
        for suffix, width in ((".f32", self.dims * 4), (".has", 1)):
            name = self.path + suffix
            with open(name, "ab") as fh:  # create, then extend with zeros (sparse)
                if fh.tell() < capacity * width:
                    fh.truncate(capacity * width)
        self._maps = (
            np.memmap(self.path + ".f32", dtype=np.float32, mode="r+", shape=(capacity, self.dims)),
            np.memmap(self.path + ".has", dtype=bool, mode="r+", shape=(capacity,)),
        )
        # Plain array views of the maps: np.memmap's own indexing is ~50x slower per item.
        self.vectors, self.has = (m.view(np.ndarray) for m in self._maps)

    @property
    def capacity(self) -> int:
        return self.has.shape[0]

    def _grow(self, needed: int) -> None:
        capacity = self.capacity
        if needed <= capacity:
            return
        while capacity < needed:
            capacity *= 2
        if self.path is not None:
            self.flush()
            self._map(capacity)
            return
        vectors = np.zeros((capacity, self.dims), dtype=np.float32)
        vectors[: self.size] = self.vectors[: self.size]
        has = np.zeros(capacity, dtype=bool)
        has[: self.size] = self.has[: self.size]
        self.vectors, self.has = vectors, has

    def write(self, positions: Sequence[int], vectors: np.ndarray) -> None:
        if len(positions) == 0:
            return
        top = int(max(positions)) + 1
        self._grow(top)
        self.size = max(self.size, top)
        index = np.asarray(positions)
        self.vectors[index] = vectors
        self.has[index] = True

    def erase(self, positions: Sequence[int]) -> None:
        """Zero the positions' bytes (in the file too) and mark them empty."""
        index = np.asarray([p for p in positions if p < self.size], dtype=np.int64)
        if len(index):
            self.vectors[index] = 0.0
            self.has[index] = False

    def flush(self) -> None:
        """Write mapped pages to the file (before a stamp says they are there)."""
        if self.path is not None:
            for mapped in self._maps:
                mapped.flush()

    def delete(self) -> None:
        """Overwrite the files with zeros and remove them (a stale file may hold vectors
        that were erased since it was written)."""
        if self.path is None:
            return
        for suffix in (".f32", ".has"):
            scrub(self.path + suffix)

    @property
    def nbytes(self) -> int:
        return int(self.size * (self.dims * 4 + 1))


def scrub(name: str) -> None:
    """Overwrite a file with zeros in place, then remove it (missing files are fine)."""
    try:
        size = os.path.getsize(name)
    except FileNotFoundError:
        return
    with open(name, "r+b") as fh:
        block = b"\0" * (1 << 20)
        for _ in range(0, size, len(block)):
            fh.write(block)
        fh.truncate(size)
        fh.flush()
        os.fsync(fh.fileno())
    os.unlink(name)
