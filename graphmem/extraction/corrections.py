"""Corrections: "sorry, I meant Lisbon", "actually it's Lisbon, not Berlin".

"sorry, I meant Lisbon", "actually it's Lisbon, not Berlin", "I live in Lisbon, not
Berlin" -> ``correct`` with ``object`` the right value and ``wrong_object`` the one
named after "not" (else None). When the clause names no predicate, the extractor uses a
small per-``(scope, speaker)`` memory of the last fact it extracted from that speaker
(bounded, in-process; :meth:`RuleExtractor.reset
<graphmem.extraction.rules.RuleExtractor.reset>` clears it). A correction of a fact
stated earlier *in the same episode* rewrites that fact instead ("I live in Berlin,
sorry, I meant Lisbon" -> lives_in Lisbon). "sorry", "oops", "I meant", "correction:"
always mark a correction; a bare "No," / "Wait," only when the fact contradicts a value
the extractor has seen ("No, I live in Lisbon" after "I live in Leiria"); "Actually, I
moved to Munich" is an update.

The markers are read with the clause (:func:`graphmem.extraction.clauses.read_clause`);
this module decides what a marked clause corrects.
"""

from __future__ import annotations

import re

from graphmem.extraction.clauses import Clause
from graphmem.extraction.facts_plans import deadline_date
from graphmem.extraction.facts_things import DEVICE
from graphmem.extraction.lexicon import DIETS, MONTHS, PROGRAMMING_LANGUAGES
from graphmem.extraction.objects import (
    PRONOUN_OBJECTS,
    clean,
    named_head,
    parse_day_month,
    project_name,
    title_if_lower,
)
from graphmem.extraction.secrets import contains_secret
from graphmem.extraction.truecase import needs_truecase
from graphmem.extraction.turn import Draft, Turn
from graphmem.predicates import PredicateRegistry
from graphmem.time.instant import NEG_INF, POS_INF

_PREDICATES = PredicateRegistry.with_builtins()
_OBJECT_ONLY = re.compile(
    r"^(?:(?i:it['’]?s|it\s+is|it\s+was|that['’]?s|that\s+should\s+be|should\s+be|make\s+that|"
    r"the\s+right\s+one\s+is|it['’]s\s+actually|it\s+should\s+be|"
    # "the company is Globex, not Initech": a noun naming what is corrected
    r"(?:(?:the|my|her|his|their|our)\s+)?[a-z]+(?:\s+[a-z]+)?\s+(?:is|was|should\s+be))\s+)?"
    r"(?P<obj>[^,;]+?)"
    r"(?:\s*,?\s*(?i:not|instead\s+of|rather\s+than)\s+(?P<wrong>[^,;]+?))?\s*[.!]?$"
)


def corrected(x: Turn, c: Clause, found: list[Draft]) -> list[Draft]:
    """The clause's drafts, read as corrections where the clause is one."""
    if c.correction and all(d.side for d in found):  # no fact of its own
        return found + _object_only(x, c)
    if c.correction or c.wrong:
        return [_as_correction(x, c, d) if _corrects(x, c, d) else d for d in found]
    return found


def add(x: Turn, d: Draft) -> None:
    """Add a draft to the turn; a correction of a fact stated earlier in the turn rewrites
    that fact instead, and a repeated fact is dropped."""
    if d.op == "correct":  # a slip earlier in this episode: fix it in place
        for prior in reversed(x.drafts):
            if (
                (prior.subject, prior.predicate) == (d.subject, d.predicate)
                and prior.op != "correct"
                and not prior.side
            ):
                prior.object = d.object
                prior.span = (min(prior.span[0], d.span[0]), max(prior.span[1], d.span[1]))
                return
    key = (d.op, d.subject, d.predicate, (d.object or "").lower())
    if any((p.op, p.subject, p.predicate, (p.object or "").lower()) == key for p in x.drafts):
        return
    x.drafts.append(d)


def same_value(wrong: str | None, known: str | None) -> bool:
    """Whether the value a correction calls wrong is the one on record: equal, or its
    tail ("the 7" for "Pixel 7"), articles and case aside.

    >>> same_value("the Pixel 7", "pixel 7"), same_value("7", "Pixel 7"), same_value("Leeds", "York")
    (True, True, False)
    """
    if not wrong or not known:
        return False
    if _ISO_DAY.fullmatch(known):
        return _same_day(wrong, known)
    a, b = clean(wrong).casefold().split(), clean(known).casefold().split()
    return bool(a) and a == b[-len(a) :]


_ISO_DAY = re.compile(r"\d{4}-(\d{2})-(\d{2})")
_DAY_OF = re.compile(r"(?i)\b(\d{1,2})(?:st|nd|rd|th)?\b(?![:.]\d)")


def _same_day(wrong: str, known: str) -> bool:
    """Whether "the 2nd" / "June 2" / "2 June" names the recorded date ``known``
    (YYYY-MM-DD): its day, and its month where one is said.

    >>> _same_day("the 2nd", "2025-06-02"), _same_day("July 2", "2025-06-02")
    (True, False)
    """
    if wrong == known:
        return True
    m = _ISO_DAY.fullmatch(known)
    days = [int(d) for d in _DAY_OF.findall(wrong)]
    months = [MONTHS[w] for w in re.findall(r"[a-z]+", wrong.casefold()) if w in MONTHS]
    if len(days) != 1 or len(months) > 1:
        return False
    return days[0] == int(m.group(2)) and all(mo == int(m.group(1)) for mo in months)


def _target(x: Turn, c: Clause, wrong: str | None) -> tuple[str, str] | None:
    """Which fact a bare correction ("it's Geraint, not Gareth") fixes: the one whose
    recorded value it names as wrong; with no such value on record, the speaker's last
    fact, unless that fact's recorded value is a different one (then the correction is of
    something never read, and guessing would put the right value on the wrong fact)."""
    if x.recalled_unread:
        return None  # the slip it recalls could not be read: guessing would misplace it
    if x.recalled is not None:  # "I told you Nour moved to Evanston, it's Skokie"
        return x.recalled[0], x.recalled[1]
    last = next(((d.subject, d.predicate) for d in reversed(x.drafts) if not d.side), x.memory.last)
    if not wrong:
        return last
    stated = [(d.subject, d.predicate, d.object) for d in x.drafts if not d.side and d.object]
    on_record = {**x.memory.known, **{(s, p): o for s, p, o in stated}}
    named = [(s, p) for s, p, o in [*x.memory.said, *stated] if same_value(wrong, o)]
    if named:
        return last if last in named else named[-1]
    if last is not None and (
        on_record.get(last) is not None or not _PREDICATES.get(last[1]).functional
    ):
        return None  # a set's member is corrected only when the wrong one is on record
    return last


# "sorry Kasia", "sorry mama" (no comma): said to someone, not a value corrected
_VOCATIVE = re.compile(r"(?i)\bsorry[ \t]+$")
# "Correction about my sister": what a correction is about, not the right value
# or whose it is ("sorry, my girlfriend, I keep calling Maren my roommate")
_NOT_A_VALUE = re.compile(
    r"(?i)\s*(?:about|regarding|re|on|to|for|from|with|of|my|your|his|her|our|their)\b"
    # "sorry, another correction", "sorry, one more thing": what follows is the fix
    r"|\s*(?:(?:an|another|one|a|quick|small|little|tiny|minor|last|more)\s+)*"
    r"(?:correction|fix|thing|update|mistake|change|one)s?\b"
)


def _completed(value: str, wrong: str | None, known: str | None) -> str:
    """ "the 7a, not the 7" of a "Pixel 7": the recorded value with its tail replaced.

    >>> _completed("7a", "the 7", "Pixel 7"), _completed("Lisbon", "Leeds", "Leeds")
    ('Pixel 7a', 'Lisbon')
    """
    if not (wrong and known and same_value(wrong, known)):
        return value
    tail, whole = clean(wrong).split(), clean(known).split()
    if len(tail) >= len(whole) or len(value.split()) > len(tail):
        return value
    return " ".join([*whole[: len(whole) - len(tail)], value])


def _object_only(x: Turn, c: Clause) -> list[Draft]:
    """ "sorry, I meant Lisbon": the predicate of the speaker's last fact, or of the fact
    whose value it names as wrong."""
    m = _OBJECT_ONLY.match(c.text.strip())
    if m is not None and not (m.group("wrong") or c.wrong) and _VOCATIVE.search(x.text, 0, c.start):
        return []  # "New favourite food: pho. Sorry fårikål": an apology to it, no slip
    named_wrong = m.group("wrong") if m is not None and m.group("wrong") else c.wrong
    last = _target(x, c, named_wrong)
    if (
        last is None
        or m is None
        or len(m.group("obj").split()) > 4
        or _NOT_A_VALUE.match(m.group("obj"))
        or re.search(r"(?i)\b(?:i|i['’]m|you|we|he|she|they|is|are|was|am|to)\b", m.group("obj"))
    ):
        return []
    subject, predicate = last
    wrong = clean(m.group("wrong")) if m.group("wrong") else c.wrong
    if not wrong and x.recalled is not None:
        wrong = x.recalled[2]
    raw = re.sub(r"(?i)^(?:actually|really|in\s+fact)\s+", "", m.group("obj").strip())
    if predicate == "deadline":
        date = deadline_date(x, c, 0)
        value = date[0] if date else None
    elif predicate == "birthday":
        value = parse_day_month(raw.strip())
    elif _PREDICATES.get(predicate).object_kind == "entity":
        value = title_if_lower(clean(raw))
    else:
        value = clean(raw)
    known = x.memory.known.get(last)
    whole = _completed(clean(raw), wrong, known)
    if whole != clean(raw):  # "the S22, not the S21" of a "Galaxy S21"
        value, wrong = whole, known
    elif known and same_value(wrong, known):  # "a Pixel 7a, not the 7" of a "Pixel 7"
        wrong = known
    if (
        not value
        or not re.search(r"[^\W_]", value)  # "sorry 🙏😂": no value at all
        or value.lower().split()[0] in PRONOUN_OBJECTS
        or contains_secret(value)
    ):
        return []
    if not _fits(predicate, value):
        return []  # "..., sorry Python" after a phone: an aside, not a corrected phone
    if _PREDICATES.get(predicate).object_type in _NAMED_TYPES and not _written_as_name(x, raw):
        # "that's my favourite drink now, sorry cà phê sữa đá": no person; "I swam in the
        # Elbe... no, joke": no place
        return []
    if same_value(value, x.memory.known.get(last)) and any(
        (d.subject, d.predicate) == last and not d.side for d in x.drafts
    ):
        return []  # "R is my favourite now, sorry Python": a farewell to the old value
    return [
        Draft(
            "correct",
            subject,
            predicate,
            value,
            NEG_INF,
            POS_INF,
            c.span,
            wrong_object=wrong or None,
        )
    ]


# "nah sorry layla is in leicester not luton my bad", "s23 actually, not s24", "his name
# is Dan not Dean": a value set against one on record, with or without a marker. The
# value on record is the evidence: "A not B" corrects only where B is a value said before.
# (every run of spaces is bounded: a blanked blob is thousands of spaces, and nested
# unbounded ones would try every split of them)
_A_NOT_B = re.compile(
    r"(?P<a>[^\W_](?:[\w'’.\- ]{0,40}?[\w'’.\-])?)[ \t]{0,3},?[ \t]{1,3}"
    r"(?i:not|instead[ \t]+of|rather[ \t]+than)[ \t]{1,3}"
    r"(?:(?i:an?|the|my)[ \t]{1,3})?(?P<b>[^\W_][\w'’.\-]*(?:[ \t]{1,3}[\w'’.\-]+){0,3}?)"
    r"(?=[ \t]{0,3}(?:[,.;:!?)\-–—]|$|[ \t](?i:my|lol|lmao|im|i|he|she|it|its|the|sorry|haha|tbh|"
    r"and|but|either|so|bc|because|is|was|as|though|then|oops|whoops|ha|x+|😂|😅|😭)\b))"
)
# where the value starts in the words before "not": after the last of these
_VALUE_STARTS = re.compile(
    r"(?i)^.*\b(?:is|are|was|'s|’s|its|it['’]s|s|meant|said|in|at|for|a|an|the|actually|im|i['’]m|"
    r"am|called|named|names|name['’]s|on|to|with)\s+"
)
_MARKERS = re.compile(
    r"(?i)^(?:(?:sorry|omg|no|nope|nah|wait|jk|lol|lmao|ok|okay|oh|ugh|so|um|hmm|yeah|"
    r"well|oops|whoops|correction|it['’]?s|its|it\s+is|i\s+said|i\s+meant)\b[\s,:!.]*)*"
)
_VALUE_AFTER = re.compile(
    r"[ \t]{0,3}[,;:\-–—]?[ \t]{0,3}(?:(?i:lol|haha|sorry)[ \t]{0,3},?[ \t]{0,3}){0,3}"
    r"(?:(?i:it['’]?s|its|it\s+is|i['’]?m\s+with|i\s+meant|i\s+work\s+at|it\s+was)[ \t]{1,3})?"
    r"(?P<a>[^,.;!?\s][^,.;!?]{0,39}?)(?=[ \t]{0,3}(?:[,.;!?]|$|[ \t](?i:i|lol|voice|my|sorry|bc|"
    r"because)\b))"
)
_FILLER = re.compile(r"(?i)\b(?:plain|normal|regular|basic|standard|just|actually|lol|ok)\b\s*")


def swapped_values(x: Turn) -> list[Draft]:
    """Corrections the turn makes by setting a value against one on record ("A, not
    B"), for the facts it has not already corrected."""
    out: list[Draft] = []
    done = {(d.subject, d.predicate) for d in x.drafts if d.op == "correct"}
    for m in _A_NOT_B.finditer(x.text):
        wrong = clean(m.group("b"))
        named = [(s, p, o) for s, p, o in reversed(x.memory.said) if _same_or_synonym(wrong, o)]
        if not named or (named[0][0], named[0][1]) in done:
            continue
        subject, predicate, known = named[0]
        raw = _MARKERS.sub("", _VALUE_STARTS.sub("", m.group("a").strip()))
        if not raw.strip(" ,.!?") or _MARKERS.fullmatch(m.group("a").strip() + " "):
            # "sorry not golf, padel", "No wait not Schneider, I'm with Knight"
            after = _VALUE_AFTER.match(x.text, m.end())
            raw = after.group("a") if after else ""
        raw = _FILLER.sub("", raw).strip(" ,.!?") or raw
        if not raw or len(raw.split()) > 4 or raw.lower().split()[0] in PRONOUN_OBJECTS:
            continue
        value = _swapped(predicate, raw, wrong, known)
        if not value or value.casefold() == known.casefold() or not _fits(predicate, value):
            continue
        if contains_secret(value):
            continue
        done.add((subject, predicate))
        out.append(Draft("correct", subject, predicate, value, NEG_INF, POS_INF, m.span(),
                         wrong_object=known))  # fmt: skip
    return out


def _same_or_synonym(wrong: str, known: str) -> bool:
    if same_value(wrong, known):
        return True
    diet = DIETS.get(wrong.casefold())
    return diet is not None and diet == known.casefold()


def _swapped(predicate: str, raw: str, wrong: str, known: str) -> str | None:
    """The corrected value: ``raw`` in place of the part of ``known`` that was wrong."""
    if predicate == "diet":
        return DIETS.get(raw.casefold())
    if predicate in ("deadline", "birthday"):
        return None  # dates are read by their own rules
    whole = _completed(clean(raw), wrong, known)
    prefix = " ".join(whole.split()[: -len(raw.split())])
    if whole != clean(raw) and prefix.casefold().endswith(clean(raw).casefold()):
        whole = prefix  # "the plain 16, not the pro" of an "iPhone 16 Pro": "iPhone 16"
    if predicate == "phone":
        whole = " ".join(
            w.upper() if re.fullmatch(r"[a-z]\d+[a-z]?", w) else w for w in whole.split()
        )
        return whole
    if predicate in ("job_title", "hobby", "diet"):
        return whole.lower()
    if predicate == "works_on":
        return title_if_lower(named_head(project_name(whole) or whole))
    if _PREDICATES.get(predicate).object_kind == "entity" or predicate.startswith("favourite_"):
        # "TOWNSVILLE" typed in capitals for emphasis is Townsville (an acronym is shorter)
        whole = " ".join(w.title() if len(w) > 4 and w.isupper() else w for w in whole.split())
        return title_if_lower(whole)
    return whole


_NAMED_TYPES = frozenset({"Person", "Place", "Organization"})  # values written as names


def _written_as_name(x: Turn, raw: str) -> bool:
    """Whether the speaker wrote ``raw`` with a capital, as a name (the text the rules
    read is truecased; the episode's own text is not). A speaker who writes no capitals
    writes every name in lower case."""
    if needs_truecase(x.episode.text):
        return True
    found = re.search(rf"(?i)(?<![\w'’]){re.escape(raw.strip())}(?![\w'’])", x.episode.text)
    return found is None or found.group()[:1].isupper()


def _fits(predicate: str, value: str) -> bool:
    """Whether ``value`` has the shape of a ``predicate`` value (for the kinds that have one)."""
    if predicate == "phone":
        return bool(re.fullmatch(DEVICE, value))
    if predicate == "favourite_language":
        return value.lower() in {w.lower() for w in PROGRAMMING_LANGUAGES}
    if predicate == "diet":
        return value.lower() in DIETS
    if predicate == "owns_pet":
        return not re.search(r"\d", value)  # "a Cat S75" is a phone, no pet
    return True


def _corrects(x: Turn, c: Clause, d: Draft) -> bool:
    """Whether a fact stated in a correcting clause corrects an earlier one."""
    if d.side:
        return False
    if c.wrong:
        # "I'm vegan now, not just for January": a "not ..." that is no value of the
        # predicate, nor the one on record, corrects nothing
        known = x.memory.known.get((d.subject, d.predicate))
        if known is not None and not same_value(c.wrong, known) and not c.correction:
            return False
        if known is None and not _fits(d.predicate, c.wrong):
            return False
        return c.correction or _PREDICATES.get(d.predicate).functional
    if c.contradiction:  # "No, I live in Lisbon": only if we had another value
        prior = next(
            (
                p.object
                for p in reversed(x.drafts)
                if not p.side and (p.subject, p.predicate) == (d.subject, d.predicate)
            ),
            x.memory.known.get((d.subject, d.predicate)),
        )
        return prior is not None and (prior or "").lower() != (d.object or "").lower()
    return c.correction


def _as_correction(x: Turn, c: Clause, d: Draft) -> Draft:
    timed = d.time_text is not None
    wrong = DIETS.get((c.wrong or "").casefold(), c.wrong) if d.predicate == "diet" else c.wrong
    recalled = x.recalled
    if not wrong and recalled is not None and recalled[:2] == (d.subject, d.predicate):
        wrong = recalled[2]  # "I told you Olena works in Medicover ... she works in Lux Med"
    said = [o for s, p, o in reversed(x.memory.said) if (s, p) == (d.subject, d.predicate)]
    # "a Pixel 7a, not the 7": the wrong value is the one on record that it abbreviates
    wrong = next((o for o in said if same_value(wrong, o)), wrong)
    return Draft(
        "correct",
        d.subject,
        d.predicate,
        d.object,
        d.valid_from if timed else NEG_INF,
        d.valid_to if timed else POS_INF,
        d.span,
        d.time_text,
        wrong,
        d.confidence,
    )


# "I told you Bruna lives in Faro but that's wrong": the first clause recalls the slip,
# it does not state it again; the turn's correction cue says so.
_RECALLS = re.compile(
    r"^\s*(?:(?i:so|and|but|ok|okay|well)\s+)?(?:I|i)(?:['’]ve)?\s+(?:(?i:think|guess)\s+)?(?i:told|said\s+to|"
    r"said|mentioned|wrote|typed|keep\s+saying|kept\s+saying|keep\s+calling|"
    r"(?:have\s+)?been\s+(?:saying|calling|writing))\b(?:\s+(?i:you|to\s+you))?"
)
_CORRECTION_CUE = re.compile(
    r"(?i)\b(?:correction|correct(?:ing)?\s+(?:that|myself|something)|fix|mistake|misread|"
    r"misspoke|mixed\s+(?:it\s+|them\s+)?up|got\s+(?:it|that)\s+wrong|(?:that|it)['’]?s\s+wrong|"
    r"(?:that|it)\s+(?:is|was)\s+wrong|wrong|not\s+right|sorry|oops|whoops|but\s+no\b)"
)
_CALLS_IT_WRONG = re.compile(
    r"(?i)\s*(?:but\s+|and\s+)?(?:(?:(?:that|it)(?:['’]s|\s+is|\s+was)\s+)?(?:wrong|not\s+right|"
    r"incorrect|a\s+mistake|not\s+true)|(?:i\s+)?(?:misread|misspoke|mixed\s+(?:it\s+|them\s+)?up|"
    r"got\s+(?:it|that)\s+wrong)(?:\s+[^,.;!?]{0,30})?|no+)\s*[!.]*\s*"
)


def recalled_statement(clause: str) -> int:
    """Where the statement a recalling clause repeats starts ("I told you that |Bruna
    lives in Faro").

    >>> "I told you that Bruna lives in Faro"[recalled_statement("I told you that Bruna lives in Faro"):]
    'Bruna lives in Faro'
    """
    m = _RECALLS.match(clause)
    if m is None:
        return 0
    that = re.match(r"\s*(?i:that\s+)?", clause[m.end() :])
    return m.end() + that.end()


def recalls_a_slip(clause: str, turn: str) -> bool:
    """Whether ``clause`` repeats what the speaker said before in order to correct it.

    >>> recalls_a_slip("I told you Bruna lives in Faro", "I told you Bruna lives in Faro but that's wrong")
    True
    >>> recalls_a_slip("I told you I moved to Faro", "I told you I moved to Faro. Love it.")
    False
    """
    return bool(_RECALLS.match(clause)) and bool(_CORRECTION_CUE.search(turn))


def calls_it_wrong(clause: str) -> bool:
    """ "but that's wrong", "I misread the memo", "no!!": the clause only says a slip
    was made; the right value follows."""
    return bool(_CALLS_IT_WRONG.fullmatch(clause))
