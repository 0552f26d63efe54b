"""Copy-paste Cypher for browsing graphmem's graph in Neo4j Browser.

Facts are direct relationships between entities, typed by predicate (``LIVES_IN``) and
captioned with their interval; every one carries the four time properties as UTC
DateTimes, open ends as sentinels. These queries are the README's and the Browser test's.

>>> print(graph_now("demo"))  # doctest: +ELLIPSIS
MATCH (s:Entity)-[r]->(o:Entity)
WHERE r.scope = 'demo' AND r.expired_at = datetime('9999-12-31T23:59:59.999999Z')
...
"""

from __future__ import annotations

_OPEN = "datetime('9999-12-31T23:59:59.999999Z')"


def _quote(text: str) -> str:
    return "'" + text.replace("\\", "\\\\").replace("'", "\\'") + "'"


def graph_now(scope: str) -> str:
    """The graph as it is now: current beliefs, true at this moment."""
    return (
        "MATCH (s:Entity)-[r]->(o:Entity)\n"
        f"WHERE r.scope = {_quote(scope)} AND r.expired_at = {_OPEN}\n"
        "  AND r.valid_from <= datetime() < r.valid_to\n"
        "RETURN s, r, o"
    )


def graph_on(scope: str, date: str) -> str:
    """The graph as it was on a date (as best known now): e.g. ``graph_on("demo", "2024-03-01")``."""
    at = f"datetime({_quote(date)})"
    return (
        "MATCH (s:Entity)-[r]->(o:Entity)\n"
        f"WHERE r.scope = {_quote(scope)} AND r.expired_at = {_OPEN}\n"
        f"  AND r.valid_from <= {at} < r.valid_to\n"
        "RETURN s, r, o"
    )


def entity_history(scope: str, name: str) -> str:
    """Every fact ever recorded about one entity, superseded and corrected ones included
    (their captions say so)."""
    return (
        f"MATCH (s:Entity {{scope: {_quote(scope)}, name: {_quote(name)}}})-[r]-(o:Entity)\n"
        "RETURN s, r, o"
    )
