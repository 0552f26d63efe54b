"""A chat message, as the conversation formats write it: its role (the role vocabulary:
``user``/``assistant`` and their aliases; system and tool messages are not turns) and the
text of its content (a string, a list of parts, or an object with text)."""

from __future__ import annotations

from typing import Any

_TEXT_PART_TYPES = {"text", "input_text", "output_text"}


def text_of(value: Any) -> str | None:
    """The text of a message's content: a string, a list of parts, or a dict with text."""
    if value is None:
        return None
    if isinstance(value, str):
        return value
    if isinstance(value, bool):
        return None
    if isinstance(value, int | float):
        return str(value)
    if isinstance(value, dict):
        for key in ("text", "content", "value"):
            if key in value:
                return text_of(value[key])
        return None
    if isinstance(value, list):  # content parts: keep the text ones
        texts = [
            text_of(part)
            for part in value
            if not (isinstance(part, dict) and part.get("type", "text") not in _TEXT_PART_TYPES)
        ]
        return "\n".join(t for t in texts if t)
    return None


ROLE_ALIASES = {
    "user": "user",
    "human": "user",
    "assistant": "assistant",
    "ai": "assistant",
    "bot": "assistant",
    "gpt": "assistant",
    "model": "assistant",
    "chatbot": "assistant",
    "system": "system",
    "developer": "system",
    "tool": "tool",
    "function": "tool",
    "ipython": "tool",
}


NON_TURN_ROLES = frozenset({"system", "tool"})


def normalise_role(value: Any) -> str | None:
    if not isinstance(value, str) or not value.strip():
        return None
    role = value.strip().lower()
    return ROLE_ALIASES.get(role, role)
