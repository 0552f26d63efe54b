"""Work and study: ``works_at``, ``studies_at``, ``job_title``, ``works_on``, ``manager``.

Schools ("Riverside High", "University of ...") and degrees ("started a PhD at") give
``studies_at``, not ``works_at``. "left X" is ``lives_in`` when X is a known place (a
small gazetteer, or the speaker's known city) and ``works_at`` otherwise; "I quit
tennis" ends a hobby and "I left the Apollo project" a ``works_on``. Leaving still to
come ("I'm leaving Acme") counts only when dated.
"""

from __future__ import annotations

import re

from graphmem.extraction.clauses import Clause
from graphmem.extraction.gazetteer import is_place
from graphmem.extraction.lexicon import HOBBY_GAMES, JOB_NOUNS, PLACES, relative_word
from graphmem.extraction.objects import (
    NAME_STOPWORDS,
    clean,
    entity,
    named_head,
    names,
    object_end,
    phrase,
    project_name,
)
from graphmem.extraction.patterns import PERSON, alternation, pattern
from graphmem.extraction.timing import (
    BE_AUX,
    PAST_AUX,
    PERFECT_AUX,
    aspect_of,
    start_of,
    time_in,
    verb_form,
)
from graphmem.extraction.truecase import is_common_word, needs_truecase
from graphmem.extraction.turn import Draft, Turn, emit

_WORK_FORMS = {r"worked|interned": "past"}
_JOIN_FORMS = {
    r"(?:join|joins|start|starts|begin|begins)\b.*": "base",
    r"(?:joining|starting)\b.*": "prog",
}
_SCHOOL = re.compile(
    r"\b(?:School|High|Elementary|Academy|College|University|Kindergarten|"
    r"Preschool|Nursery|Polytechnic|Gymnasium|Lyc[ée]e)\b"
)
_AS_TITLE = re.compile(
    rf"\s+as\s+(?:an?\s+|the\s+)?((?:[\w\-]+\s+){{0,3}}?(?i:{alternation(JOB_NOUNS)})s?)\b"
)
_AS_ANY_TITLE = re.compile(r"\s+as\s+an?\s+((?:[\w\-]+\s+){0,2}[\w\-]+)\s*[.!]?\s*$")
_PROJECT_STOP = re.compile(
    r"[,;.!?]|\s(?:and|but|because|since|for|with|at|until|from)\s"
    r"|\s+(?:anymore|any\s+more|any\s+longer|now|again|already|too)\b"
)
_HOBBY_QUIT = re.compile(rf"(?i)({alternation(HOBBY_GAMES)}|[a-z]+ing)\b")


def _employer(name: str) -> str:
    """``works_at``, or ``studies_at`` for a school ("Riverside High")."""
    return "studies_at" if _SCHOOL.search(name) else "works_at"


def _project(x: Turn, c: Clause, pos: int) -> str | None:
    stop = _PROJECT_STOP.search(c.s, pos, object_end(c, pos))
    chunk = c.s[pos : stop.start() if stop else object_end(c, pos)]
    # "the Orbit app project w my course mates": the name ends with the word "project"
    head = re.match(r"(?:\S+\s+){1,4}?(?i:project)\b(?!\s+[A-Z])", chunk)
    called = _CALLED.search(x.text, c.start, c.start + len(c.s) + 60)
    if head and called and not re.search(r"[A-Z]", head.group(0)[1:]):
        return called.group(1)  # "the sepsis protocol project now, it's called Sentinel"
    name = project_name(head.group(0) if head else chunk)
    return named_head(name) if name else None


# "..., it's called Sentinel", "codename Tarpon": the name of the project just described
_CALLED = re.compile(
    r"(?:\bcalled|\bnamed|\bcodename[d]?)\s+['‘\"“]?([A-Z][\w\-]+(?:\s+[A-Z][\w\-]+)?)"
)


def _cessation(c: Clause, upcoming: bool) -> str | None:
    """ "retract"; for a leaving still to come ("I'm leaving Acme") only when dated."""
    return "retract" if not upcoming or start_of(time_in(c)) else None


WORKS = pattern(
    r"<SUBJ><AUX>\s+(?P<v>(?i:work|works|working|worked|employed|interning|interned))"
    r"\s+(?:(?i:full[-\s]time|part[-\s]time|remotely|fully\s+remote)\s+)?(?i:at|for|by)\s+"
)


def works(x: Turn, c: Clause, m: re.Match) -> list[Draft]:
    """ "I work at Acme (as a nurse)"."""
    found = entity(c, m.end())
    if not found:
        return []
    aspect = aspect_of(m.group("aux") or "", verb_form(m.group("v"), _WORK_FORMS))
    out = emit(x, c, m, _employer(found[2]), [found[2]], aspect, obj_span=found[:2])
    return out + _title_after(x, c, m, found[1], aspect) if out else out


# "started at Monzo on the 2nd as a junior dev", "joined Kadam yesterday as our first
# designer", "got a job at Amazon, warehouse operative, ...": the title said with the job
_TIME_GAP = re.compile(r"[^,.;!?]{0,32}?(?=\s+as\s)")
_APPOSED_TITLE = re.compile(
    rf"\s*[,—–-]\s*((?:[\w\-]+\s+){{0,3}}?(?i:{alternation(JOB_NOUNS)})s?)\s*(?:[,.;!—–-]|$)"
)
# "as a junior dev 😤 ...": a short title ended by punctuation or an emoji
_AS_A_TITLE = re.compile(
    r"\s+as\s+an?\s+(?!(?i:matter|result|kid|child|joke|favour|favor|treat|gift|bonus|whole|"
    r"team|family|rule|start|first|last|way)\b)((?:[\w\-]+\s+){0,2}[\w\-]+)(?=\s*(?:[.!,;]|[^\w\s'’]|$))"
)
_TITLE_LEAD = re.compile(r"(?i)^(?:our|my|their|his|her|the|a|an|first|new|very|only)\s+")


def _title_after(x: Turn, c: Clause, m: re.Match, end: int, aspect: str | None) -> list[Draft]:
    gap = _TIME_GAP.match(c.s, end)
    at = gap.end() if gap else end
    title = _AS_TITLE.match(c.s, at) or _AS_ANY_TITLE.match(c.s, at) or _AS_A_TITLE.match(c.s, at)
    if title is None:
        title = _APPOSED_TITLE.match(x.text, c.start + end - len(c.prefix))
    if title is None:
        return []
    name = title.group(1)
    while _TITLE_LEAD.match(name):
        name = _TITLE_LEAD.sub("", name, count=1)
    return emit(x, c, m, "job_title", [name.lower()], aspect) if name else []


JOIN = pattern(
    r"<SUBJ><AUX>\s+(?P<v>(?i:joined|join|joins|joining|(?:started|start|starts|starting|"
    r"began|begin)\s+(?:(?:a|my|the)\s+(?:[\w-]+\s+){0,3}?(?:job|position|role|gig)\b[^.;!?]{0,40}?\s+|working\s+|work\s+|"
    r"an\s+internship\s+)?(?:at|with|for)|got\s+(?:a\s+|the\s+)?(?:(?:new|part[- ]?time|"
    r"full[- ]?time|summer|weekend|shift|permanent|temp|proper|real)\s+)*(?:job|"
    r"position|role|gig|internship)\s+(?:at|with)|(?:accepted|took)\s+(?:(?:a|an|the)\s+)?"
    r"(?:new\s+)?(?:job|position|role|offer|internship)\s+(?:at|with|from)|(?:got|was|"
    r"been|were|get)\s+hired\s+(?:at|by)|signed\s+with|(?:started|start|starting|began|"
    r"begin|enrolled\s+in|began)\s+(?:a|an|my)\s+(?:phd|doctorate|master['’]?s|mba|degree|"
    r"bachelor['’]?s|course|program(?:me)?|apprenticeship)(?:\s+(?:in|on)\s+[\w\s]+?)?\s+"
    r"(?:at|with)))\s+"
)


def join(x: Turn, c: Clause, m: re.Match) -> list[Draft]:
    """ "I joined Acme", "I start at Acme on Monday", "I started a PhD at ETH"."""
    project = _project(x, c, m.end())
    verb = m.group("v").lower()
    form = verb_form(verb, _JOIN_FORMS)
    aspect = aspect_of(m.group("aux") or "", "change" if form == "state" else form)
    if re.search(r"(?i)\bproject\b", c.s[m.end() :]) and project:
        return emit(x, c, m, "works_on", [project], aspect)
    found = entity(c, m.end(), lowercase_ok=not verb.startswith("join"))
    if not found:
        return []
    if _GROUP_NOUN.match(c.s, found[1]):
        return None  # "I joined Ukrainian choir", "joined the Leeds running club": no job
    if aspect == "future" and time_in(c, found[:2]) is None:
        return []
    degree = re.search(
        r"(?i)phd|doctorate|master|mba|degree|bachelor|course|program|enrolled", verb
    )
    # "got a job at Schiller-Gymnasium": a job at a school is work there
    hired = re.search(r"(?i)job|position|role|gig|hired|offer|internship", verb)
    predicate = "studies_at" if degree else "works_at" if hired else _employer(found[2])
    out = emit(x, c, m, predicate, [found[2]], aspect, obj_span=found[:2])
    return out + _title_after(x, c, m, found[1], aspect) if out and not degree else out


# "joined the Leeds running club", "joined the Llandeilo in Bloom committee": a group, no
# job (a few words may stand between the name and the group noun, but not "as")
_GROUP_NOUN = re.compile(
    r"(?i)\s+(?:(?!as\b|at\b|to\b|for\b)[\w'’-]+\s+){0,3}?(?:choir|club|team|gym|band|class|"
    r"group|league|orchestra|society|circle|crew|squad|community|committee|council|board|"
    r"association|guild|roopu|congregation|parish)s?\b"
)


# Chat leaves out "I got": "new job at jd sports starting sat", "new gig!! at Monzo"
NEW_JOB = pattern(
    r"^\s*(?:I\s+)?(?:(?i:a|my)\s+)?(?i:new)\s+(?:(?i:part[- ]?time|full[- ]?time)\s+)?"
    r"(?i:job|gig|role|position)\s*[:!,.\-–—]*\s*(?i:at|with)\s+"
)


def new_job(x: Turn, c: Clause, m: re.Match) -> list[Draft]:
    found = entity(c, m.end()) if x.me else None
    if not found:
        return []
    out = emit(x, c, m, _employer(found[2]), [found[2]], "change", subject=x.me,
               obj_span=found[:2])  # fmt: skip
    return out + _title_after(x, c, m, found[1], "change") if out else out


# "Nuvemar offered me the job", "Globex hired me", "Acme took me on": the employer first
HIRED_ME = pattern(
    r"(?P<org>(?-i:[A-Z][\w&'’.\-]*)(?:\s+(?-i:[A-Z][\w&'’.\-]*)){0,4})\s+(?:(?i:just|finally|actually)\s+)?"
    r"(?i:offered\s+me\s+(?:the|a)\s+(?:job|position|role)|hired\s+me|took\s+me\s+on)\b"
)


# "The Seguin Public Library called on Tuesday and offered me the job": the call between
HIRED_ME_AFTER_CALL = pattern(
    r"(?P<org>(?-i:[A-Z][\w&'’.\-]*)(?:\s+(?-i:[A-Z][\w&'’.\-]*)){0,4})\s+"
    r"(?i:called|rang|phoned|emailed|wrote|got\s+back\s+to\s+me)(?:\s+[\w'’]+){0,4}?\s+(?i:and)\s+"
    r"(?:(?i:just|finally|actually)\s+)?"
    r"(?i:offered\s+me\s+(?:the|a)\s+(?:job|position|role)|hired\s+me)\b"
)


def hired_me(x: Turn, c: Clause, m: re.Match, *, timed: bool = True) -> list[Draft]:
    words, first = clean(m.group("org")).split(), not re.match(r"(?i)the\s", m.group("org"))
    while words and (words[0].lower() in NAME_STOPWORDS or (first and is_common_word(words[0]))):
        # "Luckily Acme took me on": the sentence's first word is no name; but after "The",
        # "New" starts one ("The New Braunfels Public Library hired me")
        words.pop(0)
        first = False
    org = " ".join(words)
    if not x.me or not org:
        return []
    return emit(x, c, m, _employer(org), [org], "change", subject=x.me, obj_span=m.span("org"),
                timed=timed)  # fmt: skip


def hired_me_after_call(x: Turn, c: Clause, m: re.Match) -> list[Draft]:
    """The clause's time is the call's, not the job's: a later "I start March 2" dates it."""
    if relative_word(m.group("org").split()[-1].lower()):
        return []  # "Mum called and offered me the job of babysitting"
    return hired_me(x, c, m, timed=False)


# "I took the Tallgrass job", "Nour took the Mayo job", "got the Quarry Health offer and I
# accepted it": the employer named before the job. An offer only counts once accepted.
TOOK_JOB = pattern(
    r"<SUBJ><AUX>\s+(?P<v>(?i:took|accepted|landed|got|get|take|taking|accepting))\s+(?i:the)\s+"
    r"(?P<org>(?-i:[A-Z][\w&'’.\-]*)(?:\s+(?-i:[A-Z][\w&'’.\-]*)){0,3})\s+"
    r"(?P<noun>(?i:job|position|role|offer|internship|gig))\b"
)
_ACCEPTED = re.compile(r"(?i)\b(?:accept(?:ed)?|took\s+it|taking\s+it|said\s+yes|signed)\b")


def took_job(x: Turn, c: Clause, m: re.Match) -> list[Draft] | None:
    verb, noun = m.group("v").lower(), m.group("noun").lower()
    org = clean(m.group("org"))
    if org.lower() in NAME_STOPWORDS or is_common_word(org.lower()):
        return None
    after = x.text[c.start + m.end() - len(c.prefix) : c.end + 60]
    if noun == "offer" and verb in ("got", "get") and not _ACCEPTED.search(after):
        return []  # an offer received, not yet taken
    aspect = aspect_of(m.group("aux") or "", "prog" if verb.endswith("ing") else "change")
    if aspect == "future" and time_in(c) is None:
        return []
    return emit(x, c, m, _employer(org), [org], aspect, obj_span=m.span("org"))


EMPLOYER = pattern(
    r"(?i:my)\s+(?P<new>(?i:new|current)\s+)?(?i:job\s+is\s+at|job\s+is\s+with|"
    r"employer\s+is|company\s+is|workplace\s+is)\s+(?i:now\s+)?"
)


def employer(x: Turn, c: Clause, m: re.Match) -> list[Draft]:
    """ "my (new) employer is Acme"."""
    found = entity(c, m.end())
    aspect = "change" if m.group("new") else "state"
    if not found:
        return []
    return emit(x, c, m, "works_at", [found[2]], aspect, subject=x.me, obj_span=found[:2])


LEAVE = pattern(
    r"<SUBJ><AUX>\s+(?P<v>(?i:left|leave|leaving|quit|quitting|resigned\s+from|"
    r"retired\s+from|moved\s+out\s+of|moved\s+away\s+from|stepped\s+down\s+from|"
    # "chucked it in at Bunnings"
    r"(?:chucked|jacked|packed|threw)\s+it\s+in\s+at|walked\s+out\s+of))"
    r"\s+(?!(?i:my|his|her|the)\s+job\b)"
)


def leave(x: Turn, c: Clause, m: re.Match) -> list[Draft]:
    """ "I left Acme / Berlin / the Apollo project", "I quit tennis"."""
    verb = " ".join(m.group("v").lower().split())
    aspect = _cessation(c, upcoming=bool(re.match(r"leav|quitting", verb)))
    rest = c.s[m.end() :]
    if re.match(r"(?i)(?:the\s+)?(?:[\w\-]+\s+){0,3}project\b|project\s", rest):
        return emit(x, c, m, "works_on", [_project(x, c, m.end())], aspect)
    hobby = _HOBBY_QUIT.match(rest)
    if hobby and verb in ("quit", "quitting"):
        return emit(x, c, m, "hobby", [hobby.group(1).lower()], aspect)
    found = entity(c, m.end(), lowercase_ok=False)
    if not found:
        return []
    name = found[2]
    subj = x.subject(m.group("who"), (0, 0))
    known = {
        p
        for (s, p), o in x.memory.known.items()
        if subj and s == subj.name and o.lower() == name.lower()
    }
    moved_out = "moved" in verb
    if moved_out or "lives_in" in known or (name in PLACES and "works_at" not in known):
        return emit(x, c, m, "lives_in", [name], aspect, obj_span=found[:2])
    return emit(x, c, m, "works_at", [name], aspect, obj_span=found[:2])


# Chat leaves out "I am / I work": "still at Ribble, fully remote now", "now at Monzo".
STILL_AT = pattern(
    r"^\s*(?:(?i:i)\s+)?(?P<v>(?i:still|now))\s+(?:(?i:working|employed|based)\s+)?"
    r"(?i:at|with)\s+"
)
# "today was my last day at St Mary's", "first week at Oakwood Academy nearly done".
DAY_AT = pattern(
    r"(?:^\s*|(?i:my|our)\s+)(?:(?i:very)\s+)?(?P<v>(?i:last|first|final))\s+"
    r"(?i:day|days|week|shift|month)\s+(?i:at|with)\s+"
)


def still_at(x: Turn, c: Clause, m: re.Match) -> list[Draft] | None:
    """The speaker's employer, from a verbless "still at X" or "my last day at X"."""
    found = entity(c, m.end())
    if not found or not x.me or found[2] in PLACES or is_place(found[2]):
        return None
    verb = m.group("v").lower()
    aspect = {"still": "state", "now": "change", "first": "change"}.get(verb, "retract")
    predicate = _employer(found[2])
    return emit(x, c, m, predicate, [found[2]], aspect, subject=x.me, obj_span=found[:2])


JOB_LOSS = pattern(
    r"<SUBJ><AUX>\s+(?P<v>(?i:(?:quit|left|lost|leaving|quitting)\s+(?:my|his|her)"
    r"\s+(?:job|position|role)|(?:got|been|was|were|getting)\s+(?:fired|laid\s+off|"
    r"let\s+go|sacked|made\s+redundant)|retired(?!\s+(?:the|my|a|an|that|this|it|those|these|"
    r"his|her|our|their|old)\b)|resigned|unemployed|out\s+of\s+work|"
    r"between\s+jobs))(?P<prep>\s+(?i:at|with|from|by)\s+)?"
)


def job_loss(x: Turn, c: Clause, m: re.Match) -> list[Draft]:
    """ "I quit my job (at Acme)", "I got laid off", "I retired"."""
    org = entity(c, m.end(), lowercase_ok=False) if m.group("prep") else None
    upcoming = bool(re.search(r"(?i)leaving|quitting|getting", m.group("v")))
    return emit(x, c, m, "works_at", [org[2] if org else None], _cessation(c, upcoming))


JOB_TITLE = pattern(
    r"<SUBJ><AUX>\s+(?:(?P<v>(?i:(?:got\s+|been\s+|was\s+|were\s+|just\s+got\s+)"
    r"?promoted(?:\s+to|\s*[-–—:,])|became|become|becoming|started\s+as|started\s+working\s+as|"
    r"working\s+as|work\s+as|works\s+as|worked\s+as|employed\s+as|hired\s+as|"
    r"start(?:s|ed|ing)?\s+(?:on\s+[^,.!?]{1,25}?\s+)?as))\s+"
    r"(?:(?i:an?|the)\s+)?|(?i:an?|the)\s+|(?<=(?i:officially)\s)|(?<=(?i:now)\s)|(?<=(?i:be)\s)|"
    # "so I'm operations manager now": a bare title right after "I'm"
    r"(?<=(?i:i['’]m)\s)|(?<=(?i:i\sam)\s))"
    # the longest run of words that ends in a job noun ("assistant manager", not "assistant")
    r"(?P<title>(?:<NOT_MOD>[\w\-]+\s+){0,3}<JOB>s?)\b(?![’']s)"
)
# "Karthik is senior software engineer at Shopify", "she's head nurse now": no article, so
# only before an employer, a "now" or "since", or where the job is done
TITLE_BARE_AT = pattern(
    r"<SUBJ><AUX>\s+(?P<v>)(?P<title>(?:<NOT_MOD>[\w\-]+\s+){0,3}<JOB>)(?=\s+(?i:at|for|with|on)\s+[A-Z]|"
    # "He is programmer.", "She is graphic designer, works remote": the title and no more
    r"(?<=\w)\s*[,.;!](?:\s|$)|\s*$|\s+(?i:and|but)\s|"
    r"\s+(?i:now|since|these\s+days|on\s+(?:his|her|their|the)\s+(?:ward|team|unit|floor)))"
)
# "PROMOTED 🚀\nsenior software engineer since March 1st!": after news of a promotion, a
# line that is only a title (and when) is the new title
TITLE_FRAGMENT = pattern(
    r"^\W{0,6}(?P<v>)(?P<title>(?:<NOT_MOD>[\w\-]+\s+){0,3}<JOB>)(?=\s*(?:[!.(]|$)|\s+(?i:now|since|from|"
    r"as\s+of|starting|effective)\b)"
)
_PROMOTED = re.compile(r"(?i)\bpromoted\b|\bgot\s+(?:a|the|my)\s+promotion\b")
_SOMEONE_PROMOTED = re.compile(
    rf"(?P<who>{PERSON})\s+(?i:got|was|has\s+been|just\s+got)\s+(?:(?i:a|the)\s+)?(?i:promot)"
)


def title_fragment(x: Turn, c: Clause, m: re.Match) -> list[Draft] | None:
    """A bare title after news of a promotion or a new job earlier in the turn: the
    speaker's, or that of the person the news names ("Mariana got promoted!\nhead nurse
    now")."""
    before = x.text[: c.start]
    hired = [d.subject for d in x.drafts if d.predicate == "works_at" and d.op == "supersede"]
    if not _PROMOTED.search(before) and not hired:
        return None  # "I took the Tallgrass job. staff engineer!!": news of a job before it
    named = [n for n in _SOMEONE_PROMOTED.finditer(before) if n.group("who").lower() != "i"]
    subject = named[-1].group("who") if named else (hired[-1] if hired else x.me)
    if subject is None:
        return None
    return emit(x, c, m, "job_title", [m.group("title").lower()], "change", subject=subject)


# A self-introduction lists what the speaker is: "olek here, 29, backend dev at kodeon in
# kraków", "I'm Priyanka btw, 34, pharmacist, originally from Pune". A fragment of it that
# is only a title (and where) is the speaker's title now.
INTRO_FRAGMENT = pattern(
    r"(?:^\W{0,6}|,\s*)(?!(?i:i|im|i['’]m|and|but|so)\b)(?P<v>)(?P<title>(?:<NOT_MOD>[\w\-]+\s+){0,2}<JOB>)"
    r"(?=\s*(?:[,.;!]|$)|\s+(?i:at|for|with|on)\s+)"
)
_INTRO = re.compile(
    rf"(?:^|[.!?,]\s*)(?:(?i:hi|hey|hello|yo|morning)\W+)?(?:{PERSON}|[a-z]+)\s+(?i:here)\b"
    rf"|\b(?:I|i)['’]?m\s+{PERSON}\b(?:\s*(?i:btw|by\s+the\s+way))?\s*,"
    r"|\b(?i:my\s+name(?:['’]s|\s+is)|(?:a\s+)?bit\s+(?:of\s+)?(?:background|about\s+me)|"
    r"about\s+me\s*:)"
)


def intro_fragment(x: Turn, c: Clause, m: re.Match) -> list[Draft] | None:
    """A title (and employer) listed in the speaker's introduction of themselves."""
    said_before = x.text[: c.start + max(0, m.start() - len(c.prefix)) + 1]
    if not x.me or not _INTRO.search(said_before):
        return None
    title = m.group("title").lower()
    out = emit(x, c, m, "job_title", [title], "state", subject=x.me)
    at = re.match(r"\s+(?i:at|for|with)\s+", c.s[m.end() :])
    found = entity(c, m.end() + at.end()) if at else None
    if found and not is_place(found[2]) and found[2] not in PLACES:
        out += emit(x, c, m, _employer(found[2]), [found[2]], "state", subject=x.me,
                    obj_span=found[:2])  # fmt: skip
    return out


WORK_AS = pattern(
    r"<SUBJ><AUX>\s+(?P<v>(?i:work|works|working|worked))\s+(?i:as)\s+(?:(?i:an?|the)\s+)"
    r"?(?P<title>[\w\-]+(?:\s+[\w\-]+){0,3}?)(?=\s+(?:at|for|in|with|since)\b|\s*[,.;!]|"
    r"\s*$)"
)


_TITLE_OF = re.compile(
    r"\s+of\s+(?:the\s+)?((?!(?:the|my|a|an|it|this|that|them|us)\b)[A-Za-z][\w-]*"
    r"(?:\s+(?!(?:at|for|in|with|since|from|and|but|so|to|on|now|too|again)\b)[a-z][\w-]*)?)"
    r"(?=\s*[,.;!?—–)]|\s+(?:at|for|in|with|since|from|and|but|so|to|on|now)\b|\s*$)"
)


def job_title(x: Turn, c: Clause, m: re.Match) -> list[Draft] | None:
    """ "I'm a nurse (at St Mary's)", "I got promoted to senior engineer"."""
    verb, aux = (m.group("v") or "").lower(), m.group("aux") or ""
    if not verb and not BE_AUX.search(aux):
        return None
    form = (
        "change"
        if re.search(r"promot|became|become|start|hired", verb) or re.search(r"(?i)\bbe$", aux)
        else "prog"
        if "becoming" in verb
        else "past"
        if verb.startswith("worked")
        else "state"
    )
    aspect = aspect_of(aux, form)
    if re.match(r"start(?:s|ing)?\b", verb):
        aspect = "future"  # "I start on 4 September as a designer": not yet
    if form == "state" and re.search(r"(?i)\b(?:now|officially)\b", aux + verb):
        aspect = "change"
    if form == "state" and PAST_AUX.search(aux) and not PERFECT_AUX.search(aux):
        aspect = "past"
    title = clean(m.group("title"))
    trailing_of = title.lower().endswith(" of")
    of = _TITLE_OF.match(c.s, m.end() - (3 if trailing_of else 0))
    if of:  # "head of languages", "director of engineering"
        title = f"{title.removesuffix(' of')} of {of.group(1)}"
    aged = re.match(r"(\d{1,3})[-\s]years?[-\s]old\s+", title)
    out = emit(x, c, m, "age", [aged.group(1)], aspect_of(aux, "state")) if aged else []
    title = title[aged.end() :] if aged else title
    out += emit(x, c, m, "job_title", [title], aspect)
    prep = re.compile(r"\s+(?:at|for|with)\s+").match(c.s, m.end())
    if prep:
        found = entity(c, prep.end())
        student = re.search(r"(?i)student|undergrad|postdoc|phd", title)
        if found:
            predicate = "studies_at" if student else "works_at"
            out += emit(x, c, m, predicate, [found[2]], aspect, obj_span=found[:2])
    return out


TITLE_IS = pattern(
    r"(?:(?i:my)\s+(?P<new>(?i:new)\s+)?(?i:job\s+title|title|role|position|job)|"
    r"(?i:the)\s+(?i:job\s+)?(?i:title))\s+(?i:is|was)"
    r"\s+(?i:now\s+)?(?!(?i:at|with|in)\b)(?:(?i:an?|the)\s+)?"
)


def title_is(x: Turn, c: Clause, m: re.Match) -> list[Draft]:
    """ "my (new) title is Head of Sales", "the title was staff engineer"."""
    found = phrase(c, m.end(), max_words=5)
    if not found:
        return []
    title = re.split(r"\s+(?:at|for|with|in)\s+", found[2])[0]
    aspect = "change" if m.group("new") else "state"
    return emit(x, c, m, "job_title", [title], aspect, subject=x.me)


STUDIES = pattern(r"<SUBJ><AUX>\s+(?P<v>(?i:study|studies|studying|studied|enrolled))\s+(?i:at)\s+")


def studies(x: Turn, c: Clause, m: re.Match) -> list[Draft]:
    found = entity(c, m.end())
    aspect = aspect_of(
        m.group("aux") or "", "past" if m.group("v").lower().endswith("ed") else "state"
    )
    return emit(x, c, m, "studies_at", [found[2]], aspect, obj_span=found[:2]) if found else []


WORKS_ON = pattern(
    r"<SUBJ><AUX>\s+(?P<v>(?i:working|work|works|worked|started\s+working|began\s+working|"
    r"leading|lead|leads|led|managing|manage|manages|managed|been\s+assigned|assigned|"
    r"on(?=\s+(?:the\s+)?(?:[\w\-]+\s+){0,3}?(?i:project)\b)))\s+(?i:on\s+|to\s+)"
    r"?(?=(?:(?i:the|my|our)\s+)?(?:[\w\-]+\s+){0,3}?(?i:project)\b|(?i:project)\s|[A-Z]|"
    r"(?i:my|our)\s)"
)


def works_on(x: Turn, c: Clause, m: re.Match) -> list[Draft]:
    """ "I'm working on the Apollo project", "I lead Project Zeus"."""
    project = _project(x, c, m.end())
    if not project:
        return []
    verb = " ".join(m.group("v").lower().split())
    form = (
        "change"
        if re.match(r"started|began|assigned|joined|been\s+assigned", verb)
        else "past"
        if verb in ("worked", "led", "managed")
        else "state"
    )
    aspect = aspect_of(m.group("aux") or "", form)
    return emit(x, c, m, "works_on", [project], aspect)


# "I'm on Heron", "still on Beacon", "they've put me on Harbor now": a project by name,
# when the turn is about work on projects (or the name is a project already said).
ON_NAMED = pattern(
    r"(?:<SUBJ><AUX>|^\s*(?=(?i:still|now|currently)\s)|(?i:put|moved|shifted|assigned|staffed|"
    r"switched|transferred|stuck)\s+(?P<who2>(?i:me|him|her|us)))"
    r"\s*(?:(?i:still|now|currently|also|officially|finally)\s+)*(?i:on|onto)\s+"
    r"(?=(?:(?i:the)\s+)?[A-Z][\w\-]+(?![\w'’]))"
)
_PROJECT_TALK = re.compile(
    r"(?i)\b(?:project|deadline|due|launch|release|go-?live|sprint|codename|client|rollout|"
    r"migration|rewrite|overhaul|upgrade|rebrand|pitch|demo|ship|handed\s+(?:it\s+)?over|"
    r"the\s+team|workstream|account|build|app|platform|feature|product|pipeline|target|"
    r"cutover|milestone|first\s+version|submission|commissioning|kick-?off|deliverable|"
    r"prototype|mvp)\b"
)


def on_named(x: Turn, c: Clause, m: re.Match) -> list[Draft] | None:
    """A project by bare name, only where projects are the talk of the turn."""
    found = re.compile(r"(?:the\s+)?([A-Z][\w\-]+(?:\s+[A-Z][\w\-]+)?)").match(c.s, m.end())
    if not found:
        return None
    name = found.group(1)
    said = {o for (s, p), o in x.memory.known.items() if p == "works_on"}
    said |= {o for s, p, o in x.memory.said if p in ("works_on", "deadline")}
    talk = _PROJECT_TALK.search(x.text)
    if name in PLACES or name.split()[0].lower() in _NOT_PROJECTS:
        return None
    if is_place(name) and not (talk or name in said):
        return None  # "on Skye"; but "I'm on Meridian, the new pipeline": a project
    if name not in said and not talk:
        return None
    who = m.groupdict().get("who")
    if m.groupdict().get("who2"):
        who = None if m.group("who2").lower() == "me" else m.group("who2")
    still = re.search(r"(?i)\bstill\b", m.group(0))
    aspect = "state" if still else "change"
    if not m.groupdict().get("who2") and not re.search(
        r"(?i)\b(?:now|starting|from|officially|"
        r"finally)\b",
        m.group(0),
    ):
        aspect = aspect_of(m.groupdict().get("aux") or "", "state")
    subject = x.me if who is None else None
    return emit(x, c, m, "works_on", [name], aspect, who=who, subject=subject,
                obj_span=found.span(1))  # fmt: skip


# "My project is Fjordlink", "our new project is Kestrel", "first project is Hjerte", "got
# put on a second project: Fjord", "new project on top of Meridian: Kestrel"
PROJECT_IS = pattern(
    r"(?:(?i:my|our|a|the)\s+|^\s*)(?:(?i:new|current|main|big|latest|next|first|second|"
    r"third|other)\s+)?(?i:project)(?:\s+(?i:is)|(?:\s+[\w'’]+){0,5}?\s*[:–—])\s+"
    r"(?:(?i:now)\s+)?(?:(?i:the)\s+)?(?=[A-Za-z][\w\-]+(?![\w'’]))"
)


def project_is(x: Turn, c: Clause, m: re.Match) -> list[Draft] | None:
    found = re.compile(r"[A-Z][\w\-]+(?:\s+[A-Z][\w\-]+)?").match(c.s, m.end())
    if found is None and needs_truecase(x.episode.text) and not m.group().rstrip().endswith("is"):
        # "got put on a second project: fjord": a typist of lower case names it so too
        found = re.compile(r"[a-z][\w\-]+").match(c.s, m.end())
    if not found or not x.me or found.group().split()[0].lower() in _NOT_PROJECTS:
        return None
    name = found.group()[:1].upper() + found.group()[1:]
    said = {o for s, p, o in x.memory.said if p in ("works_on", "deadline")} | {
        x.memory.known.get((x.me, "works_on"))
    }
    if m.group().lower().startswith("the") and is_common_word(name) and name not in said:
        return None  # "The project is Late again"
    return emit(x, c, m, "works_on", [name], "state", subject=x.me,
                obj_span=found.span())  # fmt: skip


# "I've been put on a project called Kestrel", "added to a second project, Lumen",
# "started side project: pgsnap": a project named right after the word, in a clause
# about the speaker
PROJECT_CALLED = pattern(r"(?i:project)\s*(?:(?i:called|named)\s+|,\s*|:\s*)(?=[A-Za-z])")
_ABOUT_ME = re.compile(r"\b(?:I|i|me|my|we|us|our)\b")


def project_called(x: Turn, c: Clause, m: re.Match) -> list[Draft] | None:
    if not c.prefix.strip() and not _ABOUT_ME.search(c.s[: m.start()]):
        return None
    return project_is(x, c, m)


# "Sarah's put me in charge of Puppy Preschool", "I'm running Dental Month": a named thing
# the speaker leads at work
IN_CHARGE = pattern(
    r"(?:<SUBJ><AUX>\s+|(?i:put|made|left)\s+(?P<who2>(?i:me))\s+)(?P<v>(?i:in\s+charge\s+of))\s+"
    r"(?:(?i:the)\s+)?(?=[A-Z][\w\-]+(?![\w'’]))"
)


def in_charge(x: Turn, c: Clause, m: re.Match) -> list[Draft] | None:
    found = re.compile(r"[A-Z][\w\-]+(?:\s+[A-Z][\w\-]+){0,2}").match(c.s, m.end())
    if not found or not x.me:
        return None
    name = found.group()
    if name in PLACES or is_place(name) or name.split()[0].lower() in _NOT_PROJECTS:
        return None
    who = None if m.groupdict().get("who2") else m.groupdict().get("who")
    if who is not None and x.subject(who, c.span) is not None:
        subject = x.subject(who, c.span).name
    else:
        subject = x.me
    return emit(x, c, m, "works_on", [name], "change", subject=subject, obj_span=found.span())


# "Dai has made me plant area supervisor from the 1st of September", "they're making me
# team lead", "they hired me as senior hygienist": a title someone gives the speaker
MADE_ME = pattern(
    r"(?P<v>(?i:made|making|make|makes|promoted|promoting|appointed|named|hired|hiring))\s+"
    r"(?i:me)\s+(?:(?i:on|in)\s+)?"
    r"(?:(?i:to|as)\s+)?(?:(?i:an?|the|their|our)\s+)?"
    r"(?P<title>(?:<NOT_MOD>[\w\-]+\s+){0,3}<JOB>)\b(?![’']s)"
)


def made_me(x: Turn, c: Clause, m: re.Match) -> list[Draft] | None:
    if not x.me:
        return None
    aspect = (
        "future"
        if re.search(
            r"(?i)\b(?:will|going\s+to|gonna|is|are|'s|’s)\s+(?:\w+\s+)?making\b|\bmaking\b",
            c.s[: m.end("v")],
        )
        else "change"
    )
    if aspect == "future" and not c.times:
        aspect = "change"
    return emit(x, c, m, "job_title", [m.group("title").lower()], aspect, subject=x.me)


_NOT_PROJECTS = frozenset(
    "monday tuesday wednesday thursday friday saturday sunday instagram tiktok twitter "
    "facebook linkedin whatsapp tinder hinge bumble netflix spotify youtube reddit slack "
    "teams zoom google discord snapchat ozempic call board track it".split()
)


# A project of the speaker's that is over: "Tulp is DONE", "Beacon launched on March 3",
# "I hand Kompas over after the readout". Only a project on record as theirs.
PROJECT_DONE = pattern(
    r"(?:(?P<proj>[A-Z][\w\-]+)(?:\s+(?i:is|was|has|got|'s|’s))?\s+(?i:done|finished|over|"
    r"wrapped\s+up|launched|shipped|delivered|closed|completed|went\s+live)\b"
    r"|(?i:hand(?:ed|ing)?|pass(?:ed|ing)?)\s+(?P<proj2>[A-Z][\w\-]+)\s+(?i:over|on)\b)"
)


def project_done(x: Turn, c: Clause, m: re.Match) -> list[Draft] | None:
    name = m.group("proj") or m.group("proj2")
    mine = {o for s, p, o in x.memory.said if p == "works_on" and s == x.me}
    if not x.me or name not in mine:
        return None
    return emit(x, c, m, "works_on", [name], "retract", subject=x.me)


OFF_PROJECT = pattern(
    r"<SUBJ><AUX>\s+(?i:off|done\s+with|finished|taken\s+off|rolled\s+off|moved\s+off|"
    r"stopped\s+working\s+on)\s+(?=(?:(?i:the|my|our)\s+)?(?:[\w\-]+\s+){0,3}?(?i:project)"
    r"\b|(?i:project)\s|[A-Z])"
)


def off_project(x: Turn, c: Clause, m: re.Match) -> list[Draft]:
    """ "I'm off the Apollo project"; "Maré shipped. I'm off the project now": the
    project on record that the turn names before the clause (none named: nothing)."""
    project = _project(x, c, m.end())
    if project and project.lower() in ("project", "it", "that", "this"):
        before = x.text[: c.start].casefold()
        on_record = [o for s, p, o in x.memory.said if p == "works_on"]
        named = [o for o in on_record if o.casefold() in before]
        project = named[-1] if named else None
    return emit(x, c, m, "works_on", [project], "retract") if project else []


# The one reported to may be described first: "to a guy named Sanjay", "to our new CEO Maya"
_DESCRIBED = (
    r"(?:(?i:a|an|this|some|our|my|the)\s+(?:[a-z][\w\-]*\s+|[A-Z]{2,5}\s+){0,3}?"
    r"(?:(?i:named|called)\s+)?)?"
)
REPORT_TO = pattern(
    r"(?:(?:^|,)\s*(?P<bare>(?i:still\s+|now\s+|currently\s+)?(?=reporting))|<SUBJ><AUX>\s+)"
    r"(?P<v>(?i:report|reports|reporting|reported|started\s+reporting))"
    rf"\s+(?i:directly\s+)?(?i:to)\s+{_DESCRIBED}(?P<obj><PERSON>)(?![\w'’])"
)


def reports_to(x: Turn, c: Clause, m: re.Match) -> list[Draft]:
    """ "I report to Dana": ``manager``."""
    verb = m.group("v").lower()
    aspect = (
        "change"
        if "started" in verb or "now" in (m.group("aux") or "").lower()
        else (aspect_of(m.group("aux") or "", "past" if verb == "reported" else "state"))
    )
    if m.group("bare") is not None:  # "..., reporting to Prakash": the speaker
        return emit(x, c, m, "manager", [m.group("obj")], aspect, subject=x.me) if x.me else []
    return emit(x, c, m, "manager", [m.group("obj")], aspect)


# The other way round: "Marko reports to me now", "Tyler and Bri report to me starting this
# week", "marko reports to me now after the restructure".
REPORTS_TO_ME = pattern(
    r"(?P<obj><PERSONS>)<AUX>\s+(?P<v>(?i:report|reports|reporting|started\s+reporting|"
    r"answer|answers))\s+(?i:directly\s+)?(?i:to)\s+(?i:me)\b"
)


def reports_to_me(x: Turn, c: Clause, m: re.Match) -> list[Draft]:
    """The speaker manages each one named."""
    if not x.me:
        return []
    changed = "started" in m.group("v").lower() or re.search(
        r"(?i)\b(?:now|starting|from|since)\b", c.s[m.end() :] + " " + (m.group("aux") or "")
    )
    aspect = "change" if changed else aspect_of(m.group("aux") or "", "state")
    out: list[Draft] = []
    for name in names(m.group("obj")):
        subject = x.subject(name, c.span)
        if subject and subject.name and subject.name != x.me:
            out += emit(x, c, m, "manager", [x.me], aspect, subject=subject.name)
    return out


# No manager any more: "rob left so i dont even have a line manager rn", "technically i
# have no boss", "I don't report to anybody": the one on record is no longer it.
NO_MANAGER = pattern(
    r"<I><AUX>\s+(?:(?i:don['’]?t|do\s+not)\s+(?:(?i:even|really|currently)\s+)?"
    r"(?:(?i:have)\s+(?:(?i:a|an|any)\s+)?(?:(?i:line|direct|official|proper|actual)\s+)?"
    r"(?i:manager|boss|supervisor|line\s+manager)|(?i:report)\s+(?i:to)\s+(?i:anybody|anyone|"
    r"any\s*one))|(?i:have)\s+(?i:no)\s+(?:(?i:line|direct|official|proper|actual)\s+)?"
    r"(?i:manager|boss|supervisor|line\s+manager))\b"
)


def no_manager(x: Turn, c: Clause, m: re.Match) -> list[Draft]:
    current = x.memory.known.get((x.me, "manager")) if x.me else None
    return emit(x, c, m, "manager", [current], "retract", subject=x.me) if current else []
