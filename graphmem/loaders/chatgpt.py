"""ChatGPT data export: ``conversations.json``.

The file is a list of conversations (a single conversation object is accepted too),
streamed one at a time. A conversation has ``title``, ``create_time`` (epoch seconds),
``current_node`` and ``mapping``: the message tree, ``{node_id: {id, parent, children,
message}}``. Edited prompts and regenerated answers make branches; the conversation as
the user last saw it is the branch from the root to ``current_node``, walked up via
``parent`` and then reversed. Without ``current_node``, the branch follows the last
child from the root.

Kept: messages whose ``author.role`` is ``user`` or ``assistant``, addressed to
everyone (``recipient`` ``all`` or absent), not hidden
(``metadata.is_visually_hidden_from_conversation``), with ``content_type`` ``text`` or
``multimodal_text`` and non-empty text (the string parts, and parts carrying ``text``,
joined by newlines). Skipped: system, tool and empty messages, code/tool calls, browsing
and reasoning displays, images.

- session: the conversation's ``conversation_id`` or ``id`` (else a stable hash of the
  title and create_time); speaker = role = ``user`` / ``assistant``;
- time: the message's ``create_time``; when it is null, the previous kept message's
  time, else the conversation's ``create_time``;
- line: the line where the conversation starts (exports are often a single line).
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import tzinfo
from pathlib import Path
from typing import Any

from .json_stream import has_key, looks_like_json_document
from .messages import normalise_role
from .record import Record, RecordError, Reporter
from .turns import ChatExportLoader, Clock, Turn

TEXT_CONTENT_TYPES = {"text", "multimodal_text"}


def active_branch(mapping: dict[str, Any], current: Any) -> list[dict[str, Any]]:
    """The nodes from the root to ``current`` (or along the last children), in order."""
    if current is None:
        roots = [
            key
            for key, node in mapping.items()
            if isinstance(node, dict) and node.get("parent") not in mapping
        ]
        if not roots:
            raise RecordError("the message tree has no root")
        chain: list[dict[str, Any]] = []
        key: Any = roots[0]
        seen: set[str] = set()
        while key is not None and key not in seen:
            seen.add(key)
            node = mapping[key]
            if not isinstance(node, dict):
                raise RecordError(f"node {key!r} (a child on the branch) is not an object")
            chain.append(node)
            children = node.get("children")
            if not isinstance(children, list):
                children = []
            children = [c for c in children if isinstance(c, str) and c in mapping]
            key = children[-1] if children else None
        return chain
    if not isinstance(current, str) or current not in mapping:
        raise RecordError(f"current_node {current!r} is not in the mapping")
    chain = []
    seen = set()
    key = current
    while key is not None:
        if key in seen:
            raise RecordError(f"the message tree has a cycle at node {key!r}")
        seen.add(key)
        node = mapping.get(key)
        if not isinstance(node, dict):
            raise RecordError(f"node {key!r} (a parent on the branch) is not in the mapping")
        chain.append(node)
        key = node.get("parent")
    chain.reverse()
    return chain


def message_text(message: dict[str, Any]) -> str | None:
    content = message.get("content")
    if not isinstance(content, dict) or content.get("content_type") not in TEXT_CONTENT_TYPES:
        return None
    texts = []
    for part in content.get("parts") or []:
        if isinstance(part, str):
            texts.append(part)
        elif isinstance(part, dict) and isinstance(part.get("text"), str):
            texts.append(part["text"])
    text = "\n".join(t for t in texts if t)
    return text if text.strip() else None


def _messages(branch: list[dict[str, Any]]) -> Iterator[tuple[Any, dict[str, Any]]]:
    """(id, message) for the nodes of a branch that hold a message."""
    for node in branch:
        message = node.get("message")
        if isinstance(message, dict):
            yield message.get("id", node.get("id")), message


class ChatGPTLoader(ChatExportLoader):
    name = "chatgpt"
    id_keys = ("conversation_id", "id")
    name_key = "title"
    time_key = "create_time"

    def sniff(self, path: Path, head: str) -> bool:
        return (
            looks_like_json_document(head)
            and has_key(head, "mapping")
            and has_key(head, "current_node", "content_type", "author")
        )

    def read_item(
        self, conv: dict[str, Any], line: int, scope: str, tz: tzinfo | None, reporter: Reporter
    ) -> Iterator[Record]:
        mapping = conv.get("mapping")
        if not isinstance(mapping, dict):
            reporter.error("conversation has no 'mapping' (message tree)", line)
            return
        yield from self.conversation(
            conv,
            lambda: _messages(active_branch(mapping, conv.get("current_node"))),
            line,
            scope,
            tz,
            reporter,
        )

    def read_turn(self, message: dict[str, Any], clock: Clock) -> Turn | None:
        author = message.get("author") or {}
        role = normalise_role(author.get("role") if isinstance(author, dict) else None)
        if role not in {"user", "assistant"}:
            return None
        if message.get("recipient") not in (None, "all"):
            return None
        metadata = message.get("metadata") or {}
        if isinstance(metadata, dict) and metadata.get("is_visually_hidden_from_conversation"):
            return None
        text = message_text(message)
        if text is None:
            return None
        clock.tick(message)
        return Turn(speaker=role, role=role, text=text, timestamp=clock.now())


LOADER = ChatGPTLoader()
