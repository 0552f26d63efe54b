"""Tastes and pastimes: ``likes``, ``dislikes``, ``hobby``.

"I love jazz and hiking", "I like to swim" (-> "swimming"), "my favourite band is
Muse", "I can't stand olives", "I don't like olives" (a dislike, not a negated like),
"I play tennis", "I took up pottery", "I gave up chess". Replies to the assistant's
suggestions ("I like the idea of...", "I love the schedule", "I love it") are not
tastes, and neither are habits taken up or dropped ("I started working late", "I stopped
smoking").
"""

from __future__ import annotations

import re

from graphmem.extraction.clauses import Clause
from graphmem.extraction.facts_things import DEVICE
from graphmem.extraction.lexicon import HOBBY_GAMES, LANGUAGES, PROGRAMMING_LANGUAGES, words
from graphmem.extraction.objects import (
    POINTS_BACK,
    clean,
    gerund,
    phrase,
    phrase_or_gerund,
    split_list,
)
from graphmem.extraction.patterns import alternation, pattern
from graphmem.extraction.timing import aspect_of
from graphmem.extraction.turn import Draft, Turn, emit

_NEGATED_AUX = re.compile(r"n['’]t|\bnot\b|\bnever\b")
_REACTION = re.compile(
    r"\s*(?:(?i:the|this|that|these|those|your|all\s+the)\s+(?![A-Z])|(?i:it|them|that|this)\b"
    r"|(?i:(?:an?\s+)?(?:idea|ideas|sound|look|suggestions?|tips|recommendations?|plan|"
    r"schedule|list|options?|approach|concept|format|layout)\b))"
)
_NOT_HOBBIES = frozenset(
    words(
        "working living dating seeing reporting eating being going getting feeling thinking "
        "looking using trying doing having making taking saying telling wondering planning "
        "considering waking sleeping drinking noticing paying spending saving wearing buying "
        "checking tracking keeping putting bringing asking talking coming leaving moving "
        "preparing packing researching experiencing struggling worrying driving commuting "
        "studying revising teaching nursing babysitting cleaning"
    )
)


LIKES = pattern(
    r"<SUBJ><AUX>\s+(?:(?i:really|absolutely|totally|just|truly|genuinely|especially|"
    r"kinda|kind\s+of|sort\s+of|still|also|both|definitely|do|always|secretly|actually)"
    r"\s+)*(?P<v>(?i:like|likes|love|loves|adore|adores|enjoy|enjoys|prefer|prefers|liked|"
    r"loved|enjoyed|adored|(?:a\s+)?(?:big\s+|huge\s+|massive\s+|great\s+)?fan\s+of|into|"
    r"obsessed\s+with|crazy\s+about|passionate\s+about|fond\s+of|keen\s+on|addicted\s+to))"
    r"\s+"
)


def likes(x: Turn, c: Clause, m: re.Match) -> list[Draft] | None:
    aux = m.group("aux") or ""
    if _NEGATED_AUX.search(aux) and not c.ceased:
        return None  # "I don't like olives": the dislike rule
    if _REACTION.match(c.s, m.end()):
        return []  # "I like the idea of...", "I love the schedule": a reply, not a taste
    found = phrase_or_gerund(c, m.end())
    if not found:
        return []
    verb = m.group("v").lower()
    form = "past" if verb in ("liked", "loved", "enjoyed", "adored") else "state"
    value = found[2]
    if verb.startswith("prefer"):  # "I prefer tea over coffee"
        value = re.split(r"\s+(?:over|to|rather\s+than|instead\s+of)\s+", value)[0]
    items = [i for i in split_list(value) if len(i.split()) <= 6 and not POINTS_BACK.search(i)]
    if re.match(r"(?i)to\s", c.s[m.end() :]):  # "I like to swim, dance and do yoga"
        items = [gerund(i.split()[0]) + i[len(i.split()[0]) :] for i in items]
    return emit(x, c, m, "likes", items, aspect_of(aux, form))


FAVOURITE = pattern(r"(?i:my)\s+(?i:favou?rite|fave|favorite)\s+(?:[\w\-]+\s+){1,2}?(?i:is|are)\s+")


def favourite(x: Turn, c: Clause, m: re.Match) -> list[Draft]:
    """ "my favourite band is Muse"."""
    found = phrase_or_gerund(c, m.end(), max_words=6)
    return emit(x, c, m, "likes", [found[2]], "state", subject=x.me) if found else []


DISLIKES = pattern(
    r"<SUBJ><AUX>\s+(?:(?i:really|absolutely|totally|just|truly|genuinely|kinda|kind\s+of|"
    r"honestly|seriously|still|also|actually)\s+)*(?P<v>(?i:hate|hates|dislike|dislikes|"
    r"detest|detests|loathe|loathes|despise|despises|can['’]?t\s+stand|cannot\s+stand|"
    r"hated|disliked|like|likes|enjoy|enjoys|care\s+for|(?:a\s+)?(?:big\s+|huge\s+)"
    r"?fan\s+of))\s+"
)


def dislikes(x: Turn, c: Clause, m: re.Match) -> list[Draft] | None:
    """ "I hate olives", "I don't like olives" (the rule reads negation itself)."""
    verb, aux = " ".join(m.group("v").lower().split()), m.group("aux") or ""
    negated = bool(_NEGATED_AUX.search(aux))
    positive = bool(re.search(r"\b(?:like|likes|enjoy|enjoys|care|fan)\b", verb))
    if positive and not negated:
        return None
    if (positive and c.ceased) or (not positive and negated and not c.ceased):
        return []  # "I don't hate olives"
    found = phrase_or_gerund(c, m.end())
    if not found:
        return []
    items = [i for i in split_list(found[2]) if len(i.split()) <= 6]
    past = verb in ("hated", "disliked") or re.search(r"(?i)\bdid", aux)
    return emit(x, c, m, "dislikes", items, aspect_of(aux, "past" if past else "state"))


HOBBY_LIST = pattern(
    r"(?i:my)\s+(?:(?i:main|favou?rite|new|latest|big)\s+)?(?i:hobby|hobbies|pastime|"
    r"pastimes|passion)\s+(?i:is|are|include|includes|has\s+become|became|"
    r"these\s+days\s+(?:is|are))\s+"
)


def hobby_list(x: Turn, c: Clause, m: re.Match) -> list[Draft]:
    """ "my hobbies are chess and climbing"."""
    found = phrase_or_gerund(c, m.end())
    items = split_list(found[2]) if found else []
    return emit(x, c, m, "hobby", items, "state", subject=x.me)


HOBBY_PLAY = pattern(
    r"<SUBJ><AUX>\s+(?P<v>(?i:play|plays|playing|played|do|does|doing|did|practice|"
    r"practise|practices|practises|practicing|practising|go|goes|went|going))"
    r"\s+(?:(?i:a\s+lot\s+of|some|lots\s+of|the)\s+)?(?P<obj>(?i:<HOBBY>)|(?!to\b)"
    r"[a-z]+ing)\b"
)


def hobby_play(x: Turn, c: Clause, m: re.Match) -> list[Draft]:
    """ "I play tennis", "I go climbing"."""
    verb = m.group("v").lower()
    if verb == "going":
        return []
    form = "past" if verb in ("played", "did", "practiced", "practised", "went") else "state"
    aspect = aspect_of(m.group("aux") or "", form)
    return emit(x, c, m, "hobby", [clean(m.group("obj")).lower()], aspect)


def _activity(c: Clause, pos: int):
    """``(span, activity, first word)`` at ``pos``: "playing the piano" -> "piano"."""
    found = phrase_or_gerund(c, pos, max_words=12)
    if found:
        # Chat runs on after the activity ("bouldering w the uni club n my arms r dead",
        # "quit netball, no time"): the activity is the head before the first comma,
        # preposition or time word.
        head = _ACTIVITY_END.split(found[2], maxsplit=1)[0].strip()
        found = (found[0], found[0] + len(head), head) if 0 < len(head.split()) <= 4 else None
    if not found:
        return None
    activity = re.sub(r"(?i)^(?:playing|doing|practi[cs]ing|learning)\s+(?:the\s+|to\s+)?(?=\w)", "",
                      found[2])  # fmt: skip
    # "birdwatching properly", "on pottery": the adverb and the preposition are no part of it
    activity = re.sub(r"(?i)\s+(?:properly|seriously|again|now|too|regularly|already)$", "",
                      activity)  # fmt: skip
    activity = re.sub(r"(?i)^on\s+(?=\w)", "", activity)
    first = activity.split()[0].lower() if activity.split() else found[2].split()[0].lower()
    return found[:2], activity, first


_ACTIVITY_END = re.compile(
    r"(?i)\s*[,(–—-]\s*|\s+(?:with|w/|w|at|in|on|for|from|since|every|each|last|this|next|"
    r"twice|once|after|before|because|cos|coz|bc|n|and\s+(?:my|i|it|now|then|the)|to|till|until|"
    r"round|around|near|again|properly|seriously|regularly|classes|class|lessons|sessions|"
    r"club|league)\b"
)


def _sounds_like_hobby(activity: str, first: str) -> bool:
    """A gerund ("climbing", "sourdough baking") or a pastime the lexicon names."""
    last = activity.lower().split()[-1] if activity.split() else first
    return first.endswith("ing") or last.endswith("ing") or activity.lower() in HOBBY_GAMES


HOBBY_START = pattern(
    r"<SUBJ><AUX>\s+(?P<v>(?i:took\s+up|taken\s+up|take\s+up|taking\s+up|picked\s+up|"
    r"started|began|got\s+into|gotten\s+into|getting\s+into|got\s+really\s+into|"
    r"(?:has\s+)?dragged\s+me\s+into|got\s+me\s+into|signed\s+up\s+for))\s+"
    r"(?:(?i:the|some|a\s+bit\s+of)\s+)?"
)


def hobby_start(x: Turn, c: Clause, m: re.Match) -> list[Draft] | None:
    """ "I took up pottery", "I started climbing", "I got into chess"."""
    verb = " ".join(m.group("v").lower().split())
    found = _activity(c, m.end())
    if not found:
        return []
    span, activity, first = found
    loose = ("started", "began", "start", "begin", "signed up for")  # also said of non-hobbies
    if verb in loose and not _sounds_like_hobby(activity, first):
        return None
    if first in _NOT_HOBBIES or re.match(
        r"(?i)(?:the|a|my)\s+(?:habit|routine|practice)\b", c.s[m.end() :].lstrip()
    ):
        return None
    if "into" in verb and activity[:1].isupper():
        return None  # "I got into Tame Impala's album": a taste, not an activity
    aspect = aspect_of(m.group("aux") or "", "prog" if verb.startswith("getting") else "change")
    return emit(x, c, m, "hobby", [activity.lower()], aspect, obj_span=span)


# "No more pickleball for me since last month": a stop said with "no" (the rule reads the
# negation itself).
NO_MORE = pattern(r"^\s*(?i:no\s+more)\s+")


def no_more(x: Turn, c: Clause, m: re.Match) -> list[Draft] | None:
    found = _activity(c, m.end())
    if not found or not x.me:
        return None
    _, activity, first = found
    if not _sounds_like_hobby(activity, first) or first in _NOT_HOBBIES:
        return None
    return emit(x, c, m, "hobby", [activity.lower()], "retract", subject=x.me)


HOBBY_STOP = pattern(
    r"<SUBJ><AUX>\s+(?P<v>(?i:gave\s+up|given\s+up|quit|stopped|packed\s+in|jacked\s+in|"
    r"ditched|dropped|done\s+with|finished\s+with|knocked\s+(?:it\s+)?on\s+the\s+head\s+with))\s+"
    r"(?:(?i:on)\s+)?(?:(?i:the|my|doing)\s+)?"
)


def hobby_stop(x: Turn, c: Clause, m: re.Match) -> list[Draft] | None:
    """ "I gave up chess", "I stopped running"."""
    found = _activity(c, m.end())
    if not found:
        return []
    _, activity, first = found
    verb = m.group("v").lower()
    if not verb.startswith(("gave", "given")) and not _sounds_like_hobby(activity, first):
        return None
    if first in _NOT_HOBBIES or first in ("smoking", "drinking", "vaping"):
        return []
    if re.fullmatch(DEVICE, activity):
        return []  # "gave up on the iPhone 11 and got a Pixel": a phone, not a pastime
    return emit(x, c, m, "hobby", [activity], "retract")


# A pastime read from its name out, where the clause says it is the speaker's habit:
# "netball every tuesday w the girls", "still bouldering twice a week", "Reading is my
# main hobby", "Ham radio's been my thing", "pottery is done for me", "Golf and me are
# done". A gerund counts only with the habit said (every..., twice a week, my thing).
_PASTIME = (
    r"(?P<obj>(?i:<HOBBY>)|(?:(?!(?i:was|is|am|are|were|been|be|i|im|he|she|we|they|it|and|but|"
    r"so|the|a|my|not|just|still|also|now|then|really|keep|kept|went|go|going|started|stop|"
    r"stopped|quit|love|loved|like|hate|from|for|of|at|in|on|to|with)\b)(?i:[a-z]+)\s+)?"
    r"(?i:[a-z]{3,}ing)|(?i:ham\s+radio|parkrun|"
    r"model\s+trains|[a-z]+\s+fishing))"
)
# at the clause's start or after a comma ("Still in Kochi, still reading every night"); the
# clause may carry the speaker's elided "I"
_LEAD = r"(?:^|(?<=[,;]))\s*(?:I\s+)?"
_OFTEN = (
    r"(?i:(?:every|each|most)\s+(?:(?:other|single)\s+)?(?:day|week|weekend|morning|evening|"
    r"night|mon|tue|wed|thu|fri|sat|sun)\w*|(?:twice|once|three\s+times|\d\s*x)\s+(?:a|per)\s+"
    r"(?:week|wk|month|day))"
)
HOBBY_HABIT = pattern(
    rf"{_LEAD}(?:(?i:still|been|now|also)\s+)?(?:(?i:doing|playing|going)\s+)?"
    rf"{_PASTIME}(?:\s+[\w'’&/]+){{0,4}}?\s+(?:{_OFTEN})\b"
)
HOBBY_STILL = pattern(
    rf"{_LEAD}(?i:still)\s+(?:(?i:doing|playing|at)\s+)?(?:(?i:the)\s+)?{_PASTIME}\b"
)
HOBBY_MINE = pattern(
    rf"{_LEAD}{_PASTIME}(?:['’]s|\s+is|\s+has)\s+(?:(?i:been)\s+)?(?i:my)\s+(?:(?i:main|new|other|"
    r"big|one|only|favourite|favorite|fave|fav)\s+)*(?P<kind>(?i:hobby|thing|vice|passion|"
    r"obsession|escape|outlet))\b"
)
HOBBY_DONE = pattern(
    rf"{_LEAD}{_PASTIME}\s+(?:(?i:is|['’]s)\s+(?i:done|over|finished)\s+(?i:for\s+me)|(?i:and)\s+"
    r"(?i:me|I)\s+(?i:are|r)\s+(?i:done|finished|over))\b"
)


def hobby_habit(x: Turn, c: Clause, m: re.Match) -> list[Draft] | None:
    """The speaker's pastime, said as a habit, their thing, or one that is over."""
    activity = " ".join(m.group("obj").lower().split())
    first = activity.split()[0]
    named = (
        activity in HOBBY_GAMES
        or activity.split()[-1] in HOBBY_GAMES
        or bool(re.fullmatch(r"ham radio|parkrun|model trains|[a-z]+ fishing", activity))
    )
    if not x.me or first in _NOT_HOBBIES or activity.split()[-1] in _NOT_HOBBIES:
        return None
    if first in ("my", "the", "a", "an", "i", "been", "still", "doing", "playing", "going"):
        activity = " ".join(activity.split()[1:]) or activity
    if not named and not activity.endswith("ing") and m.re not in (HOBBY_MINE, HOBBY_DONE):
        return None
    if m.re is HOBBY_STILL and not named and not re.search(_OFTEN, c.s):
        return None  # "still waiting": a gerund needs the habit said
    if re.match(
        r"\s+(?i:the|a|an|my|his|her|their|our|it|them|up|out|down|off|over|back|"
        r"around|in|on)\b",
        c.s[m.end("obj") :],
    ):
        return None  # "still spinning the dial", "turning up once a month": a verb's object
    aspect = "retract" if m.re is HOBBY_DONE else "state"
    if (
        m.re is HOBBY_MINE
        and m.group("kind").lower() != "hobby"
        and not (named or activity.endswith("ing"))
    ):
        return None  # "Python's my thing": not a pastime by its shape
    if m.re is HOBBY_MINE and re.search(r"(?i)\bnew\b", m.group(0)):
        aspect = "change"
    return emit(x, c, m, "hobby", [activity], aspect, subject=x.me, obj_span=m.span("obj"))


# Favourites: one value at a time per category ("Rust has become my go-to language").
FAVOURITE_CATEGORIES: dict[str, str] = {
    **dict.fromkeys(
        ["programming language", "coding language", "language", "lang", "stack"],
        "favourite_language",
    ),
    **dict.fromkeys(["food", "dish", "meal", "cuisine", "snack", "thing to eat"], "favourite_food"),
    **dict.fromkeys(["drink", "beverage", "tipple", "bevvy"], "favourite_drink"),
    **dict.fromkeys(["book", "novel", "read"], "favourite_book"),
    **dict.fromkeys(["film", "movie", "flick"], "favourite_film"),
    **dict.fromkeys(
        ["band", "music", "artist", "singer", "song", "album", "genre", "group"], "favourite_music"
    ),
    **dict.fromkeys(["sport", "team", "game to watch"], "favourite_sport"),
    **dict.fromkeys(["colour", "color"], "favourite_colour"),
}
_CATEGORY = "|".join(sorted((re.escape(k) for k in FAVOURITE_CATEGORIES), key=len, reverse=True))
_FAV_WORD = (
    r"(?:(?i:all[- ]time|absolute|new|current|real|actual|ultimate|number[- ]one)\s+)*"
    r"(?i:favou?rite|fave|fav|go-to|go\s+to|preferred|top|pick\s+of|best)"
)
# "my favourite food is X", "my go-to language is now X", "fave film? X"
FAV_MINE = pattern(
    # "my" may go unsaid at the start of a clause: "fav film is past lives now"
    rf"(?:(?i:my)\s+|^\s*)(?:(?i:new|current|all[- ]time)\s+)?{_FAV_WORD}\s+"
    rf"(?P<cat>(?i:{_CATEGORY}))s?(?:\s+(?i:of\s+all\s+time|ever|rn|atm|right\s+now|"
    r"these\s+days|at\s+the\s+moment|alert))?"
    r"\s*(?:(?P<v>(?i:is|'s|’s|has\s+become|became|is\s+now|is\s+still|now\s+is|now|these\s+days\s+is|"
    r"at\s+the\s+moment\s+is|right\s+now\s+is|has\s+to\s+be|would\s+be|still|is\s+def(?:initely)?|"
    r"=)|[?:–—-]))\s*"
)
# "X is my favourite food", "X has become my go-to language", "X is my drink of choice"
FAV_VALUE = pattern(
    rf"(?P<obj>[^,.;!?]{{1,40}}?)(?:\s+(?P<v>(?i:is|are|'s|’s|has\s+become|have\s+become|became|"
    r"is\s+now|is\s+still|remains|will\s+always\s+be|still))|(?P<v2>['’]s(?:\s+(?i:still|now))?))\s+(?:(?i:now|still|officially|easily|"
    # any -ly adverb, and the idioms that grade a favourite ("hands down", "by far")
    r"definitely|honestly|totally|basically|hands\s+down|by\s+far|without\s+a\s+doubt|"
    r"[a-z]+ly)\s+){0,2}(?i:my)\s+(?:(?:"
    rf"{_FAV_WORD})\s+(?P<cat>(?i:{_CATEGORY}))|(?P<cat2>(?i:{_CATEGORY}))\s+(?i:of\s+choice)|"
    rf"(?P<cat3>(?i:{_CATEGORY})))\b"
)

# "honestly reckon hangi is my new fav", "Python is my favourite.": no kind said; the kind
# is the value's (a programming language) or the favourite the turn was already about
FAV_NO_KIND = pattern(
    rf"(?P<obj>[^,.;!?]{{1,30}}?)(?:\s+(?i:is|has\s+become|became|is\s+now)|['’]s)\s+"
    rf"(?:(?i:now|officially|definitely|honestly|[a-z]+ly)\s+)?(?i:my)\s+{_FAV_WORD}"
    r"(?=\s*(?:[,.;!?]|$)|\s+(?i:now|too|anyway|lol|haha|tbh)\b)"
)
# "matcha latte has replaced flat white as my favourite drink"
FAV_REPLACED = pattern(
    rf"(?P<obj>[^,.;!?]{{1,30}}?)\s+(?i:has|have)\s+(?i:replaced|overtaken|taken\s+over\s+from|beaten)\s+"
    rf"(?P<old>[^,.;!?]{{1,30}}?)\s+(?i:as)\s+(?i:my)\s+{_FAV_WORD}\s+(?P<cat>(?i:{_CATEGORY}))\b"
)
_KIND_SAID = re.compile(rf"(?i)\b(?:{_FAV_WORD})\s+(?P<cat>{_CATEGORY})\b")


def favourite_no_kind(x: Turn, c: Clause, m: re.Match) -> list[Draft] | None:
    value = _favourite_object(m.group("obj"))
    if not value or not x.me:
        return None
    value = re.sub(
        r"(?i)^(?:i\s+)?(?:honestly\s+|really\s+)?(?:reckon|think|guess|say)\s+", "", value
    )
    if value.title() in PROGRAMMING_LANGUAGES or value in PROGRAMMING_LANGUAGES:
        predicate = "favourite_language"
    else:
        said = list(_KIND_SAID.finditer(x.text, 0, c.start + max(0, m.start() - len(c.prefix))))
        if not said:
            return None
        predicate = FAVOURITE_CATEGORIES.get(" ".join(said[-1].group("cat").lower().split()))
    if predicate is None or len(value.split()) > 4:
        return None
    return emit(x, c, m, predicate, [value], "change", subject=x.me)


# "Honestly I like SQL better than Python now", with Python the favourite on record: the
# favourite has changed
LIKE_BETTER = pattern(
    r"<SUBJ><AUX>\s+(?:(?i:really|honestly|actually)\s+)?(?i:like|love|prefer|rate)\s+"
    r"(?P<obj>[A-Z][\w+#.\-]*(?:\s+[A-Z][\w+#.\-]*)?)\s+(?:(?i:way|much|a\s+lot)\s+)?"
    r"(?i:better\s+than|more\s+than|over|to)\s+(?P<old>[A-Z][\w+#.\-]*(?:\s+[A-Z][\w+#.\-]*)?)"
)


def like_better(x: Turn, c: Clause, m: re.Match) -> list[Draft] | None:
    if not x.me or m.group("who").lower() not in ("i", "im", "i'm", "ive"):
        return None
    old = m.group("old").casefold()
    kind = next((p for (s, p), v in x.memory.known.items()
                 if s == x.me and p.startswith("favourite_") and v.casefold() == old), None)  # fmt: skip
    if kind is None:
        return None  # no favourite on record that it beats: a liking, not a favourite
    return emit(x, c, m, kind, [m.group("obj")], "change", subject=x.me)


def favourite_replaced(x: Turn, c: Clause, m: re.Match) -> list[Draft] | None:
    predicate = FAVOURITE_CATEGORIES.get(" ".join(m.group("cat").lower().split()))
    value = _favourite_object(m.group("obj"))
    if predicate is None or not value or not x.me:
        return None
    return emit(x, c, m, predicate, [value], "change", subject=x.me)


# "It's my favourite language now": the value is what "it" stands for
FAV_IT = pattern(
    r"(?<![\w'’])(?P<obj>(?i:it|that))(?P<v>['’]s|\s+(?i:is|has\s+become|became|is\s+now))\s+"
    r"(?:(?i:now|still|officially|easily|definitely|honestly|hands\s+down|by\s+far|[a-z]+ly)\s+)"
    rf"{{0,2}}(?i:my)\s+(?:(?i:new)\s+)?(?:{_FAV_WORD})\s+(?P<cat>(?i:{_CATEGORY}))\b"
)


def favourite_value(x: Turn, c: Clause, m: re.Match) -> list[Draft]:
    """One favourite, either way round; a change word makes it a change."""
    cat = m.groupdict().get("cat") or m.groupdict().get("cat2") or m.groupdict().get("cat3")
    predicate = FAVOURITE_CATEGORIES.get(" ".join(cat.lower().split()))
    if predicate is None:
        return []
    if "obj" in m.re.groupindex:
        value = _favourite_object(m.group("obj"))
        if value is None and re.fullmatch(r"(?i)\s*(?:it|that|this)\s*", m.group("obj")):
            value = _antecedent(x, c, predicate)
        elif re.fullmatch(r"(?i)\s*(?:which|who|that)\s*", m.group("obj")):
            # "a pint of Guinness, which is my drink": the value is the noun before it
            value = _relative_head(c.s[: m.start()] or x.text[: c.start])
    else:
        if _VALUE_BEFORE.search(c.s[: m.start()]):
            return None  # "Go's my favourite language now, ...": the value came first
        found = phrase(c, m.end(), max_words=12)
        value = _FAV_END.split(found[2], maxsplit=1)[0].strip() if found else None
        value = re.sub(r"(?i)^(?:still|now|def|definitely|probably|easily)\s+", "", value or "")
        if len(value.split()) > 6:
            value = None
    if not value or (predicate == "favourite_language" and value.title() in LANGUAGES):
        return []
    verb = (m.groupdict().get("v") or m.groupdict().get("v2") or "").lower()
    changed = bool(re.search(r"become|became|now|new", verb + " " + m.group(0).lower()))
    return emit(x, c, m, predicate, [value], "change" if changed else "state", subject=x.me)


_VALUE_BEFORE = re.compile(r"(?i)\w(?:\s+(?:is|are|still|remains)|['’]s)\s+(?:\w+ly\s+)?$")
# Where chat runs on after a favourite: "sinners 🩸 saw it twice", "spirited away tbh".
_FAV_END = re.compile(
    r"\s*[,(–—]\s*|\s+-\s+|[^\w\s'’&.:!?-]|\s+(?i:tbh|lol|haha|obvs|rn|atm|now|still|hands\s+down|"
    r"no\s+contest|nothing|sorry|though|tho|btw|honestly|because|cos|bc|and\s+i|i|saw|cried|"
    r"forever|always|ever|every|obviously|of\s+course)\b"
)


def _relative_head(before: str) -> str | None:
    """The noun a ", which ..." clause hangs on: the last run of capitalised words among
    the last four before the comma ("a pint of Guinness", "Dune again"), else the last
    word unless it is an adverb.

    >>> _relative_head("with a pint of Guinness, "), _relative_head("I had my coffee,")
    ('Guinness', 'coffee')
    """
    if not re.search(r",\s*$", before):
        return None
    tail = re.findall(r"[\w'’-]+", before)[-4:]
    runs = re.findall(
        r"(?:[A-Z][\w'’-]*\s)*[A-Z][\w'’-]*", " ".join(tail[1:] if len(tail) > 1 else tail)
    )
    if runs:
        return runs[-1]
    last = tail[-1] if tail else ""
    if not last or last.lower() in _NOT_HEADS or last.lower().endswith("ly"):
        return None
    return last


_NOT_HEADS = frozenset("again too today yesterday tonight now then there here it this that "
                       "them him her me you us".split())  # fmt: skip


def _antecedent(x: Turn, c: Clause, predicate: str) -> str | None:
    """What "it" is in "R has stolen my heart. It's my favourite language now": the last
    word of the predicate's closed class said earlier in the turn (only a class the
    lexicon lists can be found this way; "it" of a film is left unread)."""
    if predicate != "favourite_language":
        return None
    names = alternation(PROGRAMMING_LANGUAGES)
    before = list(re.finditer(rf"(?<![\w+#])(?:{names})(?![\w+#])", x.text[: c.start]))
    return before[-1].group() if before else None


def _favourite_object(text: str) -> str | None:
    """The value before "is my favourite ...": the last noun phrase, not the chatter."""
    text = re.split(r"(?i)\b(?:and|but|so|because|honestly|tbh|ok|okay|well|like)\b", text)[-1]
    text = re.sub(r"(?i)^\s*(?:a|an|the|proper|good|real|some|i\s+think|think)\s+", "", text)
    text = text.strip(" '\"“”")
    if (
        not text
        or len(text.split()) > 5
        or re.search(r"(?i)\b(?:i|you|it|this|that|which|who)\b", text)
    ):
        return None
    return text
