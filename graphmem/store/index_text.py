"""The text a turn is searched by: its words, with whose words they are.

A turn said in the first person ("I finally signed up for pottery yesterday!") is
asked about in the third ("When did Priya start her pottery class?"). Indexed bare, the
turn has lost who it is about: neither the embedding nor the keyword index knows it is
Priya's. So every backend indexes an episode by ``episode_index_text``, for the vector
side (the embedding of that text) and the keyword side (its BM25 / Lucene postings)
alike: the first person is resolved to the speaker's name ("I" -> "Priya", "my" ->
"Priya's", "I've" -> "Priya has"), so the name stands where the fact is.

Chosen by measurement (``bench/turn_retrieval.py`` on the dev conversations, 48
questions, hit@10 of the vector / keyword source alone): bare text 0.896 / 0.708; a
"Priya: " prefix 0.771 / 0.729 (the name in every turn of hers pulls all of them alike
and dilutes short turns); "I/my/me" resolved 0.938 / 0.875; with "we/our/us", "ive/im"
and a bare "dad/mum" also resolved 0.958 / 0.833 (and the fused ranking 0.979). A
session date as a "[2024-03-02]" prefix helped neither side, so the date stays
metadata (the time columns and the question window), not words.

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
# first, so "I've" is not read as "I" + "'ve"; chat spells some without the apostrophe
# ("ive", "im"). A lone lower-case "i" is the pronoun in chat ("i just got back").
# "We", "our" and "us" include the speaker ("our Bamse is a Newfoundland" is about the
# speaker's dog), so they name the speaker too.
_FIRST_PERSON = [
    (re.compile(rf"\b[Ii](?:{_APOSTROPHE})?m\b"), "{n} is"),
    (re.compile(rf"\b[Ii](?:{_APOSTROPHE})?ve\b"), "{n} has"),
    (re.compile(rf"\b[Ii]{_APOSTROPHE}ll\b"), "{n} will"),
    (re.compile(rf"\b[Ii]{_APOSTROPHE}d\b"), "{n} would"),
    (re.compile(r"\b[Ii]\b(?!['\u2019])"), "{n}"),
    (re.compile(r"\b(?:[Mm]y|MY|[Mm]ine|[Oo]ur|OUR|[Oo]urs)\b"), "{n}'s"),
    (re.compile(r"\b(?:[Mm]e|ME|[Mm]yself|[Uu]s)\b"), "{n}"),
    (re.compile(r"\b(?:[Ww]e|WE)\b(?!['\u2019])"), "{n}"),
]
# A parent named without a possessive ("dad was ruthless") is the speaker's own.
_KIN = re.compile(
    r"(?<!\bhis )(?<!\bher )(?<!\byour )(?<!\btheir )(?<!\bthe )(?<!\ba )(?<!['\u2019]s )"
    r"(?<!\bmy )(?<!\bour )\b([Dd]ad|[Mm]um|[Mm]om|[Mm]am)\b(?!['\u2019]s\b)",
    re.IGNORECASE,
)


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
    >>> in_third_person("we got bronze! dad cried", "Kwame")
    "Kwame got bronze! Kwame's dad cried"
    """
    text = _KIN.sub(lambda m: f"{name}'s {m.group(1)}", text)
    for pattern, replacement in _FIRST_PERSON:
        text = pattern.sub(replacement.format(n=name).replace("\\", "\\\\"), text)
    return text


def index_text(speaker: str, text: str) -> str:
    """What words said by ``speaker`` are embedded and keyword-indexed as."""
    name = speaker_name(speaker)
    return text if name is None else in_third_person(text, name)


def episode_index_text(episode: _Said) -> str:
    """What an episode is embedded and keyword-indexed as, on every backend."""
    return index_text(episode.speaker, episode.text)
