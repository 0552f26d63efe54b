"""Whose turn: a question that names a speaker of the conversation is about that speaker.

"How old is Amara's cat?" in a conversation between Amara and Jonas: BM25 ranks Jonas's
"we got a second cat" first, because "cat" is rarer than "Amara" (after the first
person is resolved, her name is in most of her turns). The vector source keeps who and
what together; the keyword source does not, and drags the fusion down (measured on the
dev turns: ``bench/turn_retrieval.py``, speaker-confusion). So when the question names
one of the candidates' speakers, a keyword candidate said by someone else that does not
name that speaker either keeps only ``factor`` of its score.

>>> named_speakers("How old is Amara's cat?", ["Amara", "Jonas", "user"])
{'Amara'}
>>> demote(["a", "b"], [("b", 4.0), ("a", 3.0)], {"a": ("Amara", ""), "b": ("Jonas", "a cat")},
...        {"Amara"}, 0.5)
[('a', 3.0), ('b', 2.0)]
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence

from graphmem.store.index_text import speaker_name


def named_speakers(query: str, speakers: Iterable[str]) -> set[str]:
    """The speakers (names, not roles) the question names as a word."""
    out = set()
    for speaker in set(speakers):
        name = speaker_name(speaker)
        if name and re.search(rf"(?<!\w){re.escape(name)}(?!\w)", query, re.IGNORECASE):
            out.add(speaker)
    return out


def demote(
    order: Sequence[str],
    ranked: Sequence[tuple[str, float]],
    said: Mapping[str, tuple[str, str]],
    named: set[str],
    factor: float,
) -> list[tuple[str, float]]:
    """``ranked`` with the scores of turns neither said by nor naming a ``named``
    speaker times ``factor``, re-sorted (``said``: id -> (speaker, text);
    ``order`` breaks ties as the source ranked)."""
    if not named or factor >= 1.0:
        return list(ranked)
    patterns = [re.compile(rf"(?<!\w){re.escape(n)}(?!\w)", re.IGNORECASE) for n in named]
    position = {ident: i for i, ident in enumerate(order)}
    out = []
    for ident, score in ranked:
        speaker, text = said.get(ident, ("", ""))
        theirs = speaker in named or any(p.search(text) for p in patterns)
        out.append((ident, score if theirs else score * factor))
    return sorted(out, key=lambda item: (-item[1], position.get(item[0], 0)))
