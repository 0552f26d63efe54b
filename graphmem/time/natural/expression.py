"""What reading a time phrase gives: the phrase, where it is, its interval and grain.

>>> from graphmem.time.natural import resolve_time
>>> from graphmem.time.instant import to_instant
>>> e = resolve_time("in 2019", to_instant("2024-05-15"))
>>> (e.text, e.grain, e.kind, str(e.interval))
('in 2019', 'year', 'point', '[2019-01-01T00:00:00Z, 2020-01-01T00:00:00Z)')
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from graphmem.time.interval import Interval

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
