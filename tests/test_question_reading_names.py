"""Reading whose fact a question asks about when the name is several words, a common
word, or behind a time phrase; and not answering one pet's name with every pet."""

from __future__ import annotations

from datetime import UTC, datetime

from graphmem.model import TimelineEntry
from graphmem.question import read_question
from graphmem.time.instant import NEG_INF, POS_INF

ASKED = datetime(2026, 3, 10, 15, 0, tzinfo=UTC)


def _read(question: str, known: tuple[str, ...] = ()):
    return read_question(question, owner="Maya", reference=ASKED,
                         known_names=lambda ns: {n: n for n in ns if n in known})  # fmt: skip


def test_a_project_of_several_words_is_one_name():
    r = _read("What was the Blue Finch manuscript deadline as of August 2025?", ("Blue Finch",))
    assert (r.subject, r.predicate, r.unknown_name) == ("Blue Finch", "deadline", None)


def test_a_project_named_by_a_common_word_the_store_knows():
    r = _read("As of February 2026, what did you have down as the Beacon deadline?", ("Beacon",))
    assert (r.subject, r.predicate, r.mode) == ("Beacon", "deadline", "known_at")


def test_a_time_phrase_opening_the_question_is_no_name():
    r = _read("As of January 2026, where did I live?")
    assert (r.subject, r.predicate, r.unknown_name) == ("Maya", "lives_in", None)


def test_one_pet_asked_for_by_its_species_is_not_answered_with_every_pet():
    assert _read("What's my hamster called?").predicate is None
    assert _read("What did we end up naming the goat?").predicate is None
    # asking about the pets, or whether one is still there, is answerable
    assert _read("Which pets do I have?").predicate == "owns_pet"
    assert _read("did i still have the goldfish last week?").predicate == "owns_pet"


def test_a_name_the_question_depends_on_that_the_store_never_heard_of_is_unknown():
    # answering "my job title at Google?" with the current title answers another question
    assert _read("what's my job title at Google?").unknown_name == "Google"
    assert _read("What part of Australia did Leila move to?", ("Leila",)).unknown_name == (
        "Australia"
    )
    # a name the store knows, as an entity or as a value on record, is no obstacle
    assert _read("when did Bruna move to Lisbon?", ("Bruna", "Lisbon")).unknown_name is None
    phones = [TimelineEntry(subject="Maya", predicate="phone", object="Pixel 8",
                            valid_from=NEG_INF, valid_to=POS_INF, fact_ids=("f",))]  # fmt: skip
    r = read_question("did I still have the Pixel 8 in May?", owner="Maya", reference=ASKED,
                      known_names=lambda ns: {}, facts_of=lambda s, p: phones)  # fmt: skip
    assert (r.predicate, r.unknown_name) == ("phone", None)
