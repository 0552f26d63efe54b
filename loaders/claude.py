"""Claude data export: ``conversations.json``.

A list of conversations (a single conversation object is accepted too), streamed one at
a time: ``{uuid, name, created_at, chat_messages: [{uuid, sender, text, content,
created_at}]}``.

- sender ``human`` -> speaker = role = ``user``; ``assistant`` -> ``assistant``; any
  other sender is an error for that message;
- text: the ``text`` blocks of ``content`` joined by blank lines (tool use, thinking and
  attachments left out), else the message's ``text``; empty messages are skipped;
- session: the conversation's ``uuid`` (else a stable hash of its name and created_at);
- time: the message's ``created_at`` (ISO 8601); when missing, the previous message's,
  else the conversation's ``created_at``;
- line: the line where the conversation starts.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime, tzinfo
from pathlib import Path
from typing import Any

from graphmem.model import DEFAULT_SCOPE, stable_id

from .base import (
    ErrorHandler,
    Record,
    RecordError,
    Reporter,
    has_key,
    iter_json_items,
    looks_like_json_document,
    make_episode,
    normalise_role,
    parse_time,
)


def message_text(message: dict[str, Any]) -> str:
    content = message.get("content")
    if isinstance(content, list):
        blocks = [
            block["text"]
            for block in content
            if isinstance(block, dict)
            and block.get("type") == "text"
            and isinstance(block.get("text"), str)
        ]
        text = "\n\n".join(b for b in blocks if b.strip())
        if text.strip():
            return text
    text = message.get("text")
    if text is not None and not isinstance(text, str):
        raise RecordError(f"text: expected a string, got {type(text).__name__}")
    return text or ""


class ClaudeLoader:
    name = "claude"

    def sniff(self, path: Path, head: str) -> bool:
        return looks_like_json_document(head) and has_key(head, "chat_messages")

    def records(
        self,
        path: Path,
        *,
        scope: str = DEFAULT_SCOPE,
        tz: tzinfo | None = None,
        on_error: ErrorHandler | None = None,
    ) -> Iterator[Record]:
        path = Path(path)
        reporter = Reporter(path, on_error)
        for item in iter_json_items(path, reporter):
            yield from self._conversation(item.value, item.line, scope, tz, reporter)

    def _conversation(
        self, conv: Any, line: int, scope: str, tz: tzinfo | None, reporter: Reporter
    ) -> Iterator[Record]:
        source = str(reporter.path)
        if not isinstance(conv, dict):
            reporter.error(f"expected a conversation object, got {type(conv).__name__}", line)
            return
        messages = conv.get("chat_messages")
        if not isinstance(messages, list):
            reporter.error("conversation has no 'chat_messages' list", line)
            return
        session = conv.get("uuid")
        if not isinstance(session, str) or not session.strip():
            session = stable_id(
                str(conv.get("name")), str(conv.get("created_at")), prefix="claude_"
            )
        last_time: datetime | None = None
        if conv.get("created_at") is not None:
            try:
                last_time = parse_time(conv["created_at"], tz, field="created_at")
            except RecordError as exc:
                reporter.error(f"conversation {session}: {exc}", line)
        turn = 0
        for index, message in enumerate(messages):
            ident = message.get("uuid", index) if isinstance(message, dict) else index
            try:
                if not isinstance(message, dict):
                    raise RecordError(f"expected a message object, got {type(message).__name__}")
                role = normalise_role(message.get("sender"))
                if role not in {"user", "assistant"}:
                    raise RecordError(f"unknown sender {message.get('sender')!r}")
                if message.get("created_at") is not None:
                    last_time = parse_time(message["created_at"], tz, field="created_at")
                text = message_text(message)
                if not text.strip():
                    continue
                if last_time is None:
                    raise RecordError("no created_at on the message or its conversation")
                episode = make_episode(
                    scope=scope,
                    session=session,
                    turn=turn,
                    speaker=role,
                    role=role,
                    text=text,
                    timestamp=last_time,
                    source=source,
                )
            except RecordError as exc:
                reporter.error(f"conversation {session}, message {ident}: {exc}", line)
                continue
            turn += 1
            yield Record(path=source, line=line, episode=episode)


LOADER = ClaudeLoader()
