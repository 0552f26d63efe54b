"""Short-term memory for agents: a session buffer in front of long-term memory.

An LLM call sees only its prompt. ``SessionBuffer`` builds that prompt for each turn:

1. the **system prompt**, pinned: it is never dropped or shortened;
2. **recalled memory** for the new message (``Memory.context``: facts with their
   validity and past conversation, in a block labelled as data, not instructions);
3. the **recent turns** of this session, newest first until the token budget is
   spent: the oldest turns fall out of the window first;
4. the new user message.

Every turn is written through to long-term memory as it happens (an ``Episode``,
searchable later), so a turn that falls out of the window is not forgotten: it can
come back through recall. With ``extract=True`` (the default) the rule-based extractor
also turns what the user says into facts, live ("I moved to Lisbon" supersedes the
old city at once).

>>> import os, tempfile
>>> from graphmem import Memory
>>> mem = Memory.open(os.path.join(tempfile.mkdtemp(), "m.db"), embedder=None)
>>> buf = SessionBuffer(mem, speaker="Sam", system_prompt="You are a helpful assistant.")
>>> prompt = buf.build_prompt("Hi! I live in Lisbon.")
>>> prompt[0]["content"], prompt[-1]
('You are a helpful assistant.', {'role': 'user', 'content': 'Hi! I live in Lisbon.'})
>>> _ = buf.add_assistant("Nice, Lisbon is lovely.")
>>> [f.object for f in mem.facts("Sam", "lives_in")]
['Lisbon']
>>> mem.close()

Tokens are estimated (:func:`graphmem.answer.estimate_tokens`, about four characters a
token) plus a small overhead per message; pass ``count_tokens`` for a real tokenizer.
"""

from __future__ import annotations

import re
import secrets
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from typing import TYPE_CHECKING, Any, Literal

from graphmem.answer import estimate_tokens
from graphmem.model import DEFAULT_SCOPE, Episode
from graphmem.time.instant import ONE_MICROSECOND, now, to_instant

if TYPE_CHECKING:
    from graphmem.memory import Memory

__all__ = ["MESSAGE_OVERHEAD", "PromptStats", "SessionBuffer", "Turn"]

MESSAGE_OVERHEAD = 4  # tokens a chat format spends on each message's role and framing
Role = Literal["user", "assistant"]
_SAID_LINE = re.compile(r'^- said by .*?: "(?P<text>.*)"$')


@dataclass(frozen=True)
class Turn:
    """One turn of the session, as recorded in long-term memory."""

    role: Role
    content: str
    timestamp: datetime
    episode_id: str
    tokens: int


@dataclass
class PromptStats:
    """How the last prompt was built."""

    tokens: int = 0
    budget: int = 0
    system_tokens: int = 0
    recall_tokens: int = 0
    window_turns: int = 0
    dropped_turns: int = 0  # turns of the session that no longer fit the window
    over_budget: bool = False  # system prompt + new message alone exceed the budget
    recall: str = field(default="", repr=False)


class SessionBuffer:
    """A token-budgeted prompt builder that writes every turn through to ``memory``.

    ``scope`` is the tenant/user, ``session`` names this conversation (default: a fresh
    id), ``speaker`` is the user's name in memory ("I" in what they say).
    ``recall_tokens`` caps the recalled-memory block (default: a quarter of the budget);
    ``extract`` turns user statements into facts as they arrive.
    """

    def __init__(
        self,
        memory: Memory,
        scope: str = DEFAULT_SCOPE,
        session: str | None = None,
        speaker: str = "user",
        system_prompt: str = "You are a helpful assistant.",
        budget_tokens: int = 4000,
        *,
        recall_tokens: int | None = None,
        extract: bool = True,
        extractor: Any = None,
        assistant_name: str = "assistant",
        count_tokens: Callable[[str], int] = estimate_tokens,
        max_turns: int = 1000,
        separate_recall: bool = True,
    ):
        if budget_tokens < 1:
            raise ValueError("budget_tokens must be positive")
        self.memory = memory
        self.scope = scope
        self.session = session or f"session-{now():%Y%m%dT%H%M%S}-{secrets.token_hex(3)}"
        self.speaker = speaker
        self.system_prompt = system_prompt
        self.budget_tokens = budget_tokens
        self.recall_tokens = budget_tokens // 4 if recall_tokens is None else recall_tokens
        self.assistant_name = assistant_name
        self.count_tokens = count_tokens
        self.separate_recall = separate_recall
        self.turns: deque[Turn] = deque(maxlen=max_turns)
        self.stats = PromptStats(budget=budget_tokens)
        self._count = 0
        self._last: datetime | None = None
        if extract and extractor is None:
            from graphmem.extraction.rules import RuleExtractor

            extractor = RuleExtractor()
        self.extractor = extractor if extract else None

    # -- recording ---------------------------------------------------------------------
    def _timestamp(self, when: datetime | str | None) -> datetime:
        t = now() if when is None else to_instant(when)
        if self._last is not None and t <= self._last:
            t = self._last + ONE_MICROSECOND  # turns keep their order in transaction time
        self._last = t
        return t

    def add(self, role: Role, content: str, *, timestamp: datetime | str | None = None) -> Turn:
        """Record one turn: stored as an episode now (with the facts it states)."""
        if role not in ("user", "assistant"):
            raise ValueError(f"role must be 'user' or 'assistant', not {role!r}")
        from graphmem.extraction.secrets import find_secrets, redact
        from graphmem.ingest import resolve
        from graphmem.store.writes import WriteGroup

        ts = self._timestamp(timestamp)
        text = redact(content) if find_secrets(content) else content  # secrets are never stored
        episode = Episode(
            scope=self.scope,
            session=self.session,
            turn=self._count,
            speaker=self.speaker if role == "user" else self.assistant_name,
            role=role,
            text=text,
            timestamp=ts,
            source="session",
        )
        operations = []
        if self.extractor is not None and text.strip():
            operations = resolve(self.extractor.extract(episode), self.memory)
        if text.strip():
            self.memory.write([WriteGroup(operations, [episode], ts)], lenient=True)
        self._count += 1
        turn = Turn(role, text, ts, episode.id, self.count_tokens(text) + MESSAGE_OVERHEAD)
        self.turns.append(turn)
        return turn

    def add_user(self, content: str, **kw: Any) -> Turn:
        return self.add("user", content, **kw)

    def add_assistant(self, content: str, **kw: Any) -> Turn:
        return self.add("assistant", content, **kw)

    # -- the prompt ----------------------------------------------------------------------
    def recall(self, message: str, budget: int) -> str:
        """The memory block for ``message`` (empty when nothing relevant fits), without
        the turns that are in the window anyway."""
        if budget <= 0:
            return ""
        block = self.memory.context(message, budget_tokens=budget, scope=self.scope)
        window = {" ".join(t.content.split()) for t in self.turns}
        lines = block.splitlines()
        kept = []
        for line in lines:
            said = _SAID_LINE.match(line)
            if said and " ".join(said.group("text").split()) in window:
                continue
            kept.append(line)
        if not any(line.startswith("- ") for line in kept):
            return ""
        return "\n".join(kept)

    def build_prompt(
        self, user_message: str, *, record: bool = True, timestamp: datetime | str | None = None
    ) -> list[dict[str, str]]:
        """Messages for the next model call: system prompt, recalled memory, the recent
        turns that fit ``budget_tokens``, then ``user_message`` (recorded as a turn unless
        ``record=False``). Add the model's reply with :meth:`add_assistant`."""
        cost = self.count_tokens
        system_tokens = cost(self.system_prompt) + MESSAGE_OVERHEAD
        message_tokens = cost(user_message) + MESSAGE_OVERHEAD
        left = self.budget_tokens - system_tokens - message_tokens

        # recall first, before the new message is itself in memory
        recall = self.recall(user_message, min(self.recall_tokens, left - MESSAGE_OVERHEAD))
        recall_tokens = cost(recall) + MESSAGE_OVERHEAD if recall else 0
        left -= recall_tokens
        history = list(self.turns)
        if record:
            self.add("user", user_message, timestamp=timestamp)

        window: list[Turn] = []
        for turn in reversed(history):  # newest first; the oldest fall out first
            if turn.tokens > left:
                break
            window.append(turn)
            left -= turn.tokens
        window.reverse()

        messages = [{"role": "system", "content": self.system_prompt}]
        if recall:
            if self.separate_recall:
                messages.append({"role": "system", "content": recall})
            else:
                messages[0] = {"role": "system", "content": f"{self.system_prompt}\n\n{recall}"}
        messages += [{"role": t.role, "content": t.content} for t in window]
        messages.append({"role": "user", "content": user_message})

        used = system_tokens + recall_tokens + message_tokens + sum(t.tokens for t in window)
        self.stats = PromptStats(
            tokens=used,
            budget=self.budget_tokens,
            system_tokens=system_tokens,
            recall_tokens=recall_tokens,
            window_turns=len(window),
            dropped_turns=len(history) - len(window),
            over_budget=system_tokens + message_tokens > self.budget_tokens,
            recall=recall,
        )
        return messages

    def prompt_tokens(self, messages: list[dict[str, str]]) -> int:
        """The estimated size of a list of messages, as the budget counts it."""
        return sum(self.count_tokens(m["content"]) + MESSAGE_OVERHEAD for m in messages)
