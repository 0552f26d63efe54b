"""The text a turn is searched by: its words, with whose words they are.

A turn said in the first person ("I finally signed up for pottery yesterday!") is
asked about in the third ("When did Priya start her pottery class?"). Indexed bare, the
turn has lost who it is about: neither the embedding nor the keyword index knows it is
Priya's. So every backend indexes an episode by ``episode_index_text``, for the vector
side (the embedding of that text) and the keyword side (its BM25 / Lucene postings)
alike: the first person is resolved to the speaker's name ("I" -> "Priya", "my" ->
"Priya's", "I've" -> "Priya has"), so the name stands where the fact is.

Chosen by measurement (``bench/turn_retrieval.py`` on the dev conversations, 48
questions, hit@10 vector / keyword source alone): bare text 0.896 / 0.708; a
"Priya: " prefix 0.771 / 0.729 (the name in every turn of hers adds the same pull to
all of them and dilutes short turns); first person resolved 0.958 / 0.896. A session
date as a "[2024-03-02]" prefix did not help either side, so the date stays metadata
(the time columns and the question window), not words.

A speaker that is a role, not a name ("user", "assistant": LongMemEval, chat exports)
has no name to put there, so such a turn is indexed by its words alone, as before.

>>> from datetime import datetime, timezone
>>> from graphmem.model import Episode
>>> said = datetime(2024, 3, 2, tzinfo=timezone.utc)
>>> episode_index_text(Episode(speaker="Priya", text="I've got my keys!", timestamp=said))
"Priya has got Priya's keys!"
>>> episode_index_text(Episode(speaker="user", text="I signed up for pottery!", timestamp=said))
'I signed up for pottery!'
"""

from __future__ import annotations

import re
from typing import Protocol

# Speakers that name a role in a log rather than a person (lower-cased).
ROLE_SPEAKERS = frozenset(
    ["user", "assistant", "system", "human", "ai", "bot", "model", "me", "you", "tool",
     "function", "unknown", "narrator", "speaker"]
)  # fmt: skip

_APOSTROPHE = "['\u2019]"
# First-person forms and what they become with the speaker's name ({n}). Contractions
# first, so "I've" is not read as "I" + "'ve". A lone lower-case "i" is the pronoun in
# chat ("i just got back"); "me"/"my" are matched in any case.
_FIRST_PERSON = [
    (re.compile(rf"\b[Ii]{_APOSTROPHE}m\b"), "{n} is"),
    (re.compile(rf"\b[Ii]{_APOSTROPHE}ve\b"), "{n} has"),
    (re.compile(rf"\b[Ii]{_APOSTROPHE}ll\b"), "{n} will"),
    (re.compile(rf"\b[Ii]{_APOSTROPHE}d\b"), "{n} would"),
    (re.compile(r"\b[Ii]\b(?!['\u2019])"), "{n}"),
    (re.compile(r"\b(?:[Mm]y|MY|[Mm]ine)\b"), "{n}'s"),
    (re.compile(r"\b(?:[Mm]e|ME|[Mm]yself)\b"), "{n}"),
]


class _Said(Protocol):
    speaker: str
    text: str


def speaker_name(speaker: str) -> str | None:
    """The speaker as a name a question could use, or None for a role ("user")."""
    name = " ".join(speaker.split())
    if not name or name.lower() in ROLE_SPEAKERS:
        return None
    return name


def in_third_person(text: str, name: str) -> str:
    """``text`` with its first person ("I", "my", "I'm", "me") resolved to ``name``.

    >>> in_third_person("My brother and I moved, i'm told", "Ana")
    "Ana's brother and Ana moved, Ana is told"
    """
    for pattern, replacement in _FIRST_PERSON:
        text = pattern.sub(replacement.format(n=name).replace("\\", "\\\\"), text)
    return text


def episode_index_text(episode: _Said) -> str:
    """What an episode is embedded and keyword-indexed as, on every backend."""
    name = speaker_name(episode.speaker)
    return episode.text if name is None else in_third_person(episode.text, name)
