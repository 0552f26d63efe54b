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
``Weights.passage_pool`` best is not rescued by a passage (measured against an exact
scan over every passage: see bench/turn_retrieval.py ``--passage-scan``).

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
    candidates: Sequence[str],
    k: int,
) -> tuple[list[tuple[str, float]], dict[str, tuple[str, float]]]:
    """The candidate turns ranked by the best cosine of the turn and its passages (top
    ``k``), and for each long turn its best passage with that passage's cosine.

    Cosines are computed here from the stored vectors (the turn's own and its
    passages'), so every backend's candidates are scored alike.
    """
    ids = list(dict.fromkeys(candidates))
    if not ids:
        return [], {}
    episodes: dict[str, Episode] = {e.id: e for e in backend.episodes(scope, ids)}
    owners: list[str] = []
    parts: dict[str, list[tuple[str, str]]] = {}
    for ident in ids:
        episode = episodes.get(ident)
        if episode is None:
            continue
        owners.append(ident)
        found = passages_of(episode.text)
        parts[ident] = [(passage_owner(ident, n), p) for n, p in enumerate(found)]
        owners += [owner for owner, _ in parts[ident]]
    stored = backend.embeddings(owners)
    if not stored:
        return [], {}
    keys = list(stored)
    matrix = np.asarray([stored[o] for o in keys], dtype=np.float32)
    query = np.asarray(vector, dtype=np.float32)
    cosine = dict(zip(keys, (matrix @ query).tolist(), strict=True))
    ranked: list[tuple[str, float]] = []
    best: dict[str, tuple[str, float]] = {}
    for ident, passages in parts.items():
        scores = [(cosine[o], p) for o, p in passages if o in cosine]
        own = cosine.get(ident)
        if scores:
            top, passage = max(scores, key=lambda item: item[0])
            best[ident] = (passage, top)
            own = top if own is None else max(own, top)
        if own is not None:
            ranked.append((ident, own))
    ranked.sort(key=lambda item: -item[1])
    return ranked[:k], best
