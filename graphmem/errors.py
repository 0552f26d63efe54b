"""Every exception graphmem raises on purpose derives from ``GraphmemError``.

Messages name the place (field, file and line, key) so a user can fix the input.
"""

from __future__ import annotations


class GraphmemError(Exception):
    """Base class of graphmem's documented exceptions."""


class InvalidTimeError(GraphmemError, ValueError):
    """A time value could not be read, is naive, or is out of range."""


class EmptyIntervalError(GraphmemError, ValueError):
    """An interval with ``from >= to`` was given; intervals are half-open and non-empty."""


class InvalidFactError(GraphmemError, ValueError):
    """A fact is malformed: unknown predicate, empty subject, wrong object kind..."""


class ConflictError(GraphmemError):
    """A write would give a functional key two values at the same valid time."""


class TransactionTimeError(GraphmemError):
    """A write names a transaction time earlier than the scope's latest one."""


class StoreError(GraphmemError):
    """The store cannot be opened or reached, or its file is damaged."""


class InvalidStoreError(StoreError, ValueError):
    """A store string is a URL of a scheme graphmem does not open (``http://``...)."""


class TransientStoreError(StoreError):
    """A write failed on a transient error (a lock timeout, a leader switch) and was rolled
    back whole; retrying may succeed. ``Memory`` retries such writes a few times."""


class LoadError(GraphmemError):
    """A log record is malformed; the message names the file, line and reason."""

    def __init__(self, message: str, *, path: str | None = None, line: int | None = None):
        self.path = path
        self.line = line
        where = f"{path}:{line}: " if path is not None and line is not None else ""
        super().__init__(f"{where}{message}")
