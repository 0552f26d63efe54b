"""The view's routes on the service: the page at ``/view/`` and its JSON endpoints.

The page itself (HTML, CSS, JavaScript; no data) is served without a token, so a
browser can open it from a link; it takes the token from the link's ``#token=``
fragment (a fragment is never sent to a server, nor kept in its logs) and sends it as a
bearer token with every request for data, as any other client does. The data
endpoints sit behind the app's token check like every other endpoint.

>>> from fastapi.testclient import TestClient
>>> from graphmem.memory import Memory
>>> from graphmem.service.app import create_app
>>> client = TestClient(create_app(Memory.open(":memory:", embedder=None), token="t"))
>>> client.get("/view/").status_code, client.get("/graph?scope=s").status_code
(200, 401)
>>> client.get("/graph?scope=s", headers={"Authorization": "Bearer t"}).json()["edges"]
[]
"""

from __future__ import annotations

import threading
from pathlib import Path
from typing import TYPE_CHECKING, Any

from fastapi import FastAPI
from fastapi.staticfiles import StaticFiles

from graphmem.model import DEFAULT_SCOPE
from graphmem.view import data

if TYPE_CHECKING:
    from graphmem.memory import Memory

STATIC = Path(__file__).resolve().parent / "static"


def add_view(app: FastAPI, memory: Memory, lock: threading.Lock) -> None:
    """Add the page and its endpoints to the service's ``app`` over ``memory``; ``lock``
    is the app's one-call-at-a-time lock."""

    @app.get("/graph/overview", tags=["view"])
    def graph_overview(scope: str = DEFAULT_SCOPE) -> dict[str, Any]:
        """The scope's extent in valid and recorded time, its change points, its
        entities and every pair of nodes a fact ever joined."""
        with lock:
            return data.overview(memory, scope=scope)

    @app.get("/graph", tags=["view"])
    def graph(
        scope: str = DEFAULT_SCOPE,
        as_of: str | None = None,
        known_at: str | None = None,
        expired: bool = True,
    ) -> dict[str, Any]:
        """The graph at ``as_of`` (valid time, default now) as believed at ``known_at``
        (transaction time, default now); ``expired``: also the facts given up by then."""
        with lock:
            return data.graph(memory, scope=scope, as_of=as_of, known_at=known_at,
                              expired=expired)  # fmt: skip

    @app.get("/graph/entity", tags=["view"])
    def graph_entity(
        name: str, scope: str = DEFAULT_SCOPE, known_at: str | None = None
    ) -> dict[str, Any]:
        """One entity's timeline (as believed at ``known_at``) and its rows by key."""
        with lock:
            return data.entity(memory, name, scope=scope, known_at=known_at)

    # A mounted app is outside the token dependency: it serves only the static page.
    app.mount("/view", StaticFiles(directory=STATIC, html=True), name="view")
