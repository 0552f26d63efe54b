"""Turns -> ``Episode`` records: what the conversation formats share.

A format finds each turn's speaker, text and time its own way; what happens next is the
same everywhere and lives here:

- ``session_records``: the records of a list of turns in one session (the JSON exports
  and datasets): each raw turn read by the format into a ``Turn`` (or skipped), numbered,
  turned into an ``Episode``; a bad turn is reported with where it is and skipped;
- ``Clock``: a conversation's running time, for messages that may lack their own
  (chat exports, OpenAI messages);
- ``ChatExportLoader``: the frame of a chat export (ChatGPT, Claude): a list of
  conversations, each with an id, a name, a time and its messages;
- ``LineMessages``: messages that run on over several lines (WhatsApp, transcripts);
- ``make_episode``, ``TurnCounter``, ``scoped``: an ``Episode`` from fields (a bad one is
  a ``RecordError``), turn numbers per session, a dataset unit's scope.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from datetime import datetime, tzinfo
from functools import partial
from typing import Any, Literal

from pydantic import ValidationError

from graphmem.model import DEFAULT_SCOPE, Episode, stable_id

from .fields import first_key, validation_message
from .json_stream import JsonDocumentLoader
from .record import Record, RecordError, Reporter
from .times import parse_time


@dataclass(frozen=True, slots=True)
class Turn:
    """A conversation turn as a format has read it, before it is an ``Episode``."""

    speaker: str
    text: str
    timestamp: datetime
    role: str | None = None


def scoped(scope: str, key: str) -> str:
    """The scope for a dataset's own unit (a LongMemEval question, a LoCoMo sample):
    the key itself under the default scope, else ``scope/key``."""
    return key if scope == DEFAULT_SCOPE else f"{scope}/{key}"


class TurnCounter:
    """0-based turn numbers per (scope, session), in file order."""

    __slots__ = ("_next",)

    def __init__(self) -> None:
        self._next: dict[tuple[str, str], int] = {}

    def __call__(self, scope: str, session: str) -> int:
        key = (scope, session)
        turn = self._next.get(key, 0)
        self._next[key] = turn + 1
        return turn


def make_episode(**fields: Any) -> Episode:
    try:
        return Episode(**fields)
    except ValidationError as exc:
        raise RecordError(validation_message(exc)) from None


def labelled(items: Iterable[Any], key: str) -> Iterator[tuple[Any, Any]]:
    """(label, item) for each item: the item's own ``key`` when it is an object that has
    one, else its 0-based position."""
    for index, item in enumerate(items):
        yield (item.get(key, index) if isinstance(item, dict) else index), item


def session_records(
    turns: Iterable[tuple[Any, Any]],
    read_turn: Callable[[dict[str, Any]], Turn | None],
    *,
    reporter: Reporter,
    line: int,
    scope: str,
    session: str,
    where: str,
    kind: str,
    numbering: Literal["kept", "position"] = "kept",
) -> Iterator[Record]:
    """The records of one session's turns, given as (label, raw turn) pairs.

    A raw turn must be an object (a ``kind`` object: ``"message"``, ``"turn"``), which
    ``read_turn`` reads into a ``Turn``, or None to skip it. A bad turn (``RecordError``)
    is reported at ``line`` as ``"<where>, <kind> <label>: <reason>"`` and skipped.
    ``Episode.turn`` counts the turns kept so far (``numbering="kept"``) or is the raw
    turn's position in ``turns``, skipped ones included (``"position"``). Every record
    is at ``line``, the line of the item the session comes from.
    """
    source = str(reporter.path)
    kept = 0
    for position, (label, raw) in enumerate(turns):
        try:
            if not isinstance(raw, dict):
                raise RecordError(f"expected a {kind} object, got {type(raw).__name__}")
            turn = read_turn(raw)
            if turn is None:
                continue
            episode = make_episode(
                scope=scope,
                session=session,
                turn=position if numbering == "position" else kept,
                speaker=turn.speaker,
                role=turn.role,
                text=turn.text,
                timestamp=turn.timestamp,
                source=source,
            )
        except RecordError as exc:
            reporter.error(f"{where}, {kind} {label}: {exc}", line)
            continue
        kept += 1
        yield Record(path=source, line=line, episode=episode)


class Clock:
    """The running time of a conversation whose messages may lack a time: a message's
    own time (under the first of ``keys`` it has), else the previous message's, else the
    conversation's."""

    __slots__ = ("keys", "tz", "time")

    def __init__(self, keys: tuple[str, ...], tz: tzinfo | None):
        self.keys = keys
        self.tz = tz
        self.time: datetime | None = None

    def start(
        self,
        conversation: dict[str, Any],
        reporter: Reporter,
        line: int,
        where: str | None = None,
        *,
        keys: tuple[str, ...] | None = None,
    ) -> None:
        """Start at the conversation's own time, if it has one (under ``keys``, by default
        the message keys). A bad one is reported at ``line`` (after ``where: ``, when
        given) and leaves the clock without a time."""
        try:
            self._set(conversation, keys or self.keys)
        except RecordError as exc:
            reporter.error(f"{where}: {exc}" if where else str(exc), line)

    def tick(self, message: dict[str, Any]) -> None:
        """Move to the message's own time, if it has one; ``RecordError`` if it is bad."""
        self._set(message, self.keys)

    def now(self) -> datetime:
        """The current time; ``RecordError`` when neither the message nor anything before
        it had one."""
        if self.time is None:
            raise RecordError(f"no {self.keys[0]} on the message or its conversation")
        return self.time

    def _set(self, data: dict[str, Any], keys: tuple[str, ...]) -> None:
        stamp = first_key(data, keys)
        if stamp is not None:
            self.time = parse_time(stamp[1], self.tz, field=stamp[0])


class ChatExportLoader(JsonDocumentLoader):
    """A chat export: a JSON list of conversations (see ``JsonDocumentLoader``). A
    subclass names the conversation's keys and defines ``read_turn``; its ``read_item``
    checks what is specific to it, then hands over to ``conversation``.

    - session: the first of ``id_keys`` set, when it is a non-blank string, else a stable
      id from the conversation's ``name_key`` and ``time_key`` (``<name>_<hash>``);
    - time: a message's own ``time_key``, else the previous message's, else the
      conversation's (``Clock``);
    - turns are numbered as they are kept; errors begin ``conversation <session>``.
    """

    item_kind = "conversation"
    id_keys: tuple[str, ...]
    name_key: str
    time_key: str

    def read_turn(self, message: dict[str, Any], clock: Clock) -> Turn | None:
        """A message as a ``Turn`` (None: not a turn), its time from ``clock``."""
        raise NotImplementedError

    def session(self, conv: dict[str, Any]) -> str:
        """The conversation's session name (see the class notes)."""
        session = next((conv[key] for key in self.id_keys if conv.get(key)), None)
        if isinstance(session, str) and session.strip():
            return session
        return stable_id(
            str(conv.get(self.name_key)), str(conv.get(self.time_key)), prefix=f"{self.name}_"
        )

    def conversation(
        self,
        conv: dict[str, Any],
        messages: Callable[[], Iterable[tuple[Any, Any]]],
        line: int,
        scope: str,
        tz: tzinfo | None,
        reporter: Reporter,
    ) -> Iterator[Record]:
        """The records of a conversation whose messages, as (id, message) pairs, are
        ``messages()``; a ``RecordError`` from it is about the whole conversation."""
        session = self.session(conv)
        where = f"conversation {session}"
        try:
            pairs = messages()
        except RecordError as exc:
            reporter.error(f"{where}: {exc}", line)
            return
        clock = Clock((self.time_key,), tz)
        clock.start(conv, reporter, line, where)
        yield from session_records(
            pairs,
            partial(self.read_turn, clock=clock),
            reporter=reporter,
            line=line,
            scope=scope,
            session=session,
            where=where,
            kind="message",
        )


class LineMessages:
    """Messages of one session that run on over the lines after their first (chat
    exports, transcripts), read line by line.

    ``start`` opens a message at its first line, ``add`` appends a following line to the
    open one (if any), and ``flush`` yields the open message's record, if it has text,
    and closes it: call it before each ``start`` and at the end of the file. A message's
    text is its lines joined and stripped, then passed through ``tidy`` (which may
    return "" to drop it). Turns are numbered 0, 1, ... in the order the messages are
    flushed.
    """

    __slots__ = ("_open", "_reporter", "_scope", "_session", "_source", "_tidy", "_turns")

    def __init__(
        self,
        reporter: Reporter,
        *,
        scope: str,
        session: str,
        tidy: Callable[[str], str] | None = None,
    ):
        self._reporter = reporter
        self._scope = scope
        self._session = session
        self._source = str(reporter.path)
        self._tidy = tidy
        self._turns = 0
        self._open: tuple[int, datetime, str, list[str]] | None = None

    def start(self, line: int, timestamp: datetime, speaker: str, text: str) -> None:
        self._open = (line, timestamp, speaker, [text])

    def add(self, text: str) -> None:
        if self._open is not None:
            self._open[3].append(text)

    def flush(self) -> Iterator[Record]:
        if self._open is None:
            return
        line, timestamp, speaker, lines = self._open
        self._open = None
        text = "\n".join(lines).strip()
        if self._tidy is not None:
            text = self._tidy(text)
        if not text:
            return
        turn = self._turns
        self._turns += 1
        episode = self._reporter.attempt(
            line,
            make_episode,
            scope=self._scope,
            session=self._session,
            turn=turn,
            speaker=speaker,
            text=text,
            timestamp=timestamp,
            source=self._source,
        )
        if episode is not None:
            yield Record(path=self._source, line=line, episode=episode)
