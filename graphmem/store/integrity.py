"""The row invariants every backend's ``integrity_check`` verifies, written once."""

from __future__ import annotations

from graphmem.model import Fact
from graphmem.store.protocol import Family
from graphmem.time.bounds import TemporalBounds


def overlapping_beliefs(family: Family, rows: list[Fact]) -> list[str]:
    """Rows of one functional family believed at the same time must not overlap in valid time.
    (Set-valued families are checked per object.)"""
    problems = []
    for i, a in enumerate(rows):
        for b in rows[i + 1 :]:
            if a.object_id == b.object_id and TemporalBounds.of_row(a).admits(b):
                problems.append(f"{family}: rows {a.id} and {b.id} overlap")
    return problems
