"""Natural-language time expressions, resolved against the utterance's own timestamp.

"last month", "since March", "from 2019 to 2021", "1:56 pm on 8 May, 2023" become
half-open UTC intervals with a grain. The *reference* is the time the phrase was said
(a turn's timestamp, a question's date), never the wall clock; it must be aware.

>>> from datetime import datetime, timezone
>>> ref = datetime(2024, 5, 15, 14, 30, tzinfo=timezone.utc)  # a Wednesday
>>> e = resolve_time("last month", ref)
>>> str(e.interval), e.grain, e.kind
('[2024-04-01T00:00:00Z, 2024-05-01T00:00:00Z)', 'month', 'point')
>>> [(x.text, str(x.interval)) for x in find_time_expressions("I moved since March", ref)]
[('since March', '[2024-03-01T00:00:00Z, inf)')]

How it works: a table of regular expressions (``grammar.RULES``), each with a resolver,
finds *nodes* ("March", "last Tuesday", "8 May, 2023", "1:56 pm") at every word start;
nodes combine (a day with a clock time, "early"/"late" with a period) and take
operators ("since X", "from X to Y") in the chart; of all readings the longest
non-overlapping ones win. Resolution is calendar arithmetic on wall-clock times in the
calendar zone ``tz`` (default: the reference's own zone); results are converted to UTC.

The modules, each importing only those before it: ``expression`` (what a reading
gives), ``periods`` (calendar arithmetic, what a resolver may consult), ``lexicon`` (the
words), ``relative``, ``dates`` and ``holidays`` (the resolvers), ``grammar`` (the
rules), ``chart`` (combining readings), ``api`` (the three public readers).

Rules for the ambiguous cases (each has a test in ``tests/test_time_natural.py``):

- Grain: a phrase denotes the whole period it names, ``[start, end)``: "last month" is
  the calendar month, "3 days ago" the whole day containing ref - 3 days, "two weeks
  ago" the ISO week containing ref - 14 days. Clock times and "now" are instants:
  ``[t, t + 1 µs)``, grain ``"instant"``.
- Weeks run Monday to Sunday (ISO 8601); a weekend is Saturday and Sunday (grain day).
  "this/last/next weekend" are the weekends of the current/previous/next ISO week.
- Weekdays: "last Friday" is the most recent Friday strictly before the reference day,
  "next Friday" the first strictly after it, "this Friday" the Friday of the current
  week (possibly past); "Friday last week" the Friday of the previous week.
- Year-less or week-less phrases ("on Tuesday", "in March", "3 June", "in the summer",
  "the 90s", "over the weekend") follow ``prefer``: ``"past"`` (default; a memory
  mostly records what happened) picks the most recent one that has started by the
  reference (the current one counts: "in May" said in May is this May); ``"future"``
  picks the first one that has not ended yet.
  "last March" is the most recent March strictly before the reference month, "next
  March" the first strictly after, "this March" the one in the reference year.
- Seasons are meteorological, northern hemisphere: spring Mar-May, summer Jun-Aug,
  autumn/fall Sep-Nov, winter Dec-Feb; "winter 2022" is the winter that begins in
  December 2022. "last summer" is the most recent summer over by the reference, "next
  summer" the first to start after it, "this summer" the one we are in, else the one
  starting in the reference year.
- Ranges are inclusive at their grain: "from 2019 to 2021", "between 2019 and 2021",
  "2019-2021" are ``[2019-01-01, 2022-01-01)``. When an end has no year, it is placed
  relative to the other end ("from December 2022 to March" ends in March 2023); when
  neither has one, ``prefer="past"`` places the end first and the start before it.
- Operators: "since X" / "starting X" / "from X on" = ``[X.start, +inf)``; "until X" /
  "through X" / "by X" = ``(-inf, X.end)`` (X included); "before X" = ``(-inf,
  X.start)``; "after X" = ``[X.end, +inf)``. A lone "from X" is a plain point.
- The span includes the licensing preposition ("in March", "on Tuesday", "since 2023").
- Bare month names, weekday names, seasons, years and clock times are only taken after a
  preposition or operator ("in March", "on Tuesday", "in 2019", "at 3pm"), with a
  qualifier, day or year ("last Tuesday", "March 3", "Mar '23"), or by
  :func:`resolve_time`, which is told the whole string is a time. So "Ash Wednesday",
  "the Sunday mass", "I may move", "the march" and "I love summer" are not times. A month
  name after "by"/"within" is not taken either ("written by May"), and "may" is never a
  month when the next word is verb-like ("2 may be", "in may help").
- Numeric dates: ``YYYY-MM-DD`` (ISO, optionally with a time and offset), ``YYYY/MM/DD``,
  ``YYYY-MM`` (a month). ``a/b/yyyy`` and ``a-b-yyyy`` are month-first (US) unless
  ``dayfirst=True``, or one of them cannot be a month; ``a.b.yyyy`` is day-first.
  Two-digit years ("03/06/24", "Mar '23") follow POSIX: 00-68 -> 20xx, 69-99 -> 19xx.
- "early/mid/late X" (also "the beginning/middle/end of X") are thirds of X counted in
  its sub-units (a year's months, a month's days, a decade's years, a week's days),
  the middle third taking the remainder; "the first/second half of X" are halves.
  Their grain is the sub-unit (month for "early 2020").
- "the past N days" / "the last N weeks" run from the day containing ref - N units
  through the reference day (grain day); "last week" (no "the", no number) is the
  calendar week. "recently"/"lately" are the 30 days before the reference day plus it.
- "tonight", "this morning", "last night" are their calendar day (grain day).
- "a few" counts as 3, "a couple (of)" as 2.
"""

from graphmem.time.natural.api import find_time_expressions, parse_when, read_time, resolve_time
from graphmem.time.natural.expression import GRAINS, KINDS, TimeExpression

__all__ = [
    "GRAINS",
    "KINDS",
    "TimeExpression",
    "find_time_expressions",
    "parse_when",
    "read_time",
    "resolve_time",
]
