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

How it works: a table of regular expressions (``_RULES``), each with a resolver, finds
*nodes* ("March", "last Tuesday", "8 May, 2023", "1:56 pm") at every word start;
nodes combine (a day with a clock time, "early"/"late" with a period) and take
operators ("since X", "from X to Y"); of all readings the longest non-overlapping
ones win. Resolution is calendar arithmetic on wall-clock times in the calendar
zone ``tz`` (default: the reference's own zone); results are converted to UTC.

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

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime, time, timedelta, tzinfo
from functools import partial

from dateutil import parser as date_parser
from dateutil.easter import easter
from dateutil.relativedelta import relativedelta

from graphmem.errors import EmptyIntervalError, InvalidTimeError
from graphmem.time.instant import (
    INFINITE_WORDS,
    NEG_INF,
    ONE_MICROSECOND,
    POS_INF,
    resolve_tz,
    to_instant,
)
from graphmem.time.interval import Interval

__all__ = ["TimeExpression", "find_time_expressions", "parse_when", "resolve_time"]

GRAINS = ("instant", "day", "week", "month", "season", "year", "decade")
KINDS = ("point", "since", "until", "range", "after", "before")


@dataclass(frozen=True, slots=True)
class TimeExpression:
    """One resolved time phrase of an input text."""

    text: str  # the phrase as written in the input
    span: tuple[int, int]  # character offsets in the input
    interval: Interval  # half-open [start, end), UTC
    grain: str  # "instant" | "day" | "week" | "month" | "season" | "year" | "decade"
    kind: str  # "point" | "since" | "until" | "range" | "after" | "before"
    reference: datetime  # the reference time it was resolved against (UTC)


# ---------------------------------------------------------------------------
# Periods and calendar arithmetic (naive wall-clock datetimes in the calendar zone)


@dataclass(frozen=True, slots=True)
class _Period:
    start: datetime
    end: datetime
    grain: str
    kind: str = "point"  # "range" when the phrase itself is a range ("2019-2021")
    inferred: bool = False  # placed by the past/future rule (no year, no week given)


_STEP = {
    "day": relativedelta(days=1),
    "week": relativedelta(weeks=1),
    "month": relativedelta(months=1),
    "season": relativedelta(months=3),
    "year": relativedelta(years=1),
    "decade": relativedelta(years=10),
}
_SUBUNIT = {"year": "month", "season": "month", "month": "day", "week": "day", "decade": "year"}


def _floor(t: datetime, grain: str) -> datetime:
    """The start of the ``grain``-sized calendar period containing ``t``."""
    if grain == "instant":
        return t
    day = datetime(t.year, t.month, t.day)
    if grain == "day":
        return day
    if grain == "week":
        return day - timedelta(days=day.weekday())
    if grain == "month":
        return day.replace(day=1)
    if grain == "season":  # seasons start in March, June, September, December
        return day.replace(day=1) - relativedelta(months=day.month % 3)
    if grain == "year":
        return datetime(t.year, 1, 1)
    return datetime(t.year - t.year % 10, 1, 1)  # decade


def _window(t: datetime, grain: str) -> _Period:
    start = _floor(t, grain)
    return _Period(start, start + _STEP[grain], grain)


def _instant(t: datetime) -> _Period:
    return _Period(t, t + ONE_MICROSECOND, "instant")


def _part(period: _Period | None, which: str) -> _Period | None:
    """Thirds ("early", "mid", "late") or halves ("first", "second") of a period."""
    if period is None or period.kind != "point" or period.grain not in _SUBUNIT:
        return None
    sub = _SUBUNIT[period.grain]
    edges = [period.start]
    while edges[-1] < period.end:
        edges.append(edges[-1] + _STEP[sub])
    n = len(edges) - 1
    third, half = n // 3, n // 2
    lo, hi = {
        "early": (0, third),
        "mid": (third, n - third),
        "late": (n - third, n),
        "first": (0, half),
        "second": (half, n),
    }[which]
    return _Period(edges[lo], edges[hi], sub, inferred=period.inferred)


@dataclass(frozen=True, slots=True)
class _Ctx:
    """What a resolver may consult. Reading ``ref`` (or the default anchor) marks the
    phrase as relative, which :func:`parse_when` needs to know."""

    local_ref: datetime
    zone: tzinfo
    prefer: str
    dayfirst: bool
    local_anchor: datetime | None = None
    anchor_direction: str | None = None
    touched: list[bool] = field(default_factory=lambda: [False])

    @property
    def ref(self) -> datetime:
        self.touched[0] = True
        return self.local_ref

    @property
    def anchor(self) -> datetime:
        """Where year-less phrases are placed: the reference, or the other end of a range."""
        if self.local_anchor is not None:
            return self.local_anchor
        return self.ref

    @property
    def direction(self) -> str:
        return self.anchor_direction or self.prefer

    def anchored(self, anchor: datetime, direction: str) -> _Ctx:
        return replace(self, local_anchor=anchor, anchor_direction=direction)

    def to_utc(self, t: datetime) -> datetime:
        return t.replace(tzinfo=self.zone).astimezone(UTC)

    def from_utc(self, t: datetime) -> datetime:
        return t.astimezone(self.zone).replace(tzinfo=None)


def _nearest(make: Callable[[int], _Period], ctx: _Ctx, keys: range | None = None) -> _Period:
    """Among ``make(key)`` for years (or other keys) around the anchor, the one ``prefer``
    picks: past -> the latest that started by the anchor; future -> the first not over."""
    anchor = ctx.anchor
    found = []
    for key in keys if keys is not None else range(anchor.year - 5, anchor.year + 6):
        try:
            found.append(make(key))
        except (ValueError, OverflowError):
            continue
    if ctx.direction == "past":
        best = max((p for p in found if p.start <= anchor), key=lambda p: p.start, default=None)
    else:
        best = min((p for p in found if p.end > anchor), key=lambda p: p.start, default=None)
    if best is None:
        raise ValueError("no such period near the anchor")
    return replace(best, inferred=True)


# ---------------------------------------------------------------------------
# Words

_MONTH_ABBR = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]
_MONTHS = {m: i for i, m in enumerate(_MONTH_ABBR, 1)}
_WEEKDAYS = {d: i for i, d in enumerate(["mon", "tue", "wed", "thu", "fri", "sat", "sun"])}
_SEASON_START = {"spring": 3, "summer": 6, "autumn": 9, "fall": 9, "winter": 12}
_REL = {
    "this": 0,
    "current": 0,
    "the current": 0,
    "last": -1,
    "previous": -1,
    "the previous": -1,
    "this past": -1,
    "next": 1,
    "coming": 1,
    "the coming": 1,
    "this coming": 1,
}
_ONES = ["one", "two", "three", "four", "five", "six", "seven", "eight", "nine"]
_TEENS = "ten eleven twelve thirteen fourteen fifteen sixteen seventeen eighteen nineteen".split()  # noqa: SIM905
_TENS = ["twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"]
_NUMBER_WORDS = {w: i for i, w in enumerate(_ONES, 1)} | {w: i for i, w in enumerate(_TEENS, 10)}
_NUMBER_WORDS |= {w: 10 * i for i, w in enumerate(_TENS, 2)} | {"a": 1, "an": 1}
_UNITS = {
    "second": ("instant", relativedelta(seconds=1)),
    "minute": ("instant", relativedelta(minutes=1)),
    "hour": ("instant", relativedelta(hours=1)),
    "day": ("day", relativedelta(days=1)),
    "week": ("week", relativedelta(weeks=1)),
    "fortnight": ("week", relativedelta(weeks=2)),
    "month": ("month", relativedelta(months=1)),
    "year": ("year", relativedelta(years=1)),
    "decade": ("decade", relativedelta(years=10)),
}
_UNIT_ALIASES = {"sec": "second", "min": "minute", "hr": "hour", "yr": "year", "wk": "week",
                 "mo": "month", "mth": "month"}  # fmt: skip
# Words that, following "may", make it the modal verb rather than the month.
_MODAL_FOLLOWERS = frozenset(
    """be have not also well want need take get help go come make seem find feel look still
    just even never only or include require cause contain vary differ affect lead result
    apply work use happen change mean sound hurt become already actually possibly perhaps
    probably sometimes really suggest indicate explain know""".split()  # noqa: SIM905
)


def _words(s: str) -> str:
    return re.sub(r"\s+", " ", s.strip().lower())


def _number(s: str) -> int:
    w = _words(s)
    if w.isdigit():
        return int(w)
    if "couple" in w:
        return 2
    if "few" in w:
        return 3
    return sum(_NUMBER_WORDS[part] for part in re.split(r"[\s-]+", w))


def _unit(s: str) -> tuple[str, relativedelta]:
    w = s.lower()
    w = w[:-1] if w.endswith("s") else w
    return _UNITS[_UNIT_ALIASES.get(w, w)]


def _month(m: re.Match) -> int:
    return _MONTHS[m["mon"][:3].lower()]


def _weekday(m: re.Match) -> int:
    return _WEEKDAYS[m["wd"][:3].lower()]


def _year(s: str) -> int:
    digits = s.lstrip("'’")
    if len(digits) == 2:  # POSIX two-digit years
        return int(digits) + (2000 if int(digits) < 69 else 1900)
    return int(digits)


def _day(s: str) -> int:
    return int(re.match(r"\d+", s).group())


def _may_is_verb(m: re.Match) -> bool:
    """True when "may" is the modal verb: the next word is verb-like ("2 may be")."""
    if m.groupdict().get("mon", "").lower() != "may":
        return False
    after = re.match(r"\s+([a-z]+)", m.string[m.end() :], re.I)
    return bool(after) and after.group(1).lower() in _MODAL_FOLLOWERS


def _clock(m: re.Match) -> time | None:
    """The time of day a clock-time match names, or None if it is not a valid one."""
    groups = m.groupdict()
    if groups.get("word"):
        return time(12) if groups["word"].lower() in ("noon", "midday") else time(0)
    hour, minute = int(groups["h"]), int(groups.get("mi") or 0)
    second = int(groups.get("s") or 0)
    if groups.get("ap"):
        if not 1 <= hour <= 12:
            return None
        hour = hour % 12 + (12 if groups["ap"].lower() == "p" else 0)
    return time(hour, minute, second)


# ---------------------------------------------------------------------------
# Resolvers: (match, ctx) -> _Period; a ValueError (bad date) means "not a time"

Resolver = Callable[[re.Match, _Ctx], _Period | None]


def _r_clock(m: re.Match, ctx: _Ctx) -> _Period | None:
    clock = _clock(m)
    return None if clock is None else _instant(datetime.combine(ctx.ref.date(), clock))


def _r_now(m: re.Match, ctx: _Ctx) -> _Period:
    return _instant(ctx.ref)


def _day_offset(offset: int) -> Resolver:
    return lambda m, ctx: _window(ctx.ref + timedelta(days=offset), "day")


def _r_day_word(m: re.Match, ctx: _Ctx) -> _Period:
    offset = {"today": 0, "tonight": 0, "yesterday": -1, "tomorrow": 1, "yday": -1, "yest": -1,
              "tmrw": 1, "tmr": 1, "tdy": 0, "2day": 0, "2moro": 1}[m["w"].lower()]  # fmt: skip
    return _window(ctx.ref + timedelta(days=offset), "day")


def _r_recently(m: re.Match, ctx: _Ctx) -> _Period:
    today = _floor(ctx.ref, "day")
    return _Period(today - timedelta(days=30), today + timedelta(days=1), "day")


def _shifted_unit(unit: str, n: int, ctx: _Ctx) -> _Period:
    unit = _UNIT_ALIASES.get(unit, unit)  # "last wk", "this yr"
    if unit == "weekend":
        saturday = _floor(ctx.ref, "week") + timedelta(weeks=n, days=5)
        return _Period(saturday, saturday + timedelta(days=2), "day")
    return _window(ctx.ref + _STEP[unit] * n, unit)


def _r_relative_unit(m: re.Match, ctx: _Ctx) -> _Period:
    return _shifted_unit(m["unit"].lower(), _REL[_words(m["rel"])], ctx)


def _shifted(n: int) -> Resolver:
    return lambda m, ctx: _shifted_unit(m["unit"].lower(), n, ctx)


def _r_earlier_later(m: re.Match, ctx: _Ctx) -> _Period | None:
    period = _window(ctx.ref, m["unit"].lower())
    today = _floor(ctx.ref, "day")
    if m["el"].lower() == "earlier":
        start, end = period.start, today
    else:
        start, end = today + timedelta(days=1), period.end
    return _Period(start, end, "day") if start < end else None


def _exact_shift(ctx: _Ctx, delta: relativedelta) -> datetime:
    """ref + delta in elapsed time (for hours and minutes across a DST change)."""
    return ctx.from_utc(ctx.to_utc(ctx.ref) + delta)


def _r_count(sign: int) -> Resolver:
    """Counted units: "3 days ago" (sign -1), "in 3 days" (+1); the window around ref +- N."""

    def resolve(m: re.Match, ctx: _Ctx) -> _Period:
        grain, step = _unit(m["unit"])
        delta = step * (sign * _number(m["num"]))
        if grain == "instant":
            return _instant(_exact_shift(ctx, delta))
        return _window(ctx.ref + delta, grain)

    return resolve


def _r_trailing(sign: int) -> Resolver:
    """Trailing windows, "the past 3 weeks" (-1) / "the next 3 weeks" (+1), in whole days."""

    def resolve(m: re.Match, ctx: _Ctx) -> _Period:
        grain, step = _unit(m["unit"])
        num = m.groupdict().get("num")
        delta = step * (_number(num) if num else 1)
        if grain == "instant":
            ends = sorted([ctx.ref, _exact_shift(ctx, delta * sign)])
            return _Period(ends[0], ends[1] + ONE_MICROSECOND, "instant")
        today = _floor(ctx.ref, "day")
        if sign < 0:
            return _Period(_floor(ctx.ref - delta, "day"), today + timedelta(days=1), "day")
        return _Period(today, _floor(ctx.ref + delta, "day") + timedelta(days=1), "day")

    return resolve


def _r_rel_weekday(m: re.Match, ctx: _Ctx) -> _Period:
    n, wd = _REL[_words(m["rel"])], _weekday(m)
    today = _floor(ctx.ref, "day")
    if n == 0:
        return _window(today + timedelta(days=wd - today.weekday()), "day")
    if n < 0:
        return _window(today - timedelta(days=(today.weekday() - wd - 1) % 7 + 1), "day")
    return _window(today + timedelta(days=(wd - today.weekday() - 1) % 7 + 1), "day")


def _r_weekday_of_week(m: re.Match, ctx: _Ctx) -> _Period:
    monday = _floor(ctx.ref, "week") + timedelta(weeks=_REL[_words(m["rel"])])
    return _window(monday + timedelta(days=_weekday(m)), "day")


def _r_weekday(m: re.Match, ctx: _Ctx) -> _Period:
    wd, day = _weekday(m), _floor(ctx.anchor, "day")
    if ctx.direction == "past":
        day -= timedelta(days=(day.weekday() - wd) % 7)
    else:
        day += timedelta(days=(wd - day.weekday()) % 7)
    return replace(_window(day, "day"), inferred=True)


def _r_weekend(m: re.Match, ctx: _Ctx) -> _Period:
    day = _floor(ctx.anchor, "day")
    if ctx.direction == "past":
        saturday = day - timedelta(days=(day.weekday() - 5) % 7)
    elif day.weekday() == 6:
        saturday = day - timedelta(days=1)
    else:
        saturday = day + timedelta(days=(5 - day.weekday()) % 7)
    return _Period(saturday, saturday + timedelta(days=2), "day", inferred=True)


def _month_period(year: int, month: int) -> _Period:
    return _window(datetime(year, month, 1), "month")


def _r_rel_month(m: re.Match, ctx: _Ctx) -> _Period | None:
    if _may_is_verb(m):
        return None
    n, month, current = _REL[_words(m["rel"])], _month(m), _floor(ctx.ref, "month")
    year = current.year
    if n < 0 and month >= current.month:
        year -= 1
    elif n > 0 and month <= current.month:
        year += 1
    return _month_period(year, month)


def _r_month_year(m: re.Match, ctx: _Ctx) -> _Period:
    return _month_period(_year(m["year"]), _month(m))


def _r_month(m: re.Match, ctx: _Ctx) -> _Period | None:
    if _may_is_verb(m):
        return None
    return _nearest(partial(_month_period, month=_month(m)), ctx)


def _r_date(m: re.Match, ctx: _Ctx) -> _Period | None:
    month, day = _month(m), _day(m["day"])
    if m["year"]:
        return _window(datetime(_year(m["year"]), month, day), "day")
    if _may_is_verb(m):
        return None
    return _nearest(lambda y: _window(datetime(y, month, day), "day"), ctx)


def _r_day_range(m: re.Match, ctx: _Ctx) -> _Period | None:
    month, first, last = _month(m), _day(m["day"]), int(m["day2"])

    def make(year: int) -> _Period:
        start, end = datetime(year, month, first), datetime(year, month, last)
        return _Period(start, end + timedelta(days=1), "day", kind="range")

    if first >= last:
        return None
    return make(_year(m["year"])) if m["year"] else _nearest(make, ctx)


def _r_iso(m: re.Match, ctx: _Ctx) -> _Period:
    if m["time"] is None:
        return _window(datetime(int(m["y"]), int(m["mo"]), int(m["d"])), "day")
    parsed = date_parser.isoparse(m.group(0).replace(" ", "T"))
    return _instant(ctx.from_utc(parsed) if parsed.tzinfo else parsed)


def _r_iso_month(m: re.Match, ctx: _Ctx) -> _Period:
    return _month_period(int(m["y"]), int(m["mo"]))


def _r_ymd(m: re.Match, ctx: _Ctx) -> _Period:
    return _window(datetime(int(m["y"]), int(m["mo"]), int(m["d"])), "day")


def _r_numeric_date(m: re.Match, ctx: _Ctx) -> _Period:
    a, b, year = int(m["a"]), int(m["b"]), _year(m["y"])
    dayfirst = ctx.dayfirst or m["sep"] == "."
    if a > 12 or (dayfirst and b <= 12):
        day, month = a, b
    else:
        month, day = a, b
    return _window(datetime(year, month, day), "day")


def _r_year(m: re.Match, ctx: _Ctx) -> _Period:
    return _window(datetime(_year(m["year"]), 1, 1), "year")


def _r_year_range(m: re.Match, ctx: _Ctx) -> _Period | None:
    first, second = int(m["y1"]), m["y2"]
    last = int(second) if len(second) == 4 else first - first % 100 + int(second)
    if last <= first:
        return None
    return _Period(datetime(first, 1, 1), datetime(last + 1, 1, 1), "year", kind="range")


def _decade_period(year: int) -> _Period:
    return _window(datetime(year, 1, 1), "decade")


def _r_decade(m: re.Match, ctx: _Ctx) -> _Period:
    return _decade_period(int(m["dec"]) * 10)


def _r_short_decade(m: re.Match, ctx: _Ctx) -> _Period:
    """Two-digit decades ("the 90s"): the 1890s, 1990s or 2090s, by the past/future rule."""
    base = ctx.anchor.year - ctx.anchor.year % 100 + int(m["d"]) * 10
    return _nearest(_decade_period, ctx, range(base - 200, base + 201, 100))


def _r_short_decade_part(m: re.Match, ctx: _Ctx) -> _Period | None:
    return _part(_r_short_decade(m, ctx), _PARTS[m["part"].lower()])


def _season_period(year: int, season: str) -> _Period:
    start = datetime(year, _SEASON_START[season], 1)
    return _Period(start, start + relativedelta(months=3), "season")


def _season(m: re.Match) -> str:
    return m["season"].lower()


def _r_season_year(m: re.Match, ctx: _Ctx) -> _Period:
    return _season_period(_year(m["year"]), _season(m))


def _r_rel_season(m: re.Match, ctx: _Ctx) -> _Period:
    n, ref = _REL[_words(m["rel"])], ctx.ref
    near = [_season_period(y, _season(m)) for y in range(ref.year - 2, ref.year + 3)]
    if n < 0:
        return max((p for p in near if p.end <= ref), key=lambda p: p.start)
    if n > 0:
        return min((p for p in near if p.start > ref), key=lambda p: p.start)
    for p in near:
        if p.start <= ref < p.end:
            return p
    return next(p for p in near if p.start.year == ref.year)


def _r_season(m: re.Match, ctx: _Ctx) -> _Period:
    return _nearest(partial(_season_period, season=_season(m)), ctx)


def _r_season_before_last(m: re.Match, ctx: _Ctx) -> _Period:
    """ "the summer before last": two summers back."""
    ref = ctx.ref
    past = [_season_period(y, _season(m)) for y in range(ref.year - 3, ref.year + 1)]
    return sorted((p for p in past if p.end <= ref), key=lambda p: p.start)[-2]


def _r_just_gone(m: re.Match, ctx: _Ctx) -> _Period:
    """ "the summer just gone", "this past winter": the latest one already over."""
    ref = ctx.ref
    past = [_season_period(y, _season(m)) for y in range(ref.year - 2, ref.year + 1)]
    return max((p for p in past if p.end <= ref), key=lambda p: p.start)


def _r_this_time(m: re.Match, ctx: _Ctx) -> _Period:
    """ "this time last year": the same day, one (or n) years back."""
    n = _number(m["num"]) if m["num"] else 1
    return _window(ctx.ref - relativedelta(years=n), "day")


def _holiday_day(name: str, year: int) -> datetime:
    name = " ".join(name.lower().replace("’", "'").replace("'s", "s").split())
    if name.startswith("easter"):
        day = easter(year)
        return datetime(day.year, day.month, day.day)
    fixed = {"christmas eve": (12, 24), "boxing day": (12, 26), "new years eve": (12, 31),
             "nye": (12, 31), "new years day": (1, 1), "new years": (1, 1), "halloween": (10, 31),
             "valentines": (2, 14), "valentines day": (2, 14)}  # fmt: skip
    month, day = fixed.get(name, (12, 25))  # christmas, xmas, christmas day
    return datetime(year, month, day)


def _holiday_period(year: int, name: str) -> _Period:
    day = _holiday_day(name, year)
    return _Period(day, day + timedelta(days=1), "day")


def _r_holiday(m: re.Match, ctx: _Ctx) -> _Period:
    """Christmas, Easter, New Year's Eve, Valentine's: the nearest one (past by default),
    the one of a given year, "last"/"next" one, "two Christmases ago", "... just gone"."""
    g = m.groupdict()
    name = g.get("hol") or g["hols"].rstrip("s").replace("christmase", "christmas")
    if g.get("year"):
        return _holiday_period(_year(g["year"]), name)
    ref = ctx.ref
    if g.get("yrel"):
        return _holiday_period(ref.year + _REL[g["yrel"].lower()], name)
    days = [_holiday_period(y, name) for y in range(ref.year - 12, ref.year + 3)]
    past = sorted((p for p in days if p.end <= ref), key=lambda p: p.start)
    if g.get("num"):
        return past[-_number(g["num"])]
    rel = _words(g["rel"]) if g.get("rel") else ""
    if rel in ("next", "this coming", "coming"):
        return min((p for p in days if p.start > ref), key=lambda p: p.start)
    gone = (g.get("gone") or "").lower()
    if gone.startswith("before"):
        return past[-2]
    if rel in ("last", "previous", "this past", "the previous") or gone:
        return past[-1]
    return _nearest(partial(_holiday_period, name=name), ctx)


_HOLIDAY = (
    r"(?P<hol>christmas\s+eve|christmas(?:\s+day)?|xmas|boxing\s+day|new\s+year['’]?s?\s+eve|nye"
    r"|new\s+year['’]?s(?:\s+day)?|halloween|valentine['’]?s(?:\s+day)?|easter(?:\s+sunday)?)"
)


def _r_quarter(m: re.Match, ctx: _Ctx) -> _Period:
    """ "Q3 2024", "the first quarter of 2025", "H1 2023", "the second half of 2024"."""
    g = m.groupdict()
    year = _year(g["year"]) if g.get("year") else ctx.ref.year
    which = (g.get("q") or g.get("h") or g.get("qw") or "").lower()
    order = {"1": 1, "2": 2, "3": 3, "4": 4, "first": 1, "second": 2, "third": 3, "fourth": 4,
             "last": 4}  # fmt: skip
    n = order[which]
    months = 6 if (g.get("h") or g.get("half")) else 3
    if months == 6 and which == "last":
        n = 2
    start = datetime(year, 1 + (n - 1) * months, 1)
    return _Period(start, start + relativedelta(months=months), "month")


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


def _us_holiday(name: str, year: int) -> _Period:
    month, weekday, n = _US_HOLIDAYS[" ".join(name.lower().replace("'", "").split())]
    day = datetime(year, month, n) if weekday is None else _nth_weekday(year, month, weekday, n)
    return _Period(day, day + timedelta(days=1), "day")


def _r_us_holiday(m: re.Match, ctx: _Ctx) -> _Period:
    """Thanksgiving, Labor Day, Memorial Day...: of the year given, else the latest one."""
    if m["year"]:
        return _us_holiday(m["uh"], _year(m["year"]))
    return _nearest(partial(_us_holiday, m["uh"]), ctx)


def _r_split_season(m: re.Match, ctx: _Ctx) -> _Period:
    """ "winter 23/24", "winter 2023-24": the winter that starts in the first year."""
    year = _year(m["y1"]) if len(m["y1"]) == 4 else 2000 + int(m["y1"])
    return _season_period(year, _season(m))


def _r_week_of(m: re.Match, ctx: _Ctx) -> _Period | None:
    """ "the week of 2025-06-09", "the week beginning Monday 6 April": seven days from it."""
    inner = find_time_expressions(m["d"], ctx.to_utc(ctx.ref), tz=ctx.zone)
    if not inner or inner[0].grain not in ("day", "instant"):
        return None
    start = ctx.from_utc(inner[0].interval.start)
    start = datetime(start.year, start.month, start.day)
    return _Period(start, start + timedelta(days=7), "week")


def _r_month_rel_year(m: re.Match, ctx: _Ctx) -> _Period:
    """ "January last year", "March this year", "the December before last"."""
    month = _month(m)
    if m["bl"]:
        past = [p for p in (_month_period(y, month) for y in range(ctx.ref.year - 3, ctx.ref.year + 1))
                if p.end <= ctx.ref]  # fmt: skip
        period = past[-2]
    else:
        period = _month_period(ctx.ref.year + _REL[m["yrel"].lower()], month)
    if m["md"]:  # "1 December last year"
        day = period.start.replace(day=int(m["md"]))
        return _Period(day, day + timedelta(days=1), "day")
    return period


def _r_last_day_of(m: re.Match, ctx: _Ctx) -> _Period:
    """ "the last day of 2023", "the first day of 2024"."""
    year = _year(m["year"])
    day = datetime(year, 12, 31) if m["fl"].lower() == "last" else datetime(year, 1, 1)
    return _Period(day, day + timedelta(days=1), "day")


_US_HOLIDAY = (
    r"(?P<uh>thanksgiving|labou?r\s+day|memorial\s+day|mother['’]?s\s+day|father['’]?s\s+day|"
    r"independence\s+day|(?:the\s+)?(?:fourth|4th)\s+of\s+july)"
)


# ---------------------------------------------------------------------------
# The grammar

_WD_FULL = r"monday|tuesday|wednesday|thursday|friday|saturday|sunday"
_WD_ABBR = r"mon|tues|tue|wed|thurs|thur|thu|fri|sat|sun"
_WD = rf"(?P<wd>(?:{_WD_FULL})\b|(?:{_WD_ABBR})\b(?:\.(?=\s*[\d,]))?)"
_MONTH = (  # an abbreviation's dot only before a day or comma ("Jan. 5"), not "in Jan."
    r"(?P<mon>(?:january|february|march|april|may|june|july|august|september|october|november"
    r"|december)\b|(?:jan|feb|mar|apr|jun|jul|aug|sept|sep|oct|nov|dec)\b(?:\.(?=\s*[\d,]))?)"
)
_SEASON = r"(?P<season>spring|summer|autumn|fall|winter)\b"
_DAY = r"(?P<day>[12]\d|3[01]|0?[1-9])(?:st|nd|rd|th)?\b"
_YEAR = r"(?P<year>(?:1[89]|2[01])\d{2}\b|['’]\d{2}\b)"
_OPT_YEAR = rf"(?:(?:\s*,)?\s+{_YEAR})?"
_REL_RE = (
    r"(?P<rel>this\s+past|this\s+coming|the\s+previous|the\s+current|the\s+coming"
    r"|this|last|next|previous|current|coming)"
)
_NUM = "|".join(
    [
        r"\d{1,4}",
        r"a\s+couple(?:\s+of)?",
        r"couple\s+of",
        r"a\s+few",
        r"few",
        rf"(?:{'|'.join(_TENS)})(?:[\s-](?:{'|'.join(_ONES)}))?",
        *sorted(_TEENS + _ONES, key=len, reverse=True),
        r"an?",
    ]
)
_NUM = rf"(?P<num>{_NUM})"
_UNIT = (
    r"(?P<unit>seconds?|secs?|minutes?|mins?|hours?|hrs?|days?|weeks?|wks?|fortnights?"
    r"|months?|mos|mths?|years?|yrs?|decades?)\b"
)
_PARTS = {
    "early": "early",
    "beginning": "early",
    "start": "early",
    "mid": "mid",
    "middle": "mid",
    "late": "late",
    "end": "late",
    "first": "first",
    "second": "second",
    "latter": "second",
}


@dataclass(frozen=True, slots=True)
class _Rule:
    pattern: re.Pattern[str]
    resolve: Resolver
    # When a match counts as a time: "" always; "prep" after a preposition or operator
    # ("on Tuesday", "at 3pm"); "name" likewise but not after "by"/"within" (a month may be
    # a person: "written by May"); "mod" only after "early", "the end of"...
    need: str
    clock: bool  # a bare clock time, which combines with a day


def _rule(body: str, resolve: Resolver, need: str = "", *, clock: bool = False) -> _Rule:
    # Never end inside a word or a number ("Mayor", "2024-03-01" read as "2024-03").
    pattern = re.compile(rf"(?:{body})(?!\w)(?![/.:]\d)", re.IGNORECASE)
    return _Rule(pattern, resolve, need, clock)


_RULES: list[_Rule] = [
    # now, days
    _rule(
        r"(?:right\s+)?now|just\s+now|currently|at\s+(?:the\s+)?moment|at\s+present|presently"
        r"|these\s+days|nowadays|at\s+this\s+(?:time|point)|as\s+we\s+speak",
        _r_now,
    ),
    _rule(
        r"(?P<w>today|tonight|yesterday|tomorrow|yday|yest|tmrw|tmr|tdy|2day|2moro)"
        r"(?:\s+(?:morning|afternoon|evening|night))?",
        _r_day_word,
    ),
    _rule(r"this\s+(?:morning|afternoon|evening)", _day_offset(0)),
    _rule(r"last\s+(?:night|evening)", _day_offset(-1)),
    _rule(r"(?:the\s+)?day\s+before\s+yesterday", _day_offset(-2)),
    _rule(r"(?:the\s+)?day\s+after\s+tomorrow", _day_offset(2)),
    _rule(r"recently|lately|of\s+late", _r_recently),
    # this/last/next week, month, year, decade, weekend
    _rule(rf"{_REL_RE}\s+(?P<unit>week|month|year|decade|weekend)(?!\s+of\b)", _r_relative_unit),
    _rule(rf"{_REL_RE}\s+(?P<unit>wk|yr|mth)(?!\s+of\b)", _r_relative_unit),
    _rule(r"(?:the\s+)?(?P<unit>week|month|year|weekend)\s+before\s+last", _shifted(-2)),
    _rule(r"(?:the\s+)?(?P<unit>week|month|year|weekend)\s+after\s+next", _shifted(2)),
    _rule(r"the\s+(?P<unit>week|month|year|decade)", _shifted(0), need="mod"),
    _rule(r"(?P<el>earlier|later)\s+this\s+(?P<unit>week|month|year)", _r_earlier_later),
    # counted units
    _rule(rf"{_NUM}\s+{_UNIT}\s+(?:ago|back)", _r_count(-1)),
    _rule(rf"in\s+{_NUM}\s+{_UNIT}(?:['’]?\s+time)?", _r_count(+1)),
    _rule(rf"{_NUM}\s+{_UNIT}\s+from\s+(?:now|today)", _r_count(+1)),
    _rule(rf"(?:the\s+)?(?:past|last|previous)\s+{_NUM}\s+{_UNIT}", _r_trailing(-1)),
    _rule(rf"the\s+(?:past|last)\s+{_UNIT}(?!\s+of\b)", _r_trailing(-1)),
    _rule(rf"(?:the\s+)?(?:next|coming)\s+{_NUM}\s+{_UNIT}", _r_trailing(+1)),
    # weekdays
    _rule(rf"{_REL_RE}\s+{_WD}", _r_rel_weekday),
    _rule(rf"{_WD}(?:\s*,)?\s+(?:of\s+)?(?P<rel>last|this|next)\s+week", _r_weekday_of_week),
    _rule(_WD, _r_weekday, need="prep"),  # not "Ash Wednesday", "the Sunday mass"
    _rule(r"the\s+weekend", _r_weekend),
    # months and dates with month names
    _rule(rf"{_REL_RE}\s+{_MONTH}", _r_rel_month),
    _rule(rf"{_MONTH}(?:\s*,)?\s+(?:of\s+)?{_YEAR}", _r_month_year),
    _rule(_MONTH, _r_month, need="name"),
    _rule(rf"(?:{_WD}(?:\s*,)?\s+)?(?:the\s+)?{_DAY}(?:\s+of)?\s+{_MONTH}{_OPT_YEAR}", _r_date),
    _rule(rf"(?:{_WD}(?:\s*,)?\s+)?{_MONTH}\s+(?:the\s+)?{_DAY}{_OPT_YEAR}", _r_date),
    _rule(
        rf"{_MONTH}\s+{_DAY}\s*[-–—]\s*(?P<day2>\d{{1,2}})(?:st|nd|rd|th)?\b{_OPT_YEAR}",
        _r_day_range,
    ),
    _rule(
        rf"{_DAY}\s*[-–—]\s*(?P<day2>\d{{1,2}})(?:st|nd|rd|th)?(?:\s+of)?\s+{_MONTH}{_OPT_YEAR}",
        _r_day_range,
    ),
    # numeric dates
    _rule(
        r"(?P<y>\d{4})-(?P<mo>\d{2})-(?P<d>\d{2})"
        r"(?:[T ](?P<time>\d{2}:\d{2}(?::\d{2}(?:[.,]\d{1,6})?)?)(?:Z|[+-]\d{2}(?::?\d{2})?)?)?",
        _r_iso,
    ),
    _rule(r"(?P<y>\d{4})-(?P<mo>0[1-9]|1[0-2])(?!-\d)", _r_iso_month),
    _rule(
        rf"(?P<y>\d{{4}})(?P<sep>[/.])(?P<mo>\d{{1,2}})(?P=sep)(?P<d>\d{{1,2}})(?:\s*\({_WD}\))?",
        _r_ymd,
    ),
    _rule(r"(?P<a>\d{1,2})(?P<sep>[/.-])(?P<b>\d{1,2})(?P=sep)(?P<y>\d{4}|\d{2})", _r_numeric_date),
    # years and decades
    _rule(
        r"(?P<y1>(?:1[89]|2[01])\d{2})\s*(?:[-–—]|to)\s*(?P<y2>(?:1[89]|2[01])\d{2}|\d{2})",
        _r_year_range,
    ),
    _rule(r"the\s+year\s+(?P<year>\d{4})", _r_year),
    _rule(r"(?P<year>(?:1[89]|2[01])\d{2})", _r_year, need="prep"),
    _rule(r"(?P<year>['’]\d{2})", _r_year, need="prep"),
    _rule(r"(?:the\s+)?(?P<dec>(?:1[89]|2[01])\d)0['’]?s", _r_decade),
    _rule(r"the\s+['’]?(?P<d>\d)0['’]?s", _r_short_decade),
    _rule(
        r"the\s+(?:very\s+)?(?P<part>early|mid|late)(?:\s*-\s*|\s+)['’]?(?P<d>\d)0['’]?s",
        _r_short_decade_part,
    ),
    # quarters, halves, US holidays, split-year seasons, weeks of, months of another year
    _rule(rf"(?:in\s+)?(?:Q(?P<q>[1-4])|H(?P<h>[12]))(?:\s+|\s*/\s*|\s*-\s*)?{_YEAR}?", _r_quarter),
    _rule(
        rf"(?:the\s+)?(?P<qw>first|second|third|fourth|last)\s+(?:(?P<quarter>quarter)|(?P<half>half))"
        rf"(?:\s+of)?(?:\s+{_YEAR})?",
        _r_quarter,
    ),
    _rule(rf"(?:on\s+)?{_US_HOLIDAY}(?:(?:\s*,)?\s+{_YEAR})?", _r_us_holiday),
    _rule(rf"{_SEASON}\s+(?P<y1>\d{{4}}|\d{{2}})\s*[/-]\s*(?:\d{{4}}|\d{{2}})", _r_split_season),
    _rule(
        r"(?:the\s+)?week\s+(?:of|beginning|starting|commencing)\s+(?P<d>[^,;?!]{6,40}\d)(?!\d)",
        _r_week_of,
    ),
    _rule(
        rf"(?:the\s+)?(?:(?P<md>[12]\d|3[01]|0?[1-9])(?:st|nd|rd|th)?\s+(?:of\s+)?)?{_MONTH}\s+"
        r"(?:(?P<yrel>last|this|next)\s+year|(?P<bl>before\s+last))",
        _r_month_rel_year,
    ),
    _rule(rf"(?:on\s+)?the\s+(?P<fl>last|first)\s+day\s+of\s+{_YEAR}", _r_last_day_of),
    # holidays and anniversaries
    _rule(
        rf"(?:(?P<rel>last|next|this\s+past|this\s+coming|the\s+previous)\s+)?(?:the\s+)?{_HOLIDAY}"
        rf"(?:(?:\s*,)?\s+{_YEAR}|\s+(?P<gone>just\s+gone|before\s+last)|\s+(?P<yrel>last|next|this)\s+year)?",
        _r_holiday,
    ),
    _rule(rf"{_NUM}\s+(?P<hols>christmases|easters|halloweens|valentines)\s+ago", _r_holiday),
    _rule(
        r"(?:this|about\s+this|around\s+this)\s+time\s+(?:last\s+year|(?P<num>\w+)\s+years\s+ago)",
        _r_this_time,
    ),
    _rule(rf"(?:the\s+)?{_SEASON}\s+before\s+last", _r_season_before_last),
    _rule(
        rf"(?:the\s+|this\s+)?{_SEASON}\s+(?:just\s+gone|that\s+just\s+(?:ended|finished))",
        _r_just_gone,
    ),
    # seasons
    _rule(rf"(?:the\s+)?{_SEASON}(?:\s+of)?\s+{_YEAR}", _r_season_year),
    _rule(rf"{_REL_RE}\s+{_SEASON}", _r_rel_season),
    _rule(rf"(?:the\s+)?{_SEASON}(?!\s+of\b)", _r_season, need="prep"),
    # clock times: alone, on the reference day ("at 3pm"); see _Chart.nodes for "8 May at 3pm"
    _rule(
        r"(?P<h>[01]?\d|2[0-3]):(?P<mi>[0-5]\d)(?::(?P<s>[0-5]\d))?(?:\s*(?P<ap>[ap])(?:\.\s?m\b\.?|\s?m\b))?",
        _r_clock,
        need="prep",
        clock=True,
    ),
    _rule(
        r"(?P<h>1[0-2]|0?[1-9])\s*(?P<ap>[ap])(?:\.\s?m\b\.?|\s?m\b)", _r_clock, "prep", clock=True
    ),
    _rule(r"(?P<word>noon|midday|midnight)", _r_clock, need="prep", clock=True),
]

_MODIFIER = re.compile(
    r"(?:the\s+)?(?:very\s+)?(?P<part>early|mid|late)(?:\s*-\s*|\s+)"
    r"|(?:the\s+)?(?P<part2>beginning|start|middle|end)\s+of\s+"
    r"|(?:the\s+)?(?P<part3>first|second|latter)\s+half\s+of\s+",
    re.IGNORECASE,
)
_OPERATOR = re.compile(
    r"(?:(?P<since>ever\s+since|since|starting|beginning|as\s+from)"
    r"|(?P<until>up\s+until|up\s+till|up\s+to|until|till|til|['’]til|through|thru)"
    r"|(?P<before>before|prior\s+to|earlier\s+than)"
    r"|(?P<after>after|later\s+than)"
    r"|(?P<by>by)"
    r"|(?P<within>within)"
    r"|(?P<from>from)"
    r"|(?P<point>sometime\s+(?:in|during|around|on)|at\s+some\s+point\s+(?:in|during)"
    r"|in|on|during|at|around|over|throughout))\s+",
    re.IGNORECASE,
)
_OPERATOR_KIND = {"by": "until", "within": "point", "from": "point"}
_NAME_BLIND = frozenset({"by", "within"})  # operators that do not make a "name" node a time
_LEAD_PREP = re.compile(r"(?:from|on|in|at|during)\s+", re.IGNORECASE)  # "starting on Monday"
_RANGE_TO = re.compile(r"\s*[-–—]\s*|\s+(?:to|until|till|through|thru)\s+", re.IGNORECASE)
_AND = re.compile(r"\s+and\s+", re.IGNORECASE)
_BETWEEN = re.compile(r"between\s+", re.IGNORECASE)
_ONWARDS = re.compile(r"\s+(?:onwards?|forwards?|on)\b", re.IGNORECASE)
_AT_SEP = re.compile(r"(?:\s*,\s*|\s+)(?:at\s+|@\s*|around\s+)?", re.IGNORECASE)
_ON_SEP = re.compile(r"(?:\s*,\s*|\s+)(?:on\s+)?", re.IGNORECASE)
_WORD_START = re.compile(r"(?<![\w'’])[\w'’]")


# ---------------------------------------------------------------------------
# The chart: nodes (periods) and expressions (operators over nodes) at each offset


def _safely(resolve: Callable[..., _Period | None], *args: object) -> _Period | None:
    try:
        return resolve(*args)
    except (ValueError, OverflowError, KeyError, StopIteration):
        return None


def _at_clock(day: Callable[[_Ctx], _Period | None], clock: time, ctx: _Ctx) -> _Period | None:
    period = day(ctx)
    if period is None or period.grain != "day" or period.kind != "point":
        return None
    moment = datetime.combine(period.start.date(), clock)
    return replace(_instant(moment), inferred=period.inferred)


def _modified(part: str, node: Callable[[_Ctx], _Period | None], ctx: _Ctx) -> _Period | None:
    return _part(node(ctx), part)


@dataclass(frozen=True, slots=True)
class _Node:
    start: int
    end: int
    need: str
    resolve: Callable[[_Ctx], _Period | None]
    clock: time | None = None


@dataclass(frozen=True, slots=True)
class _Expr:
    start: int
    end: int
    kind: str
    first: _Node
    second: _Node | None  # the end of a range
    weak: bool  # only a time when the caller says the whole text is one


class _Chart:
    def __init__(self, text: str):
        self.text = text
        self._base: dict[int, list[_Node]] = {}
        self._nodes: dict[int, list[_Node]] = {}

    def base(self, p: int) -> list[_Node]:
        if p not in self._base:
            found = []
            for rule in _RULES:
                m = rule.pattern.match(self.text, p)
                if m is None:
                    continue
                clock = _clock(m) if rule.clock else None
                if rule.clock and clock is None:
                    continue  # "13 pm"
                found.append(_Node(p, m.end(), rule.need, partial(_safely, rule.resolve, m), clock))
            self._base[p] = found
        return self._base[p]

    def nodes(self, p: int) -> list[_Node]:
        """Base nodes, days with clock times ("8 May at 2pm", "2pm on 8 May"), "early X"."""
        if p in self._nodes:
            return self._nodes[p]
        out = list(self.base(p))
        for a in self.base(p):
            sep = (_ON_SEP if a.clock else _AT_SEP).match(self.text, a.end)
            for b in self.base(sep.end()) if sep else ():
                if (a.clock is None) == (b.clock is None):
                    continue
                day, clock = (b, a.clock) if a.clock else (a, b.clock)
                if day.need != "mod":
                    out.append(_Node(p, b.end, "", partial(_safely, _at_clock, day.resolve, clock)))
        mod = _MODIFIER.match(self.text, p)
        if mod:
            part = _PARTS[(mod["part"] or mod["part2"] or mod["part3"]).lower()]
            for b in self.base(mod.end()):
                if b.clock is None:
                    out.append(_Node(p, b.end, "", partial(_safely, _modified, part, b.resolve)))
        self._nodes[p] = out
        return out

    def _range_ends(self, x: _Node, connector: re.Pattern[str]) -> Iterator[_Node]:
        sep = connector.match(self.text, x.end)
        if sep:
            yield from (y for y in self.nodes(sep.end()) if y.need != "mod")

    def exprs(self, p: int) -> Iterator[_Expr]:
        for x in self.nodes(p):
            yield _Expr(p, x.end, "point", x, None, weak=bool(x.need))
            if not x.need:
                for y in self._range_ends(x, _RANGE_TO):
                    yield _Expr(p, y.end, "range", x, y, weak=False)
        between = _BETWEEN.match(self.text, p)
        if between:
            for x in self.nodes(between.end()):
                if x.need != "mod":
                    for y in self._range_ends(x, _AND):
                        yield _Expr(p, y.end, "range", x, y, weak=False)
        op = _OPERATOR.match(self.text, p)
        if not op:
            return
        name = op.lastgroup or "point"
        kind = _OPERATOR_KIND.get(name, name)
        starts = [op.end()]
        lead = _LEAD_PREP.match(self.text, op.end()) if name in ("since", "until") else None
        if lead:
            starts.append(lead.end())
        for q in starts:
            for x in self.nodes(q):
                if x.need == "mod" or (x.need == "name" and name in _NAME_BLIND):
                    continue
                yield _Expr(p, x.end, kind, x, None, weak=False)
                if name in ("from", "since"):  # "from X to Y", "since X until Y"
                    for y in self._range_ends(x, _RANGE_TO):
                        yield _Expr(p, y.end, "range", x, y, weak=False)
                    onwards = _ONWARDS.match(self.text, x.end)
                    if onwards and name == "from":
                        yield _Expr(p, onwards.end(), "since", x, None, weak=False)


def _resolve_range(x: _Node, y: _Node, ctx: _Ctx) -> tuple[_Period, _Period] | None:
    px, py = x.resolve(ctx), y.resolve(ctx)
    if px is None or py is None:
        return None
    if px.inferred and (not py.inferred or ctx.prefer == "past"):
        px = x.resolve(ctx.anchored(py.start, "past"))  # the latest X by the start of Y
    elif py.inferred:
        py = y.resolve(ctx.anchored(px.start, "future"))  # the first Y not over at X
    if px is None or py is None:
        return None
    return px, py


def _interval(e: _Expr, ctx: _Ctx) -> tuple[Interval, str, str] | None:
    if e.second is not None:
        ends = _resolve_range(e.first, e.second, ctx)
        if ends is None:
            return None
        start, end = ctx.to_utc(ends[0].start), ctx.to_utc(ends[1].end)
        return Interval(start, end), ends[0].grain, "range"
    p = e.first.resolve(ctx)
    if p is None:
        return None
    kind = p.kind if e.kind == "point" else e.kind
    start, end = ctx.to_utc(p.start), ctx.to_utc(p.end)
    bounds = {
        "point": (start, end),
        "range": (start, end),
        "since": (start, POS_INF),
        "until": (NEG_INF, end),
        "before": (NEG_INF, start),
        "after": (end, POS_INF),
    }[kind]
    return Interval(*bounds), p.grain, kind


def _context(
    reference: datetime, tz: str | tzinfo | None, prefer: str, dayfirst: bool
) -> tuple[_Ctx, datetime]:
    if not isinstance(reference, datetime):
        raise InvalidTimeError(f"reference must be a datetime, got {type(reference).__name__}")
    if reference.tzinfo is None or reference.tzinfo.utcoffset(reference) is None:
        raise InvalidTimeError(
            f"reference {reference.isoformat()} is naive; pass the utterance's aware timestamp"
        )
    if prefer not in ("past", "future"):
        raise InvalidTimeError(f"prefer must be 'past' or 'future', got {prefer!r}")
    zone = resolve_tz(tz) if tz is not None else reference.tzinfo
    try:
        local, ref_utc = reference.astimezone(zone).replace(tzinfo=None), reference.astimezone(UTC)
    except (OverflowError, ValueError) as exc:
        raise InvalidTimeError(f"reference {reference.isoformat()} is out of range") from exc
    return _Ctx(local, zone, prefer, dayfirst), ref_utc


def _candidates(
    text: str, ctx: _Ctx, reference: datetime, *, allow_weak: bool
) -> list[tuple[TimeExpression, bool]]:
    """Every reading at every word start, resolved, in (start, longest-first, rule) order,
    each with whether it depends on the reference (``parse_when`` needs to know)."""
    chart = _Chart(text)
    found: list[tuple[int, int, int, TimeExpression, bool]] = []
    for start_match in _WORD_START.finditer(text):
        for order, e in enumerate(chart.exprs(start_match.start())):
            if e.weak and not allow_weak:
                continue
            own = replace(ctx, touched=[False])
            try:
                resolved = _interval(e, own)
            except (EmptyIntervalError, ValueError, OverflowError):
                resolved = None
            if resolved is None:
                continue
            interval, grain, kind = resolved
            expr = TimeExpression(
                text[e.start : e.end], (e.start, e.end), interval, grain, kind, reference
            )
            found.append((e.start, -(e.end - e.start), order, expr, own.touched[0]))
    found.sort(key=lambda c: c[:3])
    return [(c[3], c[4]) for c in found]


def find_time_expressions(
    text: str,
    reference: datetime,
    *,
    tz: str | tzinfo | None = None,
    prefer: str = "past",
    dayfirst: bool = False,
) -> list[TimeExpression]:
    """The time phrases of ``text``, resolved against ``reference``: non-overlapping, in
    order; where readings overlap the longest wins (then the earliest)."""
    if not isinstance(text, str):
        raise InvalidTimeError(f"expected text, got {type(text).__name__}")
    ctx, ref_utc = _context(reference, tz, prefer, dayfirst)
    candidates = [c for c, _ in _candidates(text, ctx, ref_utc, allow_weak=False)]
    candidates.sort(key=lambda c: (c.span[0] - c.span[1], c.span[0]))
    taken: list[TimeExpression] = []
    for c in candidates:
        if all(c.span[1] <= t.span[0] or c.span[0] >= t.span[1] for t in taken):
            taken.append(c)
    return sorted(taken, key=lambda c: c.span)


def _resolve_whole(text: str, ctx: _Ctx, ref_utc: datetime) -> tuple[TimeExpression, bool] | None:
    """The reading that covers all of ``text`` (trailing sentence punctuation aside), and
    whether it depends on the reference."""
    lo = len(text) - len(text.lstrip())
    full = len(text.rstrip())
    bare = len(text.rstrip().rstrip(".,;!?").rstrip())
    for c, relative in _candidates(text, ctx, ref_utc, allow_weak=True):
        if c.span[0] == lo and bare <= c.span[1] <= full:
            return c, relative
    return None


def resolve_time(
    text: str,
    reference: datetime,
    *,
    tz: str | tzinfo | None = None,
    prefer: str = "past",
    dayfirst: bool = False,
) -> TimeExpression:
    """``text`` as one time expression (bare "March", "2019", "3pm" are accepted here).

    Raises :class:`InvalidTimeError` naming the text when it is not one expression.
    """
    if not isinstance(text, str):
        raise InvalidTimeError(f"expected a time phrase, got {type(text).__name__}")
    ctx, ref_utc = _context(reference, tz, prefer, dayfirst)
    found = _resolve_whole(text, ctx, ref_utc)
    if found is None:
        raise InvalidTimeError(f"cannot read {text!r} as a time expression")
    return found[0]


_PLACEHOLDER_REFERENCE = datetime(2000, 1, 1, tzinfo=UTC)


def parse_when(
    value: object,
    reference: datetime | None = None,
    *,
    tz: str | tzinfo | None = None,
    prefer: str = "past",
    dayfirst: bool = False,
) -> datetime:
    """A UTC instant for an API or CLI argument.

    Datetimes, dates, epoch numbers, ISO strings and written full dates go through
    :func:`~graphmem.time.instant.to_instant`; a natural phrase ("yesterday", "last
    Tuesday", "3 days ago", "March 2024") gives the start of its interval. Relative
    phrases need ``reference`` (never the wall clock: pass ``now()`` explicitly if that is
    what you mean); phrases without a start ("until May") are rejected.
    """
    if reference is not None:
        _context(reference, tz, prefer, dayfirst)  # validates
    zone = resolve_tz(tz) if tz is not None else (reference.tzinfo if reference else UTC)
    if not isinstance(value, str):
        return to_instant(value, tz=zone, field="when")  # type: ignore[arg-type]
    text = value.strip()
    if not text:
        raise InvalidTimeError("when: empty time string")
    if text.lower() in INFINITE_WORDS:
        return to_instant(text)
    try:
        date_parser.isoparse(text)
    except (ValueError, OverflowError):
        pass
    else:
        return to_instant(text, tz=zone, field="when")
    ctx, ref_utc = _context(reference or _PLACEHOLDER_REFERENCE, zone, prefer, dayfirst)
    found = _resolve_whole(text, ctx, ref_utc)
    if found is not None:
        expr, relative = found
        if reference is None and relative:
            raise InvalidTimeError(f"when: {value!r} is relative; pass a reference time")
        if expr.interval.start == NEG_INF:
            raise InvalidTimeError(f"when: {value!r} ({expr.kind}) has no start; name a time")
        return expr.interval.start
    # a written full date ("March 1, 2024 10:00 AM"), read as to_instant reads it; its
    # error says why not (unreadable, incomplete, an offset or year out of range)
    return to_instant(text, tz=zone, field="when")
