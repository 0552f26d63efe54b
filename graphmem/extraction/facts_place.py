"""Where people live: ``lives_in``.

"I live in Berlin", "we live in Porto", "I moved to Lyon last month", "I'm moving
to Oslo next month", "my new address is in Ghent". A move still to come needs a date
("I'm moving to Oslo" alone is left to the ``plans`` rule); "I left Berlin" is read with
leaving a job, in :mod:`graphmem.extraction.facts_work`.
"""

from __future__ import annotations

import re
from dataclasses import replace

from graphmem.extraction.clauses import Clause
from graphmem.extraction.gazetteer import is_place, place_at
from graphmem.extraction.lexicon import PLACES
from graphmem.extraction.objects import entity, object_end
from graphmem.extraction.patterns import pattern
from graphmem.extraction.timing import aspect_of, time_in, verb_form
from graphmem.extraction.truecase import is_common_word, is_proper_noun
from graphmem.extraction.turn import Draft, Turn, emit

_MOVE_FORMS = {
    r"moved|relocated|emigrated|immigrated|settled|shifted": "change",
    r"moving|relocating|shifting": "prog",
    r"move|moves|relocate|relocates": "base",
}
_LIVE_FORMS = {r"lived|resided": "past", r"settled": "change"}


def _place(x: Turn, c: Clause, pos: int):
    found = _named_place(c, pos)
    if found is not None and not is_place(found[2]):
        # "Moved to Fukuoka 7/1": a date the time grammar did not take is not the name
        bare = re.sub(r"(?:\s+\d[\d/.]*)+$", "", found[2])
        if bare != found[2] and is_place(bare):
            found = (found[0], found[0] + len(bare), bare)
    if found is None or found[2] in PLACES or is_place(found[2]):
        return found
    city = _city_around(x, c, found[1])  # "a flat in Arroios" after "Olá from LISBOA!!"
    return (found[0], found[1], city) if city else found


# The city a neighbourhood lies in: "in Bonfim, Porto", "in Arroios in Lisbon", or the
# place the turn greets from ("Olá from PORTO 🌉 ... we live in Bonfim").
_GREETING_FROM = re.compile(
    r"(?i)(?:^|[.!?]\s+)\W*(?:hello|hi|hey|hiya|ol[áa]|greetings|love|cheers|howdy|yo|salut|"
    r"hallo|ciao|hola|bonjour)\b[\s,!]*(?:again\s+)?from\s+"
)
_WITHIN = re.compile(r"\s*,\s*|\s+in\s+")


def _city_around(x: Turn, c: Clause, end: int) -> str | None:
    at = c.start + end - len(c.prefix)  # in the turn: the clause may end at the comma
    within = _WITHIN.match(x.text, at) if at >= c.start else None
    if within and (city := place_at(x.text, within.end())):
        return city[2]
    greeting = _GREETING_FROM.search(x.text)
    city = place_at(x.text, greeting.end()) if greeting else None
    return city[2] if city else None


def _named_place(c: Clause, pos: int):
    found = entity(c, pos)
    if found is not None and re.search(r"['’]s?$", found[2]):
        found = None  # "moved into Ernesto's house here in Seguin": someone's, not a place
    if found is None or found[2][:1].islower():
        # typed in lower case in a cased message: "my sis lives in accra now"
        known = place_at(c.s, pos + len(c.s[pos:]) - len(c.s[pos:].lstrip()), object_end(c, pos))
        found = known or found
    if found is None:  # "a small flat in Berlin"
        later = re.compile(r"\s(?:in|near)\s+(?=[A-Z])").search(c.s, pos, object_end(c, pos))
        if later and later.start() - pos < 40:
            found = entity(c, later.end(), lowercase_ok=False)
    return found


# "my sister Keerthi is in Coimbatore", "I'm out in Tucson", "staying in Pune": a place the
# word list knows as a proper noun (or the place lexicon), not a visit.
BE_IN = pattern(
    # "she's in Porto": the contraction stands right after its subject
    r"<SUBJ><AUX>(?:\s+(?P<v>(?i:is|am|are|was|been|staying|settled))|(?P<v2>['’](?:m|s|re)))"
    r"\s+(?:(?i:now|currently|still|happily|all|finally|officially|over|out|down|up|back)\s+)*"
    r"(?i:in)\s+"
)
_VISIT = re.compile(
    r"(?i)\b(?:for\s+(?:a|the|an|two|three|few|couple)\b|this\s+week|trip|holiday|vacation|visit|"
    r"conference|hotel|hostel|until|till|tonight|today|tomorrow|weekend|airport|layover|meeting|"
    r"love|trouble|charge|hospital|bed|class|school|college|uni|office|traffic|queue|line)\b"
)


_TOWN_WORD = re.compile(
    r"\b(?:Park|Point|Hill|Hills|Heights|Beach|Springs|Falls|Bay|City|Town|Village|Creek|"
    r"Valley|Lake|Harbor|Harbour|Grove|Bridge|Green|Wells|Cross|Sands|Ridge|Port)$"
)


def be_in(x: Turn, c: Clause, m: re.Match) -> list[Draft] | None:
    """ "X is in <Place>" says where X lives only for a known place name and no visit."""
    found = _place(x, c, m.end())
    # the place's own name is no visit ("I'm in College Park")
    if not found or _VISIT.search(c.s[m.start() : found[0]] + " " + c.s[found[1] :]):
        return None
    name = found[2]
    # "We're in Sola now": a name no dictionary knows, said as where one is now
    now = re.match(r"\s+(?i:now|these\s+days)\b", c.s[found[1] :]) and not is_common_word(name)
    # "Bethan's in Saundersfoot": a town too small for the gazetteer, capitalised, no word
    named = name[0].isupper() and (
        not any(is_common_word(w) for w in name.split())
        or (len(name.split()) > 1 and all(w[0].isupper() for w in name.split())
            and _TOWN_WORD.search(name))  # "College Park", "East Point"
    )  # fmt: skip
    if not (name in PLACES or is_place(name) or is_proper_noun(name.split()[0]) or now or named):
        return None
    verb = (m.group("v") or m.group("v2")).lower()
    aspect = "past" if verb in ("was",) else "state"
    return emit(x, c, m, "lives_in", [name], aspect, obj_span=found[:2])


# Chat leaves out "I am": "still in Leeds lol", "now in Pune since December", "back in
# Porto for good". Only at the start of the clause, and only for a place.
STILL_IN = pattern(
    r"^\s*(?:(?i:i)\s+)?(?P<v>(?i:still|now|currently|back|finally))\s+"
    r"(?:(?i:living|based|staying|settled|home)\s+)?(?i:in)\s+"
)


def still_in(x: Turn, c: Clause, m: re.Match) -> list[Draft] | None:
    """ "still in Leeds" (a state), "now in Pune" (a change) about the speaker."""
    found = _place(x, c, m.end())
    comma = c.s.find(",", found[1]) if found else -1
    if not found or _VISIT.search(c.s, m.start(), comma if comma > 0 else len(c.s)) or not x.me:
        return None
    name = found[2]
    if name not in PLACES and not is_place(name) and not is_proper_noun(name.split()[0]):
        return None
    aspect = "state" if m.group("v").lower() in ("still", "currently") else "change"
    return emit(x, c, m, "lives_in", [name], aspect, subject=x.me, obj_span=found[:2])


# "Myself Lakshmi, staying in Pune", "..., living in Clovis tho": the speaker's home said
# without "I am", after a comma or at the clause's start
LIVING_BARE = pattern(
    r"(?:^|(?<=,))\s*(?:(?i:currently|now|still|also)\s+)?(?P<v>(?i:staying|living|based|"
    r"live))\s+(?:(?i:up|down|out|over|here)\s+)?(?i:in)\s+"
)


def living_bare(x: Turn, c: Clause, m: re.Match) -> list[Draft] | None:
    found = _place(x, c, m.end())
    if not found or not x.me or _VISIT.search(c.s, m.start()):
        return None
    name = found[2]
    if name not in PLACES and not is_place(name) and not is_proper_noun(name.split()[0]):
        return None
    return emit(x, c, m, "lives_in", [name], "state", subject=x.me, obj_span=found[:2])


# "melting here in Darwin", "here in Leeds it never stops raining": where the speaker is
# at home, unless the sentence says it is a visit.
HERE_IN = pattern(r"(?<![\w'’])(?:(?i:over|up|down|out|back\s+home)\s+)?(?i:here)\s+(?i:in)\s+")


def here_in(x: Turn, c: Clause, m: re.Match) -> list[Draft] | None:
    found = _place(x, c, m.end())
    if not found or not x.me or _PASSING.search(x.text):
        return None
    name = found[2]
    if name not in PLACES and not is_place(name):
        return None
    return emit(x, c, m, "lives_in", [name], "state", subject=x.me, obj_span=found[:2])


_PASSING = re.compile(
    r"(?i)\b(?:visit\w*|trip|travel\w*|holiday|vacation|conference|"
    r"business|week|weekend|few\s+days|stay(?:ing)?\s+at|landed|flew|hotel)\b"
)


LIVE = pattern(
    r"<SUBJ><AUX>\s+(?P<v>(?i:live|lives|living|lived|reside|resides|residing|resided|"
    r"based))\s+(?i:here\s+)?(?:(?i:with)\s+(?:(?i:my|our)\s+)?(?:\w+\s+){1,3}?)?(?i:in)\s+"
)


def lives(x: Turn, c: Clause, m: re.Match, forms=_LIVE_FORMS) -> list[Draft] | None:
    found = _place(x, c, m.end())
    if not found:
        return []
    aspect = aspect_of(m.group("aux") or "", verb_form(m.group("v"), forms))
    if "now" in (m.group("aux") or "").lower().split() and aspect == "state":
        aspect = "change"
    if aspect == "future" and time_in(c, found[:2]) is None:
        return None  # "I'm moving to Oslo": left to the plans rule
    return emit(x, c, m, "lives_in", [found[2]], aspect, obj_span=found[:2])


MOVE = pattern(
    r"<SUBJ><AUX>\s+(?P<v>(?i:moved|relocated|move|moves|moving|relocate|relocates|"
    r"relocating|emigrated|immigrated|settled|shifted|shifting))\s+(?i:back\s+|over\s+|"
    r"permanently\s+|here\s+|down\s+|up\s+|out\s+|away\s+|all\s+the\s+way\s+)*(?:(?i:from)\s+[\w'’.\-]+(?:\s+[A-Z][\w'’.\-]*)?"
    r"\s+)?(?i:to|into|in)\s+"
)


def moves(x: Turn, c: Clause, m: re.Match) -> list[Draft] | None:
    return lives(x, c, m, _MOVE_FORMS)


# A move whose place was said just before: "found a flat in Utrecht, we move on 1
# September", "Writing from Fukuoka now! Moved on 1 July as planned", "Hallo from
# Amsterdam! We arrived 6 September", or the offer in Fukuoka of the turn before and "I
# move on 2024/07/01" in this one. The verb stands alone: a "to"/"in"/"out" after it is
# another rule's (or another kind of move: "moved in with", "moved teams").
MOVE_BARE = pattern(
    # "we get the keys on 10th March and move on the 14th": the subject shared by "and"
    r"(?:<SUBJ><AUX>\s+|(?<=\b[Aa]nd\s))(?:(?i:finally|officially|actually|just|all)\s+)*"
    r"(?P<v>(?i:moved|move|moves|moving|relocated|relocate|relocating|arrived))\b"
    r"(?!\s+(?i:to|into|in|out|from|away|back|house|home|flat|apartment|jobs?|teams?|"
    r"departments?|desks?|offices?|up|over|on(?!\s+(?:\d|the\s+\d|\w+day|[A-Z]))|here|there|"
    r"it|them|the|my|our|her|his|their|a|an|this|that|forward|ahead|along|fast|quickly|"
    r"slowly|around|abroad|overseas|somewhere|again)\b)"
)
_PAST_MOVE = frozenset({"moved", "relocated", "arrived"})
# "Found a flat in Sandviken, move date 15 March": the day of a move, its place said before
MOVE_DATE = pattern(r"(?<![\w'’])(?P<v>(?i:move|moving|removal))[\s-]+(?i:date|day)\b")


def move_date(x: Turn, c: Clause, m: re.Match) -> list[Draft] | None:
    te = time_in(c, None, x.future_times(c))  # a move's day is ahead unless said past
    if te is None or not x.me or _PASSING.search(x.text) or c.s[: m.start()].count(" ") > 6:
        return None
    place = _new_place_before(x, c.start + m.start())
    if place is None:
        return None
    aspect = "future" if te.interval.start > x.ts else "change"
    return emit(x, c, m, "lives_in", [place], aspect, subject=x.me)


def _new_place_before(x: Turn, pos: int) -> str | None:
    """The place said last before ``pos`` (this turn or the one before), unless it is
    where the speaker already lives."""
    place = x.place_before(pos)
    return None if place == x.memory.known.get((x.me or "", "lives_in")) else place


def move_bare(x: Turn, c: Clause, m: re.Match) -> list[Draft] | None:
    """A move to the place named last before it, in this turn or the one before: dated,
    or told as done ("moved", "arrived"), never for a stay ("arrived at the hotel")."""
    verb = m.group("v").lower()
    who = m.group("who")
    if who is None:  # "keys on 10th March and move on the 14th": the move is its own
        who = x.last_who  # clause, with the subject "and" shares and its own day
        cut = m.start("v") - len(c.prefix)
        c = replace(c, start=c.start + cut, text=c.text[cut:], prefix="")
        c.times = [t for t in c.times if c.start <= t.span[0]]
    if verb not in _PAST_MOVE:  # "we move on the 14th": a move not yet made is dated ahead
        c = replace(c, times=x.future_times(c))
    if _PASSING.search(x.text) or (verb not in _PAST_MOVE and time_in(c) is None):
        return None
    place = _new_place_before(x, c.start)
    if place is None:
        return None
    aspect = aspect_of(m.group("aux") or "", verb_form(verb, {**_MOVE_FORMS, "arrived": "change"}))
    return emit(x, c, m, "lives_in", [place], aspect, who=who)


HOME = pattern(
    r"(?i:my)\s+(?P<new>(?i:new)\s+)?(?i:home|address|place|flat|apartment|house)"
    r"\s+(?i:is)\s+(?i:now\s+)?(?i:in)\s+"
)


def home(x: Turn, c: Clause, m: re.Match) -> list[Draft]:
    """ "my (new) home is in Ghent"."""
    found = _place(x, c, m.end())
    aspect = "change" if m.group("new") else "state"
    return emit(x, c, m, "lives_in", [found[2]], aspect, subject=x.me) if found else []
