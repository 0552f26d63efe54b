"""Cutting the object of a fact out of a clause, and normalising it.

Objects are normalised: articles and trailing punctuation stripped, names of
places/organisations/people kept as written (title-cased when written all lower
case), languages title-cased, dates as ISO strings (``deadline``: by grain, e.g.
``2024-05-17``/``2024-06``; ``birthday``: ``1990-05-03`` or ``--05-03`` without a year).

An object stops at the next time phrase of its clause ("I moved to Berlin last month":
the object is "Berlin"), so the clause-level helpers (:func:`entity`, :func:`phrase`...)
take the :class:`~graphmem.extraction.clauses.Clause`; the others work on plain text.
"""

from __future__ import annotations

import re
from typing import Any, Protocol

from graphmem.extraction.lexicon import MONTHS, NAME_STOPWORDS, NUMBER_WORDS, WORK_NOUNS, words
from graphmem.extraction.patterns import alternation


class Clause(Protocol):
    """What the span finders read of a clause (``graphmem.extraction.clauses.Clause``,
    which imports this module for ``clean``): its text, time expressions and their spans."""

    s: str
    times: list[Any]

    def relative(self, te: Any) -> tuple[int, int]: ...


_ARTICLE = re.compile(r"^(?i:the|a|an)\s+")
_ENTITY_TOKEN = re.compile(r"(?:[A-Z0-9][\w&'’.\-]*|[a-z]+[A-Z][\w'’\-]*)")
_CONNECTORS = frozenset(
    words(
        "of de del della da do dos das du la le les von van der den y and & the upon on am im "
        "sur for"
    )
)
_PHRASE_STOP = re.compile(
    r"[;:!?()\[\]]|\.(?:\s|$)|,\s*(?=(?i:which|who|because|but|so|though|especially|since|"
    r"when|as|and\s+(?:i|my|it)|not|thanks|thank\s+you|please|lol|haha|btw|right|ok|okay)\b)"
    r"|(?<!\s)\s++(?i:because|since|when|whenever|while|although|though|but|so\s+that|which|"
    r"who|whom|"
    r"whose|unless|if|especially|except|than|whereas|cause|cos|as\s+well|as\s+long|anymore|"
    r"any\s+more|any\s+longer|these\s+days|nowadays|lately|at\s+the\s+moment|right\s+now|now|"
    r"too|a\s+lot|so\s+much|very\s+much|more\s+than|most\s+of\s+all|for\s+(?:years|ages|a\s+while|"
    r"\d+|a\s+long\s+time|some\s+time|many\s+years|a\s+few)|instead|either|at\s+all|though|"
    r"i\s+think|i\s+guess|lol|haha|after|before|due\s+to|because\s+of|ever\s+since)\b"
)
_ENTITY_STOP = re.compile(
    r"(?<!\s)\s++(?i:in|at|on|near|for|from|with|since|until|till|as|by|after|before|during|"
    r"last|next|this|yesterday|today|tomorrow|ago|recently|now|and|but|or|because|when|"
    r"with|to|too|again|already|permanently|for\s+good|done|finished|over|so|tho|though|lol|"
    r"haha|btw|rn|atm|tmrw)\b|[,;:!?()]"
)
FUNCTION_WORDS = frozenset(
    words(
        "with to in at on for from by of about into out up down over back here there a an the "
        "and or but night nights weekends free work school least most all"
    )
)
PRONOUN_OBJECTS = frozenset(
    words(
        "it that this them you him her those these everything nothing something anything me us "
        "myself yourself one mine yours there here home"
    )
)


def clean(value: str) -> str:
    """Collapse whitespace and strip articles and trailing punctuation."""
    value = " ".join(value.split())
    value = _ARTICLE.sub("", value)
    return value.strip(" ,.;:!?-–—\"'“”").strip()


def title_if_lower(value: str) -> str:
    """Title-case a name written all in lower case ("berlin" -> "Berlin"); else keep it."""
    return value.title() if value == value.lower() else value


_TIME_WORDS = frozenset(
    "monday tuesday wednesday thursday friday saturday sunday mon tue tues wed thu thurs fri "
    "sat sun january february march april june july august september october november "
    "december jan feb mar apr jun jul aug sep sept oct nov dec today yesterday tomorrow "
    "tonight yday tmrw".split()
)


# "a firm called X", "a little town named X", "this tiny startup called X"
_DESCRIBED = re.compile(
    r"(?i:a|an|this|that|some)\s+(?:[\w'’-]+\s+){0,3}?(?i:company|firm|agency|startup|"
    r"start-up|studio|school|shop|bakery|hospital|clinic|practice|charity|bank|consultancy|"
    r"business|restaurant|caf[eé]|outfit|organi[sz]ation|lab|place|town|village|city|suburb|"
    r"neighbou?rhood|district|publisher|brand|label|team|project|app)\s+(?i:called|named)\s+"
)


def take_entity(text: str, pos: int, limit: int, *, lowercase_ok: bool = True):
    """The name of a place, organisation or person starting at ``pos``.

    Returns ``(start, end, name)`` or None. A run of capitalised tokens (with
    connectors such as "of", "de", "&") is taken as written; a lower-case name
    without an article is title-cased ("i live in berlin"); "a"/"an" or "the"
    followed by a common noun is not a name.
    """
    while pos < limit and text[pos].isspace():
        pos += 1
    described = _DESCRIBED.match(text[pos:limit])
    if described:  # "a firm called Ferrous Labs": the name after the description
        pos += described.end()
        lowercase_ok = False
    article = re.match(r"(?i:the)\s+", text[pos:limit])
    if re.match(r"(?i:an?)\s+", text[pos:limit]):
        return None
    start = pos + (article.end() if article else 0)
    tokens, cursor, end = [], start, start
    while cursor < limit:
        gap = re.match(r"\s+", text[cursor:limit])
        word_at = cursor + (gap.end() if gap and tokens else 0)
        match = _ENTITY_TOKEN.match(text, word_at, limit)
        if match and tokens and match.group().lower().rstrip(".") in _TIME_WORDS:
            break  # "started at Airbus Monday": the name ends before the day
        if match:
            tokens.append(match.group())
            cursor = end = match.end()
            continue
        # "Bank of England", but not "Capital Chess Centre on 3.09": no name part is a number
        conn = re.match(r"([\w&]+)\s+(?=[A-Z])", text[word_at:limit])
        if tokens and conn and conn.group(1) in _CONNECTORS:
            cursor = word_at + len(conn.group(1))
            continue
        break
    if tokens:
        name = text[start:end].rstrip(".'’")
        return (start, start + len(name), name) if name else None
    if article or not lowercase_ok:
        return None
    stop = _ENTITY_STOP.search(text, start, limit)
    chunk = text[start : stop.start() if stop else limit].strip(" .")
    parts = chunk.split()
    if (
        not parts
        or len(parts) > 3
        or not all(w.isalpha() for w in parts)
        or parts[0].lower() in PRONOUN_OBJECTS | NAME_STOPWORDS | FUNCTION_WORDS
    ):
        return None
    return start, start + len(chunk), title_if_lower(chunk)


_TRAILING_ADVERBIAL = re.compile(
    r"(?i)(?:\s+(?:very\s+much|so\s+much|a\s+lot|a\s+bunch|too|as\s+well|more\s+and\s+more|"
    r"really|though|anymore|again|daily|weekly|on\s+(?:the\s+)?weekends?|at\s+(?:night|weekends?)|"
    r"regularly|more\s+often|often|lately|recently|consistently|"
    r"every\s+(?:single\s+)?\w+|most\s+(?:days|weekends|evenings|mornings|nights)|"
    r"in\s+my\s+(?:free|spare|down)\s+time|whenever\s+i\s+can))+$"
)


def take_phrase(text: str, pos: int, limit: int, *, max_words: int = 8):
    """A free-text object (a food, an activity, a plan) from ``pos`` to a boundary."""
    stop = _PHRASE_STOP.search(text, pos, limit)
    end = stop.start() if stop else limit
    raw = text[pos:end]
    value = clean(raw)
    value = _TRAILING_ADVERBIAL.sub("", value)
    value = re.sub(r"(?i)\s+(?:for|to|in|on|at|with|by|from|of|about|near)$", "", value)
    if not value or len(value.split()) > max_words:
        return None
    first = value.split()[0].lower().strip(",.;:!?")
    if first in PRONOUN_OBJECTS or first in {"my", "your", "his", "her", "our", "their", "to"}:
        return None
    start = pos + raw.find(value[:1]) if value else pos
    return start, end, value


_LIST_SPLIT = re.compile(r"\s*,\s*(?:and\s+|or\s+)?|\s+(?:and|&|as\s+well\s+as|plus)\s+")
COMPOUNDS = (
    "mac and cheese",
    "fish and chips",
    "rock and roll",
    "salt and pepper",
    "peanut butter and jelly",
    "rhythm and blues",
    "drum and bass",
    "dungeons and dragons",
    "sweet and sour",
    "bread and butter",
    "pros and cons",
    "arts and crafts",
    "r&b",
    "d&d",
)


def split_list(value: str) -> list[str]:
    """Split "cats, dogs and birds" into items, keeping known compounds whole."""
    if value.lower() in COMPOUNDS:
        return [value]
    protected = value
    for index, compound in enumerate(COMPOUNDS):
        protected = re.sub(re.escape(compound), f"\x00{index}\x00", protected, flags=re.I)
    items = []
    for item in _LIST_SPLIT.split(protected):
        item = re.sub(r"\x00(\d+)\x00", lambda m: COMPOUNDS[int(m.group(1))], item)
        item = clean(item)
        if item:
            items.append(item)
    return items


def gerund(verb: str) -> str:
    """A rough -ing form: "paint" -> "painting", "run" -> "running", "bake" -> "baking"."""
    verb = verb.lower()
    if verb.endswith("ing"):
        return verb
    if verb.endswith("ie"):
        return verb[:-2] + "ying"
    if verb.endswith("e") and not verb.endswith(("ee", "ye", "oe")):
        return verb[:-1] + "ing"
    if re.fullmatch(r"[^aeiou]*[aeiou][bdgmnprt]", verb):
        return verb + verb[-1] + "ing"
    return verb + "ing"


def number_value(text: str) -> int | None:
    """An integer written in digits or words ("34", "thirty-four")."""
    text = text.strip().lower()
    if text.isdigit():
        return int(text)
    return NUMBER_WORDS.get(re.sub(r"\s+", " ", text))


def project_name(text: str) -> str | None:
    """ "the Apollo project" / "Project Apollo" / "my thesis" -> "Apollo" / "thesis"."""
    text = " ".join(text.strip(" ,.!?").split())
    for pat in (
        r"(?:the\s+)?(?i:project)\s+(?P<n>[A-Z][\w\-]*(?:\s+[A-Z][\w\-]*)*)",
        r"(?:(?i:the|my|our)\s+)?(?P<n>[\w\-]+(?:\s+[\w\-]+){0,3}?)\s+(?i:project)",
        r"(?:(?i:the)\s+)?(?P<n>[A-Z][\w\-]*(?:\s+[A-Z0-9][\w\-]*)*)",
        r"(?:(?i:the|our|my)\s+)?(?P<n>[A-Z][\w\-]*(?:\s+[a-z][\w\-]*){1,2})",
        rf"(?i:my|our|the)\s+(?P<n>{alternation(WORK_NOUNS)})",
        r"(?i:the)\s+(?P<n>[a-z][\w\-]*(?:\s+[a-z][\w\-]*){0,2})",
    ):
        m = re.fullmatch(pat, text)
        first = m.group("n").split()[0].lower() if m else ""
        if m and first not in PRONOUN_OBJECTS | NAME_STOPWORDS:
            return m.group("n")
    return None


def named_head(name: str) -> str:
    """ "Orbit app" / "Saffron payments" -> "Orbit" / "Saffron": a name followed by the
    kind of thing it is in lower case; "the sepsis protocol" stays as it is."""
    words = name.split()
    cased = 0
    while cased < len(words) and words[cased][:1].isupper():
        cased += 1
    return " ".join(words[:cased]) if 0 < cased < len(words) else name


def parse_day_month(text: str) -> str | None:
    """A birthday at the start of ``text``: ``1990-05-03``, or ``--05-03`` without a year."""
    month = alternation(MONTHS)
    year_re = r"(?:,?\s+(?P<y>\d{4}))?"
    text = re.sub(r"(?i)^(?:it['’]?s\s+|on\s+)?(?:the\s+)?", "", text)
    for pat in (
        rf"(?P<d>\d{{1,2}})(?:st|nd|rd|th)?(?:\s+of)?\s+(?P<m>{month})\.?{year_re}",
        rf"(?P<m>{month})\.?\s+(?P<d>\d{{1,2}})(?:st|nd|rd|th)?{year_re}",
        r"(?P<y>\d{4})-(?P<mn>\d{2})-(?P<d>\d{2})",
    ):
        m = re.match(pat, text, re.I)
        if m:
            mon = int(m.group("mn")) if "mn" in m.groupdict() else MONTHS[m.group("m").lower()]
            day, year = int(m.group("d")), m.group("y")
            if not 1 <= day <= 31:
                return None
            return f"{year}-{mon:02d}-{day:02d}" if year else f"--{mon:02d}-{day:02d}"
    return None


# ---------------------------------------------------------------------------
# Objects in a clause


def object_end(c: Clause, pos: int) -> int:
    """Where an object starting at ``pos`` must stop: the next time phrase or clause end."""
    for te in c.times:
        lo, hi = c.relative(te)
        if lo >= pos:
            return lo
        if pos < hi:  # "moving in September 1st": the object would start inside the time
            return pos
    return len(c.s)


def entity(c: Clause, pos: int, *, lowercase_ok: bool = True):
    """A name at ``pos``; lower-case names only when the whole clause is typed in lower case."""
    typed_lower = not re.search(r"[A-Z]", re.sub(r"\bI(?:['’]\w+)?\b", "", c.s[1:]))
    return take_entity(c.s, pos, object_end(c, pos), lowercase_ok=lowercase_ok and typed_lower)


def phrase(c: Clause, pos: int, *, max_words: int = 8):
    """A free-text object at ``pos`` (see :func:`take_phrase`)."""
    return take_phrase(c.s, pos, object_end(c, pos), max_words=max_words)


def phrase_or_gerund(c: Clause, pos: int, *, max_words: int = 8):
    """As :func:`phrase`, reading "to cook" as "cooking" ("I love to cook")."""
    found = phrase(c, pos, max_words=max_words)
    if found is None:
        to = re.compile(r"(?i)to\s+(\w+)").match(c.s, pos)
        if to:
            rest = take_phrase(c.s, to.end(1), object_end(c, pos), max_words=max_words - 1)
            tail = (" " + rest[2]) if rest else ""
            return to.start(), rest[1] if rest else to.end(), gerund(to.group(1)) + tail
    return found


def names(text: str | None) -> list[str]:
    """ "Ana, Ben and Cleo" -> the names, without words that are not names."""
    parts = re.split(r"\s*,\s*(?:and\s+)?|\s+and\s+", text or "")
    # "my wife Maureen, God rest her": an exclamation, no second name
    return [n for n in parts if n and n.lower() not in NAME_STOPWORDS | _EXCLAIMED]


_EXCLAIMED = frozenset({"god", "lord", "jesus", "christ", "heavens", "bless"})


# An item that points back at something said ("I like it", "I'm going to check them out").
POINTS_BACK = re.compile(r"(?i)\b(?:it|them|that|this|those|these|one\s+of)\b")
