"""What a storage backend provides. Everything temporal is decided above it.

A backend stores rows, entities, episodes, events and embeddings, and answers a few
filtered reads. It never decides what a write means: ``graphmem.store.writes`` plans
every change with ``graphmem.time.bitemporal`` and hands the backend a ``WriteBatch``
to apply atomically. Time filters are part of every read (``RowQuery``), so a backend
applies them where the data lives (a SQL/Python filter, a Cypher ``WHERE``).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Literal, Protocol, runtime_checkable

from graphmem.model import Entity, Episode, Fact
from graphmem.predicates import Predicate
from graphmem.time.bitemporal import Clock
from graphmem.time.bounds import Changes, TemporalBounds

Family = tuple[str, str, str]  # (scope, subject_id, predicate): the rows a write may touch


@dataclass(frozen=True, slots=True)
class Event:
    """One entry of the append-only log: an operation and the rows it wrote.

    ``payload`` is the operation as JSON; an erase leaves an event with ``op="erase"``
    and an empty payload (the content-free tombstone).
    """

    scope: str
    recorded_at: datetime
    op: str
    subject_id: str | None
    predicate: str | None
    object_id: str | None
    payload: str
    row_ids: tuple[str, ...] = ()


@dataclass
class WriteBatch:
    """Everything one call writes, applied by the backend in one transaction."""

    clocks: dict[str, Clock] = field(default_factory=dict)
    entities: list[Entity] = field(default_factory=list)
    episodes: list[Episode] = field(default_factory=list)
    expire: list[tuple[str, datetime, str]] = field(default_factory=list)  # (row id, at, by)
    insert: list[Fact] = field(default_factory=list)
    events: list[Event] = field(default_factory=list)
    embeddings: dict[str, list[float]] = field(default_factory=dict)  # owner id -> vector

    @property
    def is_empty(self) -> bool:
        return not (self.entities or self.episodes or self.expire or self.insert or self.events)


Key = tuple[str, "str | None", "str | None"]  # (subject_id, predicate, object_id)


@dataclass(frozen=True)
class Erasure:
    """Everything one erase removes, decided above the backend (``graphmem.erasure``).

    - ``keys``: the rows and events of each (subject_id, predicate, object_id) key; a
      key with neither predicate nor object is a whole subject, with every row that
      points at it;
    - ``row_ids``: further rows (a literal value equal to an erased name), with the
      events that wrote them;
    - ``episode_ids``: turns that stated or mentioned what is erased. Their ids stay,
      content-free, so loading the same log again does not bring them back;
    - ``orphans``: entities to delete once no row names them;
    - ``rows``, ``events``: written in place of what the keys held (erasing a turn
      re-plans its families as if it had never been said).
    """

    scope: str
    keys: tuple[Key, ...] = ()
    row_ids: tuple[str, ...] = ()
    episode_ids: tuple[str, ...] = ()
    orphans: tuple[str, ...] = ()
    rows: tuple[Fact, ...] = ()
    events: tuple[Event, ...] = ()


@dataclass(frozen=True)
class Erased:
    """What an erase deleted: fact rows (``rewritten`` of them re-planned in their
    place), turns and entities."""

    rows: int = 0
    turns: int = 0
    entities: int = 0
    rewritten: int = 0


@dataclass(frozen=True, slots=True)
class RowQuery:
    """The one query type of every read: a scope, key filters (``None`` is not applied)
    and the time side (``TemporalBounds``; default: the current belief over all valid
    time). Searches read only its scope and bounds."""

    scope: str
    bounds: TemporalBounds = TemporalBounds()
    subject_id: str | None = None
    predicate: str | None = None
    object_id: str | None = None
    entity_id: str | None = None  # rows with this entity as subject or object
    row_ids: tuple[str, ...] | None = None
    limit: int | None = None


SearchTarget = Literal["facts", "episodes"]


@runtime_checkable
class Backend(Protocol):
    """A storage backend. Implementations: ``EmbeddedBackend``, ``Neo4jBackend``."""

    location: str

    # -- writes -------------------------------------------------------------------
    def begin(self, families: Iterable[Family], scopes: Iterable[str]) -> WriteSession:
        """Lock what a write touches and read its current state (see ``WriteSession``)."""
        ...

    def erase(self, erasure: Erasure, tombstone: Event) -> Erased:
        """Hard-delete what ``erasure`` names, in one transaction: rows and events,
        turns (their ids kept, content-free), entities no row names any more, their
        embeddings and index entries; then write its replacement rows. Leaves
        ``tombstone``; the bytes of what was deleted are overwritten where the store
        allows it."""
        ...

    def put_entity(self, entity: Entity) -> None:
        """Create or replace an entity's record (name, type, aliases)."""
        ...

    # -- reads --------------------------------------------------------------------
    def clock(self, scope: str) -> Clock:
        """The scope's transaction clock (``Clock(NEG_INF, NEG_INF)`` before any write)."""
        ...

    def rows(self, query: RowQuery) -> list[Fact]: ...

    def changed_rows(self, scope: str, changes: Changes) -> list[Fact]:
        """The scope's rows that ``changes`` admits, by recording time."""
        ...

    def entity(self, scope: str, entity_id: str) -> Entity | None: ...

    def entities(self, scope: str) -> list[Entity]: ...

    def episodes(
        self, scope: str, ids: Sequence[str] | None = None, *, session: str | None = None
    ) -> list[Episode]: ...

    def existing_episode_ids(self, ids: Sequence[str]) -> set[str]: ...

    def events(self, scope: str | None = None) -> Iterator[Event]: ...

    def scopes(self) -> list[str]: ...

    def predicates(self) -> list[Predicate]:
        """The predicates declared in this store (scope-free), by name."""
        ...

    def put_predicate(self, predicate: Predicate) -> None:
        """Store a declared predicate; a name already stored keeps its first shape."""
        ...

    def embeddings(self, owner_ids: Sequence[str]) -> dict[str, list[float]]: ...

    # -- retrieval ----------------------------------------------------------------
    def search(
        self, target: SearchTarget, query: RowQuery, *, vector, text: str | None, k: int
    ) -> dict[str, list[tuple[str, float]]]:
        """Top-k ids by vector similarity (``"vector"``) and keyword relevance
        (``"keyword"``), among the entries of the query's scope and bounds (an episode
        counts as recorded and valid from its timestamp on), filtered before ranking."""
        ...

    def entities_named(self, scope: str, names: Sequence[str]) -> list[Entity]:
        """Entities of the scope whose normalised name or alias is one of ``names``."""
        ...

    def neighbours(self, scope: str, entity_ids: Sequence[str]) -> set[str]: ...

    def degrees(self, scope: str, entity_ids: Sequence[str]) -> dict[str, int]:
        """How many rows (in any belief) have each entity as subject or object: graph
        expansion skips hubs."""
        ...

    def stats(self, scope: str | None = None) -> dict[str, int]:
        """Counts of the whole store; of one scope (its rows, current rows, entities,
        episodes and events: nothing of another scope), when ``scope`` is given."""
        ...

    def close(self) -> None: ...


class WriteSession(Protocol):
    """An open write: state read under lock, then ``commit(batch)`` or ``rollback()``."""

    def clock(self, scope: str) -> Clock: ...

    def current_rows(self, family: Family) -> list[Fact]: ...

    def commit(self, batch: WriteBatch) -> None: ...

    def rollback(self) -> None: ...
