"""The span finder: which words of a clause are a fact's value, and of which predicate.

Rules find values only in the phrasings they were written for. This reads them off the
clause's contextual token vectors instead (MiniLM, the model loading already runs): every
run of one to four content words is a candidate ("Halifax", "cold water dipping",
"Pixel 9", "senior buyer"); a multinomial logistic regression over the candidate's own
token vectors, the three tokens either side and the clause's sentence vector says which
predicate it is the value of, or none. "We pulled into Halifax on October 30th" makes
"Halifax" a ``lives_in`` value without any rule about pulling into places.

The weights are trained by ``scripts/train_spans.py`` on the dev authors' labelled turns
and the team's set (never a held-out author) and ship as ``graphmem/data/spans.npz``:
plain arrays, so inference is numpy alone.

>>> clause = "I finally moved to Halifax last week"
>>> [clause[s:e] for s, e in candidates(clause)]
['moved', 'moved to Halifax', 'Halifax', 'Halifax last week', 'week']
"""

from __future__ import annotations

import io
import re
from dataclasses import dataclass
from functools import cache
from importlib import resources

import numpy as np

from graphmem.retrieval.embedder import TokenVectors

MAX_WORDS = 4
CONTEXT_TOKENS = 3
WORD = re.compile(r"[\w][\w'’&+#.\-]*[\w+#]|[\w]")
_JOINER = re.compile(r"[\s\-&]*")  # what may stand between two words of one value
# Words a value never starts or ends with.
_EDGE_STOP = frozenset(
    """a an the my our your his her their its i me we you he she they it is am are was
    were be been being have has had do does did to in at on for from of with by and or but
    so as that this these those just now really very also still finally actually
    officially new old since until about into out up over after before than then there
    here what which who whom when where why how not no never ever anymore any some all
    would could should might may will can shall i'm i've i'd i'll it's that's he's she's
    we're they're get got getting gone go going off back again too last next this""".split()
)


def candidates(clause: str) -> list[tuple[int, int]]:
    """Character spans of every run of one to four words that could be a value."""
    words = [(m.start(), m.end(), m.group().lower()) for m in WORD.finditer(clause)]
    out = []
    for i, (start, _, first) in enumerate(words):
        if first in _EDGE_STOP:
            continue
        for j in range(i, min(i + MAX_WORDS, len(words))):
            if j > i and not _JOINER.fullmatch(clause[words[j - 1][1] : words[j][0]]):
                break
            if words[j][2] not in _EDGE_STOP:
                out.append((start, words[j][1]))
    return out


def features(tokens: TokenVectors, spans: list[tuple[int, int]]) -> tuple[np.ndarray, list[int]]:
    """One row per span that covers at least one token (and the indexes of those spans):
    the span's mean token vector, the means of the tokens just before and after it, and
    the clause's sentence vector."""
    vectors, offsets = tokens.vectors, tokens.offsets
    last = len(vectors) - 1  # the closing special token
    sentence = tokens.pooled()
    zero = np.zeros(vectors.shape[1], dtype=np.float32)
    rows, kept = [], []
    for n, (start, end) in enumerate(spans):
        inside = [k for k, (a, b) in enumerate(offsets) if b > a and a >= start and b <= end]
        if not inside:
            continue
        a, b = inside[0], inside[-1] + 1
        left = vectors[max(1, a - CONTEXT_TOKENS) : a]
        right = vectors[b : min(last, b + CONTEXT_TOKENS)]
        rows.append(
            np.concatenate(
                [
                    vectors[a:b].mean(axis=0),
                    left.mean(axis=0) if len(left) else zero,
                    right.mean(axis=0) if len(right) else zero,
                    sentence,
                ]
            )
        )
        kept.append(n)
    width = 4 * vectors.shape[1]
    return (np.asarray(rows, dtype=np.float32).reshape(-1, width), kept)


@dataclass(frozen=True)
class Span:
    predicate: str
    start: int
    end: int
    probability: float


@cache
def _weights() -> dict[str, np.ndarray] | None:
    source = resources.files("graphmem.data").joinpath("spans.npz")
    if not source.is_file():
        return None
    with np.load(io.BytesIO(source.read_bytes())) as npz:
        return {k: npz[k] for k in npz.files}


class SpanFinder:
    """Values in clauses, from their token vectors (``None`` weights: the shipped ones)."""

    def __init__(self, weights: dict[str, np.ndarray] | None = None):
        w = weights if weights is not None else _weights()
        if w is None:
            raise FileNotFoundError("graphmem/data/spans.npz is missing")
        self.w, self.b = w["w"], w["b"]
        self.labels = [str(x) for x in w["labels"]]
        self._none = self.labels.index("none")

    @classmethod
    def shipped(cls) -> SpanFinder | None:
        """The finder with the package's weights, or None where they are not shipped."""
        return cls() if _weights() is not None else None

    def find(self, clause: str, tokens: TokenVectors, threshold: float) -> list[Span]:
        """The most likely value of each predicate the clause states (at least
        ``threshold`` sure), overlapping values resolved in favour of the surer."""
        spans = candidates(clause)
        x, kept = features(tokens, spans)
        if not kept:
            return []
        z = x @ self.w.T + self.b
        z -= z.max(axis=1, keepdims=True)
        p = np.exp(z)
        p /= p.sum(axis=1, keepdims=True)
        best: dict[str, Span] = {}
        for row, n in zip(p, kept, strict=True):
            k = int(row.argmax())
            if k == self._none or row[k] < threshold:
                continue
            found = Span(self.labels[k], *spans[n], float(row[k]))
            held = best.get(found.predicate)
            if held is None or found.probability > held.probability:
                best[found.predicate] = found
        chosen: list[Span] = []
        for s in sorted(best.values(), key=lambda s: -s.probability):
            if all(s.end <= t.start or t.end <= s.start for t in chosen):
                chosen.append(s)
        return chosen


__all__ = ["Span", "SpanFinder", "candidates", "features"]
