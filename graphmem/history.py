"""Read-side views over rows: coalesced timelines, audit history and changes.

These never touch storage; they take rows a backend returned (already filtered by
scope and time mode) and shape them.
"""

from __future__ import annotations

from datetime import datetime
from itertools import groupby

from graphmem.model import Change, Fact, FactStatus, TimelineEntry
from graphmem.store.protocol import ChangeAxis
from graphmem.time.instant import POS_INF


def status_of(row: Fact, now: datetime) -> FactStatus:
    """How a row stands: believed and valid now, believed but over, or ended by an operation."""
    if row.expired_at < POS_INF:
        return {"retracted": "retracted", "corrected": "corrected"}.get(
            row.expired_by or "", "superseded"
        )
    return "current" if row.valid_to > now else "ended"


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
            if (
                last is not None
                and last.predicate == row.predicate
                and last.subject == row.subject
                and last.object == row.object
                and row.valid_from <= last.valid_to
            ):
                end = max(last.valid_to, row.valid_to)
                entries[-1] = last.model_copy(
                    update={
                        "valid_to": end,
                        "fact_ids": tuple(dict.fromkeys(last.fact_ids + (row.fact_id,))),
                        "status": "current" if end > now else "ended",
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


def changes(rows: list[Fact], start: datetime, end: datetime, axis: ChangeAxis) -> list[Change]:
    """Turn rows a backend found changed in ``(start, end]`` into ordered ``Change`` entries."""
    out: list[Change] = []
    for row in rows:
        if axis == "recorded":
            if start < row.recorded_at <= end:
                out.append(Change(at=row.recorded_at, kind="learned", fact=row))
            if start < row.expired_at <= end:
                reason = status_of(row, row.expired_at)
                out.append(Change(at=row.expired_at, kind="unlearned", reason=reason, fact=row))
        else:
            if start < row.valid_from <= end:
                out.append(Change(at=row.valid_from, kind="started", fact=row))
            if start < row.valid_to <= end:
                out.append(Change(at=row.valid_to, kind="ended", fact=row))
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
