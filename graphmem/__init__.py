"""graphmem: a bitemporal knowledge-graph memory store for LLM agents.

>>> from graphmem import Memory
>>> mem = Memory.open(":memory:", embedder=None)  # or a file path, or a bolt:// URI
>>> _ = mem.remember("Alice", "lives_in", "Paris", valid_from="2019-01-01")
>>> _ = mem.supersede("Alice", "lives_in", "Berlin", since="2024-03-01")
>>> mem.ask("Where does Alice live now?").answer
'Berlin (since 2024-03-01)'
>>> mem.close()
"""

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
from graphmem.memory import Memory
from graphmem.model import CandidateFact, Change, Entity, Episode, Fact, FactInput, Provenance
from graphmem.predicates import Predicate, PredicateRegistry
from graphmem.time.instant import NEG_INF, POS_INF

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
