"""Place names the extractor knows without seeing them capitalised.

Chat types places in lower case ("my sis lives in accra now") while the rest of the
message is cased, so capitals alone cannot find them. The gazetteer is GeoNames' list
of cities of 50,000 people or more, countries and US states (CC BY 4.0; built by
``scripts/build_places.py`` and shipped as ``graphmem/data/places.txt.gz``). A name
that is also a common English word ("reading", "bath", "nice") still needs its capital.

>>> place_at("she lives in accra now", 13)
(13, 18, 'Accra')
>>> place_at("i live in reading", 10) is None  # "reading" is a word: needs "Reading"
True
>>> is_place("Kuala Lumpur")
True
"""

from __future__ import annotations

import gzip
import re
from functools import cache
from importlib import resources

from graphmem.extraction.truecase import is_dictionary_word

_WORDS = re.compile(r"[^\W\d_][\w'’.\-]*")
MAX_WORDS = 4  # "Ho Chi Minh City"


@cache
def _places() -> dict[str, str]:
    """Lower-case name -> the name as GeoNames writes it."""
    data = resources.files("graphmem.data").joinpath("places.txt.gz").read_bytes()
    return {line.lower(): line for line in gzip.decompress(data).decode("utf-8").splitlines()}


def is_place(name: str) -> bool:
    """Whether the gazetteer knows ``name`` (any case)."""
    return " ".join(name.split()).lower() in _places()


def place_at(text: str, pos: int, limit: int | None = None) -> tuple[int, int, str] | None:
    """The longest gazetteer name starting at ``pos`` (``(start, end, name)``), read in
    any case; a one-word name that is a common English word must be capitalised."""
    limit = len(text) if limit is None else limit
    words: list[tuple[int, int]] = []
    for m in _WORDS.finditer(text, pos, limit):
        gap = text[words[-1][1] if words else pos : m.start()]
        if gap.strip() or (not words and gap) or len(words) == MAX_WORDS:
            break
        words.append((m.start(), m.end()))
    places = _places()
    for n in range(len(words), 0, -1):
        start, end = words[0][0], words[n - 1][1]
        raw = text[start:end].rstrip(".'’")
        name = places.get(" ".join(raw.split()).lower())
        if name is None:
            continue
        if n == 1 and raw.islower() and is_dictionary_word(raw):
            return None
        return start, start + len(raw), name
    return None


# Where a place's name is said as a place: "in Fukuoka", "to utrecht", "from Amsterdam".
_PLACE_SLOT = re.compile(r"(?i)\b(?:in|to|from|into)\s+")


# A home somewhere: any capitalised name, known to the gazetteer or not ("a house in Os")
_HOME_IN = re.compile(
    r"(?i:house|flat|apartment|condo|place|home|room|cottage)[!.,]{0,3}\s+(?i:in)\s+"
    r"(?P<name>[A-Z][\w'’\-]+(?:\s+[A-Z][\w'’\-]+)?)"
)
_NOT_PLACE = frozenset(
    "january february march april may june july august september october november december "
    "monday tuesday wednesday thursday friday saturday sunday spring summer autumn winter "
    "the a an my our".split()
)


def places_named(text: str) -> list[tuple[int, str]]:
    """The places ``text`` names, in order, with where each starts: gazetteer places
    after "in/to/from", and any name a home is in ("signed for a house in Os").

    >>> places_named("got an offer in Fukuoka, and Yui stays in osaka")
    [(16, 'Fukuoka'), (42, 'Osaka')]
    >>> places_named("Marte and I signed for a house in Os.")
    [(34, 'Os')]
    """
    found = {}
    for m in _PLACE_SLOT.finditer(text):
        place = place_at(text, m.end())
        if place is not None:
            found[place[0]] = place[2]
    for m in _HOME_IN.finditer(text):
        name = m.group("name")
        if name.split()[0].lower() not in _NOT_PLACE and m.start("name") not in found:
            found[m.start("name")] = name
    return sorted(found.items())
