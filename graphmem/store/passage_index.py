"""The passages a long turn is also indexed by: its sentence windows, with its context.

A turn's embedding is the mean of its tokens (and MiniLM reads only its first 256
tokens, about 1,000 characters), so the one sentence of a long turn that answers a
question is diluted by the rest, or not read at all. A turn longer than
``LONG_TURN_CHARS`` is therefore also embedded as passages: windows of consecutive
sentences of at most ``PASSAGE_CHARS`` characters (a longer sentence is a window of its
own). Each passage carries the turn's context as the turn does (``index_text``: its
first person resolved to the speaker's name; its time is the turn's) and points to its
turn by its owner id, ``"<turn id>#p<n>"``, in the store's embeddings. The turn stays
the unit of evidence: the retriever scores a turn by the best of itself and its
passages and reports that passage (``graphmem.retrieval.passages``).

Only vectors: the keyword index keeps one entry per turn (BM25 does not average words
away, and passages as entries of their own would change every term's statistics).

>>> from datetime import datetime, timezone
>>> from graphmem.model import Episode
>>> said = datetime(2024, 3, 2, tzinfo=timezone.utc)
>>> text = "Work has been hectic. " * 46 + "Anyway, I adopted a rescue dog!"
>>> turn = Episode(id="t1", speaker="Priya", text=text, timestamp=said)
>>> owner, _, index = episode_passages(turn)[-1]
>>> owner, index.endswith("Anyway, Priya adopted a rescue dog!")
('t1#p4', True)
>>> episode_passages(Episode(id="t2", speaker="Tom", text="Short one.", timestamp=said))
[]
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Protocol

from graphmem.store.index_text import index_text

# Chosen on the dev turns (bench/turn_retrieval.py --split dev --context-only
# --long-turn N --passage-chars W), hybrid hit@5 / NDCG@10, passages off 0.875 / 0.694:
# N/W 100/100 0.896 / 0.714; 100/60 0.896 / 0.703; 150/150 0.875 / 0.713; 200/100
# 0.875 / 0.709; 200/250 0.875 / 0.700; 60/60 0.875 / 0.703. The cost is in long
# turns: LongMemEval's (mean 1,000 chars) get ~9 passages each, so ~10x the vectors
# and the embedding time of a load (sys.maxsize here: no passages at all). The default
# is what the model cannot read whole instead: MiniLM embeds a turn's first 256 tokens
# (~1,000 characters) and nothing after them, so past that a turn needs its passages to
# be found at all; below it the dev gain above (+1 question) did not pay 3-10x the
# embedding time of every load, and held-out NDCG@10 fell 0.640 -> 0.634 with 100/100.
# Windows of 250 characters (~60 tokens) keep a long turn to a few passages per 1,000.
LONG_TURN_CHARS = 1_000  # a turn longer than this is also indexed by its passages
PASSAGE_CHARS = 250  # a window of sentences holds at most this many characters

# A sentence ends at . ! ? (or a run of them) followed by space; newlines end one too.
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+|\n+")
MIN_PASSAGE_CHARS = 25  # a shorter sentence joins the next one ("Oh wow. I ...")
PASSAGE_MARK = "#p"  # owner id of passage n of turn t: f"{t}#p{n}"


class _Said(Protocol):
    id: str
    speaker: str
    text: str


def split_passages(text: str) -> list[str]:
    """The turn's sentences; very short ones joined to the next.

    >>> split_passages("Work has been hectic all month. Anyway, I adopted a pup! Oh. Bye.")
    ['Work has been hectic all month.', 'Anyway, I adopted a pup! Oh.', 'Bye.']
    """
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


def windows(text: str, size: int | None = None) -> list[str]:
    """Consecutive sentences grouped greedily into windows of at most ``size`` chars."""
    size = PASSAGE_CHARS if size is None else size
    out: list[str] = []
    current = ""
    for sentence in split_passages(text):
        joined = f"{current} {sentence}" if current else sentence
        if current and len(joined) > size:
            out.append(current)
            current = sentence
        else:
            current = joined
    if current:
        out.append(current)
    return out


def passage_owner(turn_id: str, n: int) -> str:
    """The embeddings' owner id of passage ``n`` of a turn."""
    return f"{turn_id}{PASSAGE_MARK}{n}"


def passage_owner_range(turn_id: str) -> tuple[str, str]:
    """Bounds (exclusive) that every passage owner id of a turn sorts between: for
    deleting them by key range when the turn is erased."""
    return f"{turn_id}{PASSAGE_MARK}", f"{turn_id}#q"


def turn_of(owner: str) -> str:
    """The turn id a passage owner id points to (an id without a passage mark: itself)."""
    head, mark, tail = owner.rpartition(PASSAGE_MARK)
    return head if mark and tail.isdigit() else owner


def passages_of(text: str) -> list[str]:
    """A turn's passages (raw text), or none when it is not longer than LONG_TURN_CHARS
    or is one window."""
    if len(text) <= LONG_TURN_CHARS:
        return []
    return list(_passages(text, LONG_TURN_CHARS, PASSAGE_CHARS))


@lru_cache(maxsize=20_000)  # every search splits its candidates again: the same turns
def _passages(text: str, long_turn: int, size: int) -> tuple[str, ...]:
    found = windows(text, size)
    return tuple(found) if len(found) > 1 else ()


def episode_passages(episode: _Said) -> list[tuple[str, str, str]]:
    """(owner id, passage, text it is embedded as) for each passage of a long turn."""
    return [
        (passage_owner(episode.id, n), passage, index_text(episode.speaker, passage))
        for n, passage in enumerate(passages_of(episode.text))
    ]
