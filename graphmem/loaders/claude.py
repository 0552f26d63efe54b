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
from datetime import tzinfo
from pathlib import Path
from typing import Any

from .json_stream import has_key, looks_like_json_document
from .messages import normalise_role
from .record import Record, RecordError, Reporter
from .turns import ChatExportLoader, Clock, Turn, labelled


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


class ClaudeLoader(ChatExportLoader):
    name = "claude"
    id_keys = ("uuid",)
    name_key = "name"
    time_key = "created_at"

    def sniff(self, path: Path, head: str) -> bool:
        return looks_like_json_document(head) and has_key(head, "chat_messages")

    def read_item(
        self, conv: dict[str, Any], line: int, scope: str, tz: tzinfo | None, reporter: Reporter
    ) -> Iterator[Record]:
        messages = conv.get("chat_messages")
        if not isinstance(messages, list):
            reporter.error("conversation has no 'chat_messages' list", line)
            return
        yield from self.conversation(
            conv, lambda: labelled(messages, "uuid"), line, scope, tz, reporter
        )

    def read_turn(self, message: dict[str, Any], clock: Clock) -> Turn | None:
        role = normalise_role(message.get("sender"))
        if role not in {"user", "assistant"}:
            raise RecordError(f"unknown sender {message.get('sender')!r}")
        clock.tick(message)
        text = message_text(message)
        if not text.strip():
            return None
        return Turn(speaker=role, role=role, text=text, timestamp=clock.now())


LOADER = ClaudeLoader()
