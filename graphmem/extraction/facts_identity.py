"""Who someone is: ``name``, ``age``, ``birthday``, ``nationality``, ``speaks``, ``diet``,
``allergic_to``.

"my name is Ana" / "everyone calls me Ana" / "I'm Ana.", "I'm 34" / "I turned 35", "my
birthday is May 3rd", "I'm Portuguese" / "I'm from Portugal", "I speak German and some
French", "I'm vegan", "I'm allergic to peanuts and shellfish".
"""

from __future__ import annotations

import re

from graphmem.extraction.clauses import Clause
from graphmem.extraction.lexicon import (
    COUNTRY_DEMONYMS,
    DEMONYMS,
    DIETS,
    LANGUAGES,
    NAME_STOPWORDS,
)
from graphmem.extraction.objects import (
    entity,
    number_value,
    parse_day_month,
    phrase_or_gerund,
    split_list,
    title_if_lower,
)
from graphmem.extraction.patterns import alternation, pattern
from graphmem.extraction.timing import BE_AUX, aspect_of, time_in
from graphmem.extraction.truecase import is_common_word
from graphmem.extraction.turn import Draft, Turn, emit

_LANGUAGE = re.compile(rf"(?i){alternation(LANGUAGES)}")


BIRTHDAY = pattern(
    r"(?P<who>(?i:my)|(?i:my|our)\s+<REL>(?:\s+<PERSON>)?|<PERSON>)(?:['’]s)"
    r"?\s+(?i:birthday|bday|b-day|date\s+of\s+birth)\s+(?i:is|'s|’s|falls\s+on)"
    r"\s+(?i:on\s+)?(?i:the\s+)?"
)
BORN_ON = pattern(r"<SUBJ><AUX>\s+(?i:born)\s+(?i:on\s+)?(?i:the\s+)?(?=\d|(?i:<MONTH>)\b)")


def birthday(x: Turn, c: Clause, m: re.Match) -> list[Draft]:
    """ "my birthday is May 3rd", "I was born on 3 May 1990"."""
    date = parse_day_month(c.s[m.end() :].lstrip())
    if date is None:
        te = time_in(c)
        if te is None or te.grain != "day" or te.kind != "point":
            return []
        date = te.interval.start.strftime("--%m-%d")
    return emit(x, c, m, "birthday", [date], "timeless")


NAME_IS = pattern(
    r"(?i:my)\s+(?i:full\s+|first\s+|real\s+|legal\s+|actual\s+|new\s+)?(?i:name)"
    r"\s+(?i:is|'s|’s)\s+(?P<obj><PERSON>|[a-z]+\b)"
)
NAME_CHANGED = pattern(
    r"<I>\s+(?i:legally\s+)?(?i:changed)\s+(?i:my)\s+(?i:name)\s+(?i:to)"
    r"\s+(?P<obj><PERSON>)"
)
CALL_ME = pattern(
    r"(?i:everyone|people|my\s+friends|friends|most\s+people|everybody)\s+(?i:calls?)"
    r"\s+(?i:me)\s+(?P<obj><PERSON>)|<I>\s+(?i:go)\s+(?i:by)\s+(?P<obj2><PERSON>)"
)
IM_NAME = pattern(r"^(?i:I['’]m|I\s+am|this\s+is|my\s+name['’]s)\s+(?P<obj><PERSON>)\s*[.!,]?\s*$")


def name(x: Turn, c: Clause, m: re.Match) -> list[Draft] | None:
    """ "my name is Ana", "I changed my name to Ana", "people call me Ana", "I go by Ana"."""
    said = m.group("obj") or m.groupdict().get("obj2")
    value = title_if_lower(said)
    if value.lower() in NAME_STOPWORDS or value.lower() in DIETS:
        return None
    if said.islower() and is_common_word(said):
        return None  # "my name is on the lease": a word, not a name
    aspect = "change" if re.search(r"(?i)changed|new", m.group(0)) else "state"
    return emit(x, c, m, "name", [value], aspect, who="I")


AGE = pattern(
    r"<SUBJ><AUX>\s+(?P<v>(?i:turned|turn|turns|turning))?\s*(?P<n>\d{1,3}|(?i:<NUM>))"
    r"(?:\s+(?i:years?|yrs?)(?:\s+(?i:old))?|\s*(?i:yo|y/o|y\.o\.))?(?=\s*(?:$|[,.;!?]|"
    r"\s+(?i:and|but|now|today|this|next|last|since|in|on|soon|already|myself|tomorrow|"
    r"yesterday|years?)\b))"
)


def age(x: Turn, c: Clause, m: re.Match) -> list[Draft] | None:
    """ "I'm 34", "Ana turned thirty"."""
    verb, aux = (m.group("v") or "").lower(), m.group("aux") or ""
    years = number_value(m.group("n"))
    if years is None or not 0 < years < 125 or (not verb and not BE_AUX.search(aux)):
        return None
    if verb.startswith("turn"):
        aspect = aspect_of(aux, {"turned": "change", "turning": "prog"}.get(verb, "base"))
    else:
        aspect = aspect_of(aux, "state")
    return emit(x, c, m, "age", [str(years)], aspect)


DIET = pattern(
    r"<SUBJ><AUX>\s+(?P<v>(?i:went|gone|go|going|turned|became|become|becoming|started|began|"
    r"starting|switched\s+to|converted\s+to|eat|eats|eating|follow|follows|following|keep|keeps|"
    r"keeping|on))?\s*(?:(?i:a|an|strictly|fully|completely|mostly|mainly|strict|full|"
    r"100%|basically|pretty\s+much)\s+)*(?P<obj>(?i:<DIET>))(?:\s+(?i:diet))?(?![\w-])"
)


def diet(x: Turn, c: Clause, m: re.Match) -> list[Draft] | None:
    """ "I'm vegan", "I went vegetarian last year"."""
    verb, aux = (m.group("v") or "").lower(), m.group("aux") or ""
    if not verb and not BE_AUX.search(aux):
        return None
    value = DIETS[" ".join(m.group("obj").lower().split())]
    form = (
        "change"
        if re.match(r"went|gone|turned|became|become|switched|converted|started|began", verb)
        else ("prog" if verb in ("going", "becoming", "starting") else "state")
    )
    return emit(x, c, m, "diet", [value], aspect_of(aux, form))


# Chat states a diet without "I am": "veggie since 2017", "still gluten free", "doing keto
# for 3 months now"; and ends one as a thing that is over: "keto is over for me", "the
# vegetarian thing is over", "pescatarian lasted just over a year".
DIET_BARE = pattern(
    r"^\s*(?:(?i:i)\s+)?(?:(?P<v>(?i:still|now|doing|fully|officially|been|back\s+on|back\s+to|"
    r"going|gone|went|turned))\s+)?(?P<obj>(?i:<DIET>))(?![\w-])"
    r"(?=\s+(?i:since|for|now|still|these\s+days|again|and|but|lol|tbh|from)\b|\s*[,.!;]|\s*$)"
)
DIET_OVER = pattern(
    r"(?:^\s*|(?i:my|the|our)\s+)(?P<obj>(?i:<DIET>))(?:\s+(?i:thing|phase|run|era|diet|"
    r"experiment|streak|life|journey|stint|attempt))?(?:\s+(?i:is|was|has)|['’]s)?\s+"
    r"(?:(?i:officially|finally|well\s+and\s+truly|definitely)\s+)?"
    r"(?P<v>(?i:over|done|finished|ended|lasted|dead|gone|out\s+the\s+window))\b"
)


def diet_bare(x: Turn, c: Clause, m: re.Match) -> list[Draft] | None:
    """The speaker's diet from a verbless fragment, or its end."""
    if not x.me:
        return None
    value = DIETS[" ".join(m.group("obj").lower().split())]
    verb = (m.group("v") or "").lower()
    if m.re is DIET_BARE and not verb and c.s[m.end() :].lstrip().startswith(","):
        return None  # "Vegan, gluten-free, whatever you have": a list, not a statement
    if m.re is DIET_OVER:
        aspect = "retract"
    else:
        aspect = (
            "change" if verb in ("now", "gone", "went", "turned", "back on", "back to") else "state"
        )
    return emit(x, c, m, "diet", [value], aspect, subject=x.me)


def _demonym(text: str) -> str | None:
    for word in DEMONYMS:
        if word.lower() == text.lower():
            return word
    return None


NATIONALITY = pattern(
    r"<SUBJ><AUX>\s+(?P<v>(?i:became|become|got|received|obtained|hold|holds|have|has))"
    r"?\s*(?:(?i:an?|dual|proud)\s+)*(?P<obj>(?i:<DEMONYM>))(?:\s+(?i:citizen|national|"
    r"citizenship|nationality|passport))?(?!\s+(?!and\b|but\b|so\b|too\b|by\b|from\b|"
    r"now\b|since\b|though\b|myself\b|originally\b|as\b)[a-z])(?![\w-])"
)


def nationality(x: Turn, c: Clause, m: re.Match) -> list[Draft] | None:
    """ "I'm Portuguese", "I became a Canadian citizen"."""
    verb, aux = (m.group("v") or "").lower(), m.group("aux") or ""
    if not verb and not BE_AUX.search(aux):
        return None
    aspect = (
        "change"
        if verb.startswith("bec") or verb in ("got", "received", "obtained")
        else aspect_of(aux, "state")
    )
    return emit(x, c, m, "nationality", [_demonym(m.group("obj"))], aspect)


FROM = pattern(
    r"<SUBJ><AUX>\s+(?i:originally\s+|born\s+and\s+raised\s+|raised\s+)?(?i:from|"
    r"come\s+from|comes\s+from|hail\s+from|hails\s+from)\s+"
)


def from_country(x: Turn, c: Clause, m: re.Match) -> list[Draft]:
    """ "I'm from Portugal": the demonym of a known country."""
    found = entity(c, m.end(), lowercase_ok=False)
    if not found:
        return []
    country = next((k for k in COUNTRY_DEMONYMS if k.lower() == found[2].lower()), None)
    if country is None:
        return []
    return emit(x, c, m, "nationality", [COUNTRY_DEMONYMS[country]], "state")


SPEAKS = pattern(
    r"<SUBJ><AUX>\s+(?P<v>(?i:speak|speaks|speaking|spoke|can\s+speak|fluent\s+in|"
    r"bilingual\s+in|conversational\s+in|a\s+native(?=\s+<LANG>\s+speaker)))"
    r"\s+(?:(?i:a\s+little\s+bit\s+of|a\s+little|a\s+bit\s+of|some|basic|fluent|"
    r"conversational|decent|good|perfect|native|broken|passable|okay|ok)\s+)"
    r"?(?P<obj>(?i:<LANG>)(?:(?:\s*,\s*|\s+and\s+|\s*,\s*and\s+|\s+&\s+)(?:(?i:a\s+little|"
    r"some|basic|fluent)\s+)?(?i:<LANG>))*)\b"
)
NATIVE = pattern(
    r"(?P<who>(?i:my))\s+(?i:native\s+language|mother\s+tongue|first\s+language)\s+(?i:is)"
    r"\s+(?P<obj>(?i:<LANG>))\b"
)


def speaks(x: Turn, c: Clause, m: re.Match) -> list[Draft]:
    """ "I speak German and some French", "my native language is Dutch"."""
    langs = _LANGUAGE.findall(m.group("obj"))
    languages = [next(w for w in LANGUAGES if w.lower() == lang.lower()) for lang in langs]
    verb = (m.groupdict().get("v") or "").lower()
    aspect = aspect_of(m.groupdict().get("aux") or "", "past" if verb == "spoke" else "state")
    return emit(x, c, m, "speaks", languages, aspect)


ALLERGIC = pattern(
    r"<SUBJ><AUX>\s+(?:(?i:severely|very|deathly|mildly|slightly|highly|seriously|"
    r"extremely|really|super)\s+)?(?P<v>(?i:allergic))\s+(?i:to)\s+"
)
ALLERGY = pattern(
    r"<SUBJ><AUX>\s+(?P<v>(?i:have|has|got|developed))\s+(?:(?i:a|an|some)\s+)"
    r"?(?:(?i:severe|mild|bad|serious|slight|nasty|deadly|life-threatening)\s+)"
    r"?(?P<obj>[\w\-]+(?:\s+[\w\-]+)?)\s+(?i:allergy|allergies)\b"
)


def allergy(x: Turn, c: Clause, m: re.Match) -> list[Draft]:
    """ "I'm allergic to peanuts and shellfish", "I have a nut allergy"."""
    if m.groupdict().get("obj"):
        items = [m.group("obj").lower()]
    else:
        found = phrase_or_gerund(c, m.end(), max_words=8)
        items = split_list(found[2]) if found else []
    verb = (m.groupdict().get("v") or "").lower()
    aspect = "change" if verb in ("developed", "got") else aspect_of(m.group("aux") or "", "state")
    return emit(x, c, m, "allergic_to", [i for i in items if len(i.split()) <= 4], aspect)
