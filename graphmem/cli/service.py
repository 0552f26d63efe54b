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
    from graphmem.service.state import state_path

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

    return _serve(ctx, args, ready, warm=True)


def cmd_view(ctx: Ctx, args: argparse.Namespace) -> int:
    """Print (``--open``: also open) the address of the view page: on the running service
    of the store, or on one started here (as ``graphmem serve``, without loading the
    embedding model first: the page does not embed)."""
    from graphmem.service.state import read_state

    def show(info: Any) -> None:
        url = view_url(info.url, info.token, scope=ctx.scope, entity=args.entity)
        if ctx.json:
            ctx.emit({"store": ctx.store, "url": url, "pid": info.pid})
        else:
            ctx.out.print(url, soft_wrap=True, markup=False, highlight=False)
        sys.stdout.flush()
        if args.open:
            import webbrowser

            webbrowser.open(url)

    running = read_state(ctx.store) if not ctx.no_service else None
    if running is not None:
        show(running)
        return EXIT_OK

    def ready(info: Any) -> None:
        show(info)
        if not ctx.json:
            ctx.err.print(shown_text(f"graphmem view: serving {ctx.store}; Ctrl-C stops"),
                          soft_wrap=True)  # fmt: skip

    return _serve(ctx, args, ready, warm=False)


def view_url(base: str, token: str, *, scope: str, entity: str | None = None) -> str:
    """The page's address: the token rides in the fragment, which browsers never send.

    >>> view_url("http://127.0.0.1:8765", "t0k", scope="alice", entity="Alice")
    'http://127.0.0.1:8765/view/#token=t0k&scope=alice&entity=Alice'
    """
    from urllib.parse import urlencode

    params = {"token": token, "scope": scope} | ({"entity": entity} if entity else {})
    return f"{base}/view/#{urlencode(params)}"


def _serve(ctx: Ctx, args: argparse.Namespace, ready: Any, *, warm: bool) -> int:
    from graphmem.service.server import is_loopback, serve, warm_up

    token = args.token or os.environ.get("GRAPHMEM_TOKEN") or None
    verb = "serve" if warm else "view"
    if not is_loopback(args.host) and not token:
        raise UsageError(
            f"graphmem {verb}: error: --host {args.host} is reachable from other machines: "
            "give --token TOKEN (or GRAPHMEM_TOKEN), or bind 127.0.0.1"
        )
    if not 0 <= args.port < 65536:
        raise UsageError(f"graphmem {verb}: error: --port must be 0..65535")
    missing = [m for m in ("fastapi", "uvicorn") if importlib.util.find_spec(m) is None]
    if missing:
        raise GraphmemError(
            f"graphmem {verb} needs {' and '.join(missing)}: pip install 'graphmem[serve]'"
        )
    running = _any_service(ctx.store)
    if running is not None:
        raise GraphmemError(f"a service already serves {ctx.store} at {running} (stop it first)")
    memory = ctx.memory(must_exist=not warm)  # a page of a store that is not there: say so
    if warm:
        warm_up(memory)  # the model loads now, not on the first question
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
