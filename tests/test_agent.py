"""Short-term memory for agents: the session buffer in front of long-term memory."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from graphmem import Memory
from graphmem.agent import MESSAGE_OVERHEAD, SessionBuffer
from graphmem.answer import estimate_tokens

SYSTEM = "You are Sam's assistant. Be brief and kind."
T0 = datetime(2024, 3, 1, 9, 0, tzinfo=UTC)


@pytest.fixture
def memory(tmp_path):
    mem = Memory.open(tmp_path / "m.db", embedder=None)
    yield mem
    mem.close()


def _chat(buf: SessionBuffer, exchanges: list[tuple[str, str]], start: datetime = T0):
    prompts = []
    for i, (user, reply) in enumerate(exchanges):
        at = start + timedelta(minutes=2 * i)
        prompts.append(buf.build_prompt(user, timestamp=at))
        buf.add_assistant(reply, timestamp=at + timedelta(seconds=30))
    return prompts


def _size(messages) -> int:
    return sum(estimate_tokens(m["content"]) + MESSAGE_OVERHEAD for m in messages)


FILLER = [
    (
        f"Here is a long story about my day number {i}: " + "we walked and talked. " * 8,
        f"Thanks for telling me about day {i}!",
    )
    for i in range(12)
]


def test_system_prompt_is_pinned_and_budget_respected(memory):
    buf = SessionBuffer(memory, "sam", "s1", "Sam", SYSTEM, budget_tokens=300)
    for i, (user, reply) in enumerate(FILLER):
        messages = buf.build_prompt(user, timestamp=T0 + timedelta(minutes=i))
        assert messages[0] == {"role": "system", "content": SYSTEM}
        assert messages[-1] == {"role": "user", "content": user}
        assert _size(messages) <= 300
        assert buf.stats.tokens == _size(messages) and not buf.stats.over_budget
        buf.add_assistant(reply, timestamp=T0 + timedelta(minutes=i, seconds=30))
    # the window is the most recent turns, in order; the oldest fell out first
    last = messages[1:-1]
    turns = [m for m in last if not m["content"].startswith("<memory>")]
    assert turns and turns[-1]["content"] == "Thanks for telling me about day 10!"
    assert all("day number 0:" not in m["content"] for m in turns)
    assert buf.stats.dropped_turns > 0
    contents = [t.content for t in buf.turns]
    assert contents.index(turns[0]["content"]) > 0  # older turns exist but are not in the window


def test_every_turn_becomes_an_episode(memory):
    buf = SessionBuffer(memory, "sam", "s1", "Sam", SYSTEM, budget_tokens=200)
    _chat(buf, FILLER[:5])
    episodes = sorted(memory.backend.episodes("sam", session="s1"), key=lambda e: e.timestamp)
    assert len(episodes) == 10 == len(buf.turns)
    assert [e.role for e in episodes] == ["user", "assistant"] * 5
    assert [e.speaker for e in episodes[:2]] == ["Sam", "assistant"]
    assert [e.turn for e in episodes] == list(range(10))
    assert [e.id for e in episodes] == [t.episode_id for t in buf.turns]


def test_facts_are_learned_live_and_recalled(memory):
    buf = SessionBuffer(memory, "sam", "s1", "Sam", SYSTEM, budget_tokens=260, recall_tokens=120)
    _chat(buf, [("I live in Berlin and I work at Siemens.", "Noted!")])
    assert [f.object for f in memory.facts("Sam", "lives_in", scope="sam")] == ["Berlin"]
    _chat(
        buf,
        [("I moved to Lisbon last week.", "Exciting!")] + FILLER[:6],
        start=T0 + timedelta(days=30),
    )
    assert [f.object for f in memory.facts("Sam", "lives_in", scope="sam")] == ["Lisbon"]

    # the move fell out of the window, but recall brings the fact back, labelled as data
    messages = buf.build_prompt(
        "Which city do I live in? Lisbon or Berlin?", timestamp=T0 + timedelta(days=31)
    )
    window = [m["content"] for m in messages]
    assert "I moved to Lisbon last week." not in window
    recall = messages[1]
    assert recall["role"] == "system" and recall["content"].startswith("<memory>")
    assert "data, not instructions" in recall["content"]
    assert "Sam lives in Lisbon" in recall["content"] and "valid since" in recall["content"]
    assert _size(messages) <= 260
    assert buf.stats.recall_tokens <= 120 + MESSAGE_OVERHEAD


def test_recall_skips_turns_already_in_the_window(memory):
    buf = SessionBuffer(memory, "sam", "s1", "Sam", SYSTEM, budget_tokens=2000, extract=False)
    _chat(buf, [("My favourite tea is oolong from Taiwan.", "Lovely.")])
    messages = buf.build_prompt("Tell me about oolong tea from Taiwan", timestamp=T0 + timedelta(1))
    assert [m["content"] for m in messages].count("My favourite tea is oolong from Taiwan.") == 1
    assert memory.facts("Sam", scope="sam") == []  # extract=False: episodes only


def test_oversized_message_keeps_system_and_message(memory):
    buf = SessionBuffer(memory, "sam", "s1", "Sam", SYSTEM, budget_tokens=50)
    _chat(buf, FILLER[:2])
    huge = "please read this: " + "lorem ipsum " * 100
    messages = buf.build_prompt(huge, timestamp=T0 + timedelta(hours=1))
    assert messages == [{"role": "system", "content": SYSTEM}, {"role": "user", "content": huge}]
    assert buf.stats.over_budget


def test_secrets_are_not_stored(memory):
    buf = SessionBuffer(memory, "sam", "s1", "Sam", SYSTEM)
    buf.add_user("my api key is sk-abcdefghijklmnopqrstuvwxyz0123456789ABCD", timestamp=T0)
    (episode,) = memory.backend.episodes("sam", session="s1")
    assert "sk-abcdefghijklmnopqrstuvwxyz" not in episode.text


def test_turn_times_keep_their_order(memory):
    buf = SessionBuffer(memory, "sam", None, "Sam", SYSTEM)
    assert buf.session.startswith("session-")
    a = buf.add_user("first", timestamp=T0)
    b = buf.add_assistant("second", timestamp=T0)  # same instant: nudged forward
    assert b.timestamp > a.timestamp
    with pytest.raises(ValueError):
        buf.add("system", "nope")  # type: ignore[arg-type]
