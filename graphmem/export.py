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
from dataclasses import asdict
from typing import IO, TYPE_CHECKING, Any

from graphmem.history import status_of
from graphmem.model import Entity, Episode, Fact, stable_id
from graphmem.store.protocol import RowQuery, WriteBatch
from graphmem.time.bounds import TemporalBounds
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
    return memory.scopes() if scope is None else [scope]


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
    """One JSON object a line: declared predicates, then per scope entities, fact rows
    (every row ever recorded) and episodes. Returns the number of lines written."""
    count = 0
    at = now()
    with _opened(out) as handle:
        for predicate in memory.backend.predicates():  # declared ones: the rows need them
            handle.write(json.dumps({"kind": "predicate", **asdict(predicate)}) + "\n")
            count += 1
        for sc in _scopes(memory, scope):
            records: list[dict[str, Any]] = [_entity_record(e) for e in memory.entities(scope=sc)]
            records += [fact_record(r, at) for r in _rows(memory, sc)]
            if episodes:
                records += [_episode_record(e) for e in memory.episodes(scope=sc)]
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


def cypher_statements(
    memory: Memory, *, scope: str | None = None, episodes: bool = True
) -> Iterator[str]:
    """Cypher statements that rebuild the store in Neo4j, one a line: the schema, the
    declared predicates, then per scope its clock, entities, turns, every fact row (expired
    ones too) and its event log, written by the Neo4j backend's own statements
    (``graphmem.store.neo4j.writes``) with the values written in. So the rebuilt graph is
    the one ``push`` writes and graphmem reads: ``Memory.open("bolt://...")`` answers from
    it, and the Browser queries of ``graphmem.browse`` show it. Embeddings are left out
    (search there falls back to keywords until the store re-embeds).
    """
    from graphmem.store.neo4j.schema import schema_statements
    from graphmem.store.neo4j.writes import script
    from graphmem.store.push import snapshot

    yield "// graphmem export: the schema, declared predicates, then each scope's data"
    for statement in schema_statements():
        yield " ".join(line.strip() for line in statement.splitlines()) + ";"
    yield from script(WriteBatch(), memory.backend.predicates())
    for sc in _scopes(memory, scope):
        yield f"// scope {sc}"
        batch = snapshot(memory.backend, sc)
        if not episodes:
            batch.episodes = []
        yield from script(batch)


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
