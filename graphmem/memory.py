"""``Memory``: the one object users touch.

(Over 500 lines: one class with one method per verb of the library, each a docstring
with an example, argument checks and one call into the store, the planner, retrieval,
answering or loading; the logic lives in those modules.)

>>> import tempfile, os
>>> from datetime import datetime, timezone
>>> mem = Memory.open(os.path.join(tempfile.mkdtemp(), "memory.db"))
>>> _ = mem.remember("Alice", "lives_in", "Paris", valid_from="2019-01-01", scope="alice")
>>> _ = mem.supersede("Alice", "lives_in", "Berlin", since="2024-03-01", scope="alice")
>>> [f.object for f in mem.facts("Alice", "lives_in", scope="alice")]
['Berlin']
>>> [f.object for f in mem.facts("Alice", "lives_in", as_of="2020-06-01", scope="alice")]
['Paris']
>>> mem.close()
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Iterable, Sequence
from datetime import datetime, tzinfo
from typing import TYPE_CHECKING, Any, Literal

from graphmem.answer import Answer
from graphmem.answer import ask as ask_question
from graphmem.answer import context as build_context
from graphmem.erasure import plan_erase, plan_turn_erase
from graphmem.errors import GraphmemError, InvalidFactError, TransientStoreError
from graphmem.extraction.secrets import contains_secret, redact
from graphmem.history import changes as change_view
from graphmem.history import status_of
from graphmem.history import timeline as timeline_view
from graphmem.model import (
    DEFAULT_SCOPE,
    CandidateFact,
    Change,
    Entity,
    Episode,
    Fact,
    FactInput,
    Provenance,
    TimelineEntry,
    normalise_name,
    text_owner,
)
from graphmem.predicates import BUILTINS, Predicate, PredicateRegistry
from graphmem.retrieval.embedder import Embedder, default_embedder
from graphmem.retrieval.hybrid import Retriever, SearchResult, Weights
from graphmem.store import open_backend
from graphmem.store.index_text import episode_index_text
from graphmem.store.passage_index import episode_passages
from graphmem.store.protocol import Backend, Erased, Event, RowQuery
from graphmem.store.writes import WriteGroup, WriteResult, as_operation, plan_write
from graphmem.time.bounds import ALWAYS, Changes, TemporalBounds, point
from graphmem.time.instant import NEG_INF, POS_INF, TimeLike, now
from graphmem.time.interval import Interval

if TYPE_CHECKING:
    from graphmem.ingest import LoadReport

When = TimeLike | None
WRITE_ATTEMPTS = 3


def _erase_tombstone(scope: str) -> Event:
    """The content-free event an erase leaves (the backend stamps its time)."""
    return Event(scope, now(), "erase", None, None, None, "{}")


def _check_text(value: object, field: str, *, optional: bool = False) -> None:
    """Names and scopes must be text; a clear error beats an AttributeError deep inside."""
    if value is None and optional:
        return
    if not isinstance(value, str):
        raise InvalidFactError(f"{field} must be a string, got {type(value).__name__}")
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        raise InvalidFactError(f"{field} contains invalid Unicode") from None
    # Every scope check passes here (erase's "erase: scope" too): a blank scope would be a
    # tenant no one can name, so "" or "  " is refused on every method that takes one.
    if field.endswith("scope") and not value.strip():
        raise InvalidFactError(f"{field} must not be empty or blank, got {value!r}")


def _check_count(value: object, field: str) -> None:
    """Counts and budgets (k, budget_tokens, batch_size) are positive integers: a zero
    or negative one would quietly mean "all" or "nothing"."""
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise InvalidFactError(f"{field} must be a positive integer, got {value!r}")


def _without_secrets(group: WriteGroup) -> WriteGroup:
    """Every way in passes here (load, add_episodes, remember, the agent tools): turns
    are stored with their secrets redacted, and a fact that would hold one is an error."""
    for op in group.operations:
        for field in ("subject", "object", "wrong_object"):
            value = getattr(op, field)
            if value is not None and contains_secret(value):
                raise InvalidFactError(
                    f"{op.op} {op.predicate}: the {field} looks like a secret (a password, "
                    "key or card number); graphmem never stores secrets"
                )
    if not any(contains_secret(e.text) for e in group.episodes):
        return group
    episodes = [e.model_copy(update={"text": redact(e.text)}) for e in group.episodes]
    return WriteGroup(group.operations, episodes, group.recorded_at)


class Memory:
    """A bitemporal memory over one backend.

    Every read takes ``as_of`` (valid time: what was true then) and ``known_at``
    (transaction time: what the store believed then); leaving both out asks what is
    true now, as best known now. Every call is scoped (tenant/user), default ``"default"``.
    Times may be aware datetimes, dates, ISO strings or phrases such as ``"yesterday"``;
    strings without an offset are read in ``tz`` (default UTC).

    ``clock`` is the memory's "now": the default of every time argument and what a
    phrase is resolved against (the CLI reads its time flags by it too).
    """

    clock: Callable[[], datetime] = staticmethod(now)

    def __init__(
        self,
        backend: Backend,
        *,
        registry: PredicateRegistry | None = None,
        tz: str | tzinfo | None = None,
        embedder: Embedder | Literal["default"] | None = "default",
        weights: Weights | None = None,
        owner: str | None = None,
        clock: Callable[[], datetime] | None = None,
    ):
        if clock is not None:
            self.clock = clock  # type: ignore[method-assign]
        if owner is not None:
            _check_text(owner, "owner")
        self.backend = backend
        # Whose memory this is: "I/me/my" in every user turn and question. Each log names
        # them its own way (role "user", a display name); those names become its aliases.
        self.owner = owner
        self.registry = registry or PredicateRegistry.with_builtins()
        # The predicates declared in this store earlier (by any process) are known again.
        for p in backend.predicates():
            self.registry.declare(
                p.name, functional=p.functional, object_kind=p.object_kind,
                subject_type=p.subject_type, object_type=p.object_type, phrase=p.phrase,
                description=p.description,
            )  # fmt: skip
        self.tz = tz
        self._embedder = embedder
        self.weights = weights or Weights()

    @property
    def embedder(self) -> Embedder | None:
        """The embedding model (loaded on first use); ``None`` turns vectors off."""
        if self._embedder == "default":
            self._embedder = default_embedder()
        return self._embedder  # type: ignore[return-value]

    @classmethod
    def open(
        cls,
        target: str | os.PathLike[str] = "graphmem.db",
        *,
        registry: PredicateRegistry | None = None,
        tz: str | tzinfo | None = None,
        embedder: Embedder | Literal["default"] | None = "default",
        weights: Weights | None = None,
        owner: str | None = None,
        clock: Callable[[], datetime] | None = None,
        **backend_options: Any,
    ) -> Memory:
        """Open a store: a file path (embedded) or a Neo4j URI (``neo4j://host:7687``).
        ``owner``: whose memory it is ("I" in user turns and questions).

        >>> import pathlib, tempfile
        >>> mem = Memory.open(pathlib.Path(tempfile.mkdtemp()) / "memory.db", owner="Maya")
        >>> mem.owner
        'Maya'
        >>> mem.close()

        Neo4j (skipped here: it needs a running server):

        >>> Memory.open("neo4j://localhost:7687", auth=("neo4j", "pw"))  # doctest: +SKIP
        """
        backend = open_backend(target, **backend_options)
        return cls(backend, registry=registry, tz=tz, embedder=embedder, weights=weights,
                   owner=owner, clock=clock)  # fmt: skip

    def close(self) -> None:
        self.backend.close()

    def __enter__(self) -> Memory:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- time arguments ----------------------------------------------------------------
    def now(self) -> datetime:
        """Now, by this memory's clock."""
        return self.clock()

    def _time(self, value: When, field: str, default: datetime) -> datetime:
        if value is None:
            return default
        from graphmem.time.natural import read_time

        return read_time(value, field, reference=self.now(), tz=self.tz)

    # -- writes ------------------------------------------------------------------------
    def apply(
        self,
        operations: Sequence[CandidateFact],
        *,
        episodes: Sequence[Episode] = (),
        recorded_at: When = None,
        embeddings: dict[str, list[float]] | None = None,
    ) -> WriteResult:
        """Apply several operations (and store episodes) atomically: all or nothing."""
        tx = self._time(recorded_at, "recorded_at", self.now()) if recorded_at is not None else None
        return self.write([WriteGroup(operations, episodes, tx)], embeddings=embeddings)

    def alias(self, name: str, *aliases: str, scope: str = DEFAULT_SCOPE) -> Entity:
        """Declare other names of one thing ("Bob" = "Robert Smith"): facts written or
        asked under an alias go to the same entity. Never crosses scopes.

        >>> mem = Memory.open(":memory:", embedder=None)
        >>> mem.alias("Robert Smith", "Bob", scope="team").aliases
        ('Bob',)
        """
        for value in (name, *aliases):
            _check_text(value, "alias")
        _check_text(scope, "scope")
        entity = self.backend.entity(scope, self._canonical(scope, [name])[name][1])
        if entity is None:
            entity = Entity(id=Entity.id_for(scope, name), scope=scope, name=name)
        known = {normalise_name(a) for a in (entity.name, *entity.aliases)}
        fresh = tuple(a for a in aliases if normalise_name(a) not in known)
        merged = entity.model_copy(update={"aliases": entity.aliases + fresh})
        self.backend.put_entity(merged)
        return merged

    def _canonical(self, scope: str, names: Iterable[str]) -> dict[str, tuple[str, str]]:
        """name -> (canonical name, entity id), following declared aliases."""
        names = [n for n in dict.fromkeys(names) if isinstance(n, str)]
        out = {n: (n, Entity.id_for(scope, n)) for n in names}
        if not names:
            return out
        alias_of: dict[str, Entity] = {}
        for entity in self.backend.entities_named(scope, names):
            for alias in entity.aliases:
                alias_of[normalise_name(alias)] = entity
        if alias_of:
            for n in names:
                entity = alias_of.get(normalise_name(n))
                if entity is not None:
                    out[n] = (entity.name, entity.id)
        return out

    def _resolve_groups(self, groups: Sequence[WriteGroup]) -> list[WriteGroup]:
        """Follow declared aliases in every name of every operation (one lookup per scope)."""
        names: dict[str, set[str]] = {}
        for group in groups:
            for op in group.operations:
                names.setdefault(op.scope, set()).update(
                    n for n in (op.subject, op.object, op.wrong_object) if n is not None
                )
        canonical = {scope: self._canonical(scope, found) for scope, found in names.items()}

        def resolve(op: CandidateFact) -> CandidateFact:
            table = canonical[op.scope]
            update = {
                field: table[value][0]
                for field, value in (("subject", op.subject), ("object", op.object),
                                     ("wrong_object", op.wrong_object))
                if value is not None and table[value][0] != value
            }  # fmt: skip
            return op.model_copy(update=update) if update else op

        return [
            WriteGroup([resolve(op) for op in g.operations], g.episodes, g.recorded_at)
            for g in groups
        ]

    def write(
        self,
        groups: Sequence[WriteGroup],
        *,
        embeddings: dict[str, list[float]] | None = None,
        lenient: bool = False,
    ) -> WriteResult:
        """Apply groups of operations, each with its own transaction time, atomically.
        Texts of new facts and episodes are embedded first (outside any lock). A secret is
        never stored: a turn's is redacted, a fact holding one is refused."""
        for group in groups:
            for op in group.operations:
                _check_text(op.scope, "scope")
        groups = self._resolve_groups([_without_secrets(g) for g in groups])
        if embeddings is None:
            embeddings = self._embed_groups(groups)
        for attempt in range(WRITE_ATTEMPTS):
            try:
                return plan_write(
                    self.backend, self.registry, groups, embeddings=embeddings, lenient=lenient
                )
            except TransientStoreError:
                # Rolled back whole, so trying again cannot write anything twice.
                if attempt == WRITE_ATTEMPTS - 1:
                    raise
                time.sleep(0.05 * 2**attempt)
        raise AssertionError("unreachable")

    def _embed_groups(self, groups: Sequence[WriteGroup]) -> dict[str, list[float]]:
        if self.embedder is None:
            return {}
        owners: dict[str, str] = {}
        for group in groups:
            for op in group.operations:
                if op.object is None or op.op == "retract" or op.predicate not in self.registry:
                    continue
                text = self.registry.get(op.predicate).render(
                    " ".join(op.subject.split()), " ".join(op.object.split())
                )
                owners[text_owner(op.scope, text)] = text
            for episode in group.episodes:
                owners[episode.id] = episode_index_text(episode)  # with its speaker
                # A long turn is also embedded as its passages (each pointing to it).
                owners.update((o, text) for o, _, text in episode_passages(episode))
        if not owners:
            return {}
        vectors = self.embedder.embed(list(owners.values()))
        return {owner: vector.tolist() for owner, vector in zip(owners, vectors, strict=True)}

    def add_episodes(self, episodes: Sequence[Episode], *, recorded_at: When = None) -> WriteResult:
        """Store conversation turns (searchable even when no fact is extracted from them).
        Turns already stored are skipped, so adding the same turns twice adds nothing.
        Each turn is recorded at its own timestamp unless ``recorded_at`` is given."""
        fresh = [
            e
            for e in episodes
            if e.id not in self.backend.existing_episode_ids([e.id for e in episodes])
        ]
        fresh.sort(key=lambda e: e.timestamp)
        tx = self._time(recorded_at, "recorded_at", self.now()) if recorded_at is not None else None
        return self.write([WriteGroup((), [e], tx or e.timestamp) for e in fresh])

    def _op(
        self, op: str, subject: str, predicate: str, obj: str | None, **fields: Any
    ) -> CandidateFact:
        try:
            return CandidateFact(op=op, subject=subject, predicate=predicate, object=obj, **fields)
        except ValueError as exc:
            raise InvalidFactError(f"{op} {subject!r} {predicate}: {exc}") from None

    def remember(
        self,
        subject: str,
        predicate: str,
        object: str,
        *,
        valid_from: When = None,
        valid_to: When = None,
        scope: str = DEFAULT_SCOPE,
        recorded_at: When = None,
        provenance: Provenance | None = None,
        confidence: float = 1.0,
    ) -> WriteResult:
        """Assert a fact over ``[valid_from, valid_to)`` (open ends when omitted).

        Re-asserting what is already known changes nothing; asserting a second value of a
        functional predicate over the same time raises ``ConflictError`` (use ``supersede``
        for a change in the world, ``correct`` for a mistake).
        """
        op = self._op(
            "assert", subject, predicate, object,
            valid_from=self._time(valid_from, "valid_from", NEG_INF),
            valid_to=self._time(valid_to, "valid_to", POS_INF),
            scope=scope, provenance=provenance or Provenance(source="api"), confidence=confidence,
        )  # fmt: skip
        return self.apply([op], recorded_at=recorded_at)

    def remember_many(self, facts: Iterable[FactInput], *, recorded_at: When = None) -> WriteResult:
        """Assert many facts in one transaction (one transaction time per scope)."""
        return self.apply([as_operation(f) for f in facts], recorded_at=recorded_at)

    def supersede(
        self,
        subject: str,
        predicate: str,
        object: str,
        *,
        since: When = None,
        scope: str = DEFAULT_SCOPE,
        recorded_at: When = None,
        provenance: Provenance | None = None,
        confidence: float = 1.0,
    ) -> WriteResult:
        """The world changed: ``object`` is the value from ``since`` (default now).

        The previous value ends at ``since``; it stays visible to ``known_at`` queries
        about the time before. A back-dated change holds until the next recorded one.
        """
        op = self._op(
            "supersede", subject, predicate, object,
            valid_from=self._time(since, "since", self.now()),
            scope=scope, provenance=provenance or Provenance(source="api"), confidence=confidence,
        )  # fmt: skip
        return self.apply([op], recorded_at=recorded_at)

    def retract(
        self,
        subject: str,
        predicate: str,
        object: str | None = None,
        *,
        at: When = None,
        scope: str = DEFAULT_SCOPE,
        recorded_at: When = None,
    ) -> WriteResult:
        """The fact stopped holding at ``at`` (default now): ``object`` (or any value)
        is deleted over ``[at, inf)``. Retracting what does not hold changes nothing."""
        op = self._op(
            "retract", subject, predicate, object,
            valid_from=self._time(at, "at", self.now()), scope=scope,
        )  # fmt: skip
        return self.apply([op], recorded_at=recorded_at)

    def correct(
        self,
        subject: str,
        predicate: str,
        *,
        wrong: str | None = None,
        right: str | None = None,
        valid_from: When = None,
        valid_to: When = None,
        scope: str = DEFAULT_SCOPE,
        recorded_at: When = None,
        provenance: Provenance | None = None,
    ) -> WriteResult:
        """It was never true: ``wrong`` (or any value) is deleted over the window (default:
        all time), and ``right``, if given, takes exactly its place. The mistake stays
        visible to ``known_at`` queries about what was believed before."""
        op = self._op(
            "correct", subject, predicate, right,
            wrong_object=wrong,
            valid_from=self._time(valid_from, "valid_from", NEG_INF),
            valid_to=self._time(valid_to, "valid_to", POS_INF),
            scope=scope, provenance=provenance or Provenance(source="api"),
        )  # fmt: skip
        return self.apply([op], recorded_at=recorded_at)

    def erase(
        self,
        subject: str,
        predicate: str | None = None,
        object: str | None = None,
        *,
        scope: str = DEFAULT_SCOPE,
    ) -> Erased:
        """Hard delete, for privacy: a key (``predicate``, optionally ``object``) or a
        whole subject, named by its name or an alias. Goes with it: every row and event
        of it (a whole subject also takes the facts that point at it), the turns that
        stated it or name an erased value (their ids stay, so a re-load skips them), the
        entities no fact names any more, and their embeddings and index entries; the
        bytes are overwritten (see ``graphmem.erasure`` and ``docs/erase.md``). Leaves a
        content-free tombstone event. This is the only deletion.

        >>> mem = Memory.open(":memory:", embedder=None)
        >>> _ = mem.remember("user", "works_at", "Zorblatt")
        >>> mem.erase("Zorblatt").rows
        1
        """
        for field, value in (("subject", subject), ("predicate", predicate), ("object", object),
                             ("scope", scope)):  # fmt: skip
            _check_text(value, f"erase: {field}", optional=field in ("predicate", "object"))
        if object is not None and predicate is None:
            raise InvalidFactError("erase: an object needs its predicate")
        if predicate is not None:
            self.registry.get(predicate)
        names = self._canonical(scope, [n for n in (subject, object) if n is not None])
        object_id = names[object][1] if object is not None else None
        erasure = plan_erase(
            self.backend, scope, names[subject][1], [subject], predicate, object_id
        )
        return self.backend.erase(erasure, _erase_tombstone(scope))

    def erase_episode(self, episode_id: str, *, scope: str = DEFAULT_SCOPE) -> Erased:
        """Erase one turn as if it had never been said: it goes (its id stays, so a
        re-load skips it), with the facts it stated, and whatever it had superseded or
        retracted holds again. Refused, with nothing erased, where the log cannot
        account for the rows it touched (e.g. rows imported without their events).

        >>> from graphmem import Episode
        >>> mem = Memory.open(":memory:", embedder=None)
        >>> turn = Episode(speaker="user", text="hello", timestamp="2024-01-01T00:00:00Z")
        >>> _ = mem.add_episodes([turn])
        >>> mem.erase_episode(turn.id).turns
        1
        """
        _check_text(episode_id, "erase: episode")
        _check_text(scope, "erase: scope")
        erasure = plan_turn_erase(self.backend, self.registry, scope, episode_id)
        return self.backend.erase(erasure, _erase_tombstone(scope))

    # -- reads -------------------------------------------------------------------------
    def _query(
        self,
        scope: str,
        subject: str | None,
        predicate: str | None,
        obj: str | None,
        bounds: TemporalBounds,
    ) -> RowQuery:
        for field, value in (("scope", scope), ("subject", subject), ("predicate", predicate),
                             ("object", obj)):  # fmt: skip
            _check_text(value, field, optional=field != "scope")
        if predicate is not None:
            self.registry.get(predicate)
        ids = self._canonical(scope, [n for n in (subject, obj) if n is not None])
        return RowQuery(
            scope=scope,
            subject_id=ids[subject][1] if subject is not None else None,
            predicate=predicate,
            object_id=ids[obj][1] if obj is not None else None,
            bounds=bounds,
        )

    def facts(
        self,
        subject: str | None = None,
        predicate: str | None = None,
        object: str | None = None,
        *,
        as_of: When = None,
        during: tuple[When, When] | None = None,
        known_at: When = None,
        scope: str = DEFAULT_SCOPE,
    ) -> list[Fact]:
        """Facts true at ``as_of`` (default now), or at some time ``during`` a window
        ``(start, end)`` (``None`` ends are open), as the store believed at ``known_at``
        (default: its current belief). A functional key yields at most one value at an
        instant.

        >>> mem = Memory.open(":memory:", embedder=None)
        >>> _ = mem.remember("Sam", "lives_in", "Oslo", valid_from="2020-01-01", scope="s")
        >>> _ = mem.supersede("Sam", "lives_in", "Rome", since="2023-01-01", scope="s")
        >>> [f.object for f in mem.facts("Sam", during=("2022-01-01", None), scope="s")]
        ['Oslo', 'Rome']
        """
        belief = self._time(known_at, "known_at", POS_INF)
        if during is not None:
            if as_of is not None:
                raise GraphmemError("facts: give as_of or during, not both")
            start, end = during
            window = Interval(self._time(start, "during start", NEG_INF),
                              self._time(end, "during end", POS_INF))  # fmt: skip
            bounds = TemporalBounds.during(window, known_at=belief)
        else:
            bounds = TemporalBounds.as_of(self._time(as_of, "as_of", self.now()), known_at=belief)
        query = self._query(scope, subject, predicate, object, bounds)
        return self.backend.rows(query)

    def timeline(
        self,
        subject: str,
        predicate: str | None = None,
        *,
        as_of: When = None,
        known_at: When = None,
        scope: str = DEFAULT_SCOPE,
    ) -> list[TimelineEntry]:
        """Every value the subject had over valid time, coalesced, as believed at
        ``known_at``; with ``as_of``, only the stretches begun by then.

        >>> mem = Memory.open(":memory:", embedder=None)
        >>> _ = mem.remember("Sam", "lives_in", "Oslo", valid_from="2020-01-01", scope="s")
        >>> _ = mem.supersede("Sam", "lives_in", "Rome", since="2023-01-01", scope="s")
        >>> [e.object for e in mem.timeline("Sam", as_of="2021-01-01", scope="s")]
        ['Oslo']
        """
        bounds = TemporalBounds.known_at(self._time(known_at, "known_at", POS_INF))
        query = self._query(scope, subject, predicate, None, bounds)
        entries = timeline_view(self.backend.rows(query), self.now())
        if as_of is None:
            return entries
        begun = Interval.until(point(self._time(as_of, "as_of", self.now())).end)
        return [e for e in entries if begun.overlaps(Interval(e.valid_from, e.valid_to))]

    def history(
        self,
        subject: str,
        predicate: str | None = None,
        *,
        as_of: When = None,
        known_at: When = None,
        scope: str = DEFAULT_SCOPE,
    ) -> list[tuple[Fact, str]]:
        """Every row ever recorded for the subject (the audit trail), oldest belief first,
        each with its status: current, ended, superseded, corrected or retracted. With
        ``known_at``, only what had been recorded by then, each status as it stood at
        that instant; with ``as_of``, only rows valid at that instant.

        >>> mem = Memory.open(":memory:", embedder=None)
        >>> _ = mem.remember("Sam", "lives_in", "Oslo", valid_from="2020-01-01", scope="s")
        >>> _ = mem.supersede("Sam", "lives_in", "Rome", since="2023-01-01", scope="s")
        >>> [(r.object, status) for r, status in mem.history("Sam", scope="s")][:2]
        [('Oslo', 'superseded'), ('Oslo', 'ended')]
        """
        valid = point(self._time(as_of, "as_of", self.now())) if as_of is not None else ALWAYS
        rows = self.backend.rows(
            self._query(scope, subject, predicate, None, TemporalBounds.history(valid))
        )
        rows.sort(key=lambda r: (r.recorded_at, r.predicate, r.valid_from))
        t = self.now()
        if known_at is None:
            return [(row, status_of(row, t)) for row in rows]
        belief = self._time(known_at, "known_at", POS_INF)
        at = min(belief, t)
        recorded_by_then = TemporalBounds(recorded=Interval.until(point(belief).end))
        believed_then = TemporalBounds.known_at(belief)
        return [
            # expired by then: how it ended; still believed then: as it stood at that instant
            (row, status_of(row if not believed_then.admits(row) else _believed(row), at))
            for row in rows
            if recorded_by_then.admits(row)
        ]

    def changes(
        self,
        since: When,
        until: When = None,
        *,
        axis: Literal["recorded", "valid"] = "recorded",
        known_at: When = None,
        scope: str = DEFAULT_SCOPE,
    ) -> list[Change]:
        """What changed in ``(since, until]``: what the store learned and unlearned
        (``axis="recorded"``), or what started and ended in the world (``axis="valid"``,
        as believed at ``known_at``)."""
        _check_text(scope, "scope")
        start = self._time(since, "since", NEG_INF)
        end = self._time(until, "until", self.now())
        belief = self._time(known_at, "known_at", POS_INF)
        window = Changes(start, end, axis, belief)
        return change_view(self.backend.changed_rows(scope, window), window)

    def entities(
        self, *, named: Sequence[str] | None = None, scope: str = DEFAULT_SCOPE
    ) -> list[Entity]:
        """The scope's entities; with ``named``, those one of the names (or an alias of
        theirs) refers to."""
        _check_text(scope, "scope")
        if named is not None:
            return self.backend.entities_named(scope, list(named))
        return self.backend.entities(scope)

    def declare(
        self,
        name: str,
        *,
        functional: bool,
        literal: bool = False,
        phrase: str = "",
        subject_type: str = "Thing",
        object_type: str = "Thing",
        description: str = "",
    ) -> Predicate:
        """Declare a predicate and store it with the store, so that it is known on every
        later open. ``functional``: one value at a time (else a set); ``literal``: the
        object is a value, not an entity (a node). Declaring it again with the same shape
        is a no-op; a built-in, or a known name with another shape, is refused.

        >>> import pathlib, tempfile
        >>> path = pathlib.Path(tempfile.mkdtemp()) / "m.db"
        >>> with Memory.open(path, embedder=None) as mem:
        ...     _ = mem.declare("favourite_tea", functional=True, literal=True,
        ...                     phrase="{subject}'s favourite tea is {object}")
        >>> with Memory.open(path, embedder=None) as mem:
        ...     mem.remember("Bo", "favourite_tea", "oolong").inserted[0].text
        "Bo's favourite tea is oolong"
        """
        _check_text(name, "name")
        builtin = next((p for p in BUILTINS if p.name == name), None)
        if builtin is not None:
            raise InvalidFactError(
                f"declare {name!r}: a built-in predicate ({builtin.cardinality} "
                f"{builtin.object_kind}) cannot be redeclared"
            )
        if name in self.registry:
            old = self.registry.get(name)
            kind = "literal" if literal else "entity"
            if (old.functional, old.object_kind) != (functional, kind):
                shape = f"{'functional' if functional else 'set'} {kind}"
                raise InvalidFactError(
                    f"declare {name!r}: already declared as {old.cardinality} "
                    f"{old.object_kind}; it cannot become {shape} (its rows are keyed by it)"
                )
        predicate = self.registry.declare(
            name, functional=functional, object_kind="literal" if literal else "entity",
            subject_type=subject_type, object_type=object_type, phrase=phrase,
            description=description,
        )  # fmt: skip
        self.backend.put_predicate(predicate)
        return predicate

    def predicates(self) -> list[Predicate]:
        """Every predicate this memory knows (built-in and declared), by name.

        >>> import pathlib, tempfile
        >>> with Memory.open(pathlib.Path(tempfile.mkdtemp()) / "m.db", embedder=None) as mem:
        ...     [p.name for p in mem.predicates()][:3]
        ['age', 'allergic_to', 'birthday']
        """
        return list(self.registry)

    def scopes(self) -> list[str]:
        """The scopes that hold anything (a row, an entity or a turn), sorted: what a
        mistyped ``scope`` is told about, since an unknown scope reads as empty.

        >>> import pathlib, tempfile
        >>> mem = Memory.open(pathlib.Path(tempfile.mkdtemp()) / "m.db", embedder=None)
        >>> _ = mem.remember("Alice", "speaks", "French", scope="alice")
        >>> mem.scopes()
        ['alice']
        >>> mem.close()
        """
        return self.backend.scopes()

    def episodes(
        self,
        *,
        ids: Sequence[str] | None = None,
        session: str | None = None,
        scope: str = DEFAULT_SCOPE,
    ) -> list[Episode]:
        """The scope's turns (of one ``session``, or with these ``ids``), oldest first.

        >>> mem = Memory.open(":memory:", embedder=None)
        >>> turn = Episode(speaker="user", text="hello", timestamp="2024-01-01T00:00:00Z")
        >>> _ = mem.add_episodes([turn])
        >>> [e.text for e in mem.episodes()]
        ['hello']
        """
        _check_text(scope, "scope")
        found = self.backend.episodes(
            scope, list(ids) if ids is not None else None, session=session
        )
        return sorted(found, key=lambda e: (e.timestamp, e.session or "", e.turn or 0, e.id))

    def stats(self, *, scope: str | None = None) -> dict[str, int]:
        """What the store holds; with ``scope``, what that scope holds (its rows, current
        rows, entities, episodes and events; store-wide figures are left out)."""
        _check_text(scope, "scope", optional=True)
        return self.backend.stats(scope)

    def load(
        self,
        path: str | os.PathLike[str],
        *,
        format: str | None = None,
        scope: str = DEFAULT_SCOPE,
        extractor: Any = "rules",
        batch_size: int = 256,
        skip_bad: bool = False,
        progress: Any = None,
    ) -> LoadReport:
        """Load a conversation log (format auto-detected) or a facts file.

        Every turn becomes an episode; the extractor (default: the offline rule-based
        one; ``None`` for none) turns statements into facts. Loading is idempotent and
        commits in batches of ``batch_size`` records. A fact record the store refuses (an
        unknown predicate, a conflicting value) is left out and named in the report's ``errors``.

        >>> import json, pathlib, tempfile
        >>> log = pathlib.Path(tempfile.mkdtemp()) / "chat.jsonl"
        >>> turn = {"timestamp": "2024-05-02T10:00:00Z", "speaker": "Bob", "role": "user",
        ...         "text": "I work at Acme as a designer."}
        >>> _ = log.write_text(json.dumps(turn))
        >>> mem = Memory.open(":memory:", embedder=None)
        >>> report = mem.load(log, scope="bob")
        >>> report.episodes_added
        1
        >>> mem.ask("Where do I work?", speaker="Bob", scope="bob").answer
        'Acme (since 2024-05-02)'
        """
        # here, not at the top: loading brings the extractors, whose patterns take about
        # a second to compile, and a process that only reads never needs them
        from graphmem.ingest import load as load_log

        _check_text(scope, "scope")
        _check_count(batch_size, "batch_size")
        if extractor in ("rules", "frames"):
            from graphmem.extraction.rules import RuleExtractor

            # "frames": clauses no rule reads also go to the frame classifier (needs the
            # embedding model; measured in bench/extraction_eval.py, off by default).
            embedder = self.embedder if extractor == "frames" else None
            extractor = RuleExtractor(embedder=embedder)
        return load_log(
            self, path, format=format, scope=scope, extractor=extractor,
            batch_size=batch_size, skip_bad=skip_bad, progress=progress,
        )  # fmt: skip

    # -- retrieval ---------------------------------------------------------------------
    def search(
        self,
        query: str,
        *,
        k: int = 10,
        as_of: When = None,
        known_at: When = None,
        reference: When = None,
        history: bool = False,
        scope: str = DEFAULT_SCOPE,
        weights: Weights | None = None,
        targets: tuple[str, ...] = ("facts", "episodes"),
    ) -> SearchResult:
        """Hybrid search over facts and episodes, filtered by scope and time mode first.

        ``reference`` is the question's date (default now): time phrases in the query
        ("in March 2024", "last week") are resolved against it and narrow the window.
        ``history=True`` also returns superseded / corrected / retracted facts, marked.

        >>> mem = Memory.open(":memory:", embedder=None)
        >>> _ = mem.remember("Alice", "lives_in", "Berlin", valid_from="2024-03-01", scope="alice")
        >>> mem.search("where does Alice live", scope="alice").facts[0].fact.object
        'Berlin'
        """
        _check_text(query, "query")
        _check_text(scope, "scope")
        _check_count(k, "k")
        ref = self._time(reference, "reference", self.now())
        return Retriever(self.backend, self.embedder, weights or self.weights).search(
            query,
            scope=scope,
            k=k,
            as_of=self._time(as_of, "as_of", self.now()) if as_of is not None else None,
            known_at=self._time(known_at, "known_at", POS_INF),
            reference=ref,
            history=history,
            targets=targets,
            tz=self.tz,
        )

    def ask(
        self,
        question: str,
        *,
        speaker: str | None = None,
        reference: When = None,
        known_at: When = None,
        scope: str = DEFAULT_SCOPE,
    ) -> Answer:
        """Answer a time-scoped question with values and their intervals, or say so when
        the store does not know. "I/my" is ``speaker``, by default the owner (or "user",
        as loaders name the user when no owner is set).

        >>> mem = Memory.open(":memory:", embedder=None)
        >>> _ = mem.remember("Alice", "lives_in", "Berlin", valid_from="2024-03-01", scope="alice")
        >>> mem.ask("where do I live now?", speaker="Alice", scope="alice").answer
        'Berlin (since 2024-03-01)'
        """
        speaker = speaker if speaker is not None else (self.owner or "user")
        _check_text(question, "question")
        _check_text(speaker, "speaker")
        _check_text(scope, "scope")
        return ask_question(
            self, question, scope=scope, speaker=speaker,
            reference=self._time(reference, "reference", self.now()),
            known_at=self._time(known_at, "known_at", POS_INF),
        )  # fmt: skip

    def context(
        self,
        question: str,
        *,
        budget_tokens: int = 800,
        reference: When = None,
        known_at: When = None,
        scope: str = DEFAULT_SCOPE,
    ) -> str:
        """A prompt-ready block of relevant memory, labelled as data (not instructions),
        with each fact's validity, cut to ``budget_tokens``."""
        _check_text(question, "question")
        _check_text(scope, "scope")
        _check_count(budget_tokens, "budget_tokens")
        return build_context(
            self, question, scope=scope, budget_tokens=budget_tokens,
            reference=self._time(reference, "reference", self.now()),
            known_at=self._time(known_at, "known_at", POS_INF),
        )  # fmt: skip


def _believed(row: Fact) -> Fact:
    """The row as it stood while still believed (before a later write expired it)."""
    return row.model_copy(update={"expired_at": POS_INF, "expired_by": None})
