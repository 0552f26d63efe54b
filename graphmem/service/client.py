"""A client of ``graphmem serve`` with ``Memory``'s read verbs (and ``load``), returning
the same objects a ``Memory`` returns, rebuilt from the service's JSON.

Standard library only (``urllib``): the shell's client path imports neither FastAPI nor
torch nor the model. ``connect(store)`` finds the service of a store from its
discovery file and checks that it answers for that very store.

>>> remote = connect("/no/such/store.db")  # no service: the CLI runs in-process
>>> remote is None
True

With a service running (``graphmem --store memory.db serve``):

>>> remote = connect("memory.db")  # doctest: +SKIP
>>> remote.ask("where do I live now?", speaker="Sam", scope="demo").answer  # doctest: +SKIP
'Lisbon (since 2024-02-20)'
"""

from __future__ import annotations

import json
import os
import urllib.error
import urllib.request
from collections.abc import Callable
from datetime import datetime
from typing import TYPE_CHECKING, Any, Literal

import graphmem.errors as errors
from graphmem.model import DEFAULT_SCOPE
from graphmem.service.state import ServiceInfo, read_state, store_key
from graphmem.time.instant import format_instant

if TYPE_CHECKING:
    from graphmem.answer import Answer
    from graphmem.ingest import LoadReport
    from graphmem.model import Change, Entity, Fact, TimelineEntry
    from graphmem.predicates import Predicate, PredicateRegistry
    from graphmem.retrieval.hybrid import SearchResult

When = datetime | str | None
# /health answers in microseconds on loopback; a service that does not answer in this
# long is taken as gone and the CLI runs in-process instead.
HEALTH_TIMEOUT_S = 2.0
# A question can take a while (a cold model, a long search): no short read timeout.
CALL_TIMEOUT_S = 600.0


class ServiceError(errors.GraphmemError):
    """The service could not be reached, or refused the request (e.g. a wrong token)."""


def _when(value: When) -> str | None:
    """A time argument on the wire: an instant as ISO (exact to the microsecond), a
    phrase as it is (the service reads it as Memory would)."""
    if isinstance(value, datetime):
        return format_instant(value)
    return value


class ServiceClient:
    """JSON over HTTP to one service, with its bearer token."""

    def __init__(self, info: ServiceInfo):
        self.info = info
        self.url = info.url

    def request(self, method: str, path: str, body: Any = None, *,
                timeout: float = CALL_TIMEOUT_S) -> Any:  # fmt: skip
        data = None if body is None else json.dumps(body, ensure_ascii=False).encode("utf-8")
        req = urllib.request.Request(self.url + path, data=data, method=method)
        req.add_header("Authorization", f"Bearer {self.info.token}")
        if data is not None:
            req.add_header("Content-Type", "application/json")
        try:
            with _opener().open(req, timeout=timeout) as response:
                return json.loads(response.read())
        except urllib.error.HTTPError as exc:
            raise _error_from(exc, self.url + path) from None
        except (urllib.error.URLError, OSError) as exc:
            reason = getattr(exc, "reason", exc)
            raise ServiceError(f"graphmem service at {self.url}: {reason}") from None


def _opener() -> urllib.request.OpenerDirector:
    # No proxy: a service is reached directly (an HTTP_PROXY must never see the token).
    return urllib.request.build_opener(urllib.request.ProxyHandler({}))


def _error_from(exc: urllib.error.HTTPError, where: str) -> errors.GraphmemError:
    """The service's error as the error the in-process call raises (same class, same
    message), so the CLI reports it the same way."""
    try:
        payload = json.loads(exc.read())
    except ValueError:
        payload = {}
    name, detail = payload.get("error"), payload.get("detail")
    kind = getattr(errors, name, None) if isinstance(name, str) else None
    if isinstance(kind, type) and issubclass(kind, errors.GraphmemError):
        return kind(detail)
    if exc.code == 401:
        return ServiceError(f"{where}: the service refused the token (is it another service?)")
    return ServiceError(f"{where}: HTTP {exc.code}: {detail or exc.reason}")


class RemoteMemory:
    """``Memory``'s read verbs and ``load`` answered by a service.

    ``owner`` is this client's owner (whose "I" a question means), which may differ from
    the service's: ``ask`` resolves its speaker here, as ``Memory.ask`` would.
    """

    def __init__(self, client: ServiceClient, health: dict[str, Any], *,
                 owner: str | None = None, tz: str | None = None):  # fmt: skip
        self.client = client
        self.health = health
        self.owner = owner
        self.tz = tz
        self.service_owner: str | None = health.get("owner")
        self._registry: PredicateRegistry | None = None

    def _post(self, endpoint: str, /, **body: Any) -> Any:
        return self.client.request("POST", endpoint, body)

    # -- reads -----------------------------------------------------------------------
    def ask(self, question: str, *, speaker: str | None = None, reference: When = None,
            known_at: When = None, scope: str = DEFAULT_SCOPE) -> Answer:  # fmt: skip
        from graphmem.answer import Answer

        speaker = speaker if speaker is not None else (self.owner or "user")
        data = self._post("/ask", question=question, speaker=speaker,
                          reference=_when(reference), known_at=_when(known_at), scope=scope)  # fmt: skip
        return Answer.model_validate(data)

    def search(self, query: str, *, k: int = 10, as_of: When = None, known_at: When = None,
               reference: When = None, history: bool = False, scope: str = DEFAULT_SCOPE,
               targets: tuple[str, ...] = ("facts", "episodes")) -> SearchResult:  # fmt: skip
        from graphmem.retrieval.hybrid import SearchResult

        data = self._post("/search", query=query, k=k, as_of=_when(as_of),
                          known_at=_when(known_at), reference=_when(reference), history=history,
                          scope=scope, targets=list(targets))  # fmt: skip
        return SearchResult.model_validate(data)

    def facts(self, subject: str | None = None, predicate: str | None = None,
              object: str | None = None, *, as_of: When = None, known_at: When = None,
              scope: str = DEFAULT_SCOPE) -> list[Fact]:  # fmt: skip
        from graphmem.model import Fact

        data = self._post("/facts", subject=subject, predicate=predicate, object=object,
                          as_of=_when(as_of), known_at=_when(known_at), scope=scope)  # fmt: skip
        return [Fact.model_validate(row) for row in data]

    def timeline(self, subject: str, predicate: str | None = None, *, as_of: When = None,
                 known_at: When = None, scope: str = DEFAULT_SCOPE) -> list[TimelineEntry]:  # fmt: skip
        from graphmem.model import TimelineEntry

        data = self._post("/timeline", subject=subject, predicate=predicate, as_of=_when(as_of),
                          known_at=_when(known_at), scope=scope)  # fmt: skip
        return [TimelineEntry.model_validate(entry) for entry in data]

    def history(self, subject: str, predicate: str | None = None, *, as_of: When = None,
                known_at: When = None, scope: str = DEFAULT_SCOPE) -> list[tuple[Fact, str]]:  # fmt: skip
        from graphmem.model import Fact

        data = self._post("/history", subject=subject, predicate=predicate, as_of=_when(as_of),
                          known_at=_when(known_at), scope=scope)  # fmt: skip
        return [(Fact.model_validate(row["fact"]), row["status"]) for row in data]

    def changes(self, since: When, until: When = None, *,
                axis: Literal["recorded", "valid"] = "recorded", known_at: When = None,
                scope: str = DEFAULT_SCOPE) -> list[Change]:  # fmt: skip
        from graphmem.model import Change

        data = self._post("/changes", since=_when(since), until=_when(until), axis=axis,
                          known_at=_when(known_at), scope=scope)  # fmt: skip
        return [Change.model_validate(c) for c in data]

    def context(self, question: str, *, budget_tokens: int = 800, reference: When = None,
                known_at: When = None, scope: str = DEFAULT_SCOPE) -> str:  # fmt: skip
        return self._post("/context", question=question, budget_tokens=budget_tokens,
                          reference=_when(reference), known_at=_when(known_at), scope=scope)  # fmt: skip

    def scopes(self) -> list[str]:
        return self.client.request("GET", "/scopes")

    def stats(self, *, scope: str | None = None) -> dict[str, int]:
        from urllib.parse import urlencode

        query = "?" + urlencode({"scope": scope}) if scope is not None else ""
        return self.client.request("GET", "/stats" + query)

    def entities(self, *, scope: str = DEFAULT_SCOPE) -> list[Entity]:
        from urllib.parse import urlencode

        from graphmem.model import Entity

        data = self.client.request("GET", "/entities?" + urlencode({"scope": scope}))
        return [Entity.model_validate(e) for e in data]

    def predicates(self) -> list[Predicate]:
        from graphmem.predicates import Predicate

        return [Predicate(**p) for p in self.client.request("GET", "/predicates")]

    @property
    def registry(self) -> PredicateRegistry:
        """The service's predicates (built-in and declared), for checking a name here."""
        if self._registry is None:
            from graphmem.predicates import PredicateRegistry

            self._registry = PredicateRegistry(tuple(self.predicates()))
        return self._registry

    # -- writes ----------------------------------------------------------------------
    def load(self, path: str | os.PathLike[str], *, format: str | None = None,
             scope: str = DEFAULT_SCOPE, extractor: Any = "rules", batch_size: int = 256,
             skip_bad: bool = False, progress: Any = None) -> LoadReport:  # fmt: skip
        """Load a file on this machine through the service (which holds the store and the
        model). ``extractor``: a name (rules, frames, none); ``progress`` is not reported
        over HTTP: it is called once, with every record, when the load is done."""
        from graphmem.ingest import LoadReport

        name = "none" if extractor is None else extractor
        if not isinstance(name, str):
            raise ServiceError("a service loads with a named extractor (rules, frames, none)")
        data = self._post("/load", path=os.path.abspath(path), format=format, scope=scope,
                          extractor=name, batch_size=batch_size, skip_bad=skip_bad)  # fmt: skip
        report = LoadReport(**{**data, "path": os.fspath(path)})  # as given, as Memory.load
        if progress is not None and report.records:
            progress(report.records)
        return report

    def tool_dispatch(self, *, scope: str = DEFAULT_SCOPE, speaker: str = "user",
                      allow_erase: bool = False) -> Callable[[str, dict[str, Any]], dict[str, Any]]:  # fmt: skip
        """A tool-call runner for ``graphmem.tools.mcp_server``: every call is run by the
        service, on its store (``graphmem mcp`` over a running service)."""
        from urllib.parse import quote

        def dispatch(name: str, arguments: dict[str, Any]) -> dict[str, Any]:
            try:
                return self._post(f"/tools/{quote(name, safe='')}", arguments=arguments,
                                  scope=scope, speaker=speaker, allow_erase=allow_erase)  # fmt: skip
            except errors.GraphmemError as exc:  # as call_tool reports: the agent sees it
                return {"ok": False, "error": str(exc)}

        return dispatch

    def close(self) -> None:
        """Nothing to release: the service keeps the store open for the next call."""


def connect(store: str, *, owner: str | None = None, tz: str | None = None,
            embed: bool = True) -> RemoteMemory | None:  # fmt: skip
    """The running service of ``store``, if there is one that answers for it with the
    same settings as this caller (``tz``: how question phrases are read; ``embed``:
    vectors on or off), else None: the caller then opens the store itself."""
    info = read_state(store)
    if info is None or info.store != store_key(store):
        return None
    client = ServiceClient(info)
    try:
        health = client.request("GET", "/health", timeout=HEALTH_TIMEOUT_S)
    except errors.GraphmemError:
        return None
    if health.get("store") != info.store or health.get("tz") != tz:
        return None
    if bool(health.get("embedder")) != embed:
        return None
    return RemoteMemory(client, health, owner=owner, tz=tz)
