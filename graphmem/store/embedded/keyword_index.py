"""BM25 keyword relevance over an in-process inverted index, filtered before ranking.

Positions are chosen by the caller (``SearchTable``) and shared with ``VectorIndex``, so
one boolean mask restricts both. Scores follow Okapi BM25 (k1=1.2, b=0.75).

Postings are compact typed arrays (position, term frequency) per term, scored with
numpy: a query costs a few vector operations per query term, not a Python loop per
posting, so a common term over a million entries stays in the milliseconds. The mask
is applied to each posting list before any score is computed.

Tokens are ``graphmem.store.words.tokenize``'s, as the Neo4j backend's queries use.

>>> index = KeywordIndex()
>>> index.add([0, 1], ["Alice moved to Berlin", "Bob adopted a cat"])
>>> [pos for pos, _ in index.search("where did alice move", 2)]
[0]
"""

from __future__ import annotations

import math
from array import array
from collections import Counter
from collections.abc import Sequence

import numpy as np

from graphmem.store.words import tokenize


class _Postings:
    """One term's posting list: parallel typed arrays (cheap to append, zero-copy to numpy)."""

    __slots__ = ("positions", "freqs")

    def __init__(self) -> None:
        self.positions = array("q")
        self.freqs = array("f")


class KeywordIndex:
    k1 = 1.2
    b = 0.75

    def __init__(self):
        self._postings: dict[str, _Postings] = {}
        self._lengths = np.zeros(1024, dtype=np.float32)
        self._present = np.zeros(1024, dtype=bool)
        self._size = 0  # one past the highest position used
        self._live = 0
        self._total_length = 0

    def __len__(self) -> int:
        return self._live

    def _grow(self, needed: int) -> None:
        capacity = self._lengths.shape[0]
        if needed <= capacity:
            return
        while capacity < needed:
            capacity *= 2
        lengths = np.zeros(capacity, dtype=np.float32)
        lengths[: self._size] = self._lengths[: self._size]
        present = np.zeros(capacity, dtype=bool)
        present[: self._size] = self._present[: self._size]
        self._lengths, self._present = lengths, present

    def add(self, positions: Sequence[int], texts: Sequence[str]) -> None:
        for pos, text in zip(positions, texts, strict=True):
            if pos < self._size and self._present[pos]:
                continue  # a position's text never changes
            tokens = tokenize(text)
            self._grow(pos + 1)
            self._size = max(self._size, pos + 1)
            self._present[pos] = True
            self._lengths[pos] = len(tokens)
            self._live += 1
            self._total_length += len(tokens)
            for token, tf in Counter(tokens).items():
                bucket = self._postings.get(token)
                if bucket is None:
                    bucket = self._postings[token] = _Postings()
                bucket.positions.append(pos)
                bucket.freqs.append(tf)

    def remove(self, positions: Sequence[int]) -> None:
        """Erase entries: their postings are deleted, not just hidden."""
        gone = [p for p in positions if p < self._size and self._present[p]]
        if not gone:
            return
        drop = np.asarray(gone, dtype=np.int64)
        for pos in gone:
            self._present[pos] = False
            self._total_length -= int(self._lengths[pos])
            self._lengths[pos] = 0
            self._live -= 1
        for token in list(self._postings):
            bucket = self._postings[token]
            pos = np.frombuffer(bucket.positions, dtype=np.int64)
            hit = np.isin(pos, drop)
            if not hit.any():
                continue
            keep = ~hit
            if not keep.any():
                del self._postings[token]
                continue
            freqs = np.frombuffer(bucket.freqs, dtype=np.float32)
            fresh = _Postings()
            fresh.positions.frombytes(pos[keep].tobytes())
            fresh.freqs.frombytes(freqs[keep].tobytes())
            del pos, freqs  # release the buffers before replacing the arrays
            self._postings[token] = fresh

    def search(
        self, query: str, k: int, allowed: np.ndarray | None = None
    ) -> list[tuple[int, float]]:
        """The ``k`` best positions by BM25 among ``allowed`` (default: all), best first."""
        terms = set(tokenize(query))
        live = self._live
        if not terms or not live or k <= 0:
            return []
        if allowed is not None and len(allowed) < self._size:
            allowed = np.concatenate([allowed, np.zeros(self._size - len(allowed), dtype=bool)])
        average = self._total_length / live or 1.0
        parts_pos, parts_score = [], []
        for term in sorted(terms):
            bucket = self._postings.get(term)
            if bucket is None or not len(bucket.positions):
                continue
            pos = np.frombuffer(bucket.positions, dtype=np.int64)
            tf = np.frombuffer(bucket.freqs, dtype=np.float32)
            df = len(pos)
            if allowed is not None:
                keep = allowed[pos]
                pos, tf = pos[keep], tf[keep]
                if not len(pos):
                    continue
            idf = math.log(1 + (live - df + 0.5) / (df + 0.5))
            norm = tf + self.k1 * (1 - self.b + self.b * self._lengths[pos] / average)
            parts_pos.append(pos)
            parts_score.append(idf * tf * (self.k1 + 1) / norm)
        if not parts_pos:
            return []
        if len(parts_pos) == 1:
            pos, scores = parts_pos[0], parts_score[0].astype(np.float64)
        else:
            every = np.concatenate(parts_pos)
            dense = np.bincount(every, weights=np.concatenate(parts_score), minlength=self._size)
            seen = np.zeros(self._size, dtype=bool)
            seen[every] = True
            pos = np.flatnonzero(seen)
            scores = dense[pos]
        top = min(k, len(pos))
        if top < len(pos):
            best = np.argpartition(-scores, top - 1)[:top]
            best = best[np.lexsort((pos[best], -scores[best]))]
        else:
            best = np.lexsort((pos, -scores))
        return [(int(pos[i]), float(scores[i])) for i in best]
