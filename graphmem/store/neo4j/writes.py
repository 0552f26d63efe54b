"""A ``WriteBatch`` as the Cypher statements that apply it: what the backend runs in its
write transactions, and, with the parameters written in as literals, the Cypher script
``graphmem export --format cypher`` writes. One data model for both: a graph rebuilt
from the script is the graph the backend (and ``push``) would have written.

>>> from graphmem.model import Entity
>>> sam = Entity(id=Entity.id_for("demo", "Sam"), scope="demo", name="Sam", type="Person")
>>> batch = WriteBatch(entities=[sam])
>>> print(next(script(batch)))  # doctest: +ELLIPSIS
UNWIND [{label: 'Person', props: {id: ..., scope: 'demo', name: 'Sam', ...}}] AS e MERGE ...
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from graphmem.model import text_owner
from graphmem.predicates import Predicate
from graphmem.store.index_text import episode_index_text
from graphmem.store.neo4j.codecs import (
    ended_note,
    entity_label,
    entity_props,
    event_props,
    fact_props,
    float32_list,
    relationship_type,
    scope_key,
    wire,
)
from graphmem.store.neo4j.cypher import (
    APPEND_EVENTS,
    EPISODE_FIELDS,
    EXPIRE_ROWS,
    INSERT_ROWS,
    MERGE_ENTITIES,
    MERGE_EPISODES,
    PREDICATE_FIELDS,
    PUT_PREDICATE,
    SET_CLOCKS,
    SET_EMBEDDINGS,
)
from graphmem.store.passage_index import turn_of
from graphmem.store.protocol import Event, WriteBatch
from graphmem.time.bitemporal import Clock
from graphmem.time.bounds import cypher_datetime
from graphmem.time.instant import NEG_INF, POS_INF

Check = Callable[[Any], str | None]  # the statement's single record -> a problem, or None


@dataclass(frozen=True)
class Statement:
    """One statement of a batch: its text, its parameters, the columns of its one result
    record (``columns``) and what that record must say (``check``)."""

    cypher: str
    params: dict[str, Any]
    check: Check | None = None
    columns: tuple[str, ...] = ()


def combined(statements: Sequence[Statement]) -> Statement:
    """The statements as one, run in one round trip: each in a ``CALL () { ... }`` in
    order (one driving row, so each runs to its end and the next sees its writes), their
    result columns side by side in one record, every check on that record. Parameter and
    column names differ between the statements of a batch, so nothing collides.

    >>> one = combined([Statement("UNWIND $a AS x CREATE (:A {x: x})", {"a": [1]}),
    ...                 Statement("UNWIND $b AS x RETURN count(x) AS n", {"b": [2]},
    ...                           columns=("n",))])
    >>> print(one.cypher)
    CALL () { UNWIND $a AS x CREATE (:A {x: x}) }
    CALL () { UNWIND $b AS x RETURN count(x) AS n }
    RETURN n
    >>> one.params, one.columns
    ({'a': [1], 'b': [2]}, ('n',))
    """
    if len(statements) == 1:
        return statements[0]
    params: dict[str, Any] = {}
    for statement in statements:
        assert not params.keys() & statement.params.keys(), "parameter names collide"
        params.update(statement.params)
    columns = tuple(c for statement in statements for c in statement.columns)
    assert len(set(columns)) == len(columns), "result columns collide"
    checks = [statement.check for statement in statements if statement.check is not None]
    cypher = "\n".join(f"CALL () {{ {statement.cypher.strip()} }}" for statement in statements)
    cypher += "\nRETURN " + (", ".join(columns) if columns else "1 AS done")

    def check(record: Any) -> str | None:
        return next((p for c in checks if (p := c(record)) is not None), None)

    return Statement(cypher, params, check if checks else None, columns)


def clock_statement(clocks: dict[str, Clock]) -> Statement:
    rows = [{"scope": s, "requested": wire(c.requested), "assigned": wire(c.assigned)}
            for s, c in clocks.items()]  # fmt: skip
    return Statement(SET_CLOCKS, {"clocks": rows})


def event_statement(events: Sequence[Event]) -> Statement:
    groups: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for event in events:
        groups[event.scope].append(event_props(event))
    expected = len(events)
    return Statement(
        APPEND_EVENTS,
        {"groups": [{"scope": s, "events": e} for s, e in groups.items()]},
        lambda r: None if r["events"] == expected else "an event's scope has no clock",
        ("events",),
    )


def predicate_statement(predicate: Predicate) -> Statement:
    return Statement(PUT_PREDICATE, {"props": {k: getattr(predicate, k) for k in PREDICATE_FIELDS}})


def batch_statements(batch: WriteBatch) -> list[Statement]:
    """Everything a batch writes, in the order the rows need it (entities first)."""
    out = [clock_statement(batch.clocks)] if batch.clocks else []
    if batch.entities:
        entities = [
            {"label": entity_label(e.type), "props": entity_props(e)} for e in batch.entities
        ]
        out.append(Statement(MERGE_ENTITIES, {"entities": entities}))
    if batch.episodes:
        episodes = [{name: getattr(e, name) for name in EPISODE_FIELDS}
                    | {"timestamp": wire(e.timestamp), "search_text": episode_index_text(e),
                       "scope_key": scope_key(e.scope)}
                    for e in batch.episodes]  # fmt: skip
        out.append(Statement(MERGE_EPISODES, {"episodes": episodes}))
    if batch.expire:
        expire = [{"id": rid, "at": wire(at), "by": by, "note": ended_note(by)}
                  for rid, at, by in batch.expire]  # fmt: skip
        out.append(Statement(EXPIRE_ROWS, {"expire": expire}))
    vectors = {owner: float32_list(v) for owner, v in batch.embeddings.items()}
    if batch.insert:
        rows = [{"type": relationship_type(r.predicate), "props": fact_props(r),
                 "vector_key": (key := text_owner(r.scope, r.text)), "scope_key": scope_key(r.scope),
                 "given": key in vectors}
                for r in batch.insert]  # fmt: skip
        linked = sum(1 for r in batch.insert if r.object_id is not None)
        out.append(Statement(INSERT_ROWS, {"rows": rows}, lambda r: None
                             if (r["created"], r["linked"]) == (len(rows), linked)
                             else "a row refers to an entity that is not stored",
                             ("created", "linked")))  # fmt: skip
    if batch.embeddings:
        owner_scope = {text_owner(r.scope, r.text): r.scope for r in batch.insert}
        owner_scope.update({e.id: e.scope for e in batch.episodes})
        default = next(iter(batch.clocks)) if len(batch.clocks) == 1 else None
        embeddings = [{"owner": owner, "vector": vector,  # a passage: its turn's scope
                       "scope": owner_scope.get(owner, owner_scope.get(turn_of(owner), default))}
                      for owner, vector in vectors.items()]  # fmt: skip
        out.append(Statement(SET_EMBEDDINGS, {"embeddings": embeddings}))
    if batch.events:
        out.append(event_statement(batch.events))
    return out


# -- as a script ----------------------------------------------------------------------

CHUNK = 200  # list items per statement of a script: long enough to be fast, short to read


def literal(value: Any) -> str:
    """A Cypher literal for a parameter value (maps, lists, strings, numbers, instants)."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        return repr(value) if math.isfinite(value) else "null"
    if isinstance(value, datetime):
        return cypher_datetime(value)
    if isinstance(value, dict):
        return "{" + ", ".join(f"`{k}`: {literal(v)}" if not k.isidentifier() else
                               f"{k}: {literal(v)}" for k, v in value.items()) + "}"  # fmt: skip
    if isinstance(value, list | tuple):
        return "[" + ", ".join(literal(v) for v in value) + "]"
    text = str(value).replace("\\", "\\\\").replace("'", "\\'").replace("\n", "\\n")
    return "'" + text.replace("\r", "\\r").replace("\t", "\\t") + "'"


def render(statement: Statement) -> Iterator[str]:
    """The statement on one line with its parameters written in (a list parameter split
    into chunks of ``CHUNK`` items, one statement each)."""
    constants = {"pos_inf": POS_INF, "neg_inf": NEG_INF}
    (name, items), *rest = statement.params.items()
    assert not rest, "a batch statement takes one list parameter"
    text = " ".join(line.strip() for line in statement.cypher.strip().splitlines())
    for key, value in constants.items():
        text = text.replace(f"${key}", literal(value))
    if isinstance(items, dict):
        yield text.replace(f"${name}", literal(items)) + ";"
        return
    for start in range(0, len(items), CHUNK):
        yield text.replace(f"${name}", literal(items[start : start + CHUNK])) + ";"


def script(batch: WriteBatch, predicates: Sequence[Predicate] = ()) -> Iterator[str]:
    """The batch (and declared predicates) as Cypher statements with literal values,
    one per line."""
    for statement in [*map(predicate_statement, predicates), *batch_statements(batch)]:
        yield from render(statement)
