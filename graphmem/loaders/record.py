"""What a loader is and what it yields.

``Record`` is one thing read from a log (a turn or a fact, with its file and line);
``Loader`` is the protocol every format meets; ``FileLoader`` is the frame a format's
loader subclasses; ``Reporter`` raises a malformed record's error, naming file and line,
or hands it to ``on_error`` (skip-bad mode).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import tzinfo
from pathlib import Path
from typing import Any, Protocol, TypeVar, runtime_checkable

from graphmem.errors import LoadError
from graphmem.model import DEFAULT_SCOPE, Episode, FactInput

ErrorHandler = Callable[[LoadError], None]


_T = TypeVar("_T")


@dataclass(frozen=True, slots=True)
class Record:
    """One thing read from a log: a conversation turn or a structured fact."""

    path: str  # the file
    line: int  # 1-based; for JSON documents the line where the item starts (best effort)
    episode: Episode | None = None
    fact: FactInput | None = None

    def __post_init__(self) -> None:
        if (self.episode is None) == (self.fact is None):
            raise ValueError("a Record holds exactly one of episode or fact")


@runtime_checkable
class Loader(Protocol):
    name: str

    def sniff(self, path: Path, head: str) -> bool:
        """Whether the file looks like this format, from its name and first ~64 KiB."""
        ...

    def records(
        self,
        path: Path,
        *,
        scope: str = DEFAULT_SCOPE,
        tz: tzinfo | None = None,
        on_error: ErrorHandler | None = None,
    ) -> Iterator[Record]:
        """Stream the file's records. A malformed record raises ``LoadError`` unless
        ``on_error`` is given, in which case it receives the error and the record is
        skipped."""
        ...


class RecordError(Exception):
    """Internal: what is wrong with a record, before the loader adds file and line."""


def load_error(message: str, path: Path | str, line: int | None = None) -> LoadError:
    if line is None:
        return LoadError(f"{path}: {message}", path=str(path))
    return LoadError(message, path=str(path), line=line)


class Reporter:
    """Raises a record's error, or hands it to ``on_error`` (skip-bad mode)."""

    __slots__ = ("path", "on_error")

    def __init__(self, path: Path | str, on_error: ErrorHandler | None = None):
        self.path = path
        self.on_error = on_error

    def error(self, message: str, line: int | None) -> None:
        err = load_error(message, self.path, line)
        if self.on_error is None:
            raise err
        self.on_error(err)

    def fatal(self, message: str, line: int | None = None) -> LoadError:
        """An error about the whole file; the caller raises it."""
        return load_error(message, self.path, line)

    def attempt(
        self, line: int, build: Callable[..., _T], /, *args: Any, **kwargs: Any
    ) -> _T | None:
        """``build(*args, **kwargs)``; if it raises ``RecordError``, that error is reported
        at ``line`` (see ``error``) and the result is None."""
        try:
            return build(*args, **kwargs)
        except RecordError as exc:
            self.error(str(exc), line)
            return None


class FileLoader:
    """The frame of every format's loader: ``records`` (see ``Loader``) sets up the
    file's ``Reporter`` and streams what ``read``, the format's own part, yields. A
    subclass sets ``name`` and defines ``sniff`` and ``read``."""

    name: str

    def records(
        self,
        path: Path,
        *,
        scope: str = DEFAULT_SCOPE,
        tz: tzinfo | None = None,
        on_error: ErrorHandler | None = None,
    ) -> Iterator[Record]:
        path = Path(path)
        yield from self.read(path, Reporter(path, on_error), scope, tz)

    def read(
        self, path: Path, reporter: Reporter, scope: str, tz: tzinfo | None
    ) -> Iterator[Record]:
        """The file's records; malformed ones go to ``reporter``."""
        raise NotImplementedError
