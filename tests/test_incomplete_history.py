"""``ask`` does not give a history as whole when its first value was told as a change
("moved to York"): a value came before it that the store was never told, so "every
place I've lived" would be missing its start. A first value told as a plain state
("I live in Leeds") starts the history."""

from __future__ import annotations

HISTORY = "Every place I've lived, in order?"


def test_a_history_that_starts_with_a_change_is_not_given_as_whole(chat_memory):
    memory = chat_memory(("2024-03-01T09:00:00Z", "We finally moved to York last week."),
                       ("2024-09-01T09:00:00Z", "I live in Leeds now."))  # fmt: skip
    assert [f.object for f in memory.facts("user", "lives_in", during=(None, None))] == [
        "York", "Leeds"]  # fmt: skip

    answer = memory.ask(HISTORY, reference="2024-10-01")

    assert not answer.known
    assert "York" in answer.answer and "earlier value" in answer.answer
    # the current value is not a history: it stands
    assert memory.ask("Where do I live?", reference="2024-10-01").known


def test_a_history_that_starts_with_a_state_is_answered(chat_memory):
    memory = chat_memory(("2024-03-01T09:00:00Z", "I live in York."),
                       ("2024-09-01T09:00:00Z", "We moved to Leeds last week."))  # fmt: skip
    answer = memory.ask(HISTORY, reference="2024-10-01")
    assert answer.known and [v.value for v in answer.values] == ["York", "Leeds"]


def test_a_window_that_starts_inside_the_first_value_does_not_ask_for_what_came_before(chat_memory):
    memory = chat_memory(("2024-03-01T09:00:00Z", "We finally moved to York last week."),
                       ("2024-09-01T09:00:00Z", "We moved to Leeds last week."))  # fmt: skip
    answer = memory.ask("Where have I lived since June 2024, in order?", reference="2024-10-01")
    assert answer.known and [v.value for v in answer.values] == ["York", "Leeds"]


def test_a_deadline_that_was_pushed_has_an_earlier_date(chat_memory):
    memory = chat_memory(("2024-03-01T09:00:00Z", "Nimbus got pushed to 14 June."))
    answer = memory.ask("How has the Nimbus deadline changed over time?", reference="2024-04-01")
    assert not answer.known and "2024-06-14" in answer.answer
