"""Time: how a clause's time phrase and aspect become ``valid_from``/``valid_to`` and the op.

:func:`graphmem.time.natural.find_time_expressions` against the episode's own
timestamp. The first time phrase in the clause (outside the object) sets the valid
interval by aspect:

- present state ("I live in Berlin"): ``assert`` from the episode timestamp,
  open end (what we know is that it holds when said); "since X" -> ``supersede``
  from X (set-valued predicates: ``assert`` from X); a range -> ``assert`` over it;
  a future period ("starting next Monday") -> from its start;
- change ("I moved to Berlin last month", "I now work at", "I joined"):
  ``supersede`` (set-valued: ``assert``) from the start of the time phrase, else
  from the timestamp ("last month" = the move happened then: its first day);
- past state ("I lived in Oslo from 2019 to 2021"): ``assert`` over the phrase's
  interval; without a time phrase it is skipped (we would not know when);
- future ("I'm moving to Oslo next month", "I'll start at Acme on June 3"): from
  the phrase's start, read as the *next* such date; without a time phrase nothing
  (unless worded as a plan: "I'm going to move to Oslo" -> ``plans``);
- cessation ("I left Acme", "Tom the cat died", "I don't have the cat anymore"):
  ``retract`` from the phrase's start, else the timestamp;
- timeless predicates (birthday, sibling, parent, child): ``assert`` over all time.

Vague phrases ("recently", "now", "these days") count as the timestamp; "as of X"
counts as "since X"; "now" turns a present state of a functional predicate into a
change ("I'm now vegetarian" -> ``supersede``).

The aspect comes from the verb's form and its auxiliaries (:func:`aspect_of`): "lived"
is past, "have lived" a present state, "moved" a change, "am moving" or "will move"
future.
"""

from __future__ import annotations

import dataclasses
import re
from datetime import datetime
from typing import Protocol

from graphmem.extraction.clauses import Clause
from graphmem.predicates import PredicateRegistry
from graphmem.time.instant import NEG_INF, POS_INF, is_open_start
from graphmem.time.interval import Interval
from graphmem.time.natural import TimeExpression


class Turn(Protocol):
    """What timing reads of a turn (``graphmem.extraction.turn.Turn``, which imports this
    module): when it was said, and the times its clauses place in the future."""

    ts: datetime

    def future_times(self, c: Clause) -> list[TimeExpression]: ...
    def later_start(self, c: Clause) -> TimeExpression | None: ...


_PREDICATES = PredicateRegistry.with_builtins()
TIMELESS = frozenset({"birthday", "sibling", "parent", "child"})
VAGUE_TIMES = frozenset(
    {
        "recently",
        "lately",
        "now",
        "right now",
        "currently",
        "these days",
        "nowadays",
        "at the moment",
        "today",
    }
)

# ---------------------------------------------------------------------------
# Aspect: what the verb says about when

_AS_OF = re.compile(r"(?i)\b(?:as\s+of|effective|with\s+effect\s+from)\s*$")
_NOW = re.compile(r"(?i)(?<!right\s)\bnow\b(?!\s+and\s+then)")
_FUTURE_AUX = re.compile(r"(?i)\b(?:will|shall|going\s+to|gonna)\b|['’]ll\b")
PERFECT_AUX = re.compile(r"(?i)\b(?:have|has)\b|(?:['’]|^)ve\b")
BE_AUX = re.compile(r"(?i)\b(?:am|is|are|was|were|be|been)\b|['’](?:m|s|re)\b|^[ms]\b")
PAST_AUX = re.compile(r"(?i)\b(?:was|were|had)\b")


def aspect_of(aux: str, form: str) -> str | None:
    """The aspect of a verb of ``form`` (state/past/change/prog/base) after ``aux``."""
    if re.search(r"(?i)\bused\s+to\b", aux):
        return None
    future = bool(_FUTURE_AUX.search(aux))
    if form == "state":
        if future:
            return "future"
        return "past" if PAST_AUX.search(aux) and not PERFECT_AUX.search(aux) else "state"
    if form == "past":
        return "state" if PERFECT_AUX.search(aux) else "past"
    if form == "change":
        return "future" if future else "change"
    if form == "prog":
        return "future" if future or BE_AUX.search(aux) else "change"
    return "future"  # base form: "I start at Acme on Monday", "will move"


def verb_form(verb: str, forms: dict[str, str]) -> str:
    """The form of ``verb`` by the first regex of ``forms`` it matches; else "state"."""
    verb = " ".join(verb.lower().split())
    for key, form in forms.items():
        if re.fullmatch(key, verb):
            return form
    return "state"


# ---------------------------------------------------------------------------
# The time phrase and the interval


def time_in(
    c: Clause, avoid: tuple[int, int] | None = None, times: list[TimeExpression] | None = None
) -> TimeExpression | None:
    """The clause's first time phrase outside ``avoid`` (the object's span)."""
    for te in c.times if times is None else times:
        lo, hi = c.relative(te)
        if avoid and lo < avoid[1] and avoid[0] < hi:
            continue
        return te
    return None


def start_of(te: TimeExpression | None) -> datetime | None:
    """Where a time phrase starts; None for none, a vague one, or one open to the past."""
    if te is None or te.text.lower() in VAGUE_TIMES or is_open_start(te.interval.start):
        return None
    return te.interval.start


def timing(ts: datetime, aspect: str, predicate: str, te: TimeExpression | None):
    """``(op, valid_from, valid_to)`` for a statement of ``aspect``, or None to skip it."""
    functional = _PREDICATES.get(predicate).functional
    new = "supersede" if functional else "assert"
    if te is not None and te.text.lower() in VAGUE_TIMES:
        te = None
    if aspect == "timeless":
        return "assert", NEG_INF, POS_INF
    if aspect == "retract":
        return "retract", start_of(te) or ts, POS_INF
    if aspect == "change":
        return new, start_of(te) or ts, POS_INF
    if aspect == "future":
        return (new, start_of(te), POS_INF) if start_of(te) else None
    iv = te.interval if te is not None else None
    if aspect == "past":
        if iv is None:
            return None
        if te.kind in ("since", "after"):
            return new, iv.start, POS_INF
        return "assert", iv.start, iv.end
    # present state
    if iv is None:
        return "assert", ts, POS_INF
    if te.kind in ("since", "after"):
        return new, iv.start, POS_INF
    if te.kind == "range":
        return "assert", iv.start, iv.end
    if te.kind in ("until", "before"):
        return ("assert", ts, iv.end) if ts < iv.end else ("assert", NEG_INF, iv.end)
    if iv.start > ts:
        return new, iv.start, POS_INF
    if iv.end <= ts:
        return "assert", iv.start, iv.end
    return "assert", ts, POS_INF


def _new_op(predicate: str) -> str:
    return "supersede" if _PREDICATES.get(predicate).functional else "assert"


# a stop still ahead: "... is 18 August", "... will be Friday", "... is on the 3rd"
_UPCOMING = re.compile(
    r"(?i)\b(?:is|will\s+be|['’]ll\s+be|is\s+going\s+to\s+be|gonna\s+be)\s+(?:on\s+)?$"
    # "I'm leaving Balfour Kerr at the end of May": an ending arranged, still to come
    r"|\b(?:['’]m|am|are|['’]re|is|will|['’]ll|going\s+to|gonna)\s+(?:\w+\s+)?"
    r"(?:leaving|leave|quitting|quit|finishing|finish|stopping|stop|moving\s+out)\b"
)


_FROM = re.compile(r"(?i)(?:from|starting|beginning)\s+(?!now\b|today\b)")


def _soon(te: TimeExpression, ts: datetime) -> bool:
    """Whether ``te`` starts within half a year after ``ts``."""
    return (te.interval.start - ts).days <= 183


def valid_time(
    x: Turn,
    c: Clause,
    predicate: str,
    aspect: str,
    obj_span: tuple[int, int] | None,
    timed: bool,
):
    """``(op, valid_from, valid_to, time phrase, change)`` for a fact of ``aspect`` in the
    clause, or None to skip it; ``timed=False``: the time phrase does not set the interval.
    ``change``: the clause tells of a change into the value (there was one before it)."""
    if c.ceased and aspect in ("state", "past", "change"):
        aspect = "retract"
    te = None if aspect == "timeless" else time_in(c, obj_span)
    if aspect == "retract" and te is not None and _UPCOMING.search(c.s[: c.relative(te)[0]]):
        # "my last day at Acme is 18 August": the next 18 August, not the last one
        te = time_in(c, obj_span, x.future_times(c)) or te
    if te is not None and _AS_OF.search(c.s, 0, c.relative(te)[0]):
        te = dataclasses.replace(te, kind="since", interval=Interval.since(te.interval.start))
    if te is not None and aspect in ("state", "change") and _FROM.match(te.text):
        # "From October my manager is Tor-Erik", said in September: the coming October
        # (within half a year; else the last one), and from then on, not that month only
        ahead = time_in(c, obj_span, x.future_times(c))
        perfect = PERFECT_AUX.search(c.s) or PAST_AUX.search(c.s)  # "from May I've been"
        if ahead is not None and ahead.span == te.span and _soon(ahead, x.ts) and not perfect:
            te = ahead
        te = dataclasses.replace(te, kind="since", interval=Interval.since(te.interval.start))
    if predicate in TIMELESS and aspect != "retract":
        aspect = "timeless"
    # told as a change (a "now" alone is not: "I live in Leeds now" may be the first word)
    change = aspect in ("change", "future")
    if aspect == "state" and _NOW.search(c.s) and _PREDICATES.get(predicate).functional:
        aspect = "change"  # "I'm now vegetarian", "I live in Vancouver now"
    if aspect == "future":  # "on June 3" in a future statement is the next June 3
        te = time_in(c, obj_span, x.future_times(c))
        if te is None and timed and (start := x.memory.upcoming(x.ts)) is not None:
            # "I start at Acme on 6 April. I'll be reporting to Raj": the same change
            return _new_op(predicate), start, POS_INF, None, True
        if te is None and timed:
            te = x.later_start(c)  # "I'll be lead product designer 🎉 I start on 3 February"
    found = timing(x.ts, aspect, predicate, te if timed else None)
    if found is None:
        return None
    return (*found, te.text if te and timed else None, change)
