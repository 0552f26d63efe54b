"""The passage of a turn that answers the question: a hit reports it with its turn.

A long turn says several things; the one a question is about is usually one sentence.
The turn stays the unit of evidence (its id, its session, its time), and the hit also
carries ``passage``: the sentence (short ones joined to the next) that shares the most
of the question's keywords, read as the turn is indexed (``index_text``: its first
person resolved to the speaker, so "Priya" in the question matches "I" in the turn);
the earliest on a tie. A turn of one sentence is its own passage; where no sentence
shares a keyword, the passage is the whole turn. Chosen lexically on purpose: embedding
every sentence of the best hits cost seconds per search on LongMemEval's long turns
(measured: search p50 136 ms -> 3.3 s with five hits' sentences embedded).

>>> split_passages("Work has been hectic all month. Anyway, I adopted a rescue dog! Oh. Bye.")
['Work has been hectic all month.', 'Anyway, I adopted a rescue dog!', 'Oh. Bye.']
>>> best_passages("What did Priya adopt?", [("Priya", "Work was hectic all month. Anyway, I adopted a dog!")])
['Anyway, I adopted a dog!']
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from graphmem.store.index_text import index_text
from graphmem.store.words import tokenize

# A sentence ends at . ! ? (or a run of them) followed by space; newlines end one too.
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+|\n+")
MIN_PASSAGE_CHARS = 25  # a shorter sentence joins the next one ("Oh wow. I ...")


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
    return out or [text]


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
