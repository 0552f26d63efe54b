"""What is to come: ``plans`` and ``deadline``.

"I'm planning to learn Italian", "I'm going to adopt a dog", "the deadline for
Apollo is June 3", "the report is due Friday", "the launch was pushed to October". Plans
worded with "going to" need a real plan (not "I'm going to check it out") and a
destination ("going to Japan") needs a future date. A deadline without a project names
the one the speaker last gave a deadline for, else the project they work on; its date
is read as the next such date and written by grain (``2024-05-17``, ``2024-06``).
"""

from __future__ import annotations

import re
from datetime import timedelta

from graphmem.errors import InvalidTimeError
from graphmem.extraction.clauses import Clause
from graphmem.extraction.lexicon import words
from graphmem.extraction.objects import POINTS_BACK, phrase, project_name
from graphmem.extraction.patterns import pattern
from graphmem.extraction.timing import BE_AUX, PAST_AUX, PERFECT_AUX, VAGUE_TIMES, start_of, time_in
from graphmem.extraction.truecase import is_common_word, needs_truecase, truecase
from graphmem.extraction.turn import Draft, Turn, emit
from graphmem.time.instant import POS_INF, is_open_start
from graphmem.time.natural import resolve_time

_CHANGED = re.compile(
    r"(?i)\b(?:moved|pushed|extended|postponed|delayed|brought|"
    r"changed|shifted|bumped|slipped|now|new|rescheduled)\b"
)
_ERRANDS = frozenset(
    words(
        "check try look contact ask call give use take read see make get do book follow email "
        "text reach order write send share let put keep start go bring tell pick grab stick add "
        "test run save print buy wait stop continue note remember"
    )
)
_PLAN_SKIP = frozenset(words("be have need try say tell ask think wait let see get do"))


def _one_day(te) -> bool:
    return te.interval.end - te.interval.start <= timedelta(days=1)


def deadline_date(
    x: Turn, c: Clause, after: int, within: int | None = None
) -> tuple[str, str] | None:
    """The date a deadline clause names after ``after`` (at most ``within`` characters
    after it), formatted by its grain, and the time phrase."""
    limit = len(c.s) if within is None else after + within
    found = [
        te
        for te in x.future_times(c)
        if after <= c.relative(te)[0] <= limit and te.text.lower() not in VAGUE_TIMES
    ]
    if not found:  # a bare month after "to" ("pushed to October") is only read on request
        rest = c.s[after:].strip(" .!?").split()
        for n in range(min(4, len(rest)), 0, -1):
            try:
                found = [resolve_time(" ".join(rest[:n]), x.ts, prefer="future")]
                break
            except InvalidTimeError:
                continue
    if not found:
        return None
    te = found[0]
    # "end of May, 31 May": the one day said after the vaguer phrase, inside it
    te = next((t for t in found[1:] if _one_day(t) and te.interval.contains(t.interval.start)
               and not _one_day(te)), te)  # fmt: skip
    moment = te.interval.start
    if te.kind in ("until", "before") or is_open_start(moment):
        moment = te.interval.end - timedelta(microseconds=1)
    if te.grain == "month":
        return moment.strftime("%Y-%m"), te.text
    if te.grain == "year":
        return moment.strftime("%Y"), te.text
    return moment.date().isoformat(), te.text


DEADLINE_OF = pattern(
    r"(?i:the\s+|a\s+|our\s+|my\s+)?(?i:new\s+)?(?i:deadline|due\s+date)\s+(?i:for|of|on)"
    r"\s+<PROJ>\s+(?i:is|was|has\s+been|had\s+been|got|will\s+be|'s|’s|moved|slipped|"
    r"changed|shifted)\b"
)
DEADLINE_BARE = pattern(
    r"^(?i:the\s+)?(?i:new\s+)?(?i:deadline|due\s+date)\s+(?i:is|was|has\s+been|got)\b"
)
# "target date is November 14", "Energisation is 29 November", "Deadline 30 September
# 2026 for the package", "first version by April 30": a milestone of the project the turn
# is about, at the start of its clause (read only when a date follows)
DEADLINE_MILESTONE = pattern(
    # "Havørn: energisation moved to 14 February": the project named before a colon
    r"(?:^|(?<=, so )|(?<=, and )|(?<=; ))"
    r"(?:(?P<proj>[A-Z][\w\-]*(?:\s+[A-Z][\w\-]*)?)\s*:\s*)?(?:(?i:the|our|a)\s+)?(?:(?i:new|revised|final|official)\s+)?"
    r"(?i:deadline|due\s+date|target(?:\s+date)?|go-?live(?:\s+date)?|launch(?:\s+date)?|cutover|"
    r"release(?:\s+date)?|ship\s+date|submission|delivery|handover|hand-over|first\s+version|"
    r"first\s+power|energi[sz]ation|completion|opening(?:\s+day)?|printers?['’]?\s+date)"
    r"(?:\s+(?i:date))?\s*(?:(?i:is|was|will\s+be|is\s+now|now|moved\s+to|pushed\s+to|by)\b|[:\-–—]|"
    r"(?=\s*\d))"
)
# "Mirela moved Lipa deadline to 29 May": the verb before the project's deadline
DEADLINE_VERB_FIRST = pattern(
    r"(?i:moved|pushed|shifted|changed|postponed|brought\s+forward|pulled\s+forward|bumped)\s+"
    r"(?:(?i:the|our|my)\s+)?(?P<proj>(?-i:[A-Z][\w\-]+))(?:['’]s)?\s+(?i:deadline|due\s+date|"
    r"launch|submission|go-?live)\s+(?i:to|until)\s+"
)
# "Meridian moved to January 30", "Beacon slipped to March 3": a named thing moved to a date
DEADLINE_SLID = pattern(
    r"(?P<proj>(?-i:[A-Z][\w\-]+))\s+(?:(?i:just|now|has|had|got)\s+)?(?i:moved|slipped|slid|"
    r"shifted|pushed|bumped)\s+(?:(?i:again|back|out|forward),?\s+)?(?i:to|until)\s+"
)
DEADLINE_POSS = pattern(
    r"(?P<proj>(?:(?i:the|our|my)\s+)?[\w\-]+(?:\s+[\w\-]+){0,3}?)(?:['’]s)"
    r"?\s+(?i:deadline|due\s+date)\s*(?:(?i:is|was|has\s+been|got|will\s+be|moved|slipped|set|now)\b|:)"
)
DEADLINE_DUE = pattern(
    r"(?P<proj>(?:(?i:the|our|my)\s+)?[\w\-]+(?:\s+[\w\-]+){0,3}?)\s+(?i:is|are|was|"
    r"will\s+be)\s+(?i:now\s+)?(?i:due)\b"
)
DEADLINE_MOVED = pattern(
    r"(?P<proj>(?:(?i:the|our|my)\s+)?[\w\-]+(?:\s+[\w\-]+){0,3}?)\s*(?i:\s+was|\s+got|"
    r"\s+has\s+been|['’]s\s+been|\s+is\s+being|\s+is|\s+are)\s+(?i:pushed|moved|postponed|delayed|"
    r"rescheduled)\s+(?i:(?:back|out|again)(?:,?\s+now)?,?\s+)?(?i:to|until)\b"
)
# "he wants it done by 30 June", "everything has to be ready by 31 July", "Declan wants
# the evaluation report by 4 April", "it has to be with the printers by the 29th of June":
# a date the thing the turn is about is due (its name comes from the turn)
DEADLINE_WANTED = pattern(
    r"(?:(?i:wants?|needs?|expects?)\s+(?:(?i:it|them|this|that|everything)|(?:(?i:the|our|my)\s+)"
    r"?[\w\-]+(?:\s+[\w\-]+){0,2}?)|(?i:it|everything|this|that|they|the\s+[\w\-]+(?:\s+[\w\-]+)?)\s+"
    r"(?i:has|have|needs?)\s+to\s+(?i:be|go\s+in|get\s+in))\s+(?:(?i:done|ready|finished|"
    r"submitted|complete|completed|in|with\s+the\s+[\w\-]+|sent|delivered)\s+)?(?i:by)\s+"
)
# "Hemi's agreed to push the deadline out to 16 August", "Ruth has moved the evaluation
# deadline to 16 May", "extended the photo deadline to July 26th"
DEADLINE_MOVED_THE = pattern(
    r"(?i:moved|move|pushed|push|extended|extend|postponed|shifted|changed|bumped)\s+(?:(?i:the|our|my)\s+)?"
    r"(?P<proj>(?:[\w\-]+\s+){0,2}?)(?i:deadline|due\s+date)\s+"
    r"(?:(?i:for|of|on)\s+(?P<proj2>[A-Z][\w\-]*(?:\s+[A-Z][\w\-]*){0,2})\s+)?"
    r"(?:(?i:out|back)\s+)?(?i:to|until)\s+"
)
# "Lyngen cutover got pushed. Now Monday week 23, 3 June.", "Fjordlink first power moved.
# Now 15 May 2026.": the new date opens the sentence after the news that it moved
DEADLINE_NOW = pattern(
    r"^\W*(?:(?i:now|new\s+date(?:\s+is)?|new\s+deadline(?:\s+is)?|it['’]s\s+now|now\s+it['’]s))\b[\s:,]*"
)


def deadline_now(x: Turn, c: Clause, m: re.Match) -> list[Draft] | None:
    before = x.text[max(0, c.start - 120) : c.start]
    if not re.search(
        r"(?i)\b(?:pushed|moved|delayed|slipped|postponed|shifted|changed)\W*$", before
    ):
        return None
    return dated_deadline(x, c, m)


# "Kestrel has a deadline now, the submission has to go in by 12th Dec", "Lumen also has
# a deadline now, 30th June next year"
DEADLINE_HAS = pattern(
    r"(?i:has|got)\s+(?:(?i:a|an)\s+)?(?:(?i:real|new|hard|proper|firm|fixed)\s+)?"
    r"(?i:deadline|due\s+date)\b"
)
DEADLINE_BY = pattern(
    r"(?i:need|needs|have|has|got)\s+(?i:to)\s+(?i:ship|finish|deliver|submit|launch|hand\s+in|"
    r"complete|release|wrap\s+up)\s+(?P<proj>(?:(?i:the|our|my)\s+)?[\w\-]+(?:\s+[\w\-]+){0,3}?)"
    r"(?=\s+(?i:by|before)\b)"
)


_PROJECT_MENTION = re.compile(
    r"\b(?:(?i:on|onto|off|project|called|named|codenamed|project\s+is))(?:\s+|(?<=(?i:project))\s*[:–—]\s*)"
    r"(?:(?i:the)\s+)?([A-Z][\w\-]+)(?![\w'’])(?!\s+(?i:project)\b)|"
    # "the thing eating my life is Atlas, our migration ...": a name set beside what it is
    r"\bis\s+([A-Z][\w\-]+),\s+(?=(?i:our|the|a|an|my)\s)|"
    r"\b(?!(?i:my|our|the|his|her|their|a|an|this|that|new|second|first|next|big|main)\b)"
    r"([A-Z][\w\-]+)\s+(?i:project)\b|"
    # "Beacon got delayed. New deadline is ...": what slipped is the project
    r"\b([A-Z][\w\-]+)\s+(?:(?i:got|has\s+been|have\s+been|was|is|just)\s+)?(?i:delayed|pushed|"
    r"postponed|moved|slipped|bumped|brought\s+forward|pulled\s+forward|rescheduled)\b"
)


# What stands before "deadline" without naming a project ("the go-live deadline is ...")
_DEADLINE_KINDS = frozenset(
    "go-live golive launch release submission final hard delivery ship shipping new revised "
    "official target project".split()
)


def _project_named_before(x: Turn, end: int) -> str | None:
    """The project on record (worked on, or given a deadline) named last before ``end``."""
    projects = {o for _, p, o in x.memory.said if p == "works_on"}
    projects |= {s for s, p, _ in x.memory.said if p == "deadline"}
    # and one this turn has just put the speaker on ("new project on top of Meridian:
    # Kestrel ... a first version by April 30" is Kestrel's)
    projects |= {d.object for d in x.drafts if d.predicate == "works_on" and d.op != "retract"}
    found = [(m.start(), name) for name in projects if name
             for m in re.finditer(rf"(?<![\w-]){re.escape(name)}(?![\w-])", x.text[:end])]  # fmt: skip
    return max(found)[1] if found else None


_MILESTONE = (
    r"(?i:deadline|cut-?over|go-?live|launch|release|first\s+power|energi[sz]ation|submission|"
    r"opening|completion|handover|delivery)"
)
_NAME_RUN = (
    r"[A-Z][\w\-]*(?:\s+(?:(?:de|del|en|in|of|the|on|la|le|du|van|von)\s+)?[A-Z][\w\-]*){0,3}"
)
# Where a turn names the thing it is about, by name: "we call it 'Opening Compass'",
# "It's called Petit Pont", "Kestrel has a deadline now", "Update about Opening Compass:",
# "the Lepto project", "project: Sognekabel", "Dental Month in August, im running ..."
_TOPIC = re.compile(
    rf"['‘\"“](?P<quoted>{_NAME_RUN})['’\"”]"
    rf"|\b(?i:called|named|titled|codenamed)\s+(?P<called>{_NAME_RUN})"
    rf"|(?P<has>{_NAME_RUN})(?:\s*,[^,.!?]{{0,30}},)?\s+(?:(?i:also|now|finally|already)\s+)*(?i:has|got)\s+(?:(?i:a|an)\s+)?"
    r"(?:(?i:real|new|hard|proper|firm|fixed)\s+)?(?i:deadline|due\s+date)"
    rf"|(?:^|(?<=[.!?\n]))\s*(?:(?i:update|news)\s+(?:(?i:about|on)\s+)?(?P<update>{_NAME_RUN})\s*:"
    rf"|(?P<news>{_NAME_RUN})\s*(?i:update|news)\s*:|(?P<head>{_NAME_RUN})\s*:)"
    rf"|\b(?i:the)\s+(?P<the>{_NAME_RUN})\s+(?i:project|campaign|initiative|programme|program)\b"
    rf"|\b(?i:project)\s*[:–—]?\s*(?P<project>{_NAME_RUN})"
    rf"|(?:^|(?<=[.!?\n]))\s*(?P<lead>{_NAME_RUN})\s+(?:(?i:in|on|by)\s+\w+\s*,|"
    rf"(?:{_MILESTONE}\s+)?(?:(?i:is|was|got|has\s+been)\s+)?"
    r"(?:(?i:pushed|moved|delayed|slipped|postponed|late|behind|due)))"
)


def _topic_project(x: Turn, end: int) -> str | None:
    """The last thing the turn names as what it is about, before ``end`` (see _TOPIC):
    the project a deadline said without its name belongs to. Never a person or place."""
    people = _people_before(x)
    found = None
    # the turn as typed, quotes kept (the rules read it with quoted passages blanked):
    # "we call it 'Opening Compass'" names the thing by its quotes
    typed = truecase(x.episode.text)
    text = typed if len(typed) == len(x.text) else x.text
    for m in _TOPIC.finditer(text, 0, end):
        name = next(g for g in m.groups() if g)
        first = name.split()[0]
        if name in people or first in people or first.lower() in _NOT_TOPICS:
            continue
        weak = m.group("head") or m.group("lead")  # capitals at a sentence start say little
        if weak and len(name.split()) == 1 and is_common_word(name) and name not in _projects(x):
            continue
        found = name
    return found


def _people_before(x: Turn) -> set[str]:
    """People met before this turn (this turn's "Rosetta update:" or "Nopal got moved"
    has just taken Rosetta and Nopal for people), and the speaker."""
    return (
        set(x.memory.people.values())
        | {n for n, _, turn in x.memory.recent_people if turn != x.memory.turn}
        | {x.episode.speaker}
    )


def _projects(x: Turn) -> set[str]:
    """Projects on record: worked on, or given a deadline."""
    return {o for _, p, o in x.memory.said if p == "works_on"} | {
        s for s, p, _ in x.memory.said if p == "deadline"
    }


_NOT_TOPICS = frozenset(
    "i the a an my our this that it work update news ok okay so also and but hi hey hello "
    "good big quick small other one first second new family work home life today".split()
)


_COUNTDOWN = re.compile(
    r"(?i)\s*in\s+(?:a|an|one|two|three|four|five|six|\d+|a\s+couple\s+of|a\s+few)\s+"
    r"(?:days?|weeks?|fortnights?|months?)\b"
)


def _typed_lower_project(x: Turn, raw: str) -> str | None:
    """ "lighthouse deadline moved to ...": in a turn typed in lower case, the one word
    before "deadline" is the project's name (as on record, else capitalised)."""
    words = raw.split()
    if not words or not words[-1].isalpha() or not words[-1].islower():
        return None
    word = words[-1]
    if not needs_truecase(x.episode.text) and is_common_word(word):
        return None
    if word in _DEADLINE_KINDS or word in _NOT_TOPICS or word in ("project", "final", "my", "our"):
        return None
    return next((p for p in _projects(x) if p.lower() == word), word.capitalize())


def deadline(x: Turn, c: Clause, m: re.Match) -> list[Draft]:
    raw = m.groupdict().get("proj2") or m.groupdict().get("proj")
    if raw:  # "Ulrike says opening is moved to 15 May": who says it is not the project
        raw = re.sub(r"(?i)^.*\b(?:says?|said|thinks?|reckons?|told\s+(?:me|us))\s+", "", raw)
    subject = project_name(raw) if raw and raw.strip() else None
    if subject is None and raw:
        subject = _typed_lower_project(x, raw)
    if subject is not None and subject.lower() in _DEADLINE_KINDS:
        subject = None
    if subject in _people_before(x):
        subject = None  # "Martin wants it by ...": a person, not what is due
    if (
        subject is None
        or subject.islower()
        or (len(subject.split()) == 1 and is_common_word(subject))
    ):
        # the thing this turn is about, by name, over a description ("deadline for the
        # first session is ...") or a word that may be no name ("Manuscript deadline is")
        subject = _topic_project(x, c.start + max(0, m.end() - len(c.prefix))) or subject
    if subject is None:  # "Lighthouse slipped. The go-live deadline is now ...": a project
        subject = _project_named_before(x, c.start + m.start())  # on record, named here
    if subject is None:  # "they've put me on Harbor, which is due 1 June": named just before
        before = list(_PROJECT_MENTION.finditer(x.text, 0, c.start + m.start()))
        subject = next((g for g in before[-1].groups() if g), None) if before else None
    if subject is None:  # "got put on a second project: Fjord ... deadline 1 June"
        here = [d.object for d in x.drafts if d.predicate == "works_on" and d.op != "retract"]
        subject = here[-1] if here else None
    if subject is None and x.memory.last is not None:
        last = x.memory.last
        subject = (
            last[0]
            if last[1] == "deadline"
            else next(
                (o for (_, p), o in reversed(x.memory.known.items()) if p == "works_on"), None
            )
        )
    # "pushed to the 14th": the date is what it moved to ("moved to my crew last week" is not)
    within = {DEADLINE_MOVED: 8, DEADLINE_SLID: 1, DEADLINE_VERB_FIRST: 8}.get(m.re)
    date = deadline_date(x, c, m.end(), within=within)
    if subject is not None and subject.lower() in _DEADLINE_KINDS | {
        "deadline",
        "due date",
        "date",
    }:
        subject = None  # "the deadline is moved to May" with no project to give it to
    if not subject or not date:
        return []
    if _COUNTDOWN.match(date[1]) and any(
        s == subject and p == "deadline" for s, p, _ in x.memory.said
    ):
        return []  # "the deadline is in a fortnight": the date on record, counted down
    moved = m.re in (DEADLINE_MOVED, DEADLINE_SLID, DEADLINE_VERB_FIRST) or bool(
        _CHANGED.search(c.s)
    )
    op = "supersede" if _CHANGED.search(c.s) else "assert"
    return [Draft(op, subject, "deadline", date[0], x.ts, POS_INF, c.span, date[1],
                  change=moved)]  # fmt: skip


def dated_deadline(x: Turn, c: Clause, m: re.Match) -> list[Draft] | None:
    """A deadline for a shape that is one only when a date follows ("Meridian moved to
    January 30", not "Tom moved to Leeds")."""
    within = 1 if m.re is DEADLINE_SLID else None  # the date right after "moved to"
    if deadline_date(x, c, m.end(), within=within) is None:
        return None
    return deadline(x, c, m) or None


PLANS = pattern(
    r"<SUBJ><AUX>\s+(?P<v>(?i:planning|plan|plans|planned|intend|intends|intending|"
    r"decided|going|gonna|about))\s+(?:(?i:on)\s+)?(?P<to>(?i:to)\s+)?"
)


def plans(x: Turn, c: Clause, m: re.Match) -> list[Draft] | None:
    verb, aux = m.group("v").lower(), m.group("aux") or ""
    if verb == "planned" or (verb in ("going", "about") and not BE_AUX.search(aux)):
        return None
    if verb == "going" and not m.group("to"):
        return None
    if verb == "going" and PERFECT_AUX.search(aux):
        return []  # "I've been going to the trail": a habit, not a plan
    if PAST_AUX.search(aux) and not PERFECT_AUX.search(aux):
        return []  # "I was planning to": not any more
    pos = m.end()
    noun = re.compile(r"(?:the\s+|a\s+|an\s+|my\s+)?[A-Z]|the\s|a\s|an\s").match(c.s, pos)
    found = phrase(c, pos, max_words=8)
    if not found:
        return []
    plan = found[2]
    if verb in ("going", "gonna") and m.group("to") and noun:
        when = start_of(time_in(c))
        if when is None or when <= x.ts:
            return []  # "I'm going to Japan": only with a date to come
        plan = "go to " + plan
    first = plan.split()[0].lower()
    if first in _PLAN_SKIP or (
        verb in ("going", "gonna") and (first in _ERRANDS or POINTS_BACK.search(plan))
    ):
        return []  # "I'm going to check them out": conversation, not a plan
    return emit(x, c, m, "plans", [plan], "state", obj_span=found[:2], timed=False)
