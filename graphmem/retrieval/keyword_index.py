"""BM25 keyword relevance over an in-process inverted index, filtered before ranking.

Positions are chosen by the caller (``SearchTable``) and shared with ``VectorIndex``, so
one boolean mask restricts both. Scores follow Okapi BM25 (k1=1.2, b=0.75).

>>> index = KeywordIndex()
>>> index.add([0, 1], ["Alice moved to Berlin", "Bob adopted a cat"])
>>> [pos for pos, _ in index.search("where did alice move", 2)]
[0]
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence

import numpy as np

_TOKEN = re.compile(r"[a-z0-9]+(?:'[a-z]+)?")
STOPWORDS = frozenset(
    ["a", "an", "and", "are", "as", "at", "be", "been", "but", "by", "did", "do", "does", "for", "from", "had", "has", "have", "he", "her", "his", "how", "i", "i'm", "in", "into", "is", "it", "its", "me", "my", "of", "on", "or", "our", "she", "so", "that", "the", "their", "them", "then", "there", "these", "they", "this", "to", "was", "we", "were", "what", "when", "where", "which", "who", "whom", "why", "will", "with", "would", "you", "your", "yours", "about", "can", "could", "should", "just", "than", "too", "very", "also", "any", "some", "all"]
)


def tokenize(text: str) -> list[str]:
    """Lower-cased word tokens without stop words, with a light plural/verb suffix fold."""
    out = []
    for token in _TOKEN.findall(text.lower()):
        if token in STOPWORDS:
            continue
        out.append(_fold(token))
    return out


def _fold(token: str) -> str:
    # A tiny stemmer: enough to match "moved"/"move", "cats"/"cat", "living"/"live".
    for suffix, keep in (("ing", 4), ("ies", 3), ("ed", 4), ("es", 4), ("s", 3)):
        if token.endswith(suffix) and len(token) - len(suffix) >= keep - 1:
            stem = token[: -len(suffix)]
            return stem + ("y" if suffix == "ies" else "")
    return token


class KeywordIndex:
    k1 = 1.2
    b = 0.75

    def __init__(self):
        self._lengths: dict[int, int] = {}
        self._terms: dict[int, tuple[str, ...]] = {}
        self._postings: dict[str, dict[int, int]] = {}
        self._total_length = 0

    def __len__(self) -> int:
        return len(self._lengths)

    def add(self, positions: Sequence[int], texts: Sequence[str]) -> None:
        for pos, text in zip(positions, texts, strict=True):
            if pos in self._lengths:
                continue  # a position's text never changes
            tokens = tokenize(text)
            self._lengths[pos] = len(tokens)
            self._terms[pos] = tuple(set(tokens))
            self._total_length += len(tokens)
            for token in tokens:
                bucket = self._postings.setdefault(token, {})
                bucket[pos] = bucket.get(pos, 0) + 1

    def remove(self, positions: Sequence[int]) -> None:
        """Erase entries: their postings are deleted, not just hidden."""
        for pos in positions:
            if pos not in self._lengths:
                continue
            self._total_length -= self._lengths.pop(pos)
            for token in self._terms.pop(pos):
                bucket = self._postings[token]
                bucket.pop(pos, None)
                if not bucket:
                    del self._postings[token]

    def search(
        self, query: str, k: int, allowed: np.ndarray | None = None
    ) -> list[tuple[int, float]]:
        terms = set(tokenize(query))
        live = len(self._lengths)
        if not terms or not live or k <= 0:
            return []
        average = self._total_length / live or 1.0
        scores: dict[int, float] = {}
        for term in terms:
            bucket = self._postings.get(term)
            if not bucket:
                continue
            idf = math.log(1 + (live - len(bucket) + 0.5) / (len(bucket) + 0.5))
            for pos, tf in bucket.items():
                if allowed is not None and not allowed[pos]:
                    continue
                norm = tf + self.k1 * (1 - self.b + self.b * self._lengths[pos] / average)
                scores[pos] = scores.get(pos, 0.0) + idf * tf * (self.k1 + 1) / norm
        best = sorted(scores.items(), key=lambda item: -item[1])[:k]
        return best
