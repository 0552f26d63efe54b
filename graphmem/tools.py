"""Memory as tools for LLM agents: function-calling schemas, a dispatcher, an MCP server.

Each tool's arguments are a pydantic model; its JSON schema (OpenAI-style function
calling) is generated from the model, and ``call_tool`` validates arguments against
the same model before touching memory. Tools:

- ``remember``: a fact holds (from ``valid_from``, default now); a new value of a
  one-at-a-time relation (lives_in, works_at...) replaces the old one from then on;
- ``search``: hybrid search over facts and past conversation, optionally in the past;
- ``ask``: a time-scoped question answered exactly from memory ("I don't know" when not);
- ``timeline``: every value a subject had over time;
- ``correct``: a stored fact was a mistake (never true), optionally with the right value;
- ``forget``: a fact stopped holding (a retraction; history keeps it);
- ``erase`` (only with ``allow_erase=True``): hard delete for privacy.

The scope (tenant) and the speaker ("I" in questions) are fixed by the host
application, never chosen by the model.

>>> import os, tempfile
>>> from graphmem import Memory
>>> mem = Memory.open(os.path.join(tempfile.mkdtemp(), "m.db"), embedder=None)
>>> fact = {"subject": "user", "predicate": "lives_in", "object": "Paris"}
>>> call_tool(mem, "remember", fact)["ok"]
True
>>> call_tool(mem, "ask", {"question": "where do I live?"})["answer"].startswith("Paris")
True
>>> [t["function"]["name"] for t in openai_tools()]
['remember', 'search', 'ask', 'timeline', 'correct', 'forget']
>>> mem.close()
"""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from graphmem.errors import GraphmemError, InvalidFactError
from graphmem.model import DEFAULT_SCOPE, CandidateFact, Fact, Provenance
from graphmem.time.instant import POS_INF, format_instant, now

if TYPE_CHECKING:
    from graphmem.memory import Memory
    from graphmem.predicates import PredicateRegistry

__all__ = [
    "TOOLS",
    "AskArgs",
    "CorrectArgs",
    "EraseArgs",
    "ForgetArgs",
    "RememberArgs",
    "SearchArgs",
    "TimelineArgs",
    "call_tool",
    "openai_tools",
    "serve_mcp",
    "tool_specs",
]

_WHEN = "an ISO date/time (2024-03-01) or a phrase ('last month', '3 days ago')"


class _Args(BaseModel):
    model_config = ConfigDict(extra="forbid")


class RememberArgs(_Args):
    """Store a fact in long-term memory: subject -predicate-> object, true from valid_from
    (default: now). For a relation that holds one value at a time (lives_in, works_at,
    manager...), the new value replaces the previous one from valid_from on; the old
    value stays in the history."""

    subject: str = Field(description="who or what the fact is about; 'user' for the user")
    predicate: str = Field(description="the relation, one of the known predicates")
    object: str = Field(description="the value, e.g. a city, a company, a person's name")
    valid_from: str | None = Field(None, description=f"when it became true: {_WHEN}")
    valid_to: str | None = Field(None, description=f"when it stopped being true: {_WHEN}")


class SearchArgs(_Args):
    """Search long-term memory (facts and past conversation) by meaning and keywords.
    Time phrases in the query ('in March 2024') narrow the search to that time."""

    query: str = Field(description="what to look for")
    k: int = Field(5, ge=1, le=50, description="how many results")
    as_of: str | None = Field(None, description=f"facts true at this time: {_WHEN}")
    known_at: str | None = Field(None, description=f"as memory stood at this time: {_WHEN}")
    include_history: bool = Field(
        False, description="also return superseded, corrected and retracted facts, marked"
    )


class AskArgs(_Args):
    """Ask memory a question ('where does the user live now?', 'who was my manager in
    May 2024?'). Answers exactly from stored facts with their validity, or says it does
    not know."""

    question: str = Field(description="the question, in plain language")
    as_of: str | None = Field(None, description=f"answer as of this time: {_WHEN}")
    known_at: str | None = Field(None, description=f"as memory stood at this time: {_WHEN}")


class TimelineArgs(_Args):
    """Every value a subject had over time, oldest first (e.g. all the cities the user
    lived in, with dates)."""

    subject: str = Field(description="who or what; 'user' for the user")
    predicate: str | None = Field(None, description="only this relation (default: all)")
    known_at: str | None = Field(None, description=f"as memory stood at this time: {_WHEN}")


class CorrectArgs(_Args):
    """A stored fact was a mistake (it was never true): remove the wrong value and,
    if given, put the right one in its place. Use 'remember' instead when something
    changed in the world."""

    subject: str = Field(description="who or what the fact is about")
    predicate: str = Field(description="the relation")
    wrong: str | None = Field(None, description="the mistaken value (default: whatever is stored)")
    right: str | None = Field(None, description="the correct value, if known")


class ForgetArgs(_Args):
    """A fact stopped being true (e.g. the user no longer has a car): it ends at 'at'
    (default now). Memory keeps it in the history."""

    subject: str = Field(description="who or what the fact is about")
    predicate: str = Field(description="the relation")
    object: str | None = Field(None, description="the value that stopped holding (default: any)")
    at: str | None = Field(None, description=f"when it stopped: {_WHEN}")


class EraseArgs(_Args):
    """Permanently delete everything stored about a subject (or one relation of it), for
    privacy. This cannot be undone and leaves no history."""

    subject: str = Field(description="who or what to erase")
    predicate: str | None = Field(None, description="only this relation (default: everything)")
    object: str | None = Field(None, description="only this value (needs predicate)")


TOOLS: dict[str, type[_Args]] = {
    "remember": RememberArgs,
    "search": SearchArgs,
    "ask": AskArgs,
    "timeline": TimelineArgs,
    "correct": CorrectArgs,
    "forget": ForgetArgs,
    "erase": EraseArgs,
}
_DEFAULT_TOOLS = ("remember", "search", "ask", "timeline", "correct", "forget")


# -- schemas -------------------------------------------------------------------------------


def _clean(schema: Any) -> Any:
    """Plain JSON schema: no titles, ``X | None`` as an optional ``X``."""
    if isinstance(schema, list):
        return [_clean(s) for s in schema]
    if not isinstance(schema, dict):
        return schema
    out = {k: _clean(v) for k, v in schema.items() if k != "title"}
    variants = out.get("anyOf")
    if isinstance(variants, list):
        kept = [v for v in variants if v.get("type") != "null"]
        if len(kept) == 1 and len(kept) < len(variants):
            del out["anyOf"]
            out = {**kept[0], **out}
            if out.get("default", 0) is None:
                del out["default"]
    return out


def _description(model: type[_Args]) -> str:
    return " ".join((model.__doc__ or "").split())


def tool_specs(
    *, registry: PredicateRegistry | None = None, allow_erase: bool = False
) -> list[dict[str, Any]]:
    """``[{"name", "description", "parameters"}]`` for every tool (JSON schema params)."""
    from graphmem.predicates import PredicateRegistry

    registry = registry or PredicateRegistry.with_builtins()
    predicates = sorted(p.name for p in _predicates(registry))
    names = _DEFAULT_TOOLS + (("erase",) if allow_erase else ())
    specs = []
    for name in names:
        model = TOOLS[name]
        schema = _clean(copy.deepcopy(model.model_json_schema()))
        schema.pop("description", None)  # it is the tool's description
        schema.setdefault("additionalProperties", False)
        prop = schema.get("properties", {}).get("predicate")
        if prop is not None:
            prop["enum"] = predicates
        specs.append({"name": name, "description": _description(model), "parameters": schema})
    return specs


def _predicates(registry: PredicateRegistry) -> list[Any]:
    return list(registry)


def openai_tools(
    *, registry: PredicateRegistry | None = None, allow_erase: bool = False
) -> list[dict[str, Any]]:
    """Tool definitions for OpenAI-compatible chat APIs (``tools=[...]``)."""
    return [
        {"type": "function", "function": spec}
        for spec in tool_specs(registry=registry, allow_erase=allow_erase)
    ]


# -- dispatch --------------------------------------------------------------------------------


def _t(value) -> str:
    return format_instant(value)


def _fact(row: Fact, status: str | None = None) -> dict[str, Any]:
    data = {
        "subject": row.subject,
        "predicate": row.predicate,
        "object": row.object,
        "text": row.text,
        "valid": row.describe_validity(),
        "valid_from": _t(row.valid_from),
        "valid_to": _t(row.valid_to),
        "recorded_at": _t(row.recorded_at),
        "expired_at": _t(row.expired_at),
    }
    if status is not None:
        data["status"] = status
    return data


def _written(result: Any) -> dict[str, Any]:
    return {
        "ok": True,
        "changed": result.changed,
        "stored": [_fact(f) for f in result.inserted],
        "rows_expired": len(result.expired),
    }


def call_tool(
    memory: Memory,
    name: str,
    arguments: dict[str, Any] | str | None,
    *,
    scope: str = DEFAULT_SCOPE,
    speaker: str = "user",
    allow_erase: bool = False,
) -> dict[str, Any]:
    """Run one tool call; always returns a JSON-ready dict with ``ok``. Errors (unknown
    tool, bad arguments, a write memory refuses) come back as ``{"ok": False, "error"}``
    so an agent loop can hand them to the model to fix."""
    try:
        if isinstance(arguments, str):  # OpenAI hands arguments over as a JSON string
            arguments = json.loads(arguments or "{}")
        if name not in TOOLS or (name == "erase" and not allow_erase):
            raise GraphmemError(f"unknown tool {name!r}")
        args = TOOLS[name].model_validate(arguments or {})
        return _dispatch(memory, name, args, scope=scope, speaker=speaker)
    except ValidationError as exc:
        problems = "; ".join(
            f"{'.'.join(str(p) for p in e['loc']) or 'arguments'}: {e['msg']}" for e in exc.errors()
        )
        return {"ok": False, "error": f"{name}: invalid arguments: {problems}"}
    except json.JSONDecodeError as exc:
        return {"ok": False, "error": f"{name}: arguments are not JSON: {exc}"}
    except GraphmemError as exc:
        return {"ok": False, "error": str(exc)}


def _subject(value: str, speaker: str) -> str:
    """'user' / 'me' / 'I' mean the person the host says is speaking."""
    return speaker if value.strip().lower() in ("user", "me", "i", "myself") else value


def _dispatch(memory: Memory, name: str, args: Any, *, scope: str, speaker: str) -> dict:
    if name == "remember":
        from graphmem.ingest import resolve

        start = memory._time(args.valid_from, "valid_from", now())
        end = memory._time(args.valid_to, "valid_to", POS_INF)
        try:
            candidate = CandidateFact(
                op="assert",
                subject=_subject(args.subject, speaker),
                predicate=args.predicate,
                object=args.object,
                valid_from=start,
                valid_to=end,
                scope=scope,
                provenance=Provenance(source="tool", extractor="tool"),
            )
        except ValueError as exc:
            raise InvalidFactError(f"remember: {exc}") from None
        memory.registry.get(args.predicate)
        return _written(memory.apply(resolve([candidate], memory)))
    if name == "forget":
        result = memory.retract(
            _subject(args.subject, speaker), args.predicate, args.object, at=args.at, scope=scope
        )
        return _written(result)
    if name == "correct":
        if args.wrong is None and args.right is None:
            raise InvalidFactError("correct: give the wrong value, the right value, or both")
        result = memory.correct(
            _subject(args.subject, speaker),
            args.predicate,
            wrong=args.wrong,
            right=args.right,
            scope=scope,
        )
        return _written(result)
    if name == "erase":
        erased = memory.erase(
            _subject(args.subject, speaker), args.predicate, args.object, scope=scope
        )
        return {"ok": True, "rows_deleted": erased.rows, "turns_deleted": erased.turns}
    if name == "ask":
        answer = memory.ask(
            args.question,
            speaker=speaker,
            reference=args.as_of,
            known_at=args.known_at,
            scope=scope,
        )
        return {
            "ok": True,
            "answer": answer.answer,
            "known": answer.known,
            "mode": answer.mode,
            "values": [
                {"value": v.value, "valid_from": _t(v.valid_from), "valid_to": _t(v.valid_to)}
                for v in answer.values
            ],
        }
    if name == "search":
        result = memory.search(
            args.query,
            k=args.k,
            as_of=args.as_of,
            known_at=args.known_at,
            history=args.include_history,
            scope=scope,
        )
        hits = []
        for hit in result.hits:
            item: dict[str, Any] = {
                "kind": hit.kind,
                "score": round(hit.score, 4),
                "text": hit.text,
            }
            if hit.fact is not None:
                item.update(_fact(hit.fact, hit.status))
            elif hit.episode is not None:
                item.update(
                    speaker=hit.episode.speaker,
                    said_at=_t(hit.episode.timestamp),
                    session=hit.episode.session,
                )
            hits.append(item)
        return {"ok": True, "mode": result.mode, "hits": hits}
    if name == "timeline":
        entries = memory.timeline(
            _subject(args.subject, speaker), args.predicate, known_at=args.known_at, scope=scope
        )
        return {
            "ok": True,
            "entries": [
                {
                    "predicate": e.predicate,
                    "object": e.object,
                    "valid_from": _t(e.valid_from),
                    "valid_to": _t(e.valid_to),
                    "status": e.status,
                }
                for e in entries
            ],
        }
    raise GraphmemError(f"unknown tool {name!r}")  # pragma: no cover - checked above


# -- MCP -------------------------------------------------------------------------------------


Dispatch = Callable[[str, dict[str, Any]], dict[str, Any]]  # (tool name, arguments) -> result


def mcp_server(
    memory: Memory,
    *,
    scope: str = DEFAULT_SCOPE,
    speaker: str = "user",
    allow_erase: bool = False,
    dispatch: Dispatch | None = None,
):
    """A low-level ``mcp`` Server exposing the tools (needs the ``mcp`` package, v2).
    ``dispatch`` runs a tool call elsewhere (``graphmem serve``: see
    ``graphmem.service.client.RemoteMemory.tool_dispatch``); ``memory`` then only names
    the predicates (its ``registry``)."""
    try:
        import mcp.types as types
        from mcp.server.lowlevel import Server
    except ImportError as exc:  # pragma: no cover - mcp is a dependency
        raise GraphmemError(f"the MCP server needs the 'mcp' package: {exc}") from None

    specs = tool_specs(registry=memory.registry, allow_erase=allow_erase)

    async def list_tools(ctx, params):  # noqa: ARG001
        return types.ListToolsResult(
            tools=[
                types.Tool(
                    name=s["name"], description=s["description"], input_schema=s["parameters"]
                )
                for s in specs
            ]
        )

    async def call(ctx, params):  # noqa: ARG001
        if dispatch is not None:
            result = dispatch(params.name, params.arguments or {})
        else:
            result = call_tool(
                memory,
                params.name,
                params.arguments or {},
                scope=scope,
                speaker=speaker,
                allow_erase=allow_erase,
            )
        text = json.dumps(result, ensure_ascii=False)
        return types.CallToolResult(
            content=[types.TextContent(text=text)],
            structured_content=result,
            is_error=not result.get("ok", False),
        )

    return Server(
        "graphmem",
        version=_version(),
        instructions=(
            "Long-term, time-aware memory. Use 'ask' or 'search' before answering questions "
            "about the user; 'remember' new facts; 'correct' mistakes; 'forget' what ended."
        ),
        on_list_tools=list_tools,
        on_call_tool=call,
    )


def _version() -> str:
    try:
        from importlib.metadata import version

        return version("graphmem")
    except Exception:  # noqa: BLE001
        return "0"


def serve_mcp(
    memory: Memory,
    *,
    scope: str = DEFAULT_SCOPE,
    speaker: str = "user",
    allow_erase: bool = False,
    dispatch: Dispatch | None = None,
) -> None:
    """Serve the tools over stdio until the client closes the connection."""
    import anyio
    from mcp.server.stdio import stdio_server

    server = mcp_server(
        memory, scope=scope, speaker=speaker, allow_erase=allow_erase, dispatch=dispatch
    )

    async def run() -> None:
        async with stdio_server() as (read_stream, write_stream):
            await server.run(read_stream, write_stream, server.create_initialization_options())

    anyio.run(run)
