"""Loading logs: records -> episodes (+ extracted facts) -> batched atomic writes.

The pipeline for one file:

1. a loader (``graphmem.loaders``) streams ``Record``s: turns or structured facts;
2. turns already stored are skipped (episode ids are derived from content), so loading
   a file twice, or resuming after an interruption, adds nothing twice;
3. secrets in turn text are redacted before anything is stored;
4. the extractor proposes facts for each turn, and ``resolve`` turns them into
   store operations (an open-ended statement of a functional fact supersedes);
5. every ``batch_size`` records become one transaction, each turn recorded at its own
   timestamp. A batch is written whole or not at all.

A record given as a fact (a facts file's row) that the store refuses (an unknown
predicate, a conflict with what is known or with an earlier row, a secret) is not stored
and is reported in ``LoadReport.errors`` as ``path:line: reason``; the rest is loaded. A
malformed record stops the load (unless ``skip_bad``): the error then says which records
are stored and from which line on nothing is.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from graphmem.errors import (
    ConflictError,
    InvalidFactError,
    LoadError,
    StoreError,
    TransactionTimeError,
)
from graphmem.extraction.rules import speaks_for_user
from graphmem.extraction.secrets import contains_secret, find_secrets, redact
from graphmem.model import CandidateFact, Episode, normalise_name
from graphmem.predicates import PredicateRegistry
from graphmem.store.protocol import Backend
from graphmem.store.writes import WriteGroup, as_operation
from graphmem.time.instant import format_instant, is_open_end, is_open_start

if TYPE_CHECKING:
    from graphmem.extraction.rules import Extractor
    from graphmem.loaders import Record


class Memory(Protocol):
    """What loading needs of a memory (``graphmem.Memory`` is one): its writes, aliases,
    predicates and time zone, the facts a record might repeat, and from the store which
    turns it holds and where a scope's clock stands. ``_embedder`` is swapped for a timed
    one during a load, to report the time spent embedding."""

    tz: Any
    owner: str | None
    registry: PredicateRegistry
    backend: Backend
    _embedder: Any

    @property
    def embedder(self) -> Any: ...

    def write(self, groups: Sequence[WriteGroup], *, lenient: bool = False) -> Any: ...

    def alias(self, name: str, *aliases: str, scope: str) -> Any: ...

    def facts(self, subject: str | None = None, predicate: str | None = None,
              object: str | None = None, **modes: Any) -> list[Any]: ...  # fmt: skip


Progress = Callable[[int], None]  # called with the number of records just handled


@dataclass
class LoadReport:
    """What a load did, for the CLI and the benchmarks."""

    path: str
    format: str | None = None
    records: int = 0
    episodes_added: int = 0
    episodes_skipped: int = 0
    facts_written: int = 0
    operations: int = 0
    conflicts_skipped: int = 0
    secrets_redacted: int = 0
    batches: int = 0
    seconds: float = 0.0
    embedding_seconds: float = 0.0
    errors: list[str] = field(default_factory=list)

    @property
    def turns_per_second(self) -> float:
        return self.records / self.seconds if self.seconds else 0.0


def resolve(
    candidates: Sequence[CandidateFact],
    memory: Memory,
    held: dict[tuple[str, str, str], str] | None = None,
) -> list[CandidateFact]:
    """Candidate facts -> operations.

    An open-ended assertion of a functional predicate ("I live in Berlin") means the
    value holds from then on: a supersession, so a later statement of a new value
    replaces the old one instead of conflicting with it. Repeating what is already known
    ("I still live in Berlin") changes nothing: no split interval, no new row. ``held``
    carries the values this batch has stated so far, (scope, subject, predicate) ->
    object, since they are not in the store yet."""
    held = {} if held is None else held
    out = []
    for cand in candidates:
        if cand.predicate not in memory.registry:
            continue  # an extractor may know predicates this memory does not
        predicate = memory.registry.get(cand.predicate)
        open_ended = is_open_end(cand.valid_to) and not is_open_start(cand.valid_from)
        if cand.op in ("assert", "supersede") and open_ended and cand.object is not None:
            if _already_holds(cand, memory, held, functional=predicate.functional):
                continue
            if predicate.functional:
                cand = cand.model_copy(update={"op": "supersede"})
                held[(cand.scope, normalise_name(cand.subject), cand.predicate)] = cand.object
        elif cand.op in ("retract", "correct") and predicate.functional:
            held.pop((cand.scope, normalise_name(cand.subject), cand.predicate), None)
        out.append(cand)
    return out


def _already_holds(cand: CandidateFact, memory: Memory, held: dict, *, functional: bool) -> bool:
    """Whether ``cand.object`` is already the value at ``cand.valid_from``."""
    key = (cand.scope, normalise_name(cand.subject), cand.predicate)
    if functional and key in held:
        return normalise_name(held[key]) == normalise_name(cand.object)
    try:
        rows = memory.facts(cand.subject, cand.predicate, as_of=cand.valid_from, scope=cand.scope)
    except InvalidFactError:
        return False  # not a valid read (the write will say why); a store failure propagates
    return any(normalise_name(r.object) == normalise_name(cand.object) for r in rows)


class _TimedEmbedder:
    """Wraps the memory's embedder to measure the time spent inside the model."""

    def __init__(self, inner):
        self.inner = inner
        self.name = inner.name
        self.dimensions = inner.dimensions
        self.seconds = 0.0

    def embed(self, texts):
        start = time.perf_counter()
        try:
            return self.inner.embed(texts)
        finally:
            self.seconds += time.perf_counter() - start


def load(
    memory: Memory,
    path: str | Path,
    *,
    format: str | None = None,
    scope: str = "default",
    extractor: Extractor | None = None,
    batch_size: int = 256,
    skip_bad: bool = False,
    tz=None,
    progress: Progress | None = None,
) -> LoadReport:
    """Load one log file into ``memory``; see the module docstring for the pipeline."""
    from graphmem.loaders import detect, get_loader, iter_records

    started = time.perf_counter()
    report = LoadReport(path=str(path))
    errors: list[LoadError] = []
    loader = get_loader(format) if format else detect(Path(path))
    report.format = loader.name
    records = iter_records(
        path, format=loader.name, scope=scope, tz=tz or memory.tz, skip_bad=skip_bad, report=errors
    )
    timed = _TimedEmbedder(memory.embedder) if memory.embedder is not None else None
    original = memory._embedder
    if timed is not None:
        memory._embedder = timed
    batch: list[Record] = []
    stored_to: int | None = None  # the line of the last record of the last batch written

    def commit() -> None:
        nonlocal batch, stored_to
        _write_batch(memory, batch, extractor, report, skip_bad)
        report.records += len(batch)
        stored_to = batch[-1].line
        if progress:
            progress(len(batch))
        batch = []

    try:
        for record in records:
            batch.append(record)
            if len(batch) >= batch_size:
                commit()
        if batch:
            commit()
    except LoadError as exc:
        unstored = batch[0].line if batch else exc.line
        raise _stopped(exc, report, stored_to, unstored, errors) from exc
    finally:
        memory._embedder = original
    report.errors = [str(e) for e in errors] + report.errors
    report.seconds = time.perf_counter() - started
    report.embedding_seconds = timed.seconds if timed is not None else 0.0
    return report


def _stopped(
    exc: LoadError,
    report: LoadReport,
    stored_to: int | None,
    unstored: int | None,
    errors: list[LoadError],
) -> LoadError:
    """The load's error, saying exactly what this load stored and what it did not (the
    batch being read or written when it stopped is not stored), so the user knows that
    loading the fixed file again is safe."""
    if stored_to is None:
        done = "this load stored nothing of the file"
    else:
        done = (
            f"the {report.records} record(s) up to line {stored_to} are stored "
            f"({report.episodes_added} new turn(s), {report.facts_written} fact row(s))"
        )
        refused = [str(e) for e in errors] + report.errors
        if refused:
            done += f" except {len(refused)} refused (not stored; the first: {refused[0]})"
        if unstored is not None:
            done += f"; nothing from line {unstored} on was stored"
    facts = (report.format or "").startswith("facts")
    again = "facts already stored change nothing" if facts else "turns already stored are skipped"
    fix = f"fix line {exc.line}" if exc.line is not None else "fix it"
    stopped = LoadError(f"{exc}; {done}; {fix} and load again: {again}")
    stopped.path, stopped.line = exc.path, exc.line
    return stopped


def _refused(refused: list[tuple[int, str]], record: Record, reason: str) -> None:
    """A record given as a fact that the store will not take: reported, never stored."""
    error = LoadError(f"fact not stored: {reason}", path=record.path, line=record.line)
    refused.append((record.line, str(error)))


def _write_batch(
    memory: Memory,
    batch: list[Record],
    extractor: Extractor | None,
    report: LoadReport,
    skip_bad: bool,
) -> None:
    turns = [r for r in batch if r.episode is not None]
    present = memory.backend.existing_episode_ids([r.episode.id for r in turns])  # type: ignore[union-attr]
    groups: list[WriteGroup] = []
    where: list[Record] = []
    latest: dict[str, datetime] = {}
    held: dict[tuple[str, str, str], str] = {}
    refused: list[tuple[int, str]] = []  # (line, error) of fact records not stored
    for record in batch:
        if record.fact is not None:
            fact = record.fact
            secret = next((f for f in ("subject", "object") if contains_secret(getattr(fact, f))),
                          None)  # fmt: skip
            if secret is not None:  # refused here: Memory.write would refuse the whole batch
                _refused(refused, record, f"the {secret} looks like a secret (a password, key "
                         "or card number); graphmem never stores secrets")  # fmt: skip
                continue
            groups.append(WriteGroup([as_operation(fact)]))
            where.append(record)
            continue
        episode = record.episode
        assert episode is not None
        if episode.id in present:
            report.episodes_skipped += 1
            continue
        clock = latest.get(episode.scope) or memory.backend.clock(episode.scope).requested
        if episode.timestamp < clock:
            error = LoadError(
                f"turn at {format_instant(episode.timestamp)} is earlier than what scope "
                f"{episode.scope!r} already holds ({format_instant(clock)}); "
                "load logs in time order",
                path=record.path,
                line=record.line,
            )
            if not skip_bad:
                raise error
            report.errors.append(str(error))
            continue
        latest[episode.scope] = episode.timestamp
        episode = _without_secrets(episode, report)
        said = _as_owner(memory, episode)
        try:
            operations = resolve(extractor.extract(said), memory, held) if extractor else []
        except StoreError:
            raise  # the store went away while reading what it holds: no fault of the turn's
        except Exception as exc:  # noqa: BLE001 - a reader's fault, named at its line
            error = LoadError(
                f"could not read facts from this turn ({type(exc).__name__}: {exc}); "
                "--skip-bad (skip_bad=True) keeps the turn without its facts",
                path=record.path,
                line=record.line,
            )
            if not skip_bad:
                raise error from exc
            report.errors.append(str(error))
            operations = []  # the turn is kept, searchable, with no facts from it
        groups.append(WriteGroup(operations, [episode], episode.timestamp))
        where.append(record)
    if not groups:
        report.errors.extend(error for _, error in sorted(refused))
        return
    try:
        result = memory.write(groups, lenient=True)
    except (ConflictError, TransactionTimeError) as exc:
        first = where[0]
        raise LoadError(f"batch starting here: {exc}", path=first.path, line=first.line) from exc
    report.batches += 1
    report.episodes_added += result.episodes
    report.facts_written += len(result.inserted)
    report.operations += sum(len(g.operations) for g in groups)
    for reason, index in zip(result.skipped, result.skipped_groups, strict=True):
        if where[index].fact is not None:
            _refused(refused, where[index], reason)
        else:  # a fact the extractor read from a turn: the turn itself is stored
            report.conflicts_skipped += 1
    report.errors.extend(error for _, error in sorted(refused))


def _as_owner(memory: Memory, episode: Episode) -> Episode:
    """The turn as the extractor reads it: a user's turn speaks for the scope's owner,
    whatever the log calls them; that name becomes one of the owner's aliases."""
    owner = memory.owner
    if owner is None or not speaks_for_user(episode) or episode.speaker == owner:
        return episode
    seen = memory.__dict__.setdefault("_owner_aliases", set())
    if (episode.scope, episode.speaker) not in seen:
        memory.alias(owner, episode.speaker, scope=episode.scope)
        seen.add((episode.scope, episode.speaker))
    return episode.model_copy(update={"speaker": owner})


def _without_secrets(episode: Episode, report: LoadReport) -> Episode:
    """Secrets are never stored: not as facts, and not inside the turn's text either."""
    if not find_secrets(episode.text):
        return episode
    report.secrets_redacted += 1
    return episode.model_copy(update={"text": redact(episode.text)})
