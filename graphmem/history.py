"""Read-side views over rows: coalesced timelines, audit history and changes.

These never touch storage; they take rows a backend returned (already filtered by
scope and time mode) and shape them.
"""

from __future__ import annotations

from datetime import datetime
from itertools import groupby

from graphmem.model import Change, Fact, FactStatus, TimelineEntry
from graphmem.time.bounds import Changes, row_status
from graphmem.time.interval import Interval, coalesce


def status_of(row: Fact, now: datetime) -> FactStatus:
    """How a row stands: believed and valid now, believed but over, or ended by an operation."""
    return row_status(row, row.expired_by, now)  # type: ignore[return-value]


def timeline(rows: list[Fact], now: datetime) -> list[TimelineEntry]:
    """Coalesce believed rows into one entry per adjacent or overlapping run of a value.

    ``rows`` must be the rows of one belief (one ``known_at``), so values of a functional
    key never overlap; adjacent pieces of the same value (temporal leftovers) merge.
    """
    entries: list[TimelineEntry] = []
    key = lambda r: (r.predicate, r.subject_id)  # noqa: E731
    for _, group in groupby(sorted(rows, key=lambda r: (key(r), r.valid_from)), key=key):
        for row in group:
            last = entries[-1] if entries else None
            piece = Interval(row.valid_from, row.valid_to)
            joined = (
                coalesce([Interval(last.valid_from, last.valid_to), piece])
                if last is not None
                and (last.predicate, last.subject, last.object)
                == (row.predicate, row.subject, row.object)
                else []
            )
            if len(joined) == 1:  # overlapping or adjacent: one run of the value
                entries[-1] = last.model_copy(
                    update={
                        "valid_to": joined[0].end,
                        "fact_ids": tuple(dict.fromkeys(last.fact_ids + (row.fact_id,))),
                        "status": "current" if joined[0].overlaps(Interval.since(now)) else "ended",
                    }
                )
            else:
                entries.append(
                    TimelineEntry(
                        subject=row.subject,
                        predicate=row.predicate,
                        object=row.object,
                        valid_from=row.valid_from,
                        valid_to=row.valid_to,
                        fact_ids=(row.fact_id,),
                        status=status_of(row, now),
                    )
                )
    return sorted(entries, key=lambda e: (e.predicate, e.valid_from, e.object))


def changes(rows: list[Fact], window: Changes) -> list[Change]:
    """Turn rows a backend found changed in the window into ordered ``Change`` entries."""
    out: list[Change] = []
    for row in rows:
        for at, kind in window.moments(row):
            reason = status_of(row, at) if kind == "unlearned" else None
            out.append(Change(at=at, kind=kind, reason=reason, fact=row))
    # A temporal leftover re-records part of a fact that was just unlearned: say so.
    unlearned = {(c.at, c.fact.fact_id) for c in out if c.kind == "unlearned"}
    out = [
        c.model_copy(update={"reason": "narrowed"})
        if c.kind == "learned" and (c.at, c.fact.fact_id) in unlearned
        else c
        for c in out
    ]
    return sorted(
        out, key=lambda c: (c.at, c.kind != "unlearned", c.fact.subject, c.fact.predicate)
    )
