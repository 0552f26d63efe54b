"""Storage backends behind one protocol; ``open_backend`` picks one from a path or URI."""

from __future__ import annotations

import os
from typing import Any

from graphmem.store.protocol import Backend, Event, RowQuery, WriteBatch

NEO4J_SCHEMES = ("neo4j://", "neo4j+s://", "neo4j+ssc://", "bolt://", "bolt+s://", "bolt+ssc://")


def open_backend(target: str | os.PathLike[str], **options: Any) -> Backend:
    """A Neo4j URI opens the Neo4j backend; anything else is a path to an embedded store."""
    text = os.fspath(target)
    if text.startswith(NEO4J_SCHEMES):
        from graphmem.store.neo4j import Neo4jBackend  # the driver is an optional dependency

        return Neo4jBackend(text, **options)
    from graphmem.store.embedded import EmbeddedBackend

    return EmbeddedBackend(text, **options)


__all__ = ["Backend", "Event", "RowQuery", "WriteBatch", "open_backend", "NEO4J_SCHEMES"]
