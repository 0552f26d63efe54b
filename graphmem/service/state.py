"""The discovery file of a running service: where it listens and its token.

``graphmem serve --store PATH`` writes ``PATH.serve.json`` (a Neo4j URI, which is no
path, gets a file named by its hash in ``~/.graphmem/``), mode 0600 since it holds the
bearer token, and removes it on exit. The CLI reads it for a verb on the same store.

>>> import pathlib, tempfile
>>> store = pathlib.Path(tempfile.mkdtemp()) / "memory.db"
>>> info = ServiceInfo(host="127.0.0.1", port=8765, pid=1, token="t", store=str(store))
>>> path = write_state(info)
>>> path.name, oct(path.stat().st_mode & 0o777)
('memory.db.serve.json', '0o600')
>>> read_state(str(store)).url
'http://127.0.0.1:8765'
>>> remove_state(info); read_state(str(store)) is None
True
"""

from __future__ import annotations

import hashlib
import json
import os
from dataclasses import asdict, dataclass
from pathlib import Path

_NEO4J_PREFIXES = ("neo4j://", "neo4j+s://", "neo4j+ssc://", "bolt://", "bolt+s://", "bolt+ssc://")


@dataclass(frozen=True)
class ServiceInfo:
    """What a client needs to reach a service: address, bearer token, whose store."""

    host: str
    port: int
    pid: int
    token: str
    store: str  # the store's location as the service opened it (see store_key)

    @property
    def url(self) -> str:
        # A service bound to every interface is reached here through loopback.
        host = "127.0.0.1" if self.host in ("0.0.0.0", "", "::") else self.host
        return f"http://[{host}]:{self.port}" if ":" in host else f"http://{host}:{self.port}"


def store_key(store: str) -> str:
    """One spelling per store, so the CLI and the service agree that it is the same one:
    a file's resolved absolute path, a Neo4j URI as it is.

    >>> store_key("bolt://127.0.0.1:7687")
    'bolt://127.0.0.1:7687'
    """
    if store.startswith(_NEO4J_PREFIXES) or store == ":memory:":
        return store
    return str(Path(store).expanduser().resolve())


def state_path(store: str) -> Path:
    """Where the discovery file of ``store``'s service lives: beside a store file, or
    for a Neo4j URI in ``GRAPHMEM_STATE_DIR`` (default ``~/.graphmem``).

    >>> state_path("/data/memory.db").as_posix()
    '/data/memory.db.serve.json'
    >>> state_path("bolt://127.0.0.1:7687").name
    'serve-0c8557e6f492915b.json'
    """
    key = store_key(store)
    if key.startswith(_NEO4J_PREFIXES) or key == ":memory:":
        folder = Path(os.environ.get("GRAPHMEM_STATE_DIR") or Path.home() / ".graphmem")
        digest = hashlib.blake2b(key.encode(), digest_size=8).hexdigest()
        return folder / f"serve-{digest}.json"
    return Path(key + ".serve.json")


def write_state(info: ServiceInfo) -> Path:
    """Write the discovery file, readable by its owner only (it holds the token)."""
    path = state_path(info.store)
    path.parent.mkdir(parents=True, exist_ok=True)
    temporary = path.with_name(path.name + f".{os.getpid()}.tmp")
    # created 0600 from the start: the token is never readable by others, not even briefly
    fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as handle:
        json.dump(asdict(info), handle)
    os.replace(temporary, path)
    return path


def read_state(store: str) -> ServiceInfo | None:
    """The discovery file of ``store``'s service, or None (none, unreadable, stale)."""
    try:
        data = json.loads(state_path(store).read_text(encoding="utf-8"))
        info = ServiceInfo(**data)
    except (OSError, ValueError, TypeError):
        return None
    if not _alive(info.pid):
        return None
    return info


def remove_state(info: ServiceInfo) -> None:
    """Remove the discovery file if it is still this service's (a newer one keeps its own)."""
    path = state_path(info.store)
    try:
        if json.loads(path.read_text(encoding="utf-8")).get("pid") == info.pid:
            path.unlink()
    except (OSError, ValueError):
        pass


def _alive(pid: int) -> bool:
    """Whether a process of that id exists (a crashed service leaves its file behind)."""
    if pid <= 0:
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # someone else's process: it exists
        return True
    return True
