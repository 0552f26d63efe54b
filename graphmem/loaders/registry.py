"""The formats by name, auto-detection, and ``iter_records``, the entry point: stream a
log file's records, detecting its format unless told."""

from __future__ import annotations

import importlib
from collections.abc import Iterator
from datetime import tzinfo
from pathlib import Path

from graphmem.errors import LoadError
from graphmem.model import DEFAULT_SCOPE
from graphmem.time.instant import resolve_tz

from .files import read_head
from .record import ErrorHandler, Loader, Record, load_error

#: Every format, in the order auto-detection tries them (most specific first).
FORMATS: tuple[str, ...] = (
    "facts-csv",
    "facts-jsonl",
    "jsonl",
    "longmemeval",
    "locomo",
    "chatgpt",
    "claude",
    "openai",
    "whatsapp",
    "transcript",
)


def _module_name(name: str) -> str:
    return "graphmem.loaders." + name.replace("-", "_")


_LOADERS: dict[str, Loader] = {}


def get_loader(name: str) -> Loader:
    """The loader of a format by name (``"chatgpt"``, ``"facts-csv"``...)."""
    key = name.strip().lower().replace("_", "-")
    if key not in FORMATS:
        raise LoadError(f"unknown log format {name!r}; known formats: {', '.join(FORMATS)}")
    loader = _LOADERS.get(key)
    if loader is None:
        loader = importlib.import_module(_module_name(key)).LOADER
        _LOADERS[key] = loader
    return loader


def detect(path: Path | str) -> Loader:
    """Guess a file's format from its name and first 64 KiB (see each ``sniff``)."""
    path = Path(path)
    if not path.is_file():
        raise load_error("no such file", path)
    head = read_head(path)
    for name in FORMATS:
        loader = get_loader(name)
        if loader.sniff(path, head):
            return loader
    raise load_error(f"cannot tell the log format; pass format= one of: {', '.join(FORMATS)}", path)


def iter_records(
    path: Path | str,
    *,
    format: str | None = None,
    scope: str = DEFAULT_SCOPE,
    tz: tzinfo | str | None = None,
    skip_bad: bool = False,
    report: list[LoadError] | None = None,
) -> Iterator[Record]:
    """Stream the records of a log file, detecting its format unless ``format`` is given.

    Without ``skip_bad`` the first malformed record raises ``LoadError`` (message
    ``path:line: reason``). With it, each malformed record's error is appended to
    ``report`` (when given) and the record is skipped. The file, the format and the
    time zone are checked now; records are read as the iterator is consumed.
    """
    path = Path(path)
    if not path.is_file():
        raise load_error("no such file", path)
    if not scope or not scope.strip():
        raise LoadError("scope must not be blank")
    zone = resolve_tz(tz)
    loader = get_loader(format) if format else detect(path)
    on_error: ErrorHandler | None = None
    if skip_bad:
        on_error = report.append if report is not None else (lambda _err: None)
    return loader.records(path, scope=scope, tz=zone, on_error=on_error)
