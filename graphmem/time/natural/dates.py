"""Resolvers of calendar phrases: months, dates, numeric dates, years, decades, seasons,
quarters, "the week of ...", "January last year", "the last day of 2023".

Year-less phrases are placed by the past/future rule (:func:`~.periods.nearest`).

>>> from graphmem.time.natural import resolve_time
>>> from graphmem.time.instant import to_instant
>>> str(resolve_time("winter 2022", to_instant("2024-05-15")).interval)
'[2022-12-01T00:00:00Z, 2023-03-01T00:00:00Z)'
"""

from __future__ import annotations

import re
from datetime import datetime, timedelta
from functools import partial

from dateutil import parser as date_parser
from dateutil.relativedelta import relativedelta

from graphmem.time.natural.lexicon import (
    PARTS,
    REL,
    SEASON_START,
    day_of,
    may_is_verb,
    month_of,
    words_of,
    year_of,
)
from graphmem.time.natural.periods import (
    Ctx,
    Period,
    floor_to,
    instant_period,
    nearest,
    part_of,
    period_of,
)


def _month_period(year: int, month: int) -> Period:
    return period_of(datetime(year, month, 1), "month")


def resolve_rel_month(m: re.Match, ctx: Ctx) -> Period | None:
    if may_is_verb(m):
        return None
    n, month, current = REL[words_of(m["rel"])], month_of(m), floor_to(ctx.ref, "month")
    year = current.year
    if n < 0 and month >= current.month:
        year -= 1
    elif n > 0 and month <= current.month:
        year += 1
    return _month_period(year, month)


def resolve_month_year(m: re.Match, ctx: Ctx) -> Period:
    return _month_period(year_of(m["year"]), month_of(m))


def resolve_month(m: re.Match, ctx: Ctx) -> Period | None:
    if may_is_verb(m):
        return None
    return nearest(partial(_month_period, month=month_of(m)), ctx)


def resolve_date(m: re.Match, ctx: Ctx) -> Period | None:
    month, day = month_of(m), day_of(m["day"])
    if m["year"]:
        return period_of(datetime(year_of(m["year"]), month, day), "day")
    if may_is_verb(m):
        return None
    return nearest(lambda y: period_of(datetime(y, month, day), "day"), ctx)


def resolve_ordinal_day(m: re.Match, ctx: Ctx) -> Period:
    """ "on the 14th": that day of the month the preference picks around the anchor (the
    last 14th for the past, the next for the future). A month said just before in the same
    text wins over it (``api.find_time_expressions``: "keys on 10th March, move on the 14th")."""
    day, anchor = day_of(m["dn"]), ctx.anchor
    here = anchor.year * 12 + anchor.month - 1
    return nearest(
        lambda k: period_of(datetime(k // 12, k % 12 + 1, day), "day"),
        ctx,
        range(here - 2, here + 3),
    )


def resolve_day_range(m: re.Match, ctx: Ctx) -> Period | None:
    month, first, last = month_of(m), day_of(m["day"]), int(m["day2"])

    def make(year: int) -> Period:
        start, end = datetime(year, month, first), datetime(year, month, last)
        return Period(start, end + timedelta(days=1), "day", kind="range")

    if first >= last:
        return None
    return make(year_of(m["year"])) if m["year"] else nearest(make, ctx)


def resolve_iso(m: re.Match, ctx: Ctx) -> Period:
    if m["time"] is None:
        return period_of(datetime(int(m["y"]), int(m["mo"]), int(m["d"])), "day")
    parsed = date_parser.isoparse(m.group(0).replace(" ", "T"))
    return instant_period(ctx.from_utc(parsed) if parsed.tzinfo else parsed)


def resolve_iso_month(m: re.Match, ctx: Ctx) -> Period:
    return _month_period(int(m["y"]), int(m["mo"] or m["mo2"]))


def resolve_ymd(m: re.Match, ctx: Ctx) -> Period:
    return period_of(datetime(int(m["y"]), int(m["mo"]), int(m["d"])), "day")


def resolve_numeric_date(m: re.Match, ctx: Ctx) -> Period:
    a, b, year = int(m["a"]), int(m["b"]), year_of(m["y"])
    dayfirst = ctx.dayfirst or m["sep"] == "."
    if a > 12 or (dayfirst and b <= 12):
        day, month = a, b
    else:
        month, day = a, b
    return period_of(datetime(year, month, day), "day")


def resolve_numeric_day(m: re.Match, ctx: Ctx) -> Period | None:
    """ "Deadline is 03/31", "went live on 5/15": a numeric day without its year, placed
    by the past/future rule; month first unless the first number cannot be a month (or
    the locale reads day first). "24/7" and "10/10" are not days."""
    if m.group(0) in ("24/7", "10/10"):
        return None
    a, b = int(m["a"]), int(m["b"])
    if a > 12 or (ctx.dayfirst and b <= 12):
        day, month = a, b
    else:
        month, day = a, b
    return nearest(lambda y: period_of(datetime(y, month, day), "day"), ctx)


def resolve_year(m: re.Match, ctx: Ctx) -> Period:
    return period_of(datetime(year_of(m["year"]), 1, 1), "year")


def resolve_year_range(m: re.Match, ctx: Ctx) -> Period | None:
    first, second = int(m["y1"]), m["y2"]
    last = int(second) if len(second) == 4 else first - first % 100 + int(second)
    if last <= first:
        return None
    return Period(datetime(first, 1, 1), datetime(last + 1, 1, 1), "year", kind="range")


def _decade_period(year: int) -> Period:
    return period_of(datetime(year, 1, 1), "decade")


def resolve_decade(m: re.Match, ctx: Ctx) -> Period:
    return _decade_period(int(m["dec"]) * 10)


def resolve_short_decade(m: re.Match, ctx: Ctx) -> Period:
    """Two-digit decades ("the 90s"): the 1890s, 1990s or 2090s, by the past/future rule."""
    base = ctx.anchor.year - ctx.anchor.year % 100 + int(m["d"]) * 10
    return nearest(_decade_period, ctx, range(base - 200, base + 201, 100))


def resolve_short_decade_part(m: re.Match, ctx: Ctx) -> Period | None:
    return part_of(resolve_short_decade(m, ctx), PARTS[m["part"].lower()])


def _season_period(year: int, season: str) -> Period:
    start = datetime(year, SEASON_START[season], 1)
    return Period(start, start + relativedelta(months=3), "season")


def _season(m: re.Match) -> str:
    return m["season"].lower()


def resolve_season_year(m: re.Match, ctx: Ctx) -> Period:
    return _season_period(year_of(m["year"]), _season(m))


def resolve_rel_season(m: re.Match, ctx: Ctx) -> Period:
    n, ref = REL[words_of(m["rel"])], ctx.ref
    near = [_season_period(y, _season(m)) for y in range(ref.year - 2, ref.year + 3)]
    if n < 0:
        return max((p for p in near if p.end <= ref), key=lambda p: p.start)
    if n > 0:
        return min((p for p in near if p.start > ref), key=lambda p: p.start)
    for p in near:
        if p.start <= ref < p.end:
            return p
    return next(p for p in near if p.start.year == ref.year)


def resolve_season(m: re.Match, ctx: Ctx) -> Period:
    return nearest(partial(_season_period, season=_season(m)), ctx)


def resolve_season_before_last(m: re.Match, ctx: Ctx) -> Period:
    """ "the summer before last": two summers back."""
    ref = ctx.ref
    past = [_season_period(y, _season(m)) for y in range(ref.year - 3, ref.year + 1)]
    return sorted((p for p in past if p.end <= ref), key=lambda p: p.start)[-2]


def resolve_just_gone(m: re.Match, ctx: Ctx) -> Period:
    """ "the summer just gone", "this past winter": the latest one already over."""
    ref = ctx.ref
    past = [_season_period(y, _season(m)) for y in range(ref.year - 2, ref.year + 1)]
    return max((p for p in past if p.end <= ref), key=lambda p: p.start)


def resolve_quarter(m: re.Match, ctx: Ctx) -> Period:
    """ "Q3 2024", "the first quarter of 2025", "H1 2023", "the second half of 2024"."""
    g = m.groupdict()
    year = year_of(g["year"]) if g.get("year") else ctx.ref.year
    which = (g.get("q") or g.get("h") or g.get("qw") or "").lower()
    order = {"1": 1, "2": 2, "3": 3, "4": 4, "first": 1, "second": 2, "third": 3, "fourth": 4,
             "last": 4}  # fmt: skip
    n = order[which]
    months = 6 if (g.get("h") or g.get("half")) else 3
    if months == 6 and which == "last":
        n = 2
    start = datetime(year, 1 + (n - 1) * months, 1)
    return Period(start, start + relativedelta(months=months), "month")


def resolve_split_season(m: re.Match, ctx: Ctx) -> Period:
    """ "winter 23/24", "winter 2023-24": the winter that starts in the first year."""
    year = year_of(m["y1"]) if len(m["y1"]) == 4 else 2000 + int(m["y1"])
    return _season_period(year, _season(m))


def resolve_week_of(m: re.Match, ctx: Ctx) -> Period | None:
    """ "the week of 2025-06-09", "the week beginning Monday 6 April": seven days from it."""
    inner = ctx.find(m["d"], ctx.to_utc(ctx.ref), tz=ctx.zone)
    if not inner or inner[0].grain not in ("day", "instant"):
        return None
    start = ctx.from_utc(inner[0].interval.start)
    start = datetime(start.year, start.month, start.day)
    return Period(start, start + timedelta(days=7), "week")


def resolve_iso_week(m: re.Match, ctx: Ctx) -> Period | None:
    """ "week 7 of 2025", "in week 5" (of the year spoken in): ISO weeks, Monday first."""
    year = m.groupdict().get("y")
    week, year = int(m["wk"]), int(year) if year else ctx.ref.year
    try:
        start = datetime.fromisocalendar(year, week, 1)
    except ValueError:  # week 53 of a year with 52
        return None
    return Period(start, start + timedelta(days=7), "week")


def resolve_month_rel_year(m: re.Match, ctx: Ctx) -> Period:
    """ "January last year", "March this year", "the December before last"."""
    month = month_of(m)
    if m["bl"]:
        past = [p for p in (_month_period(y, month) for y in range(ctx.ref.year - 3, ctx.ref.year + 1))
                if p.end <= ctx.ref]  # fmt: skip
        period = past[-2]
    else:
        period = _month_period(ctx.ref.year + REL[m["yrel"].lower()], month)
    if m["md"]:  # "1 December last year"
        day = period.start.replace(day=int(m["md"]))
        return Period(day, day + timedelta(days=1), "day")
    return period


def resolve_last_day_of(m: re.Match, ctx: Ctx) -> Period:
    """ "the last day of 2023", "the first day of 2024"."""
    year = year_of(m["year"])
    day = datetime(year, 12, 31) if m["fl"].lower() == "last" else datetime(year, 1, 1)
    return Period(day, day + timedelta(days=1), "day")
