"""``ask`` and ``search`` read a question's time window by one rule
(``graphmem.time.window``): the first time phrase that does not name the present; a
clock time is a minute wide.

Every question is asked on **Monday 2024-06-10 12:00 UTC**.
"""

from __future__ import annotations

import pytest

from graphmem.memory import Memory
from graphmem.question import read_question
from graphmem.time.instant import to_instant
from graphmem.time.window import window_of

REF = to_instant("2024-06-10T12:00:00Z")


def _day(t) -> str:
    return t.isoformat()[:16].replace("T00:00", "")


@pytest.mark.parametrize(
    ("question", "window", "phrase"),
    [
        ("where did Alice live in March 2024?", ("2024-03-01", "2024-04-01"), "in March 2024"),
        ("where has Alice lived since 2023?", ("2023-01-01", "9999-12-31T23:59"), "since 2023"),
        ("where did Alice live last week?", ("2024-06-03", "2024-06-10"), "last week"),
        ("where did Alice work at 3pm yesterday?",
         ("2024-06-09T15:00", "2024-06-09T15:01"), "at 3pm yesterday"),
        ("where does Alice live now?", None, None),
        ("where does Alice live these days?", None, None),
        ("where does Alice live today?", None, None),
        ("where does Alice live as we speak?", None, None),
        ("where does Alice live?", None, None),
    ],
)  # fmt: skip
def test_the_window_of_a_question(question, window, phrase):
    found = window_of(question, REF)
    if window is None:
        assert found is None
        return
    assert (_day(found.interval.start), _day(found.interval.end)) == window
    assert found.text == phrase


@pytest.fixture(scope="module")
def mem():
    memory = Memory.open(":memory:", embedder=None)
    memory.remember("Alice", "lives_in", "Paris", valid_from="2019-01-01", scope="a")
    memory.supersede("Alice", "lives_in", "Berlin", since="2024-03-15", scope="a")
    return memory


QUESTIONS = [
    "where did Alice live in March 2024?",
    "where did Alice live at 3pm yesterday?",
    "where did Alice live last week?",
    "where does Alice live now?",
    "where does Alice live today?",
    "where does Alice live?",
]


@pytest.mark.parametrize("question", QUESTIONS)
def test_ask_and_search_read_the_same_window(mem, question):
    expected = window_of(question, REF)
    reading = read_question(question, owner="user", reference=REF)
    found = mem.search(question, reference=REF, scope="a")
    if expected is None:
        assert found.window is None and found.window_text is None
        assert reading.mode == "current" and reading.window is None
        return
    assert found.window == (expected.interval.start, expected.interval.end)
    assert found.window_text == expected.text
    assert reading.window == expected.interval and reading.time_text == expected.text


def test_a_clock_time_narrows_search_to_its_minute(mem):
    """Search used to drop clock times; it reads them as ask does: that minute."""
    found = mem.search("where did Alice live at 3pm on 1 March 2024?", reference=REF, scope="a")
    assert found.window == (to_instant("2024-03-01T15:00:00Z"), to_instant("2024-03-01T15:01:00Z"))
    assert [h.fact.object for h in found.hits if h.fact is not None] == ["Paris"]
