"""The Neo4j schema: ``schema/*.cypher`` (constraints, range, full-text and vector
indexes), found and split into statements, and the indexes retired from it."""

from __future__ import annotations

import os
import re
from pathlib import Path

from graphmem.errors import StoreError

# Indexes earlier versions created and graphmem no longer keeps: dropped when the schema
# is applied, since every write pays for an index. The unscoped full-text indexes held the
# same words as ``fact_text_scoped`` / ``episode_search_scoped`` (measured: a quarter of a
# write batch's server CPU); no statement reads a row by its logical fact id or the events
# by their time alone.
RETIRED = ("fact_text", "episode_text", "episode_search", "fact_fact_id", "event_recorded_at")

SHOW_SCHEMA = ("SHOW INDEXES YIELD name RETURN name", "SHOW CONSTRAINTS YIELD name RETURN name")

SCHEMA_NAME = re.compile(
    r"^CREATE\s+(?:CONSTRAINT|(?:RANGE\s+|TEXT\s+|POINT\s+|FULLTEXT\s+|VECTOR\s+)?INDEX)\s+"
    r"`?(\w+)`?",
    re.IGNORECASE,
)


# -- schema files ------------------------------------------------------------------------


def schema_dir() -> Path:
    """Where ``schema/*.cypher`` live: ``$GRAPHMEM_SCHEMA_DIR``, else the installed
    ``graphmem.schema`` package (``graphmem/schema/`` in the repository)."""
    import graphmem.schema

    candidates = [os.environ.get("GRAPHMEM_SCHEMA_DIR"), Path(graphmem.schema.__file__).parent]
    for candidate in candidates:
        if candidate and any(Path(candidate).glob("*.cypher")):
            return Path(candidate)
    raise StoreError(
        "cannot find graphmem's Neo4j schema (schema/*.cypher); set GRAPHMEM_SCHEMA_DIR "
        "to the folder that holds them"
    )


def schema_statements(directory: Path | None = None) -> list[str]:
    """The schema as statements: every ``*.cypher`` file in name order, ``//`` comments
    dropped, split on ``;``."""
    statements = []
    for path in sorted((directory or schema_dir()).glob("*.cypher")):
        lines = [ln for ln in path.read_text().splitlines() if not ln.strip().startswith("//")]
        statements += [s.strip() for s in "\n".join(lines).split(";") if s.strip()]
    return statements


def schema_name(statement: str) -> str | None:
    found = SCHEMA_NAME.match(statement)
    return found.group(1) if found else None
