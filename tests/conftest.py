"""Shared fixtures. Store tests run against every backend through ``memory_factory``.

The Neo4j backend needs a running Neo4j: ``scripts/neo4j/start.sh`` (the README's test
command starts it) and ``GRAPHMEM_NEO4J_URI``, with ``GRAPHMEM_NEO4J_USER`` /
``GRAPHMEM_NEO4J_PASSWORD`` (``scripts/test.sh`` reads the password from
``.neo4j/password``). When the URI is unset the Neo4j parameter is skipped locally, but in
CI (``CI=true``) a missing Neo4j fails loudly.

The test Neo4j is shared by every test and by whoever browses it: a test that writes to
it wipes it at teardown (``neo4j_db``, ``memory_factory``), and ``neo4j_left_clean``
fails the run if anything is left there at the end.
"""

from __future__ import annotations

import contextlib
import json
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


def neo4j_auth() -> tuple[str, str] | None:
    """The test Neo4j's credentials, read as the Neo4j backend reads them."""
    from graphmem.store.neo4j import env_auth

    return env_auth()


def neo4j_env() -> dict[str, str]:
    """The credential variables, for subprocesses run with a cleaned environment."""
    names = ("GRAPHMEM_NEO4J_USER", "GRAPHMEM_NEO4J_PASSWORD")
    return {name: os.environ[name] for name in names if name in os.environ}


def wipe_neo4j(uri: str) -> None:
    """Delete every node and relationship (the schema stays)."""
    from graphmem.store.neo4j import Neo4jBackend

    backend = Neo4jBackend(uri, apply_schema=False)
    try:
        backend.drop_all()
    finally:
        backend.close()


@pytest.fixture
def neo4j_db() -> Iterator[str]:
    """The test Neo4j's URI, for a test that writes to it: wiped when the test ends."""
    uri = require_neo4j()
    yield uri
    wipe_neo4j(uri)


@pytest.fixture(scope="session", autouse=True)
def neo4j_left_clean() -> Iterator[None]:
    """Fails the run when the tests left nodes in the test Neo4j (then wipes them, so the
    next run does not fail for this one's leftovers)."""
    yield
    uri = neo4j_uri()
    if uri is None:
        return
    try:
        import neo4j
    except ImportError:
        return
    with neo4j.GraphDatabase.driver(uri, auth=neo4j_auth()) as driver:
        try:
            driver.verify_connectivity()
        except neo4j.exceptions.ServiceUnavailable:
            return  # not running now: the tests that needed it have failed already
        records, _, _ = driver.execute_query(
            "MATCH (n) UNWIND (CASE labels(n) WHEN [] THEN ['(no label)'] ELSE labels(n) END)"
            " AS label RETURN label, count(*) AS n ORDER BY label"
        )
        if records:
            wipe_neo4j(uri)
    if records:
        left = ", ".join(f"{r['label']}: {r['n']}" for r in records)
        pytest.fail(
            f"the tests left data in the test Neo4j {uri} ({left}); a test that writes "
            "there must wipe it at teardown (use the neo4j_db fixture)"
        )


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
    if request.param == "neo4j":
        wipe_neo4j(uri)


@pytest.fixture
def memory(memory_factory) -> Memory:
    return memory_factory()


@pytest.fixture
def chat_memory(tmp_path) -> Iterator[Callable[..., Memory]]:
    """``chat_memory((timestamp, text), ..., embedder=...)``: an embedded memory that has
    loaded those user turns (speaker "user") as a chat log."""
    opened: list[Memory] = []

    def load(*turns: tuple[str, str], embedder=None) -> Memory:
        log = tmp_path / f"chat{len(opened)}.jsonl"
        log.write_text("".join(
            json.dumps({"timestamp": ts, "speaker": "user", "role": "user", "text": text}) + "\n"
            for ts, text in turns
        ))  # fmt: skip
        memory = Memory.open(tmp_path / f"memory{len(opened)}.db", embedder=embedder)
        opened.append(memory)
        memory.load(log)
        return memory

    yield load
    for memory in opened:
        memory.close()
