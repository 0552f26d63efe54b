"""Run the service: open the store once, load the model once, answer until stopped.

``serve(memory, store=..., host=..., port=...)`` binds first (port 0: a free one), then
writes the discovery file (``state.py``) with the port it got, serves with uvicorn, and
removes the file when it stops (Ctrl-C, SIGTERM). Loopback is the default; any other
address is refused without a token given by the caller, who then has to hand it to
the clients (``--token``); on loopback a random one is made and kept in the file.

    graphmem --store memory.db serve                 # 127.0.0.1, a free port
    graphmem --store memory.db serve --port 8765
    graphmem --store memory.db serve --host 0.0.0.0 --token "$(openssl rand -hex 16)"
"""

from __future__ import annotations

import ipaddress
import os
import secrets
import signal
import socket
import sys
import threading
from collections.abc import Callable

from graphmem.errors import GraphmemError
from graphmem.memory import Memory
from graphmem.service.state import ServiceInfo, remove_state, store_key, write_state


def is_loopback(host: str) -> bool:
    """Whether ``host`` is reachable from this machine only.

    >>> is_loopback("127.0.0.1"), is_loopback("localhost"), is_loopback("0.0.0.0")
    (True, True, False)
    """
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def warm_up(memory: Memory) -> None:
    """Load the embedding model now, not on the first question (what the service is for)."""
    if memory.embedder is not None:
        memory.embedder.embed(["warm up"])


def serve(
    memory: Memory,
    *,
    store: str,
    host: str = "127.0.0.1",
    port: int = 0,
    token: str | None = None,
    ready: Callable[[ServiceInfo], None] | None = None,
) -> None:
    """Serve ``memory`` until interrupted. ``ready`` is called once the port is bound and
    the discovery file written (the CLI prints the address there)."""
    import uvicorn

    from graphmem.service.app import create_app

    if not is_loopback(host) and not token:
        raise GraphmemError(
            f"serve --host {host}: every machine that reaches it could read the memory; "
            "give --token TOKEN (clients send it as a bearer token), or bind 127.0.0.1"
        )
    token = token or secrets.token_urlsafe(24)
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host, port))
        # listening before the discovery file names the port: a client that reads it
        # early waits in the backlog until uvicorn accepts, rather than being refused
        sock.listen(128)
    except OSError as exc:
        sock.close()
        raise GraphmemError(f"serve: cannot listen on {host}:{port}: {exc.strerror}") from None
    info = ServiceInfo(host=host, port=sock.getsockname()[1], pid=os.getpid(), token=token,
                       store=store_key(store))  # fmt: skip
    app = create_app(memory, token=token, store=store)
    config = uvicorn.Config(app, log_level="warning", access_log=False, lifespan="off")
    server = uvicorn.Server(config)
    # uvicorn stops on SIGINT/SIGTERM, then raises the signal again for the handler that
    # was there before it: SIGTERM's default would end the process before the discovery
    # file is removed, so both are made to unwind as Ctrl-C does.
    main_thread = threading.current_thread() is threading.main_thread()
    previous = signal.signal(signal.SIGTERM, _interrupt) if main_thread else None
    write_state(info)
    try:
        if ready is not None:
            ready(info)
        sys.stdout.flush()
        server.run(sockets=[sock])
    except KeyboardInterrupt:
        pass  # asked to stop: a normal end
    finally:
        remove_state(info)
        sock.close()
        if main_thread:
            signal.signal(signal.SIGTERM, previous)


def _interrupt(signum: int, frame: object) -> None:
    raise KeyboardInterrupt
