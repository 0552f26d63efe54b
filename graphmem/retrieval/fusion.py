"""How the sources' rankings become one score per candidate.

Each source (vector, keyword, graph) gives a ranked list of (id, raw score). A fusion
turns them into one number in [0, 1] per candidate (1: first in every source):

- ``rrf``: reciprocal rank fusion, sum of w / (k + rank); ranks only. A strong source
  and a weak one count alike, so a weak source's noise drags the strong one down.
- ``score``: a convex combination of each source's scores, each divided by that
  source's best score in this query (keyword: BM25 / best; vector: cosine above a
  floor / best above it), so how far apart the candidates are counts, not just their
  order. A source whose candidates are all about as good adds little order.
- ``adaptive``: ``score`` with per-query source weights from the score distributions:
  a source whose best score stands out of its own top ``k`` (the gap between its best
  and its typical top-k score, relative to that score) gets more weight, one that is
  flat less; and a question that names something rare (a word in few entries, the
  keyword source's top score high) leans to keywords. See ``adaptive_weights``.

>>> ranked = {"vector": [("a", 0.5), ("b", 0.4)], "keyword": [("b", 7.0), ("c", 1.0)]}
>>> fused = fuse(ranked, {"vector": 1.0, "keyword": 1.0}, "score")
>>> max(fused, key=fused.get)
'b'
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np

FUSIONS = ("rrf", "score", "adaptive")

RRF_K = 60
VECTOR_FLOOR = 0.1  # cosine below which MiniLM pairs are unrelated: scored 0
STANDOUT_TOP = 10  # how many of a source's best scores make its "typical" score


def fuse(
    ranked: Mapping[str, Sequence[tuple[str, float]]],
    weights: Mapping[str, float],
    fusion: str = "rrf",
    *,
    rrf_k: int = RRF_K,
) -> dict[str, float]:
    """One fused score per candidate id, in [0, 1]."""
    if fusion == "rrf":
        return _rrf(ranked, weights, rrf_k)
    if fusion == "score":
        return _combine(ranked, dict(weights))
    if fusion == "adaptive":
        return _combine(ranked, adaptive_weights(ranked, weights))
    raise ValueError(f"unknown fusion {fusion!r}; one of {', '.join(FUSIONS)}")


def _rrf(ranked, weights, rrf_k: int) -> dict[str, float]:
    best_possible = sum(weights.values()) / (rrf_k + 1)
    out: dict[str, float] = {}
    for source, hits in ranked.items():
        w = weights.get(source, 0.0)
        for rank, (ident, _) in enumerate(hits):
            out[ident] = out.get(ident, 0.0) + w / (rrf_k + rank + 1)
    return {ident: value / best_possible for ident, value in out.items()}


def normalised(source: str, hits: Sequence[tuple[str, float]]) -> dict[str, float]:
    """A source's scores in [0, 1], 1 for its best: BM25 over the best BM25; cosine above
    ``VECTOR_FLOOR`` over the best above it; the graph source's own 1 / (depth + 1)."""
    if not hits:
        return {}
    scores = np.asarray([s for _, s in hits], dtype=np.float64)
    if source == "vector":
        scores = np.maximum(scores - VECTOR_FLOOR, 0.0)
    elif source == "graph":
        return {ident: float(s) for ident, s in hits}
    best = float(scores.max())
    if best <= 0:
        return dict.fromkeys((ident for ident, _ in hits), 0.0)
    return {ident: float(s / best) for (ident, _), s in zip(hits, scores, strict=True)}


def _combine(ranked, weights: dict[str, float]) -> dict[str, float]:
    # Every source asked counts, also one that found nothing: a candidate only one source
    # likes cannot score as if every source had put it first (RRF's rule too).
    total = sum(weights.get(s, 0.0) for s in ranked) or 1.0
    out: dict[str, float] = {}
    for source, hits in ranked.items():
        w = weights.get(source, 0.0) / total
        for ident, value in normalised(source, hits).items():
            out[ident] = out.get(ident, 0.0) + w * value
    return out


def standout(source: str, hits: Sequence[tuple[str, float]]) -> float:
    """How far a source's best score stands above its typical top-k score, relative to
    the best (0: flat, every candidate alike; near 1: one clear winner)."""
    values = list(normalised(source, hits).values())[:STANDOUT_TOP]
    if len(values) < 2:
        return 1.0 if values else 0.0
    return max(0.0, 1.0 - float(np.median(values[1:])))


def adaptive_weights(
    ranked: Mapping[str, Sequence[tuple[str, float]]], weights: Mapping[str, float]
) -> dict[str, float]:
    """Per-query source weights: each base weight times (0.25 + its standout), so a source
    that separates its candidates leads and a flat one still breaks ties."""
    return {
        source: weights.get(source, 0.0) * (0.25 + standout(source, hits))
        for source, hits in ranked.items()
    }
