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
from graphmem.extraction.lexicon import DIETS, PROGRAMMING_LANGUAGES
from graphmem.extraction.objects import PRONOUN_OBJECTS, clean, parse_day_month, title_if_lower
from graphmem.extraction.secrets import contains_secret
from graphmem.extraction.turn import Draft, Turn
from graphmem.predicates import PredicateRegistry
from graphmem.time.instant import NEG_INF, POS_INF

_PREDICATES = PredicateRegistry.with_builtins()
_OBJECT_ONLY = re.compile(
    r"^(?:(?i:it['’]?s|it\s+is|it\s+was|that['’]?s|that\s+should\s+be|should\s+be|make\s+that|"
    r"the\s+right\s+one\s+is|it['’]s\s+actually|it\s+should\s+be)\s+)?(?P<obj>[^,;]+?)"
    r"(?:\s*,?\s*(?i:not|instead\s+of|rather\s+than)\s+(?P<wrong>[^,;]+?))?\s*[.!]?$"
)


def corrected(x: Turn, c: Clause, found: list[Draft]) -> list[Draft]:
    """The clause's drafts, read as corrections where the clause is one."""
    if c.correction and all(d.side for d in found):  # no fact of its own
        return found + _object_only(x, c)
    if c.correction or c.wrong:
        return [_as_correction(c, d) if _corrects(x, c, d) else d for d in found]
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


def _object_only(x: Turn, c: Clause) -> list[Draft]:
    """ "sorry, I meant Lisbon": the predicate of the speaker's last fact."""
    last = next(((d.subject, d.predicate) for d in reversed(x.drafts) if not d.side), x.memory.last)
    m = _OBJECT_ONLY.match(c.text.strip())
    if (
        last is None
        or m is None
        or len(m.group("obj").split()) > 4
        or re.search(r"(?i)\b(?:i|i['’]m|you|we|he|she|they|is|are|was|am|to)\b", m.group("obj"))
    ):
        return []
    subject, predicate = last
    wrong = clean(m.group("wrong")) if m.group("wrong") else c.wrong
    raw = m.group("obj")
    if predicate == "deadline":
        date = deadline_date(x, c, 0)
        value = date[0] if date else None
    elif predicate == "birthday":
        value = parse_day_month(raw.strip())
    elif _PREDICATES.get(predicate).object_kind == "entity":
        value = title_if_lower(clean(raw))
    else:
        value = clean(raw)
    if not value or value.lower().split()[0] in PRONOUN_OBJECTS or contains_secret(value):
        return []
    if not _fits(predicate, value):
        return []  # "..., sorry Python" after a phone: an aside, not a corrected phone
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


def _fits(predicate: str, value: str) -> bool:
    """Whether ``value`` has the shape of a ``predicate`` value (for the kinds that have one)."""
    if predicate == "phone":
        return bool(re.fullmatch(DEVICE, value))
    if predicate == "favourite_language":
        return value.lower() in {w.lower() for w in PROGRAMMING_LANGUAGES}
    if predicate == "diet":
        return value.lower() in DIETS
    return True


def _corrects(x: Turn, c: Clause, d: Draft) -> bool:
    """Whether a fact stated in a correcting clause corrects an earlier one."""
    if d.side:
        return False
    if c.wrong:
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


def _as_correction(c: Clause, d: Draft) -> Draft:
    timed = d.time_text is not None
    return Draft(
        "correct",
        d.subject,
        d.predicate,
        d.object,
        d.valid_from if timed else NEG_INF,
        d.valid_to if timed else POS_INF,
        d.span,
        d.time_text,
        c.wrong,
        d.confidence,
    )
