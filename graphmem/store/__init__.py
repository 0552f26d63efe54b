"""Storage backends behind one protocol; ``open_backend`` picks one from a path or URI."""

from __future__ import annotations

import os
import re
from typing import Any

from graphmem.errors import InvalidStoreError
from graphmem.store.protocol import Backend, Event, RowQuery, WriteBatch

NEO4J_SCHEMES = ("neo4j://", "neo4j+s://", "neo4j+ssc://", "bolt://", "bolt+s://", "bolt+ssc://")
_URL = re.compile(r"([A-Za-z][A-Za-z0-9+.-]*)://")  # RFC 3986 scheme, then //


def neo4j_uri(target: str | os.PathLike[str]) -> str | None:
    """The Neo4j URI a store string names, its scheme lower-cased (schemes are
    case-insensitive: ``BOLT://`` is ``bolt://``), or None for a file path. Any other
    URL (``http://``, ``file://``...) is refused: it would otherwise become a local file
    of that name."""
    text = os.fspath(target)
    found = _URL.match(text)
    if found is None:
        return None
    scheme = found.group(1).lower()
    if f"{scheme}://" not in NEO4J_SCHEMES:
        raise InvalidStoreError(
            f"{text!r}: {scheme}:// is not a store graphmem opens; give a file path or a "
            f"Neo4j URI ({', '.join(NEO4J_SCHEMES)})"
        )
    return scheme + text[found.end(1) :]


def open_backend(target: str | os.PathLike[str], **options: Any) -> Backend:
    """A Neo4j URI opens the Neo4j backend; a path, an embedded store (see ``neo4j_uri``)."""
    text = os.fspath(target)
    uri = neo4j_uri(text)
    if uri is not None:
        from graphmem.store.neo4j import Neo4jBackend  # the driver is an optional dependency

        return Neo4jBackend(uri, **options)
    from graphmem.store.embedded import EmbeddedBackend

    return EmbeddedBackend(text, **options)


__all__ = [
    "Backend",
    "Event",
    "RowQuery",
    "WriteBatch",
    "open_backend",
    "neo4j_uri",
    "NEO4J_SCHEMES",
]
