"""Half-open intervals ``[start, end)`` over instants; the only interval arithmetic in graphmem.

>>> from graphmem.time.instant import to_instant
>>> a = Interval(to_instant("2024-01-01"), to_instant("2024-03-01"))
>>> b = Interval(to_instant("2024-02-01"), to_instant("2024-06-01"))
>>> a.overlaps(b), a.contains(to_instant("2024-03-01"))
(True, False)
>>> [str(piece) for piece in a.minus(b)]
['[2024-01-01T00:00:00Z, 2024-02-01T00:00:00Z)']
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from graphmem.errors import EmptyIntervalError
from graphmem.time.instant import NEG_INF, POS_INF, format_instant


@dataclass(frozen=True, slots=True)
class Clipped:
    """A stretch cut to a window, for drawing: its ends inside the window and which ends
    were cut (an arrow on a picture).

    >>> from graphmem.time.instant import to_instant
    >>> c = clip(NEG_INF, to_instant("2024-06-01"), to_instant("2024-01-01"), to_instant("2025-01-01"))
    >>> format_instant(c.start)[:10], c.cut_start, c.cut_end
    ('2024-01-01', True, False)
    """

    start: datetime
    end: datetime
    cut_start: bool
    cut_end: bool

    @property
    def visible(self) -> bool:
        """Whether anything of the stretch lies in the window."""
        return self.start < self.end


def clip(start: datetime, end: datetime, lo: datetime, hi: datetime) -> Clipped:
    """``[start, end)`` cut to the window ``[lo, hi]``."""
    return Clipped(max(start, lo), min(end, hi), start < lo, end > hi)


def touches(start: datetime, end: datetime, other_start: datetime, other_end: datetime) -> bool:
    """Whether two stretches overlap or meet end to start (one bar when drawn)."""
    return start <= other_end and other_start <= end


@dataclass(frozen=True, slots=True, order=True)
class Interval:
    """A non-empty half-open interval of aware UTC instants; open ends are the sentinels."""

    start: datetime
    end: datetime

    def __post_init__(self) -> None:
        if self.start.tzinfo is None or self.end.tzinfo is None:
            raise EmptyIntervalError("interval ends must be timezone-aware")
        if not self.start < self.end:
            raise EmptyIntervalError(
                f"empty interval [{format_instant(self.start)}, {format_instant(self.end)}): "
                "the start must be before the end"
            )

    @staticmethod
    def well_formed(start: datetime, end: datetime) -> bool:
        """Would ``Interval(start, end)`` be accepted (aware, start before end)?"""
        return start.tzinfo is not None and end.tzinfo is not None and start < end

    @classmethod
    def always(cls) -> Interval:
        return cls(NEG_INF, POS_INF)

    @classmethod
    def since(cls, start: datetime) -> Interval:
        return cls(start, POS_INF)

    @classmethod
    def until(cls, end: datetime) -> Interval:
        return cls(NEG_INF, end)

    def contains(self, t: datetime) -> bool:
        """Visible at ``start``, invisible at ``end``."""
        return self.start <= t < self.end

    def overlaps(self, other: Interval) -> bool:
        return self.start < other.end and other.start < self.end

    def covers(self, other: Interval) -> bool:
        return self.start <= other.start and other.end <= self.end

    def intersect(self, other: Interval) -> Interval | None:
        start, end = max(self.start, other.start), min(self.end, other.end)
        return Interval(start, end) if start < end else None

    def minus(self, other: Interval) -> list[Interval]:
        """The parts of ``self`` outside ``other`` (0, 1 or 2 pieces): the temporal leftovers."""
        if not self.overlaps(other):
            return [self]
        pieces = []
        if self.start < other.start:
            pieces.append(Interval(self.start, other.start))
        if other.end < self.end:
            pieces.append(Interval(other.end, self.end))
        return pieces

    def meets(self, other: Interval) -> bool:
        """True when ``self`` ends exactly where ``other`` starts (adjacent, no gap)."""
        return self.end == other.start

    @property
    def is_open_ended(self) -> bool:
        return self.end == POS_INF

    def __str__(self) -> str:
        return f"[{format_instant(self.start)}, {format_instant(self.end)})"


def subtract_all(interval: Interval, holes: list[Interval]) -> list[Interval]:
    """``interval`` minus every hole, as sorted disjoint pieces."""
    pieces = [interval]
    for hole in holes:
        pieces = [part for piece in pieces for part in piece.minus(hole)]
    return sorted(pieces)


def coalesce(intervals: list[Interval]) -> list[Interval]:
    """Merge overlapping or adjacent intervals into sorted disjoint ones."""
    merged: list[Interval] = []
    for iv in sorted(intervals):
        if merged and iv.start <= merged[-1].end:
            last = merged[-1]
            merged[-1] = Interval(last.start, max(last.end, iv.end))
        else:
            merged.append(iv)
    return merged
