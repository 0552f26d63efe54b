"""People in the speaker's life: family, partner, friends, manager (by relation word).

"my wife is Maria", "Dana is my manager", "I have a sister named Ana", "Ana's manager is
Rui", "I married Maria", "Maria and I broke up", and any mention of a named relation
("my sister Ana lives in Porto": ``sibling(speaker, Ana)`` besides where Ana lives).
Relation words and the predicates they give are in
:data:`graphmem.extraction.lexicon.RELATIONS`; a pet species works the same way
("my cat Tom" -> ``owns_pet``).
"""

from __future__ import annotations

import re

from graphmem.extraction.clauses import Clause
from graphmem.extraction.lexicon import NAME_STOPWORDS, PET_SPECIES, PLURAL_SPECIES, RELATIONS
from graphmem.extraction.objects import names
from graphmem.extraction.patterns import PERSON, pattern, relation_word
from graphmem.extraction.timing import BE_AUX, aspect_of
from graphmem.extraction.truecase import is_common_word
from graphmem.extraction.turn import Draft, Turn, emit

REL_IS = pattern(
    # "my" may go unsaid at the start of a clause: "New boss is Deepa"
    r"(?:(?i:my|our)\s+|^\s*(?:(?i:new|current|actual)\s+)?)(?P<rel><REL>)(?i:s|es)?(?:['’]s\s+(?i:names?))?"
    # "my manager at Quarry is Aisha": where the relation holds
    r"(?:\s+(?i:at|in|on)\s+(?:(?i:the)\s+)?[A-Z][\w&'’.\-]*(?:\s+[A-Z][\w&'’.\-]*){0,2}"
    r"|\s+(?i:there|then))?"
    # "my line manager's called Bernie"
    r"(?:\s+(?i:is|are|'s|’s)|['’]s(?=\s+(?i:called|named)\b)"
    # "from January my manager will be Joost": a change to come, dated or next to one
    r"|(?P<will>\s+(?i:will|is\s+going\s+to)\s+be|['’]ll\s+be))"
    # "our new manager is a fellow named Gord": a person described, then named
    r"\s+(?i:now\s+|called\s+|named\s+|(?:a|an|this|some)\s+(?:[a-z]+\s+){0,2}?"
    r"(?:fellow|guy|man|woman|lady|bloke|chap|girl|person|someone|gentleman)\s+"
    r"(?:named|called)\s+)*(?P<obj><PERSONS>)(?![\w'’])"
)
IS_REL = pattern(
    r"(?P<obj><PERSON>)(?:\s+(?i:is|has\s+been|became)|\s*['’]s)\s+(?i:now\s+)?(?i:my|our)"
    r"\s+(?P<rel><REL>)\b(?!\s+(?i:company|companies|firm|org|organi[sz]ation|group|brand|"
    r"site|office|account|project|team|club|church|school|hospital))"  # "our parent company"
)
HAVE_REL = pattern(
    r"<I><AUX>\s+(?P<v>(?i:have|has|got|adopted|rescued|had))\s+(?:(?i:a|an|one|two|three|"
    r"four|five|six|\d+|another)\s+)?(?:(?i:new|little|baby|rescue|pet|young|older|"
    r"younger|big|twin)\s+)*(?P<rel><REL>)(?i:s|es)?(?:\s*,\s*|\s+(?i:named|called)\s+|"
    r"\s*[:–—-]\s*)(?P<obj><PERSONS>)"
)


def relation(x: Turn, c: Clause, m: re.Match) -> list[Draft]:
    """ "my wife is Maria", "Dana is my manager", "I have a sister named Ana"."""
    people = names(m.group("obj"))
    if not x.first_person or not people:
        return []
    key = relation_word(m.group("rel"))
    singular = key.rstrip("s")
    key = PLURAL_SPECIES.get(
        key, singular if singular in RELATIONS or singular in PET_SPECIES else key
    )
    predicate = "owns_pet" if key in PET_SPECIES else RELATIONS.get(key)
    if predicate is None:
        return []
    for name in people:
        x.relation(key, name, (0, 0))
    verb = (m.groupdict().get("v") or "").lower()
    is_new = bool(re.search(r"(?i)\bnew\b", m.group(0))) or verb in ("got", "adopted", "rescued")
    aspect = "past" if verb == "had" else "change" if is_new else "state"
    if m.groupdict().get("will"):
        aspect = "future"
    return emit(x, c, m, predicate, people, aspect, subject=x.episode.speaker)


POSS_REL = pattern(
    # "Ana's manager is Rui", "my wife's boss is this jerk named Todd"
    r"(?P<who><PERSON>|(?i:my)\s+<REL>)['’]s\s+(?P<rel><REL>)\s+(?i:is|was)\s+(?i:now\s+)?"
    r"(?:(?i:a|an|this|some)\s+(?:[a-z]+\s+){0,2}?(?i:fellow|guy|man|woman|lady|bloke|chap|girl|"
    r"person|someone|jerk|gentleman)\s+(?i:named|called)\s+)?(?P<obj><PERSON>)(?![\w'’])"
)


def poss_relation(x: Turn, c: Clause, m: re.Match) -> list[Draft]:
    """ "Ana's manager is Rui": a relation between two third parties."""
    key = relation_word(m.group("rel"))
    predicate = "owns_pet" if key in PET_SPECIES else RELATIONS.get(key)
    if predicate is None:
        return []
    return emit(x, c, m, predicate, [m.group("obj")], "state")


MENTION = pattern(r"(?i:my|our)\s+(?P<rel><REL>)(?i:s|es)?\s*,?\s+(?P<obj><PERSONS>)(?![\w'’])")


# Chat drops the "my" at the start of a sentence: "gf kasia says ...", "boss - tomasz -
# wants ...", "partner Shane reckons ...", "mom halina already asking ...".
# (Typed capitalised, the word needs a dash or comma after it: "Sister Act" is a film.)
MENTION_BARE = pattern(
    r"^\s*(?:(?=[a-z])|(?=<KIN>(?i:s|es)?\s*[-–—,:]))(?P<rel><KIN>)(?i:s|es)?\s*(?:[-–—,:]\s*)?"
    r"(?P<obj><PERSONS>)(?![\w'’])"
)


# "Owain proposed to his girlfriend Lowri", "Neha and her husband Farhan": someone's
# relative named by "his/her"
THEIR_MENTION = pattern(
    r"(?<![\w'’])(?P<who><PERSON>)(?:['’]s)?\s+(?:(?i:and)\s+|(?:(?!\b(?:I|my|me|and|but|so)\b)"
    r"[^.!?;,]){0,40}?\b)(?i:his|her)\s+(?P<rel><KIN>)\s*,?\s+(?P<obj><PERSONS>)(?![\w'’])"
)


# "Nour has a boyfriend now, Karim.", "she has new partner in Berlin, his name is Klaus"
HAS_PARTNER = pattern(
    r"<SUBJ><AUX>\s+(?P<v>(?i:has|have|got|found))\s+(?:(?i:a|an)\s+)?(?:(?i:new)\s+)?"
    r"(?P<rel><PARTNER>)\b"
)
# the name, after the clause if need be: ", Karim", " called Karim", ", his name is Klaus"
_PARTNER_NAMED = re.compile(
    rf"(?:\s+(?i:now|too|already|again))?(?:\s+(?i:in|from|at)\s+[A-Z][\w'’-]*)?"
    rf"(?:\s*,\s*|\s+(?i:called|named)\s+|\s*[-–—:]\s*|\W*[.!]+\W*\s+(?=(?i:his|her)\s+name))"
    rf"(?:(?P<pro>(?i:his|her))\s+name(?:['’]s|\s+(?i:is))\s+)?(?P<obj>{PERSON})(?![\w'’])"
)
_HE = re.compile(r"(?i)boyfriend|husband|fianc[ée]\b")


def has_partner(x: Turn, c: Clause, m: re.Match) -> list[Draft] | None:
    after = x.text[c.start + max(0, m.end() - len(c.prefix)) :]
    named = _PARTNER_NAMED.match(after)
    if named is None or named.group("obj").lower() in NAME_STOPWORDS:
        return None
    name = named.group("obj")
    out = emit(x, c, m, "partner", [name], "change")
    pro = (named.group("pro") or "").lower()
    he = pro == "his" or (not pro and _HE.search(m.group("rel")))
    she = pro == "her" or (not pro and re.search(r"(?i)girlfriend|wife|fianc[ée]e", m.group("rel")))
    x.memory.named(name, "he" if he else "she" if she else None)  # "he is sound engineer": Klaus
    return out


# "Her boyfriend Jonas just got them a dog": the relative of whom "her" points back to
PRONOUN_MENTION = pattern(
    r"^\W*(?:(?i:and|so|also|plus)\s+)?(?P<pro>[Hh]is|[Hh]er)\s+(?P<rel><KIN>)\s*,?\s+(?P<obj><PERSONS>)(?![\w'’])"
)


def pronoun_mention(x: Turn, c: Clause, m: re.Match) -> list[Draft] | None:
    predicate = RELATIONS.get(relation_word(m.group("rel")))
    who = x.subject("he" if m.group("pro").lower() == "his" else "she", c.span)
    if predicate is None or who is None or not who.name or who.name == x.me:
        return None
    return emit(x, c, m, predicate, names(m.group("obj")), "state", subject=who.name)


def their_mention(x: Turn, c: Clause, m: re.Match) -> list[Draft] | None:
    """The relation of a named person to the relative their "his/her" names."""
    who = m.group("who")
    predicate = RELATIONS.get(relation_word(m.group("rel")))
    if predicate is None or who.lower() in NAME_STOPWORDS or is_common_word(who.split()[0]):
        return None
    return emit(x, c, m, predicate, names(m.group("obj")), "state", subject=who)


def mention(x: Turn, c: Clause, m: re.Match) -> list[Draft]:
    """ "my sister Ana", "my kids Tom and Jerry" anywhere in the clause: the relation itself."""
    if not x.first_person:
        return []
    out = []
    for name in names(m.group("obj")):
        out += x.relation(m.group("rel"), name, c.span)
    return out


PARTNER = pattern(
    r"<SUBJ><AUX>\s+(?P<v>(?i:got\s+married\s+to|got\s+engaged\s+to|married\s+to|married|"
    r"engaged\s+to|started\s+dating|started\s+seeing|dating|in\s+a\s+relationship\s+with|"
    r"tied\s+the\s+knot\s+with))\s+(?:(?i:his|her|their|my)\s+(?i:long-time\s+)?<PARTNER>,?\s+)?"
    r"(?P<obj><PERSON>)(?![\w'’])"
)


def partner(x: Turn, c: Clause, m: re.Match) -> list[Draft]:
    """ "I married Maria", "Ana is dating Rui"."""
    verb = " ".join(m.group("v").lower().split())
    aux = m.group("aux") or ""
    if re.match(r"got|started|tied", verb) or (verb == "married" and not BE_AUX.search(aux)):
        aspect = "change"
    else:
        aspect = aspect_of(aux, "state")
    x.memory.people["partner"] = m.group("obj")
    return emit(x, c, m, "partner", [m.group("obj")], aspect)


# "I've been seeing someone. His name is David", "I'm seeing someone new. Khoa.": the
# partner is named just after the clause
SEEING_SOMEONE = pattern(
    r"<SUBJ><AUX>\s+(?P<v>(?i:been\s+seeing|seeing|been\s+dating|dating|started\s+seeing|"
    r"started\s+dating))\s+(?i:someone|somebody|a\s+(?:guy|girl|man|woman|lady|bloke))(?:\s+(?i:new))?"
    r"\s*(?=[.!,:;…]|$)"
)
_NAMED_AFTER = re.compile(
    r"\s*[.!,:;…]*\s*(?:(?:(?i:his|her|their)\s+name(?:['’]s|\s+is)|(?i:called|named|it['’]s))\s+)?"
    rf"(?P<name>{PERSON})(?![\w'’])"
)


def seeing_someone(x: Turn, c: Clause, m: re.Match) -> list[Draft]:
    """ "I'm seeing someone new. Khoa.": a new partner, named right after."""
    after = _NAMED_AFTER.match(x.text, c.start + m.end())
    if after is None or after.group("name").split()[0].lower() in NAME_STOPWORDS:
        return []
    name = after.group("name")
    x.memory.people["partner"] = name
    return emit(x, c, m, "partner", [name], "change")


PARTNER_PAIR = pattern(
    r"(?P<obj><PERSON>)\s+(?i:and)\s+<I>\s+(?P<v>(?i:got\s+married|got\s+engaged|"
    r"tied\s+the\s+knot|started\s+dating|are\s+married|are\s+engaged|are\s+dating|"
    r"have\s+been\s+(?:married|together|dating)|broke\s+up|split\s+up|separated|divorced|"
    r"got\s+divorced))\b"
)


def partner_pair(x: Turn, c: Clause, m: re.Match) -> list[Draft]:
    """ "Maria and I got married / broke up"."""
    verb = " ".join(m.group("v").lower().split())
    aspect = (
        "retract"
        if re.search(r"broke|split|separat|divorc", verb)
        else ("change" if re.match(r"got|tied|started", verb) else "state")
    )
    return emit(x, c, m, "partner", [m.group("obj")], aspect, subject=x.me)


BREAKUP = pattern(
    r"<SUBJ><AUX>\s+(?P<v>(?i:broke\s+up\s+(?:with|w/?)|split\s+up\s+(?:with|w/?)|split\s+from|"
    r"separated\s+from|divorced|got\s+divorced\s+from|dumped|divorcing))"
    r"\s+(?P<obj><PERSON>)"
)
BREAKUP_BARE = pattern(
    r"(?:(?P<who><I>)|(?i:my|our)\s+(?P<rel><PARTNER>)(?:\s+(?P<obj><PERSON>))?\s+(?i:and)"
    r"\s+<I>)<AUX>\s+(?i:broke\s+up|split\s+up|separated|got\s+divorced|divorced)\b"
)


def breakup(x: Turn, c: Clause, m: re.Match) -> list[Draft]:
    """ "I broke up with Rui", "my girlfriend and I split up": the remembered partner."""
    name = m.groupdict().get("obj") or x.memory.people.get("partner")
    rel = m.groupdict().get("rel")
    if rel and not name:
        name = x.memory.people.get(relation_word(rel))
    who = m.groupdict().get("who") or "I"
    return emit(x, c, m, "partner", [name], "retract", who=who)


# "jo and i broke up", "me and Tom are done", "Callum and I have called it a day".
_ENDED = (
    r"(?:(?i:have|'ve|’ve|are|just|finally|officially|now|also)\s+)*(?i:broke\s+up|split(?:\s+up)?|"
    r"separated|got\s+divorced|divorced|are\s+done|done|called\s+it\s+(?:a\s+day|quits)|"
    r"ended\s+(?:it|things)|parted\s+ways|are\s+over|over|signed\s+(?:\w+\s+){0,4}?divorce\s+papers)\b"
    r"(?!\s+(?i:with|for|at|on|in|by)\b)"  # "Lisa and I are done with the report"
)
BREAKUP_PAIR = pattern(
    rf"(?:(?P<a><PERSON>|[a-z][\w\-]+)\s+(?i:and)\s+(?i:I|me)|(?i:me|I)\s+(?i:and)\s+"
    rf"(?P<b><PERSON>|[a-z][\w\-]+))\s+{_ENDED}"
)


def breakup_pair(x: Turn, c: Clause, m: re.Match) -> list[Draft] | None:
    """The speaker's partner named beside "I" ends it; a name in lower case only when it is
    the partner on record."""
    name = m.group("a") or m.group("b")
    if not x.me:
        return None
    partner = x.memory.known.get((x.me, "partner")) or x.memory.people.get("partner") or ""
    vague = re.search(r"(?i)\b(?:done|over)\b", m.group(0))  # also said of a project
    if name[0].islower() or vague:
        if partner.lower() != name.lower():
            return None
        name = partner
    return emit(x, c, m, "partner", [name], "retract", subject=x.me)


FRIENDS_NO_MORE = pattern(
    r"(?:(?P<a><PERSON>)\s+(?i:and)\s+(?i:I|me)|(?i:me|I)\s+(?i:and)\s+(?P<b><PERSON>))\s+"
    r"(?i:aren['’]?t|are\s+not|are\s+no\s+longer|stopped\s+being|fell\s+out|don['’]?t\s+talk)"
    r"(?:\s+(?i:friends|mates|close|speaking))?"
)


def friends_no_more(x: Turn, c: Clause, m: re.Match) -> list[Draft]:
    """ "Eddie and I aren't friends anymore", "me and Kaz fell out"."""
    name = m.group("a") or m.group("b")
    if not x.first_person or not name:
        return []
    return emit(x, c, m, "friend", [name], "retract", subject=x.episode.speaker)
