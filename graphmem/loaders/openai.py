"""OpenAI-style chat messages: ``[{"role": ..., "content": ...}, ...]``.

Accepted shapes (a JSON document; gzip allowed):

- a list of messages: one conversation, session = the file's stem;
- an object ``{"messages": [...], ...}``: one conversation, session = its ``id`` /
  ``session`` / ``session_id`` / ``conversation_id``, else the file's stem;
- a list of such objects: one conversation each, session = its id, else ``stem#i``
  (``i`` the 0-based position of the conversation in the list).

A message has ``role`` (``from`` accepted, as in ShareGPT), ``content`` (``value`` /
``text`` accepted; a string or a list of ``{"type": "text", "text": ...}`` parts) and
optionally ``name`` (then the speaker; otherwise the speaker is the role).
System/developer/tool messages and messages without text are skipped.

Time (decision): a message's time is its own ``timestamp`` (or ``time``, ``created_at``,
``create_time``, ``created``...). A message without one takes the time of the previous
message of its conversation, and the first one the conversation object's
``timestamp`` / ``created_at`` / ``create_time`` / ``start_time``. A turn left with no
time at all is an error naming its line. Naive times are in the loader's ``tz``.

Line numbers: messages of a top-level list get their own line; messages inside an
object get their own line when it can be found, else the object's line.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from datetime import tzinfo
from pathlib import Path
from typing import Any

from graphmem.model import Episode

from .fields import first_key
from .files import file_stem
from .json_stream import array_element_lines, has_key, iter_json_items, looks_like_json_document
from .jsonl import TIME_KEYS
from .messages import NON_TURN_ROLES, normalise_role, text_of
from .record import FileLoader, Record, RecordError, Reporter
from .turns import Clock, make_episode

CONVERSATION_TIME_KEYS = (*TIME_KEYS, "start_time", "started_at")
SESSION_KEYS = ("id", "session", "session_id", "conversation_id")


@dataclass(slots=True)
class _Conversation:
    session: str
    clock: Clock
    turn: int = 0


class OpenAILoader(FileLoader):
    name = "openai"

    def sniff(self, path: Path, head: str) -> bool:
        if not looks_like_json_document(head):
            return False
        return has_key(head, "messages") or (
            has_key(head, "role", "from") and has_key(head, "content", "value")
        )

    def read(
        self, path: Path, reporter: Reporter, scope: str, tz: tzinfo | None
    ) -> Iterator[Record]:
        stem = file_stem(path)
        source = str(path)
        loose = _Conversation(stem, Clock(TIME_KEYS, tz))  # messages listed at the top level
        for index, item in enumerate(iter_json_items(path, reporter)):
            value = item.value
            if item.document is not None:  # the top level is one object
                if not isinstance(value, dict) or not isinstance(value.get("messages"), list):
                    raise reporter.fatal(
                        "expected a list of messages or an object with a 'messages' list",
                        item.line,
                    )
                lines = array_element_lines(item.document, "messages", item.line)
                yield from self._conversation(value, item.line, lines, stem, scope, tz, reporter)
            elif isinstance(value, dict) and "messages" in value:
                yield from self._conversation(
                    value, item.line, [], f"{stem}#{index}", scope, tz, reporter
                )
            else:
                episode = reporter.attempt(item.line, self._message, value, loose, scope, source)
                if episode is not None:
                    yield Record(path=source, line=item.line, episode=episode)

    def _conversation(
        self,
        data: dict[str, Any],
        line: int,
        lines: list[int],
        default_session: str,
        scope: str,
        tz: tzinfo | None,
        reporter: Reporter,
    ) -> Iterator[Record]:
        source = str(reporter.path)
        messages = data.get("messages")
        if not isinstance(messages, list):
            reporter.error("'messages' must be a list", line)
            return
        session = default_session
        found = first_key(data, SESSION_KEYS)
        if found is not None and isinstance(found[1], str | int) and str(found[1]).strip():
            session = str(found[1])
        conv = _Conversation(session, Clock(TIME_KEYS, tz))
        conv.clock.start(data, reporter, line, keys=CONVERSATION_TIME_KEYS)
        if len(lines) != len(messages):
            lines = [line] * len(messages)
        for message, message_line in zip(messages, lines, strict=True):
            episode = reporter.attempt(message_line, self._message, message, conv, scope, source)
            if episode is not None:
                yield Record(path=source, line=message_line, episode=episode)

    def _message(self, msg: Any, conv: _Conversation, scope: str, source: str) -> Episode | None:
        if not isinstance(msg, dict):
            raise RecordError(f"expected a message object, got {type(msg).__name__}")
        role = normalise_role(msg.get("role", msg.get("from")))
        if role is None:
            raise RecordError("message has no role")
        conv.clock.tick(msg)
        if role in NON_TURN_ROLES:
            return None
        content = next((msg[k] for k in ("content", "value", "text") if k in msg), None)
        text = text_of(content)
        if text is None and content is not None:
            raise RecordError(f"content: expected text, got {type(content).__name__}")
        if not text or not text.strip():
            return None
        if conv.clock.time is None:
            raise RecordError(
                "message has no timestamp and no earlier message or conversation time "
                f"to take (expected one of {', '.join(TIME_KEYS)})"
            )
        name = msg.get("name")
        speaker = name.strip() if isinstance(name, str) and name.strip() else role
        turn = conv.turn
        conv.turn += 1
        return make_episode(
            scope=scope,
            session=conv.session,
            turn=turn,
            speaker=speaker,
            role=role,
            text=text,
            timestamp=conv.clock.time,
            source=source,
        )


LOADER = OpenAILoader()
