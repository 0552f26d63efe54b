"""The passage of a turn that answers the question: a hit reports it with its turn.

A long turn says several things; the one a question is about is usually one sentence.
The turn stays the unit of evidence (its id, its session, its time), and the hit also
carries ``passage``: the sentence (short ones joined to the next) closest to the
question, by the embedding of the sentence as the turn is indexed (``index_text``: its
first person resolved to the speaker) plus a small bonus for shared keywords. Only the
best few episode hits are split (``Weights.passages``), so the cost is a handful of
short embeddings per search.

>>> split_passages("Work has been hectic all month. Anyway, I adopted a rescue dog! Oh. Bye.")
['Work has been hectic all month.', 'Anyway, I adopted a rescue dog!', 'Oh. Bye.']
>>> split_passages("ok")
['ok']
"""

from __future__ import annotations

import re
from collections.abc import Sequence

import numpy as np

from graphmem.retrieval.index_text import index_text
from graphmem.retrieval.keyword_index import tokenize

# A sentence ends at . ! ? (or a run of them) followed by space; newlines end one too.
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+|\n+")
MIN_PASSAGE_CHARS = 25  # a shorter sentence joins the next one ("Oh wow. I ...")
MAX_PASSAGES = 24  # a very long turn: the first ones only (cost stays bounded)
KEYWORD_BONUS = 0.05  # per shared query keyword, on top of the cosine


def split_passages(text: str) -> list[str]:
    """The turn's sentences; very short ones joined to the next."""
    parts = [p.strip() for p in _SENTENCE_END.split(text) if p and p.strip()]
    out: list[str] = []
    carry = ""
    for n, part in enumerate(parts):
        piece = f"{carry} {part}".strip() if carry else part
        if len(piece) < MIN_PASSAGE_CHARS and n < len(parts) - 1:
            carry = piece
            continue
        out.append(piece)
        carry = ""
    if carry:
        out.append(carry)
    return out[:MAX_PASSAGES] or [text]


def best_passages(
    query: str,
    query_vector: np.ndarray | None,
    turns: Sequence[tuple[str, str]],
    embedder,
) -> list[str]:
    """For each (speaker, text) turn, its passage closest to the question."""
    split = [split_passages(text) for _, text in turns]
    terms = set(tokenize(query))
    pending = [
        (i, j, index_text(speaker, p))
        for i, ((speaker, _), parts) in enumerate(zip(turns, split, strict=True))
        if len(parts) > 1
        for j, p in enumerate(parts)
    ]
    scores: dict[tuple[int, int], float] = {}
    if pending and query_vector is not None and embedder is not None:
        vectors = np.asarray(embedder.embed([t for _, _, t in pending]), dtype=np.float32)
        q = np.asarray(query_vector, dtype=np.float32)
        norms = np.linalg.norm(vectors, axis=1) * max(float(np.linalg.norm(q)), 1e-12)
        cosines = vectors @ q / np.maximum(norms, 1e-12)
        scores = {(i, j): float(c) for (i, j, _), c in zip(pending, cosines, strict=True)}
    out = []
    for i, parts in enumerate(split):
        if len(parts) == 1:
            out.append(parts[0])
            continue

        def score(j: int, i: int = i, parts: list[str] = parts) -> float:
            shared = len(terms & set(tokenize(index_text(turns[i][0], parts[j]))))
            return scores.get((i, j), 0.0) + KEYWORD_BONUS * shared

        out.append(parts[max(range(len(parts)), key=score)])
    return out
