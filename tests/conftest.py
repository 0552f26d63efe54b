"""Shared fixtures. Store tests run against every backend through ``memory_factory``.

The Neo4j backend needs a running Neo4j: ``scripts/neo4j/start.sh`` (the README's test
command starts it) and ``GRAPHMEM_NEO4J_URI``. When that variable is unset the Neo4j
parameter is skipped locally, but in CI (``CI=true``) a missing Neo4j fails loudly.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Callable, Iterator

import pytest
from hypothesis import settings

from graphmem import Memory

# In CI, property tests draw the same examples every run (a red build is always
# reproducible, never a coin toss); locally they explore new ones each run.
settings.register_profile("ci", derandomize=True, database=None)
if os.environ.get("CI"):
    settings.load_profile("ci")

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")

BACKENDS = ["embedded", "neo4j"]


def neo4j_uri() -> str | None:
    return os.environ.get("GRAPHMEM_NEO4J_URI")


def require_neo4j() -> str:
    uri = neo4j_uri()
    if uri is None:
        if os.environ.get("CI"):
            pytest.fail("GRAPHMEM_NEO4J_URI is not set in CI: the test Neo4j did not start")
        pytest.skip("no test Neo4j (run scripts/neo4j/start.sh and set GRAPHMEM_NEO4J_URI)")
    return uri


MemoryFactory = Callable[[], Memory]


@pytest.fixture(params=BACKENDS)
def memory_factory(request, tmp_path) -> Iterator[MemoryFactory]:
    """Opens (and re-opens) one fresh store of the parametrised backend."""
    opened: list[Memory] = []
    if request.param == "embedded":
        path = tmp_path / "memory.db"

        def factory() -> Memory:
            opened.append(Memory.open(path, embedder=None))
            return opened[-1]
    else:
        uri = require_neo4j()

        def factory() -> Memory:
            mem = Memory.open(uri, embedder=None)
            if not opened:  # Community Neo4j has one database: start each test empty
                mem.backend.drop_all()
            opened.append(mem)
            return mem

    yield factory
    for mem in opened:
        with contextlib.suppress(Exception):  # already closed by the test
            mem.close()


@pytest.fixture
def memory(memory_factory) -> Memory:
    return memory_factory()
