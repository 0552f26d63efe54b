"""The time side of every read: which rows a query sees, on both axes.

Modelled on XTDB's ``TemporalBounds``. A read carries two half-open intervals, one of
valid time and one of recorded (transaction) time; a row is visible when its valid
interval ``[valid_from, valid_to)`` overlaps the first and its recorded interval
``[recorded_at, expired_at)`` overlaps the second. An instant is a one-microsecond
interval, so "valid at t" and "believed at T" are overlaps too; the current belief is
the last microsecond before ``POS_INF``, which only rows never expired reach.

That one declaration (two overlaps) is compiled here, and only here, into what each
engine needs: a row predicate (``admits``), a numpy mask over microsecond columns
(``mask``), a parameterised Cypher condition (``cypher``) and the words shown to users
(``describe``). ``Changes`` does the same for "what changed in ``(since, until]``".

>>> from graphmem.time.instant import to_instant
>>> b = TemporalBounds.as_of(to_instant("2024-03-01"), known_at=to_instant("2024-06-01"))
>>> b.describe()
'valid at 2024-03-01, as known at 2024-06-01'
>>> b.cypher({"valid_from": "f.vf", "valid_to": "f.vt",
...           "recorded_at": "f.ra", "expired_at": "f.ea"})[0]
'f.vf <= $tb_valid AND $tb_valid < f.vt AND f.ra <= $tb_recorded AND $tb_recorded < f.ea'
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any, Literal, Protocol

import numpy as np

from graphmem.time.instant import NEG_INF, POS_INF, format_instant, to_micros
from graphmem.time.interval import Interval

MICROSECOND = timedelta(microseconds=1)
ALWAYS = Interval(NEG_INF, POS_INF)
LAST_INSTANT = POS_INF - MICROSECOND
CURRENT_BELIEF = Interval(LAST_INSTANT, POS_INF)  # reached only by rows never expired

Axis = Literal["valid", "recorded"]
COLUMNS: dict[Axis, tuple[str, str]] = {
    "valid": ("valid_from", "valid_to"),
    "recorded": ("recorded_at", "expired_at"),
}


class TimedRow(Protocol):
    """Anything with the four time columns (a fact row; an episode seen as one)."""

    valid_from: datetime
    valid_to: datetime
    recorded_at: datetime
    expired_at: datetime


def point(t: datetime) -> Interval:
    """The one-microsecond interval of instant ``t``; ``POS_INF`` is the last microsecond."""
    t = min(t, LAST_INSTANT)
    return Interval(t, t + MICROSECOND)


def cypher_datetime(t: datetime) -> str:
    """A Cypher DateTime literal; the sentinels as Neo4j stores them."""
    text = t.astimezone(UTC).isoformat().replace("+00:00", "Z")
    return f"datetime('{text}')"


def well_formed_cypher(columns: Mapping[str, str]) -> str:
    """:meth:`Interval.well_formed` of a row's two intervals as a Cypher condition over
    the expressions ``columns`` names (the stored ends are DateTimes, aware by type, so
    the order of each pair is what is left to test).

    >>> well_formed_cypher({"valid_from": "f.vf", "valid_to": "f.vt",
    ...                     "recorded_at": "f.ra", "expired_at": "f.ea"})
    'f.vf < f.vt AND f.ra < f.ea'
    """
    return " AND ".join(f"{columns[start]} < {columns[end]}" for start, end in COLUMNS.values())


def _day(t: datetime) -> str:
    text = format_instant(t)
    return text[:10] if text.endswith("T00:00:00Z") else text


@dataclass(frozen=True, slots=True)
class TemporalBounds:
    """Which rows a read sees: valid interval x recorded interval.

    The default is everything the store believes now, whatever its valid time.
    """

    valid: Interval = ALWAYS
    recorded: Interval = CURRENT_BELIEF

    # -- builders -----------------------------------------------------------------
    @classmethod
    def current(cls, now: datetime) -> TemporalBounds:
        """What is true at ``now``, as best known now."""
        return cls(valid=point(now))

    @classmethod
    def as_of(cls, t: datetime, *, known_at: datetime = POS_INF) -> TemporalBounds:
        """What was true at ``t``, as believed at ``known_at`` (default: now)."""
        return cls(valid=point(t), recorded=point(known_at))

    @classmethod
    def known_at(cls, known_at: datetime) -> TemporalBounds:
        """Everything believed at ``known_at``, whatever its valid time."""
        return cls(recorded=point(known_at))

    @classmethod
    def during(cls, window: Interval, *, known_at: datetime = POS_INF) -> TemporalBounds:
        """What was true at some time in ``window``, as believed at ``known_at``."""
        return cls(valid=window, recorded=point(known_at))

    @classmethod
    def history(cls, valid: Interval = ALWAYS) -> TemporalBounds:
        """Every row ever recorded (also those no longer believed) whose valid time
        overlaps ``valid``."""
        return cls(valid=valid, recorded=ALWAYS)

    @classmethod
    def of_row(cls, row: TimedRow) -> TemporalBounds:
        """A row's own rectangle: the rows it admits are those overlapping it in both
        valid and recorded time (two beliefs of one key that must not coexist)."""
        return cls(
            Interval(row.valid_from, row.valid_to), Interval(row.recorded_at, row.expired_at)
        )

    # -- what the bounds say --------------------------------------------------------
    @property
    def belief(self) -> datetime | None:
        """The transaction instant read (``POS_INF``: the current belief); ``None``
        when more than one instant is read (history)."""
        if self.recorded == CURRENT_BELIEF:
            return POS_INF
        return (
            self.recorded.start if self.recorded.end - self.recorded.start == MICROSECOND else None
        )

    @property
    def is_history(self) -> bool:
        return self.recorded.end - self.recorded.start > MICROSECOND

    # -- compilations ---------------------------------------------------------------
    def _overlaps(self) -> list[tuple[Axis, Interval]]:
        """The declaration: one overlap per axis that restricts anything."""
        return [(axis, iv) for axis, iv in (("valid", self.valid), ("recorded", self.recorded))
                if iv != ALWAYS]  # fmt: skip

    def admits(self, row: TimedRow) -> bool:
        """The row predicate: is ``row`` visible?"""
        for axis, iv in self._overlaps():
            start, end = (getattr(row, c) for c in COLUMNS[axis])
            if not (start < iv.end and iv.start < end):
                return False
        return True

    def mask(self, columns: Mapping[str, np.ndarray]) -> np.ndarray:
        """The numpy compilation over int64 microsecond columns named as the row's."""
        n = len(next(iter(columns.values())))
        out = np.ones(n, dtype=bool)
        for axis, iv in self._overlaps():
            start, end = (columns[c] for c in COLUMNS[axis])
            out &= (start < to_micros(iv.end)) & (to_micros(iv.start) < end)
        return out

    def cypher(self, columns: Mapping[str, str], prefix: str = "tb") -> tuple[str, dict[str, Any]]:
        """The Cypher compilation: a condition over the expressions ``columns`` names
        (e.g. ``{"valid_from": "f.valid_from", ...}``) and its parameters (``"true"``
        when nothing is restricted). Forms equal to the overlap, chosen so that range
        indexes serve them: the current belief is the equality on the sentinel (instants
        are whole microseconds), a point ``p`` is ``from <= p < to``, and a bound that
        reaches an open end drops the test that end makes always true."""
        conditions: list[str] = []
        params: dict[str, Any] = {}
        for axis, iv in self._overlaps():
            start, end = (columns[c] for c in COLUMNS[axis])
            name = f"{prefix}_{axis}"
            if iv == CURRENT_BELIEF:
                conditions.append(f"{end} = ${name}")
                params[name] = POS_INF
            elif iv.end - iv.start == MICROSECOND:
                conditions.append(f"{start} <= ${name} AND ${name} < {end}")
                params[name] = iv.start
            else:
                if iv.end != POS_INF:
                    conditions.append(f"{start} < ${name}_hi")
                    params[f"{name}_hi"] = iv.end
                if iv.start != NEG_INF:
                    conditions.append(f"${name}_lo < {end}")
                    params[f"{name}_lo"] = iv.start
        return " AND ".join(conditions) or "true", params

    def sql(self, columns: Mapping[str, str]) -> tuple[str, list[int]]:
        """The SQL compilation over integer microsecond columns (the embedded store's):
        a condition over the column names ``columns`` gives and its positional
        parameters (``"1"`` when nothing is restricted); the current belief is the
        equality on the sentinel, which the column's index can serve.

        >>> TemporalBounds().sql({"valid_from": "vf", "valid_to": "vt",
        ...                       "recorded_at": "ra", "expired_at": "ea"})[0]
        'ea = ?'
        """
        conditions: list[str] = []
        params: list[int] = []
        for axis, iv in self._overlaps():
            start, end = (columns[c] for c in COLUMNS[axis])
            if iv == CURRENT_BELIEF:
                conditions.append(f"{end} = ?")
                params.append(to_micros(POS_INF))
            else:
                conditions.append(f"{start} < ? AND ? < {end}")
                params += [to_micros(iv.end), to_micros(iv.start)]
        return " AND ".join(conditions) or "1", params

    def cypher_text(
        self, columns: Mapping[str, str], expressions: Mapping[str, str] | None = None
    ) -> str:
        """The Cypher condition with its parameters written in as literals, for queries
        a person pastes (Neo4j Browser). ``expressions`` replaces a parameter by a Cypher
        expression instead, e.g. ``{"tb_valid": "datetime()"}``: valid when the query runs.
        """
        condition, params = self.cypher(columns)
        expressions = expressions or {}
        for name in sorted(params, key=len, reverse=True):  # $tb_valid_lo before $tb_valid
            text = expressions.get(name) or cypher_datetime(params[name])
            condition = condition.replace(f"${name}", text)
        return condition

    def describe(self) -> str:
        """The words shown to users for this read."""
        if self.valid == ALWAYS:
            valid = "all valid time"
        elif self.valid.end - self.valid.start == MICROSECOND:
            valid = f"valid at {_day(self.valid.start)}"
        else:
            valid = f"valid during {_day(self.valid.start)} to {_day(self.valid.end)}"
        if self.is_history:
            return f"history ({valid}, every row ever recorded)"
        belief = self.belief
        if belief == POS_INF:
            return "current belief" if self.valid == ALWAYS else valid
        return f"{valid}, as known at {_day(belief)}"


def row_status(row: TimedRow, expired_by: str | None, now: datetime) -> str:
    """How a row stands at ``now``: "current" (believed, valid now or later), "ended"
    (believed, over), or what ended its belief: "retracted", "corrected", else
    "superseded"."""
    if not TemporalBounds().admits(row):
        return expired_by if expired_by in ("retracted", "corrected") else "superseded"
    return "current" if TemporalBounds(valid=Interval.since(now)).admits(row) else "ended"


@dataclass(frozen=True, slots=True)
class Changes:
    """Rows that changed in ``(since, until]``: on the recorded axis, rows recorded or
    expired then (what the store learned); on the valid axis, rows believed at
    ``known_at`` whose valid interval starts or ends then (what changed in the world).

    >>> from graphmem.time.instant import to_instant
    >>> Changes(to_instant("2024-01-01"), to_instant("2024-02-01"), "valid").describe()
    'changed in the world in (2024-01-01, 2024-02-01], current belief'
    """

    since: datetime
    until: datetime
    axis: Axis
    known_at: datetime = POS_INF

    def _belief(self) -> TemporalBounds:
        return (
            TemporalBounds.known_at(self.known_at)
            if self.axis == "valid"
            else TemporalBounds.history()
        )

    def admits(self, row: TimedRow) -> bool:
        ends = (getattr(row, c) for c in COLUMNS[self.axis])
        return self._belief().admits(row) and any(self.since < t <= self.until for t in ends)

    def cypher(self, columns: Mapping[str, str], prefix: str = "ch") -> tuple[str, dict[str, Any]]:
        belief, params = self._belief().cypher(columns, prefix)
        ends = [f"(${prefix}_since < {columns[c]} AND {columns[c]} <= ${prefix}_until)"
                for c in COLUMNS[self.axis]]  # fmt: skip
        params |= {f"{prefix}_since": self.since, f"{prefix}_until": self.until}
        return f"{belief} AND ({' OR '.join(ends)})", params

    def sql(self, columns: Mapping[str, str]) -> tuple[str, list[int]]:
        """The SQL compilation (see ``TemporalBounds.sql``)."""
        belief, params = self._belief().sql(columns)
        ends = [f"(? < {columns[c]} AND {columns[c]} <= ?)" for c in COLUMNS[self.axis]]
        window = [to_micros(self.since), to_micros(self.until)]
        return f"{belief} AND ({' OR '.join(ends)})", params + window * len(ends)

    def moments(self, row: TimedRow) -> list[tuple[datetime, str]]:
        """Where ``row`` changed inside the window: ``(instant, kind)`` with kind
        "learned"/"unlearned" (recorded axis) or "started"/"ended" (valid axis)."""
        names = ("learned", "unlearned") if self.axis == "recorded" else ("started", "ended")
        ends = (getattr(row, c) for c in COLUMNS[self.axis])
        return [
            (t, kind) for t, kind in zip(ends, names, strict=True) if self.since < t <= self.until
        ]

    def describe(self) -> str:
        what = "learned" if self.axis == "recorded" else "changed in the world"
        window = f"({_day(self.since)}, {_day(self.until)}]"
        tail = "" if self.axis == "recorded" else f", {self._belief().describe()}"
        return f"{what} in {window}{tail}"
