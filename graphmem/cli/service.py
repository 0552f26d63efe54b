"""graphmem serve and graphmem mcp."""

from __future__ import annotations

import argparse
import importlib.util
import os
import sys
from typing import TYPE_CHECKING, Any

from graphmem.cli.context import EXIT_OK, Ctx, UsageError
from graphmem.cli.reads import speaker_of
from graphmem.cli.render import shown_text
from graphmem.errors import GraphmemError

if TYPE_CHECKING:
    pass

if TYPE_CHECKING:
    pass


def cmd_serve(ctx: Ctx, args: argparse.Namespace) -> int:
    from graphmem.service.server import is_loopback, serve, warm_up
    from graphmem.service.state import state_path

    token = args.token or os.environ.get("GRAPHMEM_TOKEN") or None
    if not is_loopback(args.host) and not token:
        raise UsageError(
            f"graphmem serve: error: --host {args.host} is reachable from other machines: "
            "give --token TOKEN (or GRAPHMEM_TOKEN), or bind 127.0.0.1"
        )
    if not 0 <= args.port < 65536:
        raise UsageError("graphmem serve: error: --port must be 0..65535")
    missing = [m for m in ("fastapi", "uvicorn") if importlib.util.find_spec(m) is None]
    if missing:
        raise GraphmemError(
            f"graphmem serve needs {' and '.join(missing)}: pip install 'graphmem[serve]'"
        )
    running = _any_service(ctx.store)
    if running is not None:
        raise GraphmemError(f"a service already serves {ctx.store} at {running} (stop it first)")
    memory = ctx.memory()
    warm_up(memory)  # the model loads now, not on the first question

    def ready(info: Any) -> None:
        if ctx.json:
            ctx.emit({"store": ctx.store, "url": info.url, "pid": info.pid,
                      "state": str(state_path(ctx.store))})  # fmt: skip
            sys.stdout.flush()
        else:
            ctx.err.print(shown_text(
                f"graphmem serve: {ctx.store} at {info.url} (API docs {info.url}/docs); "
                f"address and token in {state_path(ctx.store)}; Ctrl-C stops"
            ), soft_wrap=True)  # fmt: skip

    serve(memory, store=ctx.store, host=args.host, port=args.port, token=token, ready=ready)
    return EXIT_OK


def _any_service(store: str) -> str | None:
    """The address of a live service of ``store`` whatever its settings, else None."""
    from graphmem.service.state import read_state

    info = read_state(store)
    return info.url if info is not None else None


def cmd_mcp(ctx: Ctx, args: argparse.Namespace) -> int:
    from graphmem.tools import serve_mcp

    remote = None
    if not ctx.no_service:  # a running service: the tools run there, on its store
        from graphmem.service.client import connect

        remote = connect(ctx.store, owner=ctx.owner, tz=ctx.tz, embed=not ctx.no_embed)
        if remote is not None and remote.service_owner != ctx.owner:
            remote = None  # remember resolves "I" with the owner: keep ours
    memory = remote or ctx.memory()
    speaker = speaker_of(args) or memory.owner or "user"
    serve_mcp(
        memory,  # type: ignore[arg-type]
        scope=ctx.scope,
        speaker=speaker,
        allow_erase=args.allow_erase,
        dispatch=remote.tool_dispatch(scope=ctx.scope, speaker=speaker,
                                      allow_erase=args.allow_erase) if remote else None,
    )  # fmt: skip
    return EXIT_OK
