"""Capitals back into chat typed all in lower case.

People text "moved to leeds, started at monzo monday". The rules find names by their
capitals, so such a turn would yield nothing. :func:`truecase` restores them first, on
turns that have (almost) none: "i" becomes "I"; a word the English word list (SCOWL, via
Debian's ``wamerican``/``wbritish``, shipped as ``graphmem/data/english_words.txt.gz``)
knows only as a proper noun ("leeds") is capitalised; so is a word it does not know at
all ("monzo", "ollie") unless it is chat shorthand ("lol", "tbf"). Common words stay as
they are, so "reading" stays a verb. Offsets never change: only letters' case does.

>>> truecase("moved to leeds and started at monzo lol")
'moved to Leeds and started at Monzo lol'
>>> truecase("I moved to Leeds.")  # already cased: left alone
'I moved to Leeds.'
"""

from __future__ import annotations

import gzip
import re
from functools import cache
from importlib import resources

_WORD = re.compile(r"[^\W\d_]+(?:['’][^\W\d_]+)?")  # letters, accented ones too ("mélanie")
# "my sister kerry", "our dog biscuit": the word after a relation is a name, even when the
# dictionary knows it ("kerry", "biscuit") - unless it is a verb or function word.
_AFTER_RELATION = re.compile(
    r"(?i)\b(?:my|our|his|her|me|mi)\s+(?:(?:little|big|older|younger|baby|best|old|new|twin)\s+)?"
    r"(?:mum|mom|mother|dad|father|da|mam|mammy|mama|amma|appa|missus|fella|"
    r"brother|bro|sister|sis|son|daughter|wife|husband|hubby|"
    r"partner|girlfriend|boyfriend|gf|bf|fiance|fiancee|friend|mate|bestie|boss|manager|"
    r"cousin|aunt|auntie|uncle|nan|gran|grandma|grandpa|niece|nephew|flatmate|roommate|"
    r"colleague|cat|dog|kitten|puppy|rabbit|bunny|hamster|parrot|horse|pony|tortoise|budgie)"
    r"\s+(?P<name>[a-z]+)(?=['’]s\b|\b)"
    # "broke up w sarah", "moved in with tom": who a partner verb is with is a name
    r"|\b(?i:broke\s+up|split\s+up|dating|seeing|engaged\s+to|married\s+to|moved\s+in)\s+"
    r"(?i:with|w/?)?\s*(?P<partner>[a-z]+)\b"
)
_PET_WORD = re.compile(
    r"(?i)\b(?:cat|dog|kitten|puppy|rabbit|bunny|hamster|parrot|horse|pony|tortoise|budgie)\s+\w+$"
)
_TITLE_BEFORE_NAME = re.compile(r"\b(?:dr|mr|mrs|ms|prof)\b(?=\.?\s+[A-Z])")
# "called him nugget", "hes called steve": a name given to someone
_GIVEN_NAME = re.compile(
    r"\b(?:(?i:called|named|calling|naming)\s+(?i:him|her|it|them)|(?i:is|'s|’s|s)\s+"
    r"(?i:called|named))\s+(?P<given>[a-z]+)\b"
)
_NOT_A_NAME = frozenset(
    "is was has had and who just got lives lived works worked moved said says thinks the a an "
    "in at on to from for with of is's has's who's been went started left quit finally "
    "still also really never always will would can could should might did does do not "
    "passed died gave sent called named that which when while because but so".split()
)
# words after a partner verb that are no partner ("seeing a therapist", "dating again")
_NOT_PARTNER = frozenset(
    "a an the someone somebody anyone again now for her him them each other my our this that "
    "it someone's up yesterday today tonight tomorrow back later".split()
)
# "left kestrel labs last month", "a part time job at boots", "femi's at sage": after a
# word of work the next words are an employer's name, though the dictionary knows them.
_AFTER_WORK = re.compile(
    r"(?i)\b(?:(?:job|shift|work|works|working|worked|started|starting|start|been|still|"
    r"engineer|nurse|teacher|manager|assistant|developer|analyst)\s+(?:at|for)|left|quit|"
    r"joined|leaving|joining)\s+(?P<name>[a-z][\w&'’.-]*(?:\s+[a-z][\w&'’.-]*){0,2})"
)
# where an employer's name stops, and words that are no name at all after "at"/"left"
_NAME_STOP = frozenset(
    "last this next yesterday yday today tonight tomorrow in on as and but so with w since "
    "for to because bc cos coz lol now rn tho though after before until till from of is was "
    "has have had are were it its it's im i i'm he she they we me my his her our their the a an "
    "again already too early late finally officially every each then there here yet ever "
    "at by or nor not no n x haha".split()
)
_NOT_EMPLOYER = frozenset(
    "home work school uni college night noon midnight lunch dinner breakfast all once times "
    "some it church gym weekend weekends moment least first last the a an my his her our "
    "their this that me him them us job jobs shift shifts early late town ages".split()
)
# words that carry on an employer's name: "kestrel labs", "salford royal", "royal mail"
_ORG_WORDS = frozenset(
    "labs lab health sports bank group solutions media studios studio systems university "
    "hospital hospitals school academy college royal mail co inc ltd primary high partners "
    "foods motors energy insurance capital digital tech technologies consulting services "
    "healthcare clinic council trust pharmacy store stores market cafe restaurant hotel "
    "logistics airlines airways financial software games works industries international "
    "global agency design records press books kitchen bakery brewery garage centre center".split()
)
_FIRST_PERSON = re.compile(r"i(?:['’](?:m|ve|d|ll))?|im|ive")
# Chat shorthand and spellings no dictionary has, which are not names.
_SHORTHAND = frozenset(
    "lol lols omg tbf tbh ngl imo imho btw fyi asap idk idc ikr ily rn atm irl jk lmao lmk "
    "smh tho thru gonna wanna gotta kinda sorta dunno lemme gimme ya yeah yep yup nope nah "
    "haha hahaha hehe aw aww ugh urgh meh hmm hm ok okay k pls plz thx ty ur u r cuz cos coz "
    "bday uni telly fella mate mates bestie hun babe bc bf gf hubby wifey fam bro sis ppl "
    "msg msgs txt convo vibe vibes legit cba innit wfh ooh oof yikes yass yay woohoo whatevs "
    "fave faves fav favs veggie vego brekkie arvo selfie emoji wifi dm dms fomo af tmrw tmr "
    "tonite 2day etc eg ie vs ps pm am hr hrs min mins sec secs km kg lbs yr yrs wk wks mo mos "
    # contractions typed without the apostrophe
    "dont doesnt didnt cant wont isnt arent wasnt werent havent hasnt hadnt couldnt wouldnt "
    "shouldnt mustnt aint weve youve theyve youre theyre shes hes thats whats wheres theres "
    "heres whos hows lets id youd theyd itll thatll wouldve couldve shouldve mightve "
    "ya'll yall gotcha ive im yday yest tmrw".split()
)


@cache
def _words() -> tuple[frozenset[str], frozenset[str], frozenset[str]]:
    """(common lower-case words, proper nouns only, every word also written capitalised),
    all lower-cased."""
    data = resources.files("graphmem.data").joinpath("english_words.txt.gz").read_bytes()
    lower, capitalised = set(), set()
    for word in gzip.decompress(data).decode("utf-8").split():
        (capitalised if word[0].isupper() else lower).add(word.lower())
    return frozenset(lower), frozenset(capitalised - lower), frozenset(capitalised)


def is_proper_noun(word: str) -> bool:
    """A word the dictionary knows only capitalised ("Pune", "Coimbatore"? no; "Leeds": yes)."""
    return re.split(r"['’-]", word.lower())[0] in _words()[1]


def is_common_word(word: str) -> bool:
    """A word the dictionary knows in lower case ("doctor", "funny"), so not surely a name."""
    lower, _, capitalised = _words()
    key = re.split(r"['’-]", word.lower())[0]
    return key in lower and key not in capitalised


def is_dictionary_word(word: str) -> bool:
    """A word the dictionary knows in lower case, even if also as a name ("reading")."""
    return re.split(r"['’-]", word.lower())[0] in _words()[0]


def needs_truecase(text: str) -> bool:
    """Whether ``text`` is typed in lower case: no capitalised word other than "I" and
    sentence openings, and some sentence opening (or "i") in lower case."""
    capitals, lower_start = 0, False
    for m in _WORD.finditer(text):
        word = m.group()
        start = _sentence_start(text, m.start())
        if word[0].isupper() and not word.isupper() and not start:
            capitals += 1  # (a word in capitals is emphasis, not a name's capital)
        lower_start = lower_start or (start and word[0].islower()) or word in ("i", "im", "ive")
    # A sentence opening in lower case (or a lower-case "i") shows the typing style;
    # "My hobbies are knitting and chess." is cased, it just names nobody.
    return capitals == 0 and lower_start


def _sentence_start(text: str, pos: int) -> bool:
    before = text[:pos].rstrip()
    return not before or before[-1] in ".!?\n"


def truecase(text: str) -> str:
    """``text`` with the capitals of names restored, when it was typed in lower case."""
    if not needs_truecase(text):
        return text
    lower, proper, _ = _words()
    chars = list(text)
    for m in _AFTER_RELATION.finditer(text):
        group = "name" if m.group("name") else "partner"
        name = m.group(group).lower()
        if name in _NOT_A_NAME or name in _SHORTHAND or name in _NOT_PARTNER:
            continue
        if _PET_WORD.search(m.group()) is None and is_common_word(name):
            # "my mom already has opinions", "my mom showed up": a person's name is no
            # word the dictionary knows only in lower case (a pet's may be: "biscuit")
            continue
        chars[m.start(group)] = chars[m.start(group)].upper()
    for m in _GIVEN_NAME.finditer(text):
        if m.group("given").lower() not in _NOT_A_NAME | _NOT_PARTNER | _SHORTHAND:
            chars[m.start("given")] = chars[m.start("given")].upper()
    for m in _WORD.finditer(text):
        word = m.group()
        key = re.split(r"['’]", word.lower())[0]
        if word.isupper() and len(word) > 1:
            continue
        if _FIRST_PERSON.fullmatch(word.lower()):
            chars[m.start()] = "I"
        elif key in _SHORTHAND or len(key) < 3:
            continue
        elif key in proper or key not in lower:
            chars[m.start()] = word[0].upper()
    for m in _AFTER_WORK.finditer(text):
        words = list(_WORD.finditer(m.group("name")))
        if not words or words[0].group().lower() in _NOT_EMPLOYER | _SHORTHAND:
            continue
        # "at rideau dental group": plain words before a word of organisations are its name
        named = [w.group().lower() for w in words]
        stop = next((n for n, w in enumerate(named) if w in _NAME_STOP or w in _SHORTHAND),
                    len(named))  # fmt: skip
        through = max((n for n in range(stop) if named[n] in _ORG_WORDS), default=-1)
        for n, w in enumerate(words):
            word = w.group().lower()
            if word in _NAME_STOP or word in _SHORTHAND:
                break
            if n > through and n and word in lower and word not in _ORG_WORDS:
                break  # "at boots customer assistant": the name ends where plain words start
            at = m.start("name") + w.start()
            # "jd", "hdfc": an initialism is all capitals
            acronym = (
                len(word) <= 4
                and not re.search(r"[aeiouy]", word)
                and word not in ("st", "mr", "mrs", "dr")
            )
            chars[at : at + len(w.group())] = (
                w.group().upper() if acronym else w.group()[0].upper() + w.group()[1:]
            )
    cased = "".join(chars)
    # "my boss is dr okafor": a title before a name is part of it
    return _TITLE_BEFORE_NAME.sub(lambda m: m.group()[0].upper() + m.group()[1:], cased)
