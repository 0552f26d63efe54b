"""The HTTP face of one ``Memory``: its verbs as JSON endpoints (FastAPI, OpenAPI docs
at ``/docs``), for ``graphmem serve``.

Each endpoint is a thin call of the Memory verb of the same name, with the same keyword
names, and returns the same objects as JSON (``model_dump(mode="json")``), so that a
client rebuilding them renders exactly what an in-process call would. Times are ISO
strings or phrases, read by ``Memory`` as in a Python call.

Every request carries ``Authorization: Bearer TOKEN``: a web page in a browser on the
same machine can reach ``127.0.0.1`` too, so loopback is no reason to go without one.
An error graphmem reports is HTTP 400 (its class and message as JSON); a store busy
elsewhere is 503.

>>> from fastapi.testclient import TestClient
>>> from graphmem.memory import Memory
>>> app = create_app(Memory.open(":memory:", embedder=None), token="t")
>>> TestClient(app).get("/health", headers={"Authorization": "Bearer t"}).json()["status"]
'ok'
"""

from __future__ import annotations

import hmac
import os
import tempfile
import threading
from dataclasses import asdict
from typing import Annotated, Any, Literal

from fastapi import Depends, FastAPI, HTTPException, Request
from fastapi.responses import JSONResponse
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer
from pydantic import BaseModel, Field

from graphmem.answer import Answer
from graphmem.errors import GraphmemError, TransientStoreError
from graphmem.ingest import LoadReport  # a dataclass: FastAPI serves it as it is
from graphmem.memory import Memory
from graphmem.model import DEFAULT_SCOPE, Change, Entity, Fact, TimelineEntry
from graphmem.retrieval.hybrid import SearchResult
from graphmem.service.state import store_key

# Module level: FastAPI reads the endpoints' (postponed) annotations in this namespace.
_BEARER = HTTPBearer(auto_error=False)

When = str | None  # an ISO instant or a phrase ("last March"), as Memory reads them


class AskRequest(BaseModel):
    question: str
    speaker: str | None = None
    reference: When = None
    known_at: When = None
    scope: str = DEFAULT_SCOPE


class SearchRequest(BaseModel):
    query: str
    k: int = 10
    as_of: When = None
    known_at: When = None
    reference: When = None
    history: bool = False
    scope: str = DEFAULT_SCOPE
    targets: tuple[str, ...] = ("facts", "episodes")


class FactsRequest(BaseModel):
    subject: str | None = None
    predicate: str | None = None
    object: str | None = None
    as_of: When = None
    known_at: When = None
    scope: str = DEFAULT_SCOPE


class SubjectRequest(BaseModel):
    """A timeline's or a history's question: one subject, in a time mode."""

    subject: str
    predicate: str | None = None
    as_of: When = None
    known_at: When = None
    scope: str = DEFAULT_SCOPE


class ChangesRequest(BaseModel):
    since: When = None
    until: When = None
    axis: Literal["recorded", "valid"] = "recorded"
    known_at: When = None
    scope: str = DEFAULT_SCOPE


class ContextRequest(BaseModel):
    question: str
    budget_tokens: int = 800
    reference: When = None
    known_at: When = None
    scope: str = DEFAULT_SCOPE


class LoadRequest(BaseModel):
    """A log to load: ``path`` (a file on the service's machine) or ``records`` (the
    records themselves, one JSON object each, as the lines of a JSONL file)."""

    path: str | None = None
    records: list[dict[str, Any]] | None = None
    # posted records are loaded as a file of this name (its stem: their default session)
    name: str = Field(default="posted.jsonl", pattern=r"^\w[\w.-]*$", max_length=200)
    format: str | None = None
    scope: str = DEFAULT_SCOPE
    extractor: Literal["rules", "frames", "none"] = "rules"
    batch_size: int = 256
    skip_bad: bool = False


class ToolCall(BaseModel):
    """One agent tool call (``graphmem.tools``), for an MCP server running over the service."""

    arguments: dict[str, Any] = Field(default_factory=dict)
    scope: str = DEFAULT_SCOPE
    speaker: str = "user"
    allow_erase: bool = False


class HistoryRow(BaseModel):
    fact: Fact
    status: str


class Health(BaseModel):
    status: str
    store: str  # store_key of the store it holds: a client checks it is the one it means
    pid: int
    owner: str | None
    tz: str | None
    embedder: bool  # whether vectors are on (a --no-embed CLI must not use this service)


def create_app(memory: Memory, *, token: str, store: str | None = None) -> FastAPI:
    """The application over ``memory``; every request must carry ``token`` as a bearer
    token. ``store``: the location to report in ``/health`` (default the backend's)."""
    if not token:
        raise ValueError("a service needs a token")
    location = store_key(store or getattr(memory.backend, "location", "") or "")
    # One Memory, one call at a time: the facade's caches and the retriever are not
    # written for concurrent callers, and a shell's questions come one by one anyway.
    lock = threading.Lock()

    def check_token(
        credentials: Annotated[HTTPAuthorizationCredentials | None, Depends(_BEARER)],
    ) -> None:
        given = credentials.credentials if credentials is not None else ""
        if not hmac.compare_digest(given.encode(), token.encode()):
            raise HTTPException(
                status_code=401,
                detail="missing or wrong bearer token",
                headers={"WWW-Authenticate": "Bearer"},
            )

    app = FastAPI(
        title="graphmem",
        description="A bitemporal knowledge-graph memory: the Memory verbs over HTTP.",
        dependencies=[Depends(check_token)],
    )

    @app.exception_handler(GraphmemError)
    async def graphmem_error(request: Request, exc: GraphmemError) -> JSONResponse:
        status = 503 if isinstance(exc, TransientStoreError) else 400
        return JSONResponse(status_code=status,
                            content={"error": type(exc).__name__, "detail": str(exc)})  # fmt: skip

    def call(verb: str, *args: Any, **kwargs: Any) -> Any:
        with lock:
            return getattr(memory, verb)(*args, **kwargs)

    @app.get("/health", response_model=Health)
    def health() -> Health:
        tz = memory.tz if memory.tz is None or isinstance(memory.tz, str) else str(memory.tz)
        # ``_embedder`` unloaded ("default") counts as on: it loads on the first question
        return Health(status="ok", store=location, pid=os.getpid(), owner=memory.owner, tz=tz,
                      embedder=memory._embedder is not None)  # fmt: skip

    @app.post("/ask", response_model=Answer)
    def ask(body: AskRequest) -> Answer:
        return call("ask", **body.model_dump())

    @app.post("/search", response_model=SearchResult)
    def search(body: SearchRequest) -> SearchResult:
        return call("search", **body.model_dump())

    @app.post("/facts", response_model=list[Fact])
    def facts(body: FactsRequest) -> list[Fact]:
        return call("facts", **body.model_dump())

    @app.post("/timeline", response_model=list[TimelineEntry])
    def timeline(body: SubjectRequest) -> list[TimelineEntry]:
        return call("timeline", **body.model_dump())

    @app.post("/history", response_model=list[HistoryRow])
    def history(body: SubjectRequest) -> list[HistoryRow]:
        rows = call("history", **body.model_dump())
        return [HistoryRow(fact=fact, status=status) for fact, status in rows]

    @app.post("/changes", response_model=list[Change])
    def changes(body: ChangesRequest) -> list[Change]:
        return call("changes", **body.model_dump())

    @app.post("/context", response_model=str)
    def context(body: ContextRequest) -> str:
        return call("context", **body.model_dump())

    @app.post("/load", response_model=LoadReport)
    def load(body: LoadRequest) -> LoadReport:
        if (body.path is None) == (body.records is None):
            raise HTTPException(status_code=422, detail="give either 'path' or 'records'")
        options = body.model_dump(exclude={"path", "records", "name"})
        options["extractor"] = None if body.extractor == "none" else body.extractor
        if body.path is not None:
            if not os.path.isfile(body.path):
                raise GraphmemError(f"{body.path}: no such file on the service's machine")
            return call("load", body.path, **options)
        return _load_records(call, body.records or [], options, body.name)

    @app.post("/tools/{name}")
    def tool(name: str, body: ToolCall) -> dict[str, Any]:
        """Run one agent tool (remember, search, ask, timeline, correct, forget, erase)
        as ``graphmem.tools.call_tool`` does: errors come back as ``{"ok": false}``."""
        from graphmem.tools import call_tool

        with lock:
            return call_tool(memory, name, body.arguments, scope=body.scope,
                             speaker=body.speaker, allow_erase=body.allow_erase)  # fmt: skip

    @app.get("/scopes", response_model=list[str])
    def scopes() -> list[str]:
        return call("scopes")

    @app.get("/stats", response_model=dict[str, int])
    def stats(scope: str | None = None) -> dict[str, int]:
        return call("stats", scope=scope)

    @app.get("/entities", response_model=list[Entity])
    def entities(scope: str = DEFAULT_SCOPE) -> list[Entity]:
        return call("entities", scope=scope)

    @app.get("/predicates")
    def predicates() -> list[dict[str, Any]]:
        return [asdict(p) for p in call("predicates")]

    from graphmem.view.routes import add_view  # the page of graphmem view, and its data

    add_view(app, memory, lock)
    return app


def _load_records(call: Any, records: list[dict[str, Any]], options: dict[str, Any],
                  name: str) -> Any:  # fmt: skip
    """Load posted records: written as a file called ``name`` in a fresh folder, then
    loaded as that file (the loaders read files; a log without sessions takes the file's
    stem as its session, so posting the same records again under the same name adds
    nothing). The folder is removed afterwards."""
    import json
    import shutil

    folder = tempfile.mkdtemp(prefix="graphmem-post-")
    path = os.path.join(folder, name)
    try:
        with open(path, "w", encoding="utf-8") as handle:
            for record in records:
                handle.write(json.dumps(record, ensure_ascii=False) + "\n")
        report = call("load", path, **{**options, "format": options.get("format") or "jsonl"})
        report.path = name
        return report
    finally:
        shutil.rmtree(folder, ignore_errors=True)
