"""Periods and calendar arithmetic, and what a resolver may consult (:class:`Ctx`).

Periods are naive wall-clock datetimes in the calendar zone; :class:`Ctx` converts them
to UTC. A period is ``[start, end)`` with a grain.

>>> from datetime import datetime
>>> p = period_of(datetime(2024, 5, 15, 14, 30), "week")
>>> (p.start.date().isoformat(), p.end.date().isoformat(), p.grain)
('2024-05-13', '2024-05-20', 'week')
>>> [(q.start.month, q.end.month) for q in (part_of(period_of(datetime(2024, 5, 1), "year"), w)
...                                          for w in ("early", "mid", "late"))]
[(1, 5), (5, 9), (9, 1)]
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime, timedelta, tzinfo

from dateutil.relativedelta import relativedelta

from graphmem.time.instant import ONE_MICROSECOND
from graphmem.time.natural.expression import TimeExpression


@dataclass(frozen=True, slots=True)
class Period:
    start: datetime
    end: datetime
    grain: str
    kind: str = "point"  # "range" when the phrase itself is a range ("2019-2021")
    inferred: bool = False  # placed by the past/future rule (no year, no week given)


STEP = {
    "day": relativedelta(days=1),
    "week": relativedelta(weeks=1),
    "month": relativedelta(months=1),
    "season": relativedelta(months=3),
    "year": relativedelta(years=1),
    "decade": relativedelta(years=10),
}
_SUBUNIT = {"year": "month", "season": "month", "month": "day", "week": "day", "decade": "year"}


def floor_to(t: datetime, grain: str) -> datetime:
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


def period_of(t: datetime, grain: str) -> Period:
    start = floor_to(t, grain)
    return Period(start, start + STEP[grain], grain)


def instant_period(t: datetime) -> Period:
    return Period(t, t + ONE_MICROSECOND, "instant")


def part_of(period: Period | None, which: str) -> Period | None:
    """Thirds ("early", "mid", "late") or halves ("first", "second") of a period."""
    if period is None or period.kind != "point" or period.grain not in _SUBUNIT:
        return None
    sub = _SUBUNIT[period.grain]
    edges = [period.start]
    while edges[-1] < period.end:
        edges.append(edges[-1] + STEP[sub])
    n = len(edges) - 1
    third, half = n // 3, n // 2
    lo, hi = {
        "early": (0, third),
        "mid": (third, n - third),
        "late": (n - third, n),
        "first": (0, half),
        "second": (half, n),
    }[which]
    return Period(edges[lo], edges[hi], sub, inferred=period.inferred)


# (text, reference, tz=...) -> the time phrases of text
Finder = Callable[..., list[TimeExpression]]


@dataclass(frozen=True, slots=True)
class Ctx:
    """What a resolver may consult. Reading ``ref`` (or the default anchor) marks the
    phrase as relative, which :func:`parse_when` needs to know.

    ``find`` is :func:`~graphmem.time.natural.api.find_time_expressions`, handed down by
    the reader: the grammar is recursive ("the week of <a date>") and a resolver reads
    the inner phrase through it, so no module here imports the one above it."""

    local_ref: datetime
    zone: tzinfo
    prefer: str
    dayfirst: bool
    find: Finder
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

    def anchored(self, anchor: datetime, direction: str) -> Ctx:
        return replace(self, local_anchor=anchor, anchor_direction=direction)

    def to_utc(self, t: datetime) -> datetime:
        return t.replace(tzinfo=self.zone).astimezone(UTC)

    def from_utc(self, t: datetime) -> datetime:
        return t.astimezone(self.zone).replace(tzinfo=None)


def nearest(make: Callable[[int], Period], ctx: Ctx, keys: range | None = None) -> Period:
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
