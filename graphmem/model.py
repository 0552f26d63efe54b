"""The data graphmem stores and returns, as pydantic v2 models.

- ``Episode``: one turn of a conversation (who said what, when, in which session).
- ``Entity``: a real-world thing within a scope (a person, a city, a company).
- ``Fact``: one bitemporal row: subject -predicate-> object over a valid interval,
  believed by the store over a transaction interval.
- ``Provenance``: where a fact came from.

>>> ep = Episode(scope="alice", session="s1", speaker="alice", text="I moved to Berlin.",
...              timestamp="2024-03-01T10:00:00Z")
>>> ep.timestamp.isoformat()
'2024-03-01T10:00:00+00:00'
"""

from __future__ import annotations

import functools
import hashlib
import unicodedata
from datetime import datetime
from typing import Annotated, Any, Literal

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, field_validator

from graphmem.time.bounds import TemporalBounds
from graphmem.time.instant import NEG_INF, POS_INF, format_instant, is_infinite, to_instant
from graphmem.time.interval import Interval

DEFAULT_SCOPE = "default"


def _instant(value: Any) -> datetime:
    return to_instant(value)


Instant = Annotated[datetime, BeforeValidator(_instant)]


def id_key(*parts: str) -> bytes:
    """The bytes an id hashes: distinct tuples of parts always give distinct bytes.

    Parts joined by the unit separator (``\\x1f``), as ids have always been made, as long
    as no part holds one (stores on disk keep those ids, and re-loading a log must find
    its turns). A part that holds one would make the join ambiguous (("a\\x1fb", "c") and
    ("a", "b\\x1fc") would meet), so such tuples are length-prefixed instead, after a 0xff
    byte that UTF-8 never contains: they cannot meet each other or any plain join.
    """
    # surrogatepass: ids of even invalid strings are computable (reads of them find nothing).
    encoded = [part.encode("utf-8", "surrogatepass") for part in parts]
    if encoded and not any(b"\x1f" in e for e in encoded):
        return b"\x1f".join(encoded)
    return b"\xff" + b"".join(b"%d:%s" % (len(e), e) for e in encoded)


def stable_id(*parts: str, prefix: str = "") -> str:
    """A deterministic short id (so re-loading the same input yields the same ids)."""
    digest = hashlib.blake2b(id_key(*parts), digest_size=12).hexdigest()
    return f"{prefix}{digest}"


def text_owner(scope: str, text: str) -> str:
    """The id an embedding of ``text`` is stored under: one vector per distinct text."""
    return stable_id(scope, text, prefix="tx_")


_EDGE_PUNCTUATION = "\"'“”‘’.,;:!?()[]{}<>"


@functools.lru_cache(maxsize=1 << 17)
def normalise_name(name: str) -> str:
    """The matching form of a name, so one thing gets one entity within a scope:
    case-folded, accents removed (Zürich = Zurich), whitespace collapsed, surrounding
    quotes and punctuation dropped, and a leading "the" ignored (the Acme = Acme).

    >>> normalise_name("  The  ZÜRICH office. ")
    'zurich office'
    """
    decomposed = unicodedata.normalize("NFKD", name)
    folded = "".join(c for c in decomposed if not unicodedata.combining(c)).casefold()
    words = [w.strip(_EDGE_PUNCTUATION) for w in folded.split()]
    words = [w for w in words if w]
    if len(words) > 1 and words[0] == "the":
        words = words[1:]
    return " ".join(words)


def valid_text(value: str) -> str:
    """Refuse text that cannot be stored as UTF-8 (lone surrogates from bad decoding)."""
    try:
        value.encode("utf-8")
    except UnicodeEncodeError as exc:
        raise ValueError(f"invalid Unicode at position {exc.start}") from None
    return value


class Model(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    @field_validator("*", mode="after")
    @classmethod
    def _storable(cls, value: Any) -> Any:
        return valid_text(value) if isinstance(value, str) else value


class Provenance(Model):
    """Where a fact came from: the episode and text span, the extractor, the raw time phrase."""

    episode_id: str | None = None
    session: str | None = None
    span: tuple[int, int] | None = None
    extractor: str = "given"
    extractor_version: str | None = None
    time_expression: str | None = None
    reference_time: Instant | None = None
    # the text told of a change into this value ("moved to", "pushed to"): there was a
    # value before it, whether or not the store was told which
    change: bool = False
    source: str | None = None  # file path or "api"


class Episode(Model):
    """One turn of a conversation. ``id`` is derived from its content unless given."""

    id: str = ""
    scope: str = DEFAULT_SCOPE
    session: str = "default"
    turn: int | None = None
    speaker: str
    role: str | None = None  # user / assistant / system, where the format says
    text: str
    timestamp: Instant
    source: str | None = None
    embedding: list[float] | None = Field(default=None, repr=False)

    def model_post_init(self, _context: Any) -> None:
        if not self.id:
            ident = stable_id(
                self.scope,
                self.session,
                str(self.turn),
                self.speaker,
                self.timestamp.isoformat(),
                self.text,
                prefix="ep_",
            )
            object.__setattr__(self, "id", ident)

    @field_validator("scope", "session", "speaker")
    @classmethod
    def _not_blank(cls, value: str) -> str:
        if not value.strip():
            raise ValueError("must not be blank")
        return value


class Entity(Model):
    """A thing facts are about. One entity per normalised name (or alias) within a scope."""

    id: str
    scope: str = DEFAULT_SCOPE
    name: str
    type: str = "Thing"
    aliases: tuple[str, ...] = ()

    @staticmethod
    @functools.lru_cache(maxsize=1 << 17)
    def id_for(scope: str, name: str) -> str:
        return stable_id(scope, normalise_name(name), prefix="ent_")


FactStatus = Literal["current", "ended", "superseded", "corrected", "retracted"]


class Fact(Model):
    """One bitemporal row.

    ``fact_id`` names the logical statement (its temporal leftovers share it);
    ``id`` names this row. ``expired_by`` says which operation closed ``expired_at``.
    """

    id: str
    fact_id: str
    scope: str = DEFAULT_SCOPE
    subject: str
    subject_id: str
    predicate: str
    object: str
    object_id: str | None = None  # set when the object is an entity, None for a literal
    text: str
    valid_from: Instant = NEG_INF
    valid_to: Instant = POS_INF
    recorded_at: Instant
    expired_at: Instant = POS_INF
    expired_by: str | None = None
    provenance: Provenance = Provenance()
    confidence: float = Field(default=1.0, ge=0.0, le=1.0)
    # valid_from is a stated change point: a supersession began there (see bitemporal.py)
    change_point: bool = False

    @property
    def valid(self) -> Interval:
        return Interval(self.valid_from, self.valid_to)

    @property
    def transaction(self) -> Interval:
        return Interval(self.recorded_at, self.expired_at)

    @property
    def is_current_belief(self) -> bool:
        return TemporalBounds().admits(self)

    def describe_validity(self) -> str:
        """Human wording of the valid interval, e.g. ``since 2024-03-01``."""
        start = None if is_infinite(self.valid_from) else format_instant(self.valid_from)[:10]
        end = None if is_infinite(self.valid_to) else format_instant(self.valid_to)[:10]
        if start and end:
            return f"from {start} until {end}"
        if start:
            return f"since {start}"
        if end:
            return f"until {end}"
        return "always"


class _FactFields(Model):
    """What every fact to be written has, whichever way it arrives."""

    subject: str
    predicate: str
    valid_from: Instant = NEG_INF
    valid_to: Instant = POS_INF
    scope: str = DEFAULT_SCOPE
    provenance: Provenance = Provenance()
    confidence: float = Field(default=1.0, ge=0.0, le=1.0)
    subject_type: str | None = None
    object_type: str | None = None


class FactInput(_FactFields):
    """A fact to write, before the store gives it ids and transaction time."""

    object: str

    @field_validator("subject", "predicate", "object", "scope")
    @classmethod
    def _not_blank(cls, value: str) -> str:
        if not value.strip():
            raise ValueError("must not be blank")
        return value.strip()


Operation = Literal["assert", "supersede", "retract", "correct"]


class CandidateFact(_FactFields):
    """What an extractor proposes; the resolver turns it into a store operation.

    - ``assert``: ``object`` holds over ``[valid_from, valid_to)``;
    - ``supersede``: ``object`` is the new value of a functional key from ``valid_from``;
    - ``retract``: ``object`` (or, if None, any value) stopped holding at ``valid_from``;
    - ``correct``: ``wrong_object`` was a mistake; ``object`` (if any) is the right value.
    """

    op: Operation = "assert"
    object: str | None = None
    wrong_object: str | None = None


class TimelineEntry(Model):
    """A coalesced stretch of one value of a predicate over valid time."""

    subject: str
    predicate: str
    object: str
    valid_from: Instant
    valid_to: Instant
    fact_ids: tuple[str, ...]
    status: FactStatus = "current"

    @property
    def valid(self) -> Interval:
        return Interval(self.valid_from, self.valid_to)


class Change(Model):
    """One change between two instants.

    ``kind`` on the transaction axis: ``learned`` (a row was recorded) or ``unlearned``
    (a row was expired, with ``reason`` superseded / corrected / retracted); on the
    valid axis: ``started`` or ``ended`` (in the world, as best known).
    """

    at: Instant
    kind: Literal["learned", "unlearned", "started", "ended"]
    reason: str | None = None
    fact: Fact
