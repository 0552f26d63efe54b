"""``ask`` does not give a kept value as current when the subject later spoke of the same
thing in words the extractor did not keep: it says it does not know and quotes the turn.
Runs the real embedding model (the frame classifier reads the later turn)."""

from __future__ import annotations

import pytest

from graphmem.retrieval.embedder import default_embedder

EARLY = ("2024-01-08T09:00:00Z", "I work at Acme as an engineer.")
LATER = ("2024-05-02T09:00:00Z",
         "Handed in my notice at Acme today, first week at the Globex office went great though!")  # fmt: skip
SMALL_TALK = ("2024-05-02T09:00:00Z", "The weather in town was lovely today.")


@pytest.fixture(scope="module")
def embedder():
    return default_embedder()


def test_a_later_unread_turn_on_the_topic_makes_the_answer_unknown(chat_memory, embedder):
    memory = chat_memory(EARLY, LATER, embedder=embedder)
    assert [f.object for f in memory.facts("user", "works_at")] == ["Acme"]  # Globex unread

    answer = memory.ask("Where do I work now?", reference="2024-06-01")

    assert not answer.known
    assert "Acme" in answer.answer and "Handed in my notice" in answer.answer


def test_a_later_turn_on_another_topic_changes_nothing(chat_memory, embedder):
    memory = chat_memory(EARLY, SMALL_TALK, embedder=embedder)
    answer = memory.ask("Where do I work now?", reference="2024-06-01")
    assert answer.known and [v.value for v in answer.values] == ["Acme"]


def test_a_question_asked_before_the_later_turn_is_answered(chat_memory, embedder):
    memory = chat_memory(EARLY, LATER, embedder=embedder)
    answer = memory.ask("Where do I work now?", reference="2024-03-01")
    assert answer.known and [v.value for v in answer.values] == ["Acme"]


def test_without_an_embedding_model_there_is_no_check(chat_memory):
    memory = chat_memory(EARLY, LATER)
    assert memory.ask("Where do I work now?", reference="2024-06-01").known


READ_LATER = ("2024-09-02T09:00:00Z", "I work at Initech now.")


def test_an_unread_turn_in_a_timelines_window_makes_the_timeline_unknown(chat_memory, embedder):
    memory = chat_memory(EARLY, LATER, READ_LATER, embedder=embedder)
    assert [f.object for f in memory.facts("user", "works_at")] == ["Initech"]

    timeline = memory.ask("All the companies I've worked for, in order?", reference="2024-10-01")
    assert not timeline.known and "Handed in my notice" in timeline.answer

    # ... while the current value, written after that turn, stands.
    now = memory.ask("Where do I work now?", reference="2024-10-01")
    assert now.known and [v.value for v in now.values] == ["Initech"]


EARLY_HOBBY = ("2024-01-08T09:00:00Z", "My weekends are all about bouldering these days.")
LATER_HOBBY = ("2024-05-02T09:00:00Z", "I took up pottery last month.")


def test_a_set_is_unknown_when_an_earlier_unread_turn_named_another_member(chat_memory, embedder):
    # bouldering was said before pottery was written: a current set answer of
    # "pottery" alone would be incomplete, so it is not given as the answer
    memory = chat_memory(EARLY_HOBBY, LATER_HOBBY, embedder=embedder)
    assert [f.object for f in memory.facts("user", "hobby")] == ["pottery"]

    answer = memory.ask("What are my hobbies now?", reference="2024-06-01")

    assert not answer.known
    assert "pottery" in answer.answer and "bouldering" in answer.answer


def test_a_relatives_news_is_not_the_owners_unread_change(chat_memory, embedder):
    # "my" only says whose brother moved: the owner's home is not in doubt
    home = ("2024-01-08T09:00:00Z", "I live in Denver.")
    brother = ("2024-05-02T09:00:00Z", "My brother moved to Seattle two weeks ago, he loves it.")
    memory = chat_memory(home, brother, embedder=embedder)
    answer = memory.ask("Where do I live now?", reference="2024-06-01")
    assert answer.known and [v.value for v in answer.values] == ["Denver"]


def test_a_move_with_a_relative_said_without_i_is_still_the_owners(chat_memory, embedder):
    # "my" after the verb is not whose news it is: the owner moved (and it was not read)
    home = ("2024-01-08T09:00:00Z", "I live in Denver.")
    moved = ("2024-05-02T09:00:00Z", "Moved in with my boyfriend across town last month.")
    memory = chat_memory(home, moved, embedder=embedder)
    assert [f.object for f in memory.facts("user", "lives_in")] == ["Denver"]
    assert not memory.ask("Where do I live now?", reference="2024-06-01").known


def test_a_home_news_with_the_i_left_out_is_still_the_owners(chat_memory, embedder):
    # terse chat drops "I": a clause sure to be about a home, unread, puts the home in doubt
    home = ("2024-01-08T09:00:00Z", "I live in Denver.")
    moved = ("2024-05-02T09:00:00Z",
             "Moved out on the 2nd. Renting a room from an old colleague in Hillevåg, so back "
             "in Stavanger. Temporary.")  # fmt: skip
    memory = chat_memory(home, moved, embedder=embedder)
    assert [f.object for f in memory.facts("user", "lives_in")] == ["Denver"]
    assert not memory.ask("Where do I live now?", reference="2024-06-01").known


def test_a_past_value_later_closed_by_a_change_is_still_checked_in_its_window(
    chat_memory, embedder
):
    # the promotion in 2025 rewrites the 'pharmacist' row (closing it), but the title was
    # said in March 2024 and an unread turn in the autumn may have changed it
    said = ("2024-03-14T09:00:00Z", "I'm a pharmacist.")
    unread = ("2024-10-16T09:00:00Z", TITLE_UNREAD)
    promoted = ("2025-11-13T09:00:00Z", "I got promoted! I'm clinical pharmacy supervisor now.")
    memory = chat_memory(said, unread, promoted, embedder=embedder)
    assert [f.object for f in memory.facts("user", "job_title")] == ["clinical pharmacy supervisor"]
    answer = memory.ask("What was my job title at the end of 2024?", reference="2026-01-10")
    assert not answer.known and "pharmacist" in answer.answer


TITLE_UNREAD = "New role this week: I'm the clinic's lead pharmacist now, more meetings."


def test_a_later_turn_about_someone_else_by_he_or_she_makes_their_answer_unknown(
    chat_memory, embedder
):
    # "he" after the clause that named Nikau is Nikau: his new job, unread, makes the
    # kept employer stale
    memory = chat_memory(
        ("2024-03-01T09:00:00Z", "My cousin Nikau works at BHP in Perth."),
        ("2025-06-01T09:00:00Z", "Nikau came round! he started working at the hospital"),
        embedder=embedder,
    )  # fmt: skip
    assert [f.object for f in memory.facts("Nikau", "works_at")] == ["BHP"]
    answer = memory.ask("who does Nikau work for now?", reference="2025-07-01")
    assert not answer.known and "Nikau came round" in answer.answer


def test_an_unread_turn_before_the_date_asked_makes_what_was_on_record_unknown(
    chat_memory, embedder
):
    memory = chat_memory(EARLY, LATER, embedder=embedder)
    then = memory.ask("On 1 June 2024, where did you have me working?", reference="2024-07-01")
    assert not then.known and "Handed in my notice" in then.answer
    # asked about a date before that turn, what was on record stands
    before = memory.ask("On 1 March 2024, where did you have me working?", reference="2024-07-01")
    assert before.known and [v.value for v in before.values] == ["Acme"]


@pytest.mark.parametrize(
    ("first", "later", "question", "kept"),
    [
        # "never" says what never held
        ("I live in San Antonio.",
         "Marisa keeps asking would I ever want to live in Austin. No ma'am, I have never "
         "lived in Austin and I'm not starting now.", "Where do I live now?", "San Antonio"),
        # a later clause that names the value on record with no word of a change restates it
        ("I'm pescatarian, I eat fish but no meat.",
         "Cookout next month, I'm still pescatarian so I'll grill shrimp for me and burgers "
         "for them.", "What's my diet right now?", "pescatarian"),
        ("I'm pescatarian, I eat fish but no meat.",
         "Pescatarian life is treating me well, the fishmonger knows my name now lol",
         "What's my diet right now?", "pescatarian"),
        # ... and the rest of that turn is about the same value
        ("My boyfriend is Khoa.", "Happy new year. Khoa proposed on Christmas! We're engaged.",
         "Who is my partner right now?", "Khoa"),
    ],
)  # fmt: skip
def test_a_later_turn_that_changes_nothing_leaves_the_kept_value_answered(
    chat_memory, embedder, first, later, question, kept
):
    memory = chat_memory(
        ("2024-01-08T09:00:00Z", first), ("2024-04-20T09:00:00Z", later), embedder=embedder
    )
    answer = memory.ask(question, reference="2024-07-01")
    assert answer.known and [v.value for v in answer.values] == [kept]


@pytest.mark.parametrize(
    "clause",
    [
        "Done with pescatarian life, the fish thing got old",
        "no longer pescatarian",
        "moved from Leeds to York",
        "Handed in my notice at Acme today",
        "Moko has a new friend, we adopted Pickle",  # a set grows beside a member on record
    ],
)
def test_a_clause_that_names_the_value_on_record_with_a_change_is_no_restatement(clause):
    from graphmem.staleness import _folded, _restates

    assert not _restates(clause, {_folded(v) for v in ("pescatarian", "Leeds", "Acme", "Moko")})
    assert _restates("still pescatarian, so shrimp for me", {_folded("pescatarian")})
    assert _restates("moved to gdansk", {_folded("Gdańsk")}) is False  # a move is a change
