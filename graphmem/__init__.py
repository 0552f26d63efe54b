"""graphmem: a bitemporal knowledge-graph memory store for LLM agents.

>>> from graphmem import Memory
>>> mem = Memory.open(":memory:", embedder=None)  # or a file path, or a bolt:// URI
>>> _ = mem.remember("Alice", "lives_in", "Paris", valid_from="2019-01-01")
>>> _ = mem.supersede("Alice", "lives_in", "Berlin", since="2024-03-01")
>>> mem.ask("Where does Alice live now?").answer
'Berlin (since 2024-03-01)'
>>> mem.close()
"""

from typing import TYPE_CHECKING, Any

from graphmem.errors import (
    ConflictError,
    EmptyIntervalError,
    GraphmemError,
    InvalidFactError,
    InvalidTimeError,
    LoadError,
    StoreError,
    TransactionTimeError,
)

if TYPE_CHECKING:
    from graphmem.memory import Memory
    from graphmem.model import CandidateFact, Change, Entity, Episode, Fact, FactInput, Provenance
    from graphmem.predicates import Predicate, PredicateRegistry
    from graphmem.time.instant import NEG_INF, POS_INF

# Imported on first use (PEP 562), not with the package: any ``graphmem.x`` import runs
# this file first, and the shell's fast paths (a verb answered by ``graphmem serve``,
# ``--help``) must not pay for the store, retrieval and numpy stack behind ``Memory``.
_LAZY = {
    "Memory": "graphmem.memory",
    "CandidateFact": "graphmem.model",
    "Change": "graphmem.model",
    "Entity": "graphmem.model",
    "Episode": "graphmem.model",
    "Fact": "graphmem.model",
    "FactInput": "graphmem.model",
    "Provenance": "graphmem.model",
    "Predicate": "graphmem.predicates",
    "PredicateRegistry": "graphmem.predicates",
    "NEG_INF": "graphmem.time.instant",
    "POS_INF": "graphmem.time.instant",
}


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'graphmem' has no attribute {name!r}")
    import importlib

    value = getattr(importlib.import_module(module), name)
    globals()[name] = value  # once: later lookups do not come back here
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_LAZY))


__all__ = [
    "Memory",
    "Fact",
    "FactInput",
    "CandidateFact",
    "Entity",
    "Episode",
    "Change",
    "Provenance",
    "Predicate",
    "PredicateRegistry",
    "NEG_INF",
    "POS_INF",
    "GraphmemError",
    "ConflictError",
    "EmptyIntervalError",
    "InvalidFactError",
    "InvalidTimeError",
    "LoadError",
    "StoreError",
    "TransactionTimeError",
]
