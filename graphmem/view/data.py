"""What the view page draws, as JSON-ready dicts, read through the ``Memory`` facade only.

Three readings: ``overview`` (the scope's extent in both times, for the sliders and a
stable layout), ``graph`` (the graph at one valid instant as believed at one
transaction instant) and ``entity`` (one entity's timeline and its bitemporal rows).
Instants are ISO strings in UTC; an open end is ``None``.

>>> from graphmem.memory import Memory
>>> mem = Memory.open(":memory:", embedder=None)
>>> _ = mem.remember("Sam", "lives_in", "Oslo", valid_from="2020-01-01", scope="s",
...                  recorded_at="2020-01-02")
>>> _ = mem.supersede("Sam", "lives_in", "Rome", since="2023-01-01", scope="s",
...                   recorded_at="2023-01-02")
>>> [e["target_label"] for e in graph(mem, scope="s", as_of="2021-06-01")["edges"]]
['Oslo']
>>> [(e["target_label"], e["status"]) for e in graph(mem, scope="s")["edges"]]
[('Rome', 'current'), ('Oslo', 'superseded')]
>>> overview(mem, scope="s")["recorded"]["stops"][:1]
['2020-01-02T00:00:00Z']
>>> mem.close()
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any

from graphmem.model import Fact
from graphmem.time.instant import NEG_INF, format_instant, is_infinite, now
from graphmem.time.interval import clip

if TYPE_CHECKING:
    from graphmem.memory import Memory

__all__ = ["EXPIRED", "entity", "graph", "overview"]

#: Statuses of a row the store no longer believes (at the ``known_at`` asked about).
EXPIRED = ("superseded", "corrected", "retracted")

#: Above this many entities the no-longer-believed facts are left out of ``graph``: they
#: take one history read per entity, and the page is for looking, not for a whole log.
MAX_HISTORY_ENTITIES = 300

When = str | datetime | None


def _iso(t: datetime) -> str | None:
    return None if is_infinite(t) else format_instant(t)


def _day(t: datetime) -> str:
    return "…" if is_infinite(t) else format_instant(t)[:10]


def interval_text(start: datetime, end: datetime) -> str:
    """An interval as the page captions it.

    >>> from graphmem.time.instant import NEG_INF, POS_INF, to_instant
    >>> interval_text(to_instant("2019-01-01"), POS_INF)
    'since 2019-01-01'
    >>> interval_text(to_instant("2019-01-01"), to_instant("2024-03-01"))
    '2019-01-01 → 2024-03-01'
    >>> interval_text(NEG_INF, POS_INF)
    'always'
    """
    if is_infinite(start) and is_infinite(end):
        return "always"
    if is_infinite(end):
        return f"since {_day(start)}"
    if is_infinite(start):
        return f"until {_day(end)}"
    return f"{_day(start)} → {_day(end)}"


def _node_id(row: Fact) -> str:
    """An entity is its id; a literal value is a node of its own per subject and key."""
    if row.object_id is not None:
        return row.object_id
    return f"value:{row.subject_id}:{row.predicate}:{row.object}"


def _row(row: Fact, status: str) -> dict[str, Any]:
    return {
        "id": row.id,
        "subject": row.subject,
        "predicate": row.predicate,
        "object": row.object,
        "status": status,
        "valid_from": _iso(row.valid_from),
        "valid_to": _iso(row.valid_to),
        "recorded_at": _iso(row.recorded_at),
        "expired_at": _iso(row.expired_at),
        "interval": interval_text(row.valid_from, row.valid_to),
    }


def _edge(row: Fact, status: str) -> dict[str, Any]:
    edge = _row(row, status)
    edge.update(
        source=row.subject_id,
        target=_node_id(row),
        target_label=row.object,
        believed=status not in EXPIRED,
        caption=f"{row.predicate} · {edge['interval']}"
        + (f" · {status}" if status in EXPIRED else ""),
    )
    return edge


def graph(
    memory: Memory,
    *,
    scope: str,
    as_of: When = None,
    known_at: When = None,
    expired: bool = True,
) -> dict[str, Any]:
    """The graph of ``scope`` at ``as_of`` (default now) as believed at ``known_at``
    (default: the current belief): one edge per fact true then (``believed``), plus,
    with ``expired``, the rows valid then that had been recorded and were no longer
    believed by ``known_at`` (superseded, corrected or retracted; one per value, and none
    for a value that is still believed at that instant)."""
    valid_at = as_of if as_of is not None else now()
    believed = memory.facts(as_of=valid_at, known_at=known_at, scope=scope)
    entities = memory.entities(scope=scope)
    statuses: dict[str, str] = {}
    gone: dict[tuple[str, str, str], tuple[Fact, str]] = {}
    capped = expired and len(entities) > MAX_HISTORY_ENTITIES
    if expired and not capped:
        for entity_ in entities:
            for row, status in memory.history(
                entity_.name, as_of=valid_at, known_at=known_at, scope=scope
            ):
                if row.subject_id != entity_.id:  # an alias read: another entity's rows
                    continue
                statuses[row.id] = status
                if status in EXPIRED:  # the latest belief given up wins for its value
                    gone[(row.subject_id, row.predicate, row.object)] = (row, status)
    held = {(r.subject_id, r.predicate, r.object) for r in believed}
    t_now = now()
    # a believed row's status, where no history was read: true now, or over in the world
    pairs = [(row, statuses.get(row.id) or ("current" if _still_valid(row, t_now) else "ended"))
             for row in believed]  # fmt: skip
    pairs += [(row, status) for key, (row, status) in gone.items() if key not in held]
    edges = [_edge(row, status) for row, status in pairs]
    names = {e.id: e.name for e in entities}
    literal = {p.name for p in memory.predicates() if p.object_kind == "literal"}
    nodes: dict[str, dict[str, Any]] = {}
    for row, _ in pairs:
        nodes.setdefault(row.subject_id, {"id": row.subject_id, "label": row.subject,
                                          "kind": "entity"})  # fmt: skip
        kind = "value" if row.object_id is None or row.predicate in literal else "entity"
        label = names.get(row.object_id or "", row.object)
        nodes.setdefault(_node_id(row), {"id": _node_id(row), "label": label, "kind": kind})
    for node in nodes.values():  # a node only a given-up fact reaches is drawn faded
        node["believed"] = any(
            e["believed"] and node["id"] in (e["source"], e["target"]) for e in edges
        )
    return {
        "scope": scope,
        "as_of": as_of if not isinstance(as_of, datetime) else format_instant(as_of),
        "known_at": known_at if not isinstance(known_at, datetime) else format_instant(known_at),
        "nodes": list(nodes.values()),
        "edges": edges,
        "expired_left_out": capped,
    }


def overview(memory: Memory, *, scope: str) -> dict[str, Any]:
    """The scope's extent: the range and change points of each axis (the sliders' ends
    and ticks), its scopes and entities, and every pair of nodes a fact ever joined (so
    the page lays the graph out once and nodes keep their places as time moves)."""
    learned = [c for c in memory.changes(None, axis="recorded", scope=scope)]
    rows = {c.fact.id: c.fact for c in learned}
    t_now = now()
    recorded = sorted({c.at for c in learned})
    valid = sorted(
        {t for r in rows.values() for t in (r.valid_from, r.valid_to) if not is_infinite(t)}
    )
    links = sorted({(r.subject_id, _node_id(r)) for r in rows.values()})

    def extent(points: list[datetime]) -> dict[str, Any]:
        lo = min(points, default=t_now - timedelta(days=365))
        hi = max([*points, t_now])
        return {"min": format_instant(lo - timedelta(days=30)), "max": format_instant(hi),
                "stops": [format_instant(t) for t in points]}  # fmt: skip

    return {
        "scope": scope,
        "scopes": memory.scopes(),
        "now": format_instant(t_now),
        "valid": extent(valid),
        "recorded": extent(recorded),
        "entities": sorted(e.name for e in memory.entities(scope=scope)),
        "links": [list(pair) for pair in links],
    }


def entity(memory: Memory, name: str, *, scope: str, known_at: When = None) -> dict[str, Any]:
    """One entity's timeline as believed at ``known_at`` (coalesced runs of each value)
    and every row ever recorded about it, by key (the bitemporal picture's rectangles:
    valid time across, recorded time up)."""
    entries = memory.timeline(name, known_at=known_at, scope=scope)
    rows = memory.history(name, scope=scope)
    keys: dict[str, list[dict[str, Any]]] = {}
    for row, status in rows:
        keys.setdefault(row.predicate, []).append(_row(row, status))
    return {
        "name": name,
        "scope": scope,
        "timeline": [
            {
                "predicate": e.predicate,
                "object": e.object,
                "status": e.status,
                "valid_from": _iso(e.valid_from),
                "valid_to": _iso(e.valid_to),
                "interval": interval_text(e.valid_from, e.valid_to),
            }
            for e in entries
        ],
        "keys": keys,
    }


def _still_valid(row: Fact, t: datetime) -> bool:
    """Whether the row's valid interval runs past ``t``."""
    return clip(row.valid_from, row.valid_to, NEG_INF, t).cut_end
