"""Resolvers of phrases relative to the reference: "now", "yesterday", "last week", "3 days
ago", "the past 2 weeks", "last Friday", "the weekend", "this time last year".

A resolver is ``(match, ctx) -> Period``; a ``ValueError`` (a bad date) means "not a time".

>>> from graphmem.time.natural import resolve_time
>>> from graphmem.time.instant import to_instant
>>> str(resolve_time("3 days ago", to_instant("2024-05-15T14:30:00Z")).interval)
'[2024-05-12T00:00:00Z, 2024-05-13T00:00:00Z)'
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import replace
from datetime import datetime, timedelta

from dateutil.relativedelta import relativedelta

from graphmem.time.instant import ONE_MICROSECOND
from graphmem.time.natural.lexicon import (
    REL,
    UNIT_ALIASES,
    clock_of,
    number_of,
    unit_of,
    weekday_of,
    words_of,
)
from graphmem.time.natural.periods import STEP, Ctx, Period, floor_to, instant_period, period_of

Resolver = Callable[[re.Match, Ctx], Period | None]


def resolve_clock(m: re.Match, ctx: Ctx) -> Period | None:
    clock = clock_of(m)
    return None if clock is None else instant_period(datetime.combine(ctx.ref.date(), clock))


def resolve_now(m: re.Match, ctx: Ctx) -> Period:
    return instant_period(ctx.ref)


def day_offset(offset: int) -> Resolver:
    return lambda m, ctx: period_of(ctx.ref + timedelta(days=offset), "day")


def resolve_day_word(m: re.Match, ctx: Ctx) -> Period:
    offset = {"today": 0, "tonight": 0, "yesterday": -1, "tomorrow": 1, "yday": -1, "yest": -1,
              "tmrw": 1, "tmr": 1, "tdy": 0, "2day": 0, "2moro": 1}[m["w"].lower()]  # fmt: skip
    return period_of(ctx.ref + timedelta(days=offset), "day")


def resolve_recently(m: re.Match, ctx: Ctx) -> Period:
    today = floor_to(ctx.ref, "day")
    return Period(today - timedelta(days=30), today + timedelta(days=1), "day")


def _shifted_unit(unit: str, n: int, ctx: Ctx) -> Period:
    unit = UNIT_ALIASES.get(unit, unit)  # "last wk", "this yr"
    if unit == "weekend":
        saturday = floor_to(ctx.ref, "week") + timedelta(weeks=n, days=5)
        return Period(saturday, saturday + timedelta(days=2), "day")
    return period_of(ctx.ref + STEP[unit] * n, unit)


def resolve_relative_unit(m: re.Match, ctx: Ctx) -> Period:
    return _shifted_unit(m["unit"].lower(), REL[words_of(m["rel"])], ctx)


def shifted(n: int) -> Resolver:
    return lambda m, ctx: _shifted_unit(m["unit"].lower(), n, ctx)


def resolve_earlier_later(m: re.Match, ctx: Ctx) -> Period | None:
    period = period_of(ctx.ref, m["unit"].lower())
    today = floor_to(ctx.ref, "day")
    if m["el"].lower() == "earlier":
        start, end = period.start, today
    else:
        start, end = today + timedelta(days=1), period.end
    return Period(start, end, "day") if start < end else None


def _exact_shift(ctx: Ctx, delta: relativedelta) -> datetime:
    """ref + delta in elapsed time (for hours and minutes across a DST change)."""
    return ctx.from_utc(ctx.to_utc(ctx.ref) + delta)


def resolve_count(sign: int) -> Resolver:
    """Counted units: "3 days ago" (sign -1), "in 3 days" (+1); the window around ref +- N."""

    def resolve(m: re.Match, ctx: Ctx) -> Period:
        grain, step = unit_of(m["unit"])
        delta = step * (sign * number_of(m["num"]))
        if grain == "instant":
            return instant_period(_exact_shift(ctx, delta))
        return period_of(ctx.ref + delta, grain)

    return resolve


def resolve_trailing(sign: int) -> Resolver:
    """Trailing windows, "the past 3 weeks" (-1) / "the next 3 weeks" (+1), in whole days."""

    def resolve(m: re.Match, ctx: Ctx) -> Period:
        grain, step = unit_of(m["unit"])
        num = m.groupdict().get("num")
        delta = step * (number_of(num) if num else 1)
        if grain == "instant":
            ends = sorted([ctx.ref, _exact_shift(ctx, delta * sign)])
            return Period(ends[0], ends[1] + ONE_MICROSECOND, "instant")
        today = floor_to(ctx.ref, "day")
        if sign < 0:
            return Period(floor_to(ctx.ref - delta, "day"), today + timedelta(days=1), "day")
        return Period(today, floor_to(ctx.ref + delta, "day") + timedelta(days=1), "day")

    return resolve


def resolve_rel_weekday(m: re.Match, ctx: Ctx) -> Period:
    n, wd = REL[words_of(m["rel"])], weekday_of(m)
    today = floor_to(ctx.ref, "day")
    if n == 0:
        return period_of(today + timedelta(days=wd - today.weekday()), "day")
    if n < 0:
        return period_of(today - timedelta(days=(today.weekday() - wd - 1) % 7 + 1), "day")
    return period_of(today + timedelta(days=(wd - today.weekday() - 1) % 7 + 1), "day")


def resolve_weekday_of_week(m: re.Match, ctx: Ctx) -> Period:
    monday = floor_to(ctx.ref, "week") + timedelta(weeks=REL[words_of(m["rel"])])
    return period_of(monday + timedelta(days=weekday_of(m)), "day")


def resolve_weekday(m: re.Match, ctx: Ctx) -> Period:
    wd, day = weekday_of(m), floor_to(ctx.anchor, "day")
    if ctx.direction == "past":
        day -= timedelta(days=(day.weekday() - wd) % 7)
    else:
        day += timedelta(days=(wd - day.weekday()) % 7)
    return replace(period_of(day, "day"), inferred=True)


def resolve_weekend(m: re.Match, ctx: Ctx) -> Period:
    day = floor_to(ctx.anchor, "day")
    if ctx.direction == "past":
        saturday = day - timedelta(days=(day.weekday() - 5) % 7)
    elif day.weekday() == 6:
        saturday = day - timedelta(days=1)
    else:
        saturday = day + timedelta(days=(5 - day.weekday()) % 7)
    return Period(saturday, saturday + timedelta(days=2), "day", inferred=True)


def resolve_this_time(m: re.Match, ctx: Ctx) -> Period:
    """ "this time last year": the same day, one (or n) years back."""
    n = number_of(m["num"]) if m["num"] else 1
    return period_of(ctx.ref - relativedelta(years=n), "day")
