"""The passage of a turn that answers the question: a turn scores by its best passage.

A long turn says several things; the one a question is about is usually one sentence.
The turn stays the unit of evidence (its id, its session, its time), and:

- its vector score is the best of its own cosine and its passages' (a turn longer than
  ``LONG_TURN_CHARS`` is also embedded as sentence windows, ``graphmem.store.
  passage_index``), over the vector and keyword sources' candidates
  (``best_of_passages``), so the turn whose one sentence answers ranks as if it were
  that sentence;
- the hit carries ``passage``: for a long turn the passage that gave that best cosine;
  otherwise the sentence (short ones joined to the next) sharing the most of the
  question's keywords, read as the turn is indexed (``index_text``: "Priya" in the
  question matches "I" in the turn), the earliest on a tie; where none shares a
  keyword, the whole turn (``best_passages``).

Passages are scored among candidates, not searched in an index of their own: each
backend's vector index holds one entry per turn, so a turn neither source ranks in its
``Weights.passage_pool`` best is not rescued by a passage (not measured against an
exact scan over every passage yet). Measured (bench/turn_retrieval.py, hybrid hit@5 /
NDCG@10, passages off -> on): dev 0.875 / 0.694 -> 0.896 / 0.714, held-out 0.816 /
0.640 -> 0.827 / 0.634; LongMemEval, one question per type: no change (all 1.0).

>>> split_passages("Work has been hectic all month. Anyway, I adopted a rescue dog! Oh. Bye.")
['Work has been hectic all month.', 'Anyway, I adopted a rescue dog!', 'Oh. Bye.']
>>> best_passages("What did Priya adopt?", [("Priya", "Work was hectic all month. Anyway, I adopted a dog!")])
['Anyway, I adopted a dog!']
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from graphmem.model import Episode
from graphmem.store.index_text import index_text
from graphmem.store.passage_index import passage_owner, passages_of, split_passages
from graphmem.store.protocol import Backend
from graphmem.store.words import tokenize

__all__ = ["best_of_passages", "best_passages", "split_passages"]


def best_passages(query: str, turns: Sequence[tuple[str, str]]) -> list[str]:
    """For each (speaker, text) turn, its passage sharing the most question keywords."""
    terms = set(tokenize(query))
    out = []
    for speaker, text in turns:
        parts = split_passages(text)
        shared = [len(terms & set(tokenize(index_text(speaker, p)))) for p in parts]
        best = max(range(len(parts)), key=lambda j: (shared[j], -j))
        out.append(parts[best] if shared[best] > 0 else text)
    return out


def best_of_passages(
    backend: Backend,
    scope: str,
    vector: np.ndarray,
    by_vector: Sequence[tuple[str, float]],
    by_keyword: Sequence[tuple[str, float]],
    pool: int,
) -> tuple[list[tuple[str, float]], dict[str, tuple[str, float]]]:
    """The vector source's ranking with each of the ``pool`` best vector and keyword
    candidates scored by the best cosine of the turn and its passages; and for each
    long turn of those, its best passage with that passage's cosine.

    A vector candidate's own cosine is the backend's score (a cosine on every backend);
    a keyword-only candidate's is computed from its stored vector. Only the pool's
    passages are read, so the cost does not grow with ``k``.
    """
    scores = dict(by_vector)
    ids = list(dict.fromkeys([i for i, _ in by_vector[:pool]] + [i for i, _ in by_keyword[:pool]]))
    if not ids:
        return list(by_vector), {}
    episodes: dict[str, Episode] = {e.id: e for e in backend.episodes(scope, ids)}
    owners = [i for i in ids if i not in scores and i in episodes]  # their own vectors
    parts: dict[str, list[tuple[str, str]]] = {}
    for ident in ids:
        if ident in episodes:
            found = passages_of(episodes[ident].text)
            parts[ident] = [(passage_owner(ident, n), p) for n, p in enumerate(found)]
            owners += [owner for owner, _ in parts[ident]]
    stored = backend.embeddings(owners) if owners else {}
    cosine: dict[str, float] = {}
    if stored:
        keys = list(stored)
        matrix = np.asarray([stored[o] for o in keys], dtype=np.float32)
        cosine = dict(zip(keys, (matrix @ np.asarray(vector, dtype=np.float32)).tolist(),
                          strict=True))  # fmt: skip
    best: dict[str, tuple[str, float]] = {}
    for ident, passages in parts.items():
        own = scores.get(ident, cosine.get(ident))
        found = [(cosine[o], p) for o, p in passages if o in cosine]
        if found:
            top, passage = max(found, key=lambda item: item[0])
            best[ident] = (passage, top)
            own = top if own is None else max(own, top)
        if own is not None:
            scores[ident] = own
    return sorted(scores.items(), key=lambda item: -item[1]), best
