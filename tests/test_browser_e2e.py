"""End to end: a graph loaded by graphmem renders in Neo4j Browser (headless Chromium).

Needs the test Neo4j (with its HTTP port serving Neo4j Browser) and Debian's chromium;
the README's test command provides both. The screenshot is kept in ``artifacts/``.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from conftest import neo4j_auth

from graphmem import Memory
from graphmem.browse import entity_history, graph_now

ARTIFACTS = Path(__file__).resolve().parents[1] / "artifacts"


def test_the_graph_as_it_is_now_renders_with_names(tmp_path, neo4j_db):
    """Logs in through the Browser's connect form with the test Neo4j's password."""
    uri = neo4j_db
    auth = neo4j_auth()
    assert auth is not None, "set GRAPHMEM_NEO4J_PASSWORD (scripts/test.sh does)"
    http = os.environ.get("GRAPHMEM_NEO4J_HTTP", "http://127.0.0.1:7474")
    from browser_driver import find_chromium, render_query_in_browser

    try:
        find_chromium()
    except Exception as exc:  # noqa: BLE001
        pytest.fail(f"Chromium is needed for the Browser test: {exc}")
    mem = Memory.open(uri, embedder=None)
    mem.backend.drop_all()
    scope = "browser"
    mem.remember("Alice", "lives_in", "Paris", valid_from="2019-01-01", scope=scope,
                 recorded_at="2019-01-02")  # fmt: skip
    mem.supersede("Alice", "lives_in", "Berlin", since="2024-03-01", scope=scope,
                  recorded_at="2024-03-02")  # fmt: skip
    mem.remember("Alice", "works_at", "Acme", valid_from="2022-01-01", scope=scope,
                 recorded_at="2024-03-03")  # fmt: skip
    mem.remember("Alice", "owns_pet", "Tom", valid_from="2020-01-01", scope=scope,
                 recorded_at="2024-03-04")  # fmt: skip
    mem.close()

    seen = render_query_in_browser(
        f"{http}/browser/", uri.replace("bolt://", "neo4j://"), graph_now(scope),
        str(ARTIFACTS / "browser-graph-now.png"), auth=auth,
    )  # fmt: skip
    assert seen["error"] is None
    assert seen["node_count"] == 4  # Alice, Berlin, Acme, Tom: Paris is no longer true
    assert {"Alice", "Berlin", "Acme", "Tom"} <= set(seen["node_captions"])
    assert "Paris" not in seen["node_captions"]
    assert seen["relationship_count"] == 3
    assert Path(seen["screenshot_path"]).stat().st_size > 10_000

    history = render_query_in_browser(
        f"{http}/browser/", uri.replace("bolt://", "neo4j://"), entity_history(scope, "Alice"),
        str(ARTIFACTS / "browser-history.png"), auth=auth,
    )  # fmt: skip
    assert "Paris" in history["node_captions"]  # the history keeps the superseded city
