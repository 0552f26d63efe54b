"""A question's time window: the one reading that ``ask`` and ``search`` share.

The window is the question's first time phrase that names a time other than the
present: "in March 2024", "last week", "since 2023", "at 3pm yesterday". Words that
name the present ("now", "currently", "these days", "today", "lately") and phrases that
resolve to the very moment of asking ("just now", "as we speak") narrow nothing: the
question asks about now, which is every read's default. A clock time is a minute wide
("at 3pm" is 15:00 to 15:01); open phrases keep their open end ("since 2023").

With the window comes the instant a belief is read at (``at``): the end of the named
moment, or the question's own date when that is earlier, because "what did you have on
record in March?" asks what had been said by then.

>>> from graphmem.time.instant import to_instant
>>> w = window_of("where did I live in March 2024?", to_instant("2024-06-10"))
>>> (str(w.interval), w.text, w.at.isoformat())
('[2024-03-01T00:00:00Z, 2024-04-01T00:00:00Z)', 'in March 2024', '2024-03-31T23:59:59.999999+00:00')
>>> window_of("where do I live now?", to_instant("2024-06-10")) is None
True
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime, timedelta, tzinfo

from graphmem.time.instant import NEG_INF, ONE_MICROSECOND, POS_INF, is_open_start
from graphmem.time.interval import Interval
from graphmem.time.natural import TimeExpression, find_time_expressions

# Words that name the present moment (or the stretch around it a question means by it).
PRESENT = re.compile(
    r"\b(?:now|currently|these days|at the moment|today|right now|presently|at present|"
    r"nowadays|rn|atm|at the mo|lately|of late)\b"
)
CLOCK_WIDTH = timedelta(minutes=1)  # "at 3pm" means that minute


@dataclass(frozen=True, slots=True)
class QuestionWindow:
    """The valid-time window a question names, and the instant its belief is read at."""

    interval: Interval
    at: datetime
    expression: TimeExpression

    @property
    def text(self) -> str:
        """The phrase as the question wrote it ("in March 2024")."""
        return self.expression.text


def names_the_present(expr: TimeExpression) -> bool:
    """Does the phrase name the moment of asking rather than a time to look at?"""
    if PRESENT.fullmatch(expr.text.lower()):
        return True
    return expr.grain == "instant" and expr.interval.start == expr.reference


def window_times(
    text: str, reference: datetime, *, tz: str | tzinfo | None = None, prefer: str = "past"
) -> list[TimeExpression]:
    """The time phrases of ``text`` that can narrow its window, in order; ``prefer``: where
    a phrase without its year lies ("in May" asked with "will" is the next May)."""
    found = find_time_expressions(text, reference, tz=tz, prefer=prefer)
    return [e for e in found if not names_the_present(e)]


def window_from(times: list[TimeExpression], reference: datetime) -> QuestionWindow | None:
    """The window of the first of ``times`` (as :func:`window_times` gives them)."""
    if not times:
        return None
    t = times[0]
    span = t.interval
    if t.kind in ("since", "after"):
        span = Interval(span.start, POS_INF)
    elif t.kind in ("until", "before"):
        span = Interval(NEG_INF, span.end if is_open_start(span.start) else span.start)
    if t.grain == "instant" and span.end <= span.start + ONE_MICROSECOND:
        span = Interval(span.start, span.start + CLOCK_WIDTH)
    # a belief is read at the end of the named moment: what was on record by then
    end = reference if span.is_open_ended else min(span.end, reference + ONE_MICROSECOND)
    at = t.interval.start if t.grain == "instant" else end - ONE_MICROSECOND
    return QuestionWindow(span, at, t)


def window_of(
    text: str, reference: datetime, *, tz: str | tzinfo | None = None
) -> QuestionWindow | None:
    """The window the question ``text`` (asked at ``reference``) names, if any."""
    return window_from(window_times(text, reference, tz=tz), reference)
