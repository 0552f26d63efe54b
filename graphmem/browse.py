"""Copy-paste Cypher for browsing graphmem's graph in Neo4j Browser.

Facts are direct relationships between entities, typed by predicate (``LIVES_IN``) and
captioned with their interval; every one carries the four time properties as UTC
DateTimes, open ends as sentinels. These queries are the README's and the Browser test's.

The time conditions are compiled from ``TemporalBounds``, as every read's are:

>>> print(graph_on("demo", "2024-03-01"))
MATCH (s:Entity)-[r]->(o:Entity)
WHERE r.scope = 'demo'
  AND r.valid_from <= datetime('2024-03-01T00:00:00Z')
  AND datetime('2024-03-01T00:00:00Z') < r.valid_to
  AND r.expired_at = datetime('9999-12-31T23:59:59.999999Z')
RETURN s, r, o
"""

from __future__ import annotations

from graphmem.time.bounds import TemporalBounds
from graphmem.time.instant import POS_INF, TimeLike, now, to_instant

_EDGE = {name: f"r.{name}" for name in ("valid_from", "valid_to", "recorded_at", "expired_at")}


def _quote(text: str) -> str:
    return "'" + text.replace("\\", "\\\\").replace("'", "\\'") + "'"


def _graph(scope: str, condition: str) -> str:
    return (
        "MATCH (s:Entity)-[r]->(o:Entity)\n"
        f"WHERE r.scope = {_quote(scope)}\n  AND {condition.replace(' AND ', chr(10) + '  AND ')}\n"
        "RETURN s, r, o"
    )


def graph_now(scope: str) -> str:
    """The graph as it is now: current beliefs, true when the query runs."""
    bounds = TemporalBounds.current(now())  # its instant becomes Cypher's datetime()
    return _graph(scope, bounds.cypher_text(_EDGE, {"tb_valid": "datetime()"}))


def graph_on(scope: str, date: TimeLike, *, known_at: TimeLike | None = None) -> str:
    """The graph as it was on a date, as best known now (or as known at ``known_at``):
    e.g. ``graph_on("demo", "2024-03-01")``."""
    belief = to_instant(known_at, field="known_at") if known_at else POS_INF
    bounds = TemporalBounds.as_of(to_instant(date, field="date"), known_at=belief)
    return _graph(scope, bounds.cypher_text(_EDGE))


def entity_history(scope: str, name: str) -> str:
    """Every fact ever recorded about one entity, superseded and corrected ones included
    (their captions say so)."""
    return (
        f"MATCH (s:Entity {{scope: {_quote(scope)}, name: {_quote(name)}}})-[r]-(o:Entity)\n"
        "RETURN s, r, o"
    )


def browser_url(store: str, http: str | None = None) -> str | None:
    """Neo4j Browser's address for a Neo4j store URI, connected to that server (the HTTP
    address from ``http``, else ``$GRAPHMEM_NEO4J_HTTP``, else port 7474 on the host);
    ``None`` for an embedded store (push it into Neo4j first).

    >>> browser_url("bolt://127.0.0.1:7687", http="http://127.0.0.1:7474")
    'http://127.0.0.1:7474/browser/?dbms=neo4j://127.0.0.1:7687&preselectAuthMethod=NATIVE'
    >>> browser_url("memory.db") is None
    True
    """
    import os
    from urllib.parse import urlsplit

    parts = urlsplit(store)
    if parts.scheme not in ("bolt", "neo4j", "bolt+s", "neo4j+s", "bolt+ssc", "neo4j+ssc"):
        return None
    host = parts.hostname or "127.0.0.1"
    base = (http or os.environ.get("GRAPHMEM_NEO4J_HTTP") or f"http://{host}:7474").rstrip("/")
    dbms = f"neo4j://{host}:{parts.port or 7687}"
    return f"{base}/browser/?dbms={dbms}&preselectAuthMethod=NATIVE"
