"""The bitemporal row logic: how a write changes the rows of one key. The single source of truth.

A *key* holds rows ``(value, valid interval)``; the rows believed now (``expired_at``
open) never overlap in valid time. A write never edits a row: it *expires* rows and
*inserts* new ones, re-inserting the untouched parts of an expired row's valid interval
(the temporal leftovers, as SQL:2011 ``FOR PORTION OF`` and XTDB do).

Both backends read a key's current rows, run one of these plans, and write the result
in one transaction, so they cannot disagree.

>>> from graphmem.time.instant import to_instant as t
>>> state = KeyState([CurrentRow("r1", "Paris", Interval.since(t("2019-01-01")))])
>>> state.supersede("Berlin", t("2022-01-01"))
>>> [(r.value, str(r.valid)) for r in state.plan().insert]
[('Paris', '[2019-01-01T00:00:00Z, 2022-01-01T00:00:00Z)'), ('Berlin', '[2022-01-01T00:00:00Z, inf)')]
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field
from datetime import datetime

from graphmem.errors import ConflictError, TransactionTimeError
from graphmem.time.instant import ONE_MICROSECOND, POS_INF, format_instant
from graphmem.time.interval import Interval, coalesce, subtract_all


@dataclass(frozen=True, slots=True)
class CurrentRow:
    """A row of a key as the planner sees it: its id, value and valid interval, and
    whether its start is a stated change point (a supersession began there)."""

    row_id: str
    value: str
    valid: Interval
    change_point: bool = False


@dataclass(frozen=True, slots=True)
class NewRow:
    """A row to insert: a leftover of the stored row ``source``, or a new fact made by
    ``origin`` (whatever the caller passed to ``put``, e.g. the operation)."""

    value: str
    valid: Interval
    source: str | None = None
    origin: object = None
    change_point: bool = False


@dataclass(frozen=True, slots=True)
class Plan:
    """What a write does to one key: rows to expire, rows to insert."""

    expire: tuple[str, ...] = ()
    insert: tuple[NewRow, ...] = ()

    @property
    def is_noop(self) -> bool:
        return not self.expire and not self.insert


@dataclass
class KeyState:
    """A key's current rows, changed by operations; ``plan()`` gives the net effect.

    Rows inserted and then removed again by later steps of the same write never appear
    in the plan, so one call that does several steps is still one clean change.
    """

    rows: list[CurrentRow]
    _expired: list[str] = field(default_factory=list)
    _fresh: dict[str, NewRow] = field(default_factory=dict)
    _ids: itertools.count = field(default_factory=itertools.count)

    def __post_init__(self) -> None:
        self.rows = sorted(self.rows, key=lambda r: r.valid)

    # -- primitive steps ---------------------------------------------------------------
    def _remove(self, row: CurrentRow) -> None:
        self.rows.remove(row)
        if row.row_id in self._fresh:
            del self._fresh[row.row_id]
        else:
            self._expired.append(row.row_id)

    def _add(
        self, value: str, valid: Interval, source: str | None, origin: object, change_point: bool
    ) -> None:
        row_id = f"\x00new{next(self._ids)}"
        self._fresh[row_id] = NewRow(value, valid, source, origin, change_point)
        self.rows.append(CurrentRow(row_id, value, valid, change_point))
        self.rows.sort(key=lambda r: r.valid)

    def _lineage(self, row: CurrentRow) -> tuple[str | None, object]:
        """Where a row's content comes from: a stored row, or the origin of a fresh one."""
        fresh = self._fresh.get(row.row_id)
        return (fresh.source, fresh.origin) if fresh is not None else (row.row_id, None)

    def delete(self, window: Interval, value: str | None = None) -> list[Interval]:
        """Remove ``value`` (any value if None) over ``window``; returns what was removed."""
        removed: list[Interval] = []
        for row in [r for r in self.rows if r.valid.overlaps(window)]:
            if value is not None and row.value != value:
                continue
            source, origin = self._lineage(row)  # before removing: a fresh row forgets it
            self._remove(row)
            for leftover in row.valid.minus(window):
                # Only a leftover that keeps the row's start keeps its change point.
                keeps = row.change_point and leftover.start == row.valid.start
                self._add(row.value, leftover, source, origin, keeps)
            removed.append(row.valid.intersect(window))  # type: ignore[arg-type]
        return coalesce(removed)

    def put(self, value: str, window: Interval, *, replace: bool, origin: object = None) -> None:
        """Make ``value`` hold over ``window``.

        ``replace=False`` (assert): another value overlapping the window is a conflict.
        ``replace=True`` (supersede, correct): other values are deleted over the window.
        Parts already holding ``value`` are kept as they are (idempotent).
        """
        others = [r for r in self.rows if r.valid.overlaps(window) and r.value != value]
        if others and not replace:
            clash = others[0]
            raise ConflictError(
                f"{value!r} over {window} overlaps {clash.value!r} over {clash.valid}; "
                "a functional predicate holds one value at a time: use supersede or correct"
            )
        for row in others:
            self.delete(window, row.value)
        same = [r.valid for r in self.rows if r.value == value and r.valid.overlaps(window)]
        for gap in subtract_all(window, same):
            self._add(value, gap, None, origin, False)

    # -- operations ---------------------------------------------------------------------
    def assert_value(self, value: str, window: Interval, origin: object = None) -> None:
        """``value`` holds over ``window``; another value there is a conflict."""
        self.put(value, window, replace=False, origin=origin)

    def next_change_after(self, t0: datetime) -> datetime:
        """The first recorded change after ``t0``: a stated change point (where a
        supersession began, even to the same value), or the start of a run of a value
        (runs: same value, adjacent)."""
        starts = []
        previous: CurrentRow | None = None
        for row in self.rows:
            run_continues = (
                previous is not None
                and previous.value == row.value
                and previous.valid.end == row.valid.start
            )
            if (row.change_point or not run_continues) and row.valid.start > t0:
                starts.append(row.valid.start)
            previous = row
        return min(starts, default=POS_INF)

    def supersede(self, value: str, t0: datetime, origin: object = None) -> None:
        """The world changed at ``t0``: ``value`` holds from ``t0`` until the next recorded
        change, and ``t0`` is remembered as a change point even when the value was
        already ``value`` there. So supersessions arriving in any order, late or
        back-dated, give one timeline."""
        window = Interval(t0, self.next_change_after(t0))
        self.put(value, window, replace=True, origin=origin)
        self._mark_change_point(value, t0, origin)

    def _mark_change_point(self, value: str, t0: datetime, origin: object) -> None:
        row = next(r for r in self.rows if r.valid.contains(t0))
        if row.valid.start == t0 and row.change_point:
            return
        source, lineage = self._lineage(row)
        self._remove(row)
        if row.valid.start < t0:
            left = Interval(row.valid.start, t0)
            self._add(row.value, left, source, lineage, row.change_point)
        right = Interval(t0, row.valid.end)
        if row.valid.start == t0 and row.row_id in self._fresh:
            self._add(value, right, source, lineage, True)
        else:
            self._add(value, right, None, origin, True)

    def retract(self, t0: datetime, value: str | None = None) -> list[Interval]:
        """``value`` (or whatever holds) stopped holding at ``t0``: delete over ``[t0, inf)``."""
        return self.delete(Interval.since(t0), value)

    def correct(self, window: Interval, wrong: str | None) -> list[Interval]:
        """``wrong`` (or anything) was never true over ``window``; returns the removed windows
        where the right value, if any, goes."""
        return self.delete(window, wrong)

    def plan(self) -> Plan:
        return Plan(tuple(self._expired), tuple(self._fresh.values()))


# -- transaction time -------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Clock:
    """A scope's transaction clock: the latest time a write asked for, and the latest given.

    A write may name its transaction time (a replayed log: when the turn was said) or
    take the wall clock. Asking for a time earlier than the latest one asked is rejected;
    equal or close times are nudged forward by a microsecond so transaction time is
    strictly increasing and every write has its own instant.
    """

    requested: datetime
    assigned: datetime

    def advance(self, requested: datetime) -> Clock:
        if requested < self.requested:
            raise TransactionTimeError(
                f"transaction time {format_instant(requested)} is earlier than this scope's "
                f"latest {format_instant(self.requested)}; transaction time only moves "
                "forward, so load logs in time order"
            )
        if requested >= POS_INF:
            raise TransactionTimeError("transaction time cannot be infinite")
        return Clock(requested, max(requested, self.assigned + ONE_MICROSECOND))


# -- visibility: the one definition of the query modes ----------------------------------
# Written with ``&`` so the same functions filter one row (datetimes) or a whole column
# at once (numpy arrays of microseconds, with ``inf`` the matching sentinel).


def believed_at(recorded_at, expired_at, known_at, inf=POS_INF):
    """Was the row part of the store's belief at transaction instant ``known_at``?
    ``known_at = inf`` asks for the current belief (rows never expired)."""
    if known_at >= inf:
        return expired_at >= inf
    return (recorded_at <= known_at) & (known_at < expired_at)


def valid_at(valid_from, valid_to, as_of):
    """Was the fact true in the world at ``as_of``? Visible at ``valid_from``, not at ``valid_to``."""
    return (valid_from <= as_of) & (as_of < valid_to)


def valid_overlaps(valid_from, valid_to, start, end):
    """Does the valid interval overlap the window ``[start, end)``?"""
    return (valid_from < end) & (start < valid_to)
