"""BM25 keyword relevance over an in-process inverted index, filtered before ranking.

Positions are chosen by the caller (``SearchTable``) and shared with ``VectorIndex``, so
one boolean mask restricts both. Scores follow Okapi BM25 (k1=1.2, b=0.75).

Postings are compact typed arrays (position, term frequency) per term, scored with
numpy: a query costs a few vector operations per query term, not a Python loop per
posting, so a common term over a million entries stays in the milliseconds. The mask
is applied to each posting list before any score is computed.

Tokens are ``graphmem.store.words.tokenize``'s, as the Neo4j backend's queries use.

An index can be saved and read back (``arrays`` / ``from_arrays``, see
``table_file.py``): the saved postings are one compressed-row array set, mapped from
the file, and what is added afterwards goes to in-memory posting lists beside them, so
a reopened store tokenises nothing it had already indexed.

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
        self._postings: dict[str, _Postings] = {}  # added since the base was loaded
        # The base: postings read back from a save, term -> row of the offsets array.
        self._base_terms: dict[str, int] = {}
        self._base_off = np.zeros(1, dtype=np.int64)
        self._base_pos = np.zeros(0, dtype=np.int64)
        self._base_tf = np.zeros(0, dtype=np.float32)
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
        for pos in gone:
            self._present[pos] = False
            self._total_length -= int(self._lengths[pos])
            self._lengths[pos] = 0
            self._live -= 1
        drop = np.zeros(self._size, dtype=bool)
        drop[np.asarray(gone, dtype=np.int64)] = True
        if len(self._base_pos):
            hit = drop[self._base_pos]
            if hit.any():  # the base is rewritten in memory without them (no longer mapped)
                counts = np.diff(self._base_off)
                owner = np.repeat(np.arange(len(counts)), counts)
                keep = ~hit
                kept = np.bincount(owner[keep], minlength=len(counts))
                self._base_off = np.concatenate([[0], np.cumsum(kept)]).astype(np.int64)
                self._base_pos = np.array(self._base_pos[keep])
                self._base_tf = np.array(self._base_tf[keep])
                self._base_terms = {t: i for t, i in self._base_terms.items() if kept[i]}
        for token in list(self._postings):
            bucket = self._postings[token]
            pos = np.frombuffer(bucket.positions, dtype=np.int64)
            hit = drop[pos]
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

    def _term(self, term: str) -> tuple[np.ndarray, np.ndarray] | None:
        """A term's postings (positions, term frequencies): the base's and the added."""
        parts = []
        row = self._base_terms.get(term)
        if row is not None:
            a, b = int(self._base_off[row]), int(self._base_off[row + 1])
            if b > a:
                parts.append((self._base_pos[a:b], self._base_tf[a:b]))
        bucket = self._postings.get(term)
        if bucket is not None and len(bucket.positions):
            parts.append(
                (
                    np.frombuffer(bucket.positions, dtype=np.int64),
                    np.frombuffer(bucket.freqs, dtype=np.float32),
                )
            )
        if not parts:
            return None
        if len(parts) == 1:
            return parts[0]
        return np.concatenate([p for p, _ in parts]), np.concatenate([t for _, t in parts])

    def arrays(self) -> tuple[dict, dict[str, np.ndarray]]:
        """The index as metadata and arrays to save (base and added merged, terms
        without postings dropped: an erased word is not kept in the vocabulary)."""
        terms = sorted(set(self._base_terms) | set(self._postings))
        pos_parts, tf_parts, counts = [], [], []
        for term in terms:
            found = self._term(term)
            n = 0 if found is None else len(found[0])
            if n:
                pos_parts.append(found[0])
                tf_parts.append(found[1])
            counts.append(n)
        keep = [i for i, n in enumerate(counts) if n]
        meta = {
            "kw_terms": [terms[i] for i in keep],
            "kw_live": self._live,
            "kw_total": self._total_length,
            "kw_size": self._size,
        }
        cut = np.asarray([counts[i] for i in keep], dtype=np.int64)
        arrays = {
            "kw_off": np.concatenate([[0], np.cumsum(cut)]).astype(np.int64),
            "kw_pos": np.concatenate(pos_parts) if pos_parts else np.zeros(0, dtype=np.int64),
            "kw_tf": np.concatenate(tf_parts) if tf_parts else np.zeros(0, dtype=np.float32),
            "kw_len": self._lengths[: self._size],
            "kw_has": self._present[: self._size],
        }
        return meta, arrays

    @classmethod
    def from_arrays(cls, meta: dict, arrays: dict[str, np.ndarray]) -> KeywordIndex:
        """An index read back from what ``arrays`` gave (the postings stay mapped)."""
        index = cls()
        index._base_terms = {t: i for i, t in enumerate(meta["kw_terms"])}
        index._base_off = np.asarray(arrays["kw_off"], dtype=np.int64)
        index._base_pos, index._base_tf = arrays["kw_pos"], arrays["kw_tf"]
        if len(index._base_off) != len(index._base_terms) + 1:
            raise ValueError("keyword index: offsets and terms disagree")
        size = int(meta["kw_size"])
        index._grow(size)
        index._lengths[:size] = arrays["kw_len"][:size]
        index._present[:size] = arrays["kw_has"][:size]
        index._size = size
        index._live, index._total_length = int(meta["kw_live"]), int(meta["kw_total"])
        return index

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
            found = self._term(term)
            if found is None:
                continue
            pos, tf = found
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
