"""Holidays: Christmas, Easter, New Year's, Halloween, Valentine's, and US holidays
(Thanksgiving, Labor Day...), the nearest one or that of a given year.

>>> from graphmem.time.natural import resolve_time
>>> from graphmem.time.instant import to_instant
>>> [str(resolve_time(s, to_instant("2024-05-15")).interval)[1:11]
...  for s in ("Thanksgiving 2023", "last Christmas", "Easter")]
['2023-11-23', '2023-12-25', '2024-03-31']
"""

from __future__ import annotations

import re
from datetime import datetime, timedelta
from functools import partial

from dateutil.easter import easter
from dateutil.relativedelta import relativedelta

from graphmem.time.natural.lexicon import REL, number_of, words_of, year_of
from graphmem.time.natural.periods import Ctx, Period, nearest


def _holiday_day(name: str, year: int) -> datetime:
    name = " ".join(name.lower().replace("’", "'").replace("'s", "s").split())
    if name.startswith("easter"):
        day = easter(year)
        return datetime(day.year, day.month, day.day)
    fixed = {"christmas eve": (12, 24), "boxing day": (12, 26), "new years eve": (12, 31),
             "nye": (12, 31), "new years day": (1, 1), "new years": (1, 1), "new year": (1, 1), "halloween": (10, 31),
             "valentines": (2, 14), "valentines day": (2, 14)}  # fmt: skip
    month, day = fixed.get(name, (12, 25))  # christmas, xmas, christmas day
    return datetime(year, month, day)


def _holiday_period(year: int, name: str) -> Period:
    day = _holiday_day(name, year)
    return Period(day, day + timedelta(days=1), "day")


def resolve_holiday(m: re.Match, ctx: Ctx) -> Period:
    """Christmas, Easter, New Year's Eve, Valentine's: the nearest one (past by default),
    the one of a given year, "last"/"next" one, "two Christmases ago", "... just gone"."""
    g = m.groupdict()
    name = g.get("hol") or g["hols"].rstrip("s").replace("christmase", "christmas")
    if g.get("year"):
        return _holiday_period(year_of(g["year"]), name)
    ref = ctx.ref
    if g.get("yrel"):
        return _holiday_period(ref.year + REL[g["yrel"].lower()], name)
    days = [_holiday_period(y, name) for y in range(ref.year - 12, ref.year + 3)]
    past = sorted((p for p in days if p.end <= ref), key=lambda p: p.start)
    if g.get("num"):
        return past[-number_of(g["num"])]
    rel = words_of(g["rel"]) if g.get("rel") else ""
    if rel in ("next", "this coming", "coming"):
        return min((p for p in days if p.start > ref), key=lambda p: p.start)
    gone = (g.get("gone") or "").lower()
    if gone.startswith("before"):
        return past[-2]
    if rel in ("last", "previous", "this past", "the previous") or gone:
        return past[-1]
    return nearest(partial(_holiday_period, name=name), ctx)


HOLIDAY = (
    r"(?P<hol>christmas\s+eve|christmas(?:\s+day)?|xmas|boxing\s+day|new\s+year['’]?s?\s+eve|nye"
    r"|new\s+year['’]?s(?:\s+day)?|new\s+year(?=(?:\s*,)?\s+(?:19|20)\d\d\b)|halloween|valentine['’]?s(?:\s+day)?|easter(?:\s+sunday)?)"
)


def _nth_weekday(year: int, month: int, weekday: int, n: int) -> datetime:
    """The n-th (or, n=-1, last) given weekday of a month."""
    if n > 0:
        first = datetime(year, month, 1)
        return first + timedelta(days=(weekday - first.weekday()) % 7 + 7 * (n - 1))
    last = datetime(year, month, 1) + relativedelta(months=1) - timedelta(days=1)
    return last - timedelta(days=(last.weekday() - weekday) % 7)


_US_HOLIDAYS = {
    "thanksgiving": (11, 3, 4), "labor day": (9, 0, 1), "labour day": (9, 0, 1),
    "memorial day": (5, 0, -1), "mothers day": (5, 6, 2), "fathers day": (6, 6, 3),
    "independence day": (7, None, 4), "fourth of july": (7, None, 4), "4th of july": (7, None, 4),
}  # fmt: skip


def _us_holiday(name: str, year: int) -> Period:
    month, weekday, n = _US_HOLIDAYS[" ".join(name.lower().replace("'", "").split())]
    day = datetime(year, month, n) if weekday is None else _nth_weekday(year, month, weekday, n)
    return Period(day, day + timedelta(days=1), "day")


def resolve_us_holiday(m: re.Match, ctx: Ctx) -> Period:
    """Thanksgiving, Labor Day, Memorial Day...: of the year given, else the latest one."""
    if m["year"]:
        return _us_holiday(m["uh"], year_of(m["year"]))
    return nearest(partial(_us_holiday, m["uh"]), ctx)


US_HOLIDAY = (
    r"(?P<uh>thanksgiving|labou?r\s+day|memorial\s+day|mother['’]?s\s+day|father['’]?s\s+day|"
    r"independence\s+day|(?:the\s+)?(?:fourth|4th)\s+of\s+july)"
)
