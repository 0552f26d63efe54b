"""Export a store: JSON lines, GraphML (networkx) or Cypher that rebuilds the graph.

Every export carries the whole bitemporal history: each fact row with its four
timestamps (``valid_from``, ``valid_to``, ``recorded_at``, ``expired_at``, open ends
written ``-inf``/``inf``), what expired it and its status now, plus the entities and
(optionally) the conversation turns the facts came from.

>>> import io, os, tempfile
>>> from graphmem import Memory
>>> mem = Memory.open(os.path.join(tempfile.mkdtemp(), "m.db"), embedder=None)
>>> _ = mem.remember("Alice", "lives_in", "Paris", valid_from="2019-01-01")
>>> out = io.StringIO()
>>> export_jsonl(mem, out)
3
>>> mem.close()

``out`` is a text stream or a path. ``scope=None`` exports every scope.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import re
from collections.abc import Iterator
from typing import IO, TYPE_CHECKING, Any

from graphmem.history import status_of
from graphmem.model import Entity, Episode, Fact, stable_id
from graphmem.store.protocol import RowQuery
from graphmem.time.bounds import TemporalBounds, cypher_datetime
from graphmem.time.instant import format_instant, now

if TYPE_CHECKING:
    from graphmem.memory import Memory

__all__ = ["FORMATS", "export", "export_cypher", "export_graphml", "export_jsonl", "format_for"]

FORMATS = ("jsonl", "graphml", "cypher")
_EXTENSIONS = {
    ".jsonl": "jsonl",
    ".ndjson": "jsonl",
    ".graphml": "graphml",
    ".cypher": "cypher",
    ".cql": "cypher",
}

Out = IO[str] | str | os.PathLike[str]


def format_for(path: str | os.PathLike[str]) -> str | None:
    """The export format a file name asks for (``.jsonl``, ``.graphml``, ``.cypher``)."""
    return _EXTENSIONS.get(os.path.splitext(os.fspath(path))[1].lower())


@contextlib.contextmanager
def _opened(out: Out) -> Iterator[IO[str]]:
    if isinstance(out, str | os.PathLike):
        with open(out, "w", encoding="utf-8", newline="\n") as handle:
            yield handle
    else:
        yield out


def _scopes(memory: Memory, scope: str | None) -> list[str]:
    return sorted(memory.backend.scopes()) if scope is None else [scope]


def _rows(memory: Memory, scope: str) -> list[Fact]:
    rows = memory.backend.rows(RowQuery(scope=scope, bounds=TemporalBounds.history()))
    return sorted(rows, key=lambda r: (r.recorded_at, r.subject, r.predicate, r.valid_from, r.id))


def fact_record(row: Fact, at=None) -> dict[str, Any]:
    """One fact row as a JSON-ready dict with all four timestamps and its status."""
    return {
        "kind": "fact",
        "id": row.id,
        "fact_id": row.fact_id,
        "scope": row.scope,
        "subject": row.subject,
        "subject_id": row.subject_id,
        "predicate": row.predicate,
        "object": row.object,
        "object_id": row.object_id,
        "text": row.text,
        "valid_from": format_instant(row.valid_from),
        "valid_to": format_instant(row.valid_to),
        "recorded_at": format_instant(row.recorded_at),
        "expired_at": format_instant(row.expired_at),
        "expired_by": row.expired_by,
        "status": status_of(row, at or now()),
        "confidence": row.confidence,
        "change_point": row.change_point,
        "provenance": row.provenance.model_dump(mode="json", exclude_none=True),
    }


def _entity_record(entity: Entity) -> dict[str, Any]:
    return {"kind": "entity", **entity.model_dump(mode="json")}


def _episode_record(episode: Episode) -> dict[str, Any]:
    data = episode.model_dump(mode="json", exclude={"embedding"})
    data["timestamp"] = format_instant(episode.timestamp)
    return {"kind": "episode", **data}


def export_jsonl(
    memory: Memory, out: Out, *, scope: str | None = None, episodes: bool = True
) -> int:
    """One JSON object a line: entities, fact rows (every row ever recorded), episodes.
    Returns the number of lines written."""
    count = 0
    at = now()
    with _opened(out) as handle:
        for sc in _scopes(memory, scope):
            records: list[dict[str, Any]] = [_entity_record(e) for e in memory.entities(scope=sc)]
            records += [fact_record(r, at) for r in _rows(memory, sc)]
            if episodes:
                records += [_episode_record(e) for e in memory.backend.episodes(sc)]
            for record in records:
                handle.write(json.dumps(record, ensure_ascii=False, sort_keys=False) + "\n")
                count += 1
    return count


# -- GraphML ------------------------------------------------------------------------------


def to_networkx(memory: Memory, *, scope: str | None = None):
    """A ``networkx.MultiDiGraph``: entities (and literal values) as nodes, every fact
    row as an edge from subject to object carrying its four timestamps."""
    import networkx as nx

    graph = nx.MultiDiGraph(name="graphmem")
    at = now()
    for sc in _scopes(memory, scope):
        for entity in memory.entities(scope=sc):
            graph.add_node(
                entity.id,
                kind="entity",
                scope=sc,
                name=entity.name,
                type=entity.type,
                aliases="|".join(entity.aliases),
            )
        for row in _rows(memory, sc):
            target = row.object_id
            if target is None:  # a literal: a value node of its own
                target = stable_id(sc, row.predicate, row.object, prefix="lit_")
                if target not in graph:
                    graph.add_node(
                        target, kind="literal", scope=sc, name=row.object, type=row.predicate
                    )
            if row.subject_id not in graph:
                graph.add_node(
                    row.subject_id,
                    kind="entity",
                    scope=sc,
                    name=row.subject,
                    type="Thing",
                    aliases="",
                )
            if target not in graph:
                graph.add_node(
                    target, kind="entity", scope=sc, name=row.object, type="Thing", aliases=""
                )
            record = fact_record(row, at)
            attrs = {k: v for k, v in record.items() if k not in ("kind", "provenance")}
            attrs["episode_id"] = row.provenance.episode_id or ""
            attrs["extractor"] = row.provenance.extractor
            attrs = {k: ("" if v is None else v) for k, v in attrs.items()}
            graph.add_edge(row.subject_id, target, key=row.id, **attrs)
    return graph


# Characters XML 1.0 cannot hold at all, even escaped.
_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff\ud800-\udfff]")


def _xml_safe(value: Any) -> Any:
    if not isinstance(value, str):
        return value
    return _NOT_XML.sub(lambda m: f"\\x{ord(m.group()):02x}", value)


def export_graphml(memory: Memory, out: Out, *, scope: str | None = None) -> int:
    """GraphML (via networkx) of entities and fact rows. Returns the number of edges.
    A character XML cannot hold (a control character in a stored value) is written as
    its ``\\xNN`` escape, so the file always parses; the JSON-lines export is exact."""
    import networkx as nx

    graph = to_networkx(memory, scope=scope)
    for _, data in graph.nodes(data=True):
        data.update({k: _xml_safe(v) for k, v in data.items()})
    for _, _, data in graph.edges(data=True):
        data.update({k: _xml_safe(v) for k, v in data.items()})
    with _opened(out) as handle:
        for line in nx.generate_graphml(graph, encoding="utf-8", prettyprint=True):
            handle.write(line + "\n")
    return graph.number_of_edges()


# -- Cypher -------------------------------------------------------------------------------

_IDENT = re.compile(r"[^A-Za-z0-9_]")


def _cypher_string(value: str) -> str:
    """A Cypher string literal (JSON escapes are valid Cypher escapes)."""
    return json.dumps(value, ensure_ascii=False)


def _cypher_value(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return repr(value)
    if isinstance(value, list | tuple):
        return "[" + ", ".join(_cypher_value(v) for v in value) + "]"
    return _cypher_string(str(value))


def _cypher_map(props: dict[str, Any]) -> str:
    return "{" + ", ".join(f"{k}: {v}" for k, v in props.items()) + "}"


def _label(name: str) -> str:
    cleaned = _IDENT.sub("_", name) or "Thing"
    return f"`{cleaned}`"


def _rel_type(predicate: str) -> str:
    return _label(predicate.upper())


def cypher_statements(
    memory: Memory, *, scope: str | None = None, episodes: bool = True
) -> Iterator[str]:
    """Cypher statements (MERGE, so re-running them is harmless) that rebuild the graph:

    - ``(:Entity:<Type> {id, scope, name, type, aliases})`` per entity (literal values
      become ``(:Value {id, scope, value})`` nodes);
    - ``(:Fact {id, fact_id, predicate, object, text, valid_from, valid_to, recorded_at,
      expired_at, expired_by, status, ...})`` per row, linked ``(f)-[:SUBJECT]->(s)`` and
      ``(f)-[:OBJECT]->(o)``, plus a direct ``(s)-[:LIVES_IN {row_id, ...}]->(o)``
      relationship with the same four timestamps for browsing;
    - ``(:Episode)`` per turn, ``(f)-[:FROM_EPISODE]->(e)``.

    Times are Neo4j ``datetime`` values in UTC; open ends are the sentinels
    ``0001-01-01T00:00:00Z`` and ``9999-12-31T23:59:59.999999Z``.
    """
    at = now()
    yield "// graphmem export: entities, bitemporal fact rows and episodes"
    yield "CREATE CONSTRAINT entity_id IF NOT EXISTS FOR (n:Entity) REQUIRE n.id IS UNIQUE;"
    yield "CREATE CONSTRAINT fact_row_id IF NOT EXISTS FOR (f:Fact) REQUIRE f.id IS UNIQUE;"
    yield "CREATE CONSTRAINT episode_id IF NOT EXISTS FOR (e:Episode) REQUIRE e.id IS UNIQUE;"
    for sc in _scopes(memory, scope):
        known: set[str] = set()
        for entity in memory.entities(scope=sc):
            known.add(entity.id)
            props = _cypher_map(
                {
                    "scope": _cypher_value(sc),
                    "name": _cypher_value(entity.name),
                    "type": _cypher_value(entity.type),
                    "aliases": _cypher_value(list(entity.aliases)),
                }
            )
            yield (
                f"MERGE (n:Entity {{id: {_cypher_string(entity.id)}}}) "
                f"SET n:{_label(entity.type)} SET n += {props};"
            )
        if episodes:
            for ep in memory.backend.episodes(sc):
                props = _cypher_map(
                    {
                        "scope": _cypher_value(sc),
                        "session": _cypher_value(ep.session),
                        "turn": _cypher_value(ep.turn),
                        "speaker": _cypher_value(ep.speaker),
                        "role": _cypher_value(ep.role),
                        "text": _cypher_value(ep.text),
                        "timestamp": cypher_datetime(ep.timestamp),
                        "source": _cypher_value(ep.source),
                    }
                )
                yield f"MERGE (e:Episode {{id: {_cypher_string(ep.id)}}}) SET e += {props};"
        for row in _rows(memory, sc):
            yield from _fact_statements(row, sc, known, at, episodes)


def _fact_statements(
    row: Fact, scope: str, known: set[str], at, episodes: bool = True
) -> Iterator[str]:
    subject = _cypher_string(row.subject_id)
    if row.subject_id not in known:
        known.add(row.subject_id)
        yield (
            f"MERGE (n:Entity {{id: {subject}}}) ON CREATE SET n.scope = "
            f"{_cypher_string(scope)}, n.name = {_cypher_string(row.subject)};"
        )
    if row.object_id is not None:
        target, target_label = row.object_id, "Entity"
        if row.object_id not in known:
            known.add(row.object_id)
            yield (
                f"MERGE (n:Entity {{id: {_cypher_string(row.object_id)}}}) ON CREATE SET "
                f"n.scope = {_cypher_string(scope)}, n.name = {_cypher_string(row.object)};"
            )
    else:
        target, target_label = stable_id(scope, row.predicate, row.object, prefix="lit_"), "Value"
        if target not in known:
            known.add(target)
            yield (
                f"MERGE (n:Value {{id: {_cypher_string(target)}}}) SET n.scope = "
                f"{_cypher_string(scope)}, n.value = {_cypher_string(row.object)}, "
                f"n.name = {_cypher_string(row.object)}, n.predicate = "
                f"{_cypher_string(row.predicate)};"
            )
    times = {
        "valid_from": cypher_datetime(row.valid_from),
        "valid_to": cypher_datetime(row.valid_to),
        "recorded_at": cypher_datetime(row.recorded_at),
        "expired_at": cypher_datetime(row.expired_at),
    }
    props = _cypher_map(
        {
            "fact_id": _cypher_value(row.fact_id),
            "scope": _cypher_value(scope),
            "subject": _cypher_value(row.subject),
            "predicate": _cypher_value(row.predicate),
            "object": _cypher_value(row.object),
            "text": _cypher_value(row.text),
            **times,
            "expired_by": _cypher_value(row.expired_by),
            "status": _cypher_value(status_of(row, at)),
            "confidence": _cypher_value(row.confidence),
            "change_point": _cypher_value(row.change_point),
            "episode_id": _cypher_value(row.provenance.episode_id),
            "extractor": _cypher_value(row.provenance.extractor),
        }
    )
    rel_props = _cypher_map(
        {
            "row_id": _cypher_value(row.id),
            "fact_id": _cypher_value(row.fact_id),
            **times,
            "status": _cypher_value(status_of(row, at)),
            "caption": _cypher_value(row.predicate.replace("_", " ")),
        }
    )
    yield (
        f"MATCH (s:Entity {{id: {subject}}}), (o:{target_label} {{id: {_cypher_string(target)}}}) "
        f"MERGE (f:Fact {{id: {_cypher_string(row.id)}}}) SET f += {props} "
        f"MERGE (f)-[:SUBJECT]->(s) MERGE (f)-[:OBJECT]->(o) "
        f"MERGE (s)-[r:{_rel_type(row.predicate)} {{row_id: {_cypher_string(row.id)}}}]->(o) "
        f"SET r += {rel_props};"
    )
    if episodes and row.provenance.episode_id:
        yield (
            f"MATCH (f:Fact {{id: {_cypher_string(row.id)}}}), "
            f"(e:Episode {{id: {_cypher_string(row.provenance.episode_id)}}}) "
            "MERGE (f)-[:FROM_EPISODE]->(e);"
        )


def export_cypher(
    memory: Memory, out: Out, *, scope: str | None = None, episodes: bool = True
) -> int:
    """Write :func:`cypher_statements`, one a line. Returns the number of statements."""
    count = 0
    with _opened(out) as handle:
        for statement in cypher_statements(memory, scope=scope, episodes=episodes):
            handle.write(statement + "\n")
            count += not statement.startswith("//")
    return count


def export(memory: Memory, out: Out, format: str, *, scope: str | None = None) -> int:
    """Export in ``format`` (one of ``FORMATS``)."""
    writers = {"jsonl": export_jsonl, "graphml": export_graphml, "cypher": export_cypher}
    if format not in writers:
        from graphmem.errors import GraphmemError

        raise GraphmemError(f"unknown export format {format!r}; choose from {', '.join(FORMATS)}")
    return writers[format](memory, out, scope=scope)


def export_string(memory: Memory, format: str, *, scope: str | None = None) -> str:
    buffer = io.StringIO()
    export(memory, buffer, format, scope=scope)
    return buffer.getvalue()
