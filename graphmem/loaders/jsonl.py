"""JSON Lines conversation turns: one JSON object per line, read line by line.

Each object is one turn. Keys (the first one present wins):

- text: ``text``, ``content``, ``message``, ``body``, ``utterance``, ``msg``, ``value``
  (a string, or a list of ``{"type": "text", "text": ...}`` parts);
- speaker: ``speaker``, ``name``, ``author``, ``sender``, ``from``, ``user``,
  ``username``; when none is present, the ``role`` is the speaker;
- role: ``role`` (``human``/``gpt``/``bot``... normalised to ``user``/``assistant``);
  lines whose role is system/developer/tool are skipped;
- timestamp (required): ``timestamp``, ``time``, ``ts``, ``datetime``, ``date``,
  ``created_at``, ``create_time``, ``created``, ``sent_at`` (ISO string, or epoch
  seconds/milliseconds); times without an offset are in the loader's ``tz``;
- session: ``session``, ``session_id``, ``conversation``, ``conversation_id``,
  ``thread``, ``thread_id``, ``chat_id``, ``dialog_id``; default: the file's stem;
- scope: ``scope`` overrides the loader's scope for that line;
- turn: ``turn``, ``turn_id``, ``turn_index``; default: the 0-based position of the
  line in its (scope, session).

Blank lines and turns with empty text are skipped.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import tzinfo
from pathlib import Path
from typing import Any

from .fields import first_key
from .files import file_stem, first_lines, inner_suffix
from .json_stream import iter_json_objects, json_object_line
from .messages import NON_TURN_ROLES, normalise_role, text_of
from .record import FileLoader, Record, RecordError, Reporter
from .times import parse_time
from .turns import TurnCounter, make_episode

TEXT_KEYS = ("text", "content", "message", "body", "utterance", "msg", "value")
SPEAKER_KEYS = ("speaker", "name", "author", "sender", "from", "user", "username")
TIME_KEYS = (
    "timestamp",
    "time",
    "ts",
    "datetime",
    "date",
    "created_at",
    "create_time",
    "created",
    "sent_at",
)
SESSION_KEYS = (
    "session",
    "session_id",
    "conversation",
    "conversation_id",
    "thread",
    "thread_id",
    "chat_id",
    "dialog_id",
)
TURN_KEYS = ("turn", "turn_id", "turn_index")


def _speaker_name(value: Any) -> str | None:
    if isinstance(value, dict):
        value = value.get("name") or value.get("role")
    if isinstance(value, bool) or value is None:
        return None
    if isinstance(value, int | float):
        return str(value)
    return value.strip() if isinstance(value, str) and value.strip() else None


def _key_string(data: dict[str, Any], keys: tuple[str, ...]) -> str | None:
    found = first_key(data, keys)
    if found is None:
        return None
    value = found[1]
    if isinstance(value, int | float) and not isinstance(value, bool):
        return str(value)
    if isinstance(value, str) and value.strip():
        return value
    raise RecordError(f"{found[0]}: expected a non-empty string, got {value!r}")


def turn_from_object(
    data: dict[str, Any],
    *,
    scope: str,
    tz: tzinfo | None,
    default_session: str,
    counter: TurnCounter,
    source: str,
):
    """An Episode from one turn object, or None for a skipped (system/empty) turn."""
    role = normalise_role(data.get("role"))
    if role in NON_TURN_ROLES:
        return None
    found = first_key(data, TEXT_KEYS)
    if found is None:
        raise RecordError(f"no text: expected one of {', '.join(TEXT_KEYS)}")
    text = text_of(found[1])
    if text is None:
        raise RecordError(f"{found[0]}: expected text, got {type(found[1]).__name__}")
    speaker = None
    for key in SPEAKER_KEYS:
        if data.get(key) is not None:
            speaker = _speaker_name(data[key])
            if speaker is None:
                raise RecordError(f"{key}: expected a speaker name, got {data[key]!r}")
            break
    if speaker is None:
        speaker = role
    if speaker is None:
        raise RecordError(f"no speaker: expected one of {', '.join(SPEAKER_KEYS)} or role")
    stamp = first_key(data, TIME_KEYS)
    if stamp is None:
        raise RecordError(f"no timestamp: expected one of {', '.join(TIME_KEYS)}")
    timestamp = parse_time(stamp[1], tz, field=stamp[0])
    if not text.strip():
        return None
    line_scope = _key_string(data, ("scope",)) or scope
    session = _key_string(data, SESSION_KEYS) or default_session
    turn_value = first_key(data, TURN_KEYS)
    if turn_value is None:
        turn = counter(line_scope, session)
    elif isinstance(turn_value[1], int) and not isinstance(turn_value[1], bool):
        turn = turn_value[1]
    else:
        raise RecordError(f"{turn_value[0]}: expected an integer, got {turn_value[1]!r}")
    return make_episode(
        scope=line_scope,
        session=session,
        turn=turn,
        speaker=speaker,
        role=role,
        text=text,
        timestamp=timestamp,
        source=source,
    )


class JsonlLoader(FileLoader):
    name = "jsonl"

    def sniff(self, path: Path, head: str) -> bool:
        if inner_suffix(path) in {".jsonl", ".ndjson"}:
            return True
        lines = first_lines(head, 2)
        first = json_object_line(lines[0]) if lines else None
        return (
            first is not None
            and len(lines) == 2
            and json_object_line(lines[1]) is not None
            and any(key in first for key in TEXT_KEYS)
        )

    def read(
        self, path: Path, reporter: Reporter, scope: str, tz: tzinfo | None
    ) -> Iterator[Record]:
        counter = TurnCounter()
        session = file_stem(path)
        source = str(path)
        for lineno, data in iter_json_objects(path, reporter):
            episode = reporter.attempt(
                lineno,
                turn_from_object,
                data,
                scope=scope,
                tz=tz,
                default_session=session,
                counter=counter,
                source=source,
            )
            if episode is not None:
                yield Record(path=source, line=lineno, episode=episode)


LOADER = JsonlLoader()
