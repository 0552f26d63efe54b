"""Shapes found on the thirteenth round's dev conversations (nadia, ferg): chat typed in
lower case with words after "my mom" that are no names, an emoji where a full stop would
be, titles before names ("dr okafor", "Dr. Okafor"), long formal turns that arrange a
change ("I'm leaving Balfour Kerr at the end of May", "my manager there will be a woman
called Ailsa"), and questions about events still to come ("what day do we move?",
"where shall I be living come June?")."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import UTC, datetime

import pytest
from turns import read_turns

from graphmem import Memory
from graphmem.extraction.lexicon import is_unnamed_relative
from graphmem.extraction.truecase import truecase
from graphmem.question import read_question
from graphmem.time.natural import find_time_expressions

ASKED = datetime(2026, 2, 5, 10, 0, tzinfo=UTC)


@contextmanager
def _asked(tmp_path, speaker: str) -> Iterator[tuple[Memory, Callable]]:
    """A fresh embedded memory, and ``ask`` for ``speaker`` at ``ASKED``."""
    with Memory.open(tmp_path / "m.db", embedder=None) as mem:
        yield mem, lambda q: mem.ask(q, speaker=speaker, scope="s", reference=ASKED)


def _facts(text: str, when: str = "2025-03-16T21:00:00Z") -> set[tuple]:
    [facts] = read_turns((when, text))
    return {f[:4] for f in facts}


# -- lower-case chat ------------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "my mom already has opinions about the flowers",
        "im ok. mostly. my mom showed up w like 4 kg of mjadara",
    ],
)
def test_a_word_after_a_relative_that_only_the_dictionary_knows_is_no_name(text):
    assert not any(f[2] == "parent" for f in _facts(text))


def test_a_relatives_name_that_is_also_a_word_is_still_a_name():
    assert ("assert", "Maya", "sibling", "Grace") in _facts("my sister grace moved to leeds")
    assert ("assert", "Maya", "owns_pet", "Biscuit") in _facts("our dog biscuit ate my sock lol")


def test_lower_case_letters_with_accents_are_one_word():
    assert "Mélanie's" in truecase("nothing like mélanie's slide decks lol")


def test_an_employer_runs_through_plain_words_to_the_word_of_organisations():
    assert "Rideau Dental Group" in truecase("started at rideau dental group sept 2 lol")
    # with no such word the name still ends where plain words start
    assert "Boots customer assistant" in truecase("got a job at boots customer assistant lol")


@pytest.mark.parametrize(
    ("text", "boss"),
    [("my boss is dr okafor, v calm", "Dr Okafor"), ("My boss is Dr. Okafor.", "Dr. Okafor")],
)
def test_a_title_before_a_name_is_part_of_it(text, boss):
    assert ("assert", "Maya", "manager", boss) in _facts(text)


def test_an_emoji_ends_a_sentence():
    # without the break, "mélanie told me" made the whole sentence hearsay
    facts = _facts(
        "GOT PROMOTED!!! lead hygienist as of march 1 🦷✨ mélanie told me w a colour coded "
        "slide deck i kid u not"
    )
    assert ("supersede", "Maya", "job_title", "lead hygienist") in facts


# -- work -----------------------------------------------------------------------------


def test_hired_me_as_gives_the_title_and_hiring_someone_else_does_not():
    facts = _facts("started at rideau dental group sept 2, they hired me as senior hygienist!!")
    assert ("supersede", "Maya", "works_at", "Rideau Dental Group") in facts
    assert ("supersede", "Maya", "job_title", "senior hygienist") in facts
    assert not any(f[2] == "job_title" for f in _facts("we hired a new nurse"))


def test_an_ending_arranged_for_later_is_dated_ahead():
    [facts] = read_turns(("2025-04-26T10:27:00Z", "I'm leaving Balfour Kerr at the end of May."))
    assert {(f[0], f[2], f[3], f[4][:7]) for f in facts} == {
        ("retract", "works_at", "Balfour Kerr", "2025-05")
    }
    # said in the past, the last March
    [facts] = read_turns(("2025-04-26T10:27:00Z", "I quit Acme in March."))
    assert {f[4][:7] for f in facts} == {"2025-03"}


def test_a_manager_there_is_the_manager():
    [facts] = read_turns((
        "2025-04-26T10:27:00Z",
        "From June my manager there will be a woman called Ailsa, whom I met at the interview.",
    ))  # fmt: skip
    assert {f[:5] for f in facts if f[2] == "manager"} == {
        ("supersede", "Maya", "manager", "Ailsa", "2025-06-01")
    }


# -- questions and answers ------------------------------------------------------------


def test_new_year_with_a_year_is_its_first_day():
    [found] = find_time_expressions("at new year 2025", ASKED)
    assert str(found.interval.start)[:10] == "2025-01-01"
    r = read_question(
        "At New Year 2025, the 1st of January, where did you have my sister Moira living?",
        owner="Fergus", reference=ASKED,
    )  # fmt: skip
    assert (r.mode, str(r.at)[:10]) == ("known_at", "2025-01-01")


def test_come_a_month_is_the_coming_one():
    r = read_question("Where shall I be living come June?", owner="Fergus", reference=ASKED)
    assert (r.mode, str(r.window.start)[:10]) == ("past", "2026-06-01")


def test_unnamed_relatives_are_no_names():
    assert is_unnamed_relative("Nadia's brother")
    assert not is_unnamed_relative("Georges") and not is_unnamed_relative("Nadia's")


def test_names_asked_for_leave_out_a_relative_known_only_by_relation(tmp_path):
    with _asked(tmp_path, "Nadia") as (mem, ask):
        for sibling in ("Georges", "Nadia's brother", "Rana"):
            mem.remember("Nadia", "sibling", sibling, valid_from="2024-03-09", scope="s")
        assert {v.value for v in ask("what r my siblings' names").values} == {"Georges", "Rana"}


def test_a_when_said_in_the_present_asks_for_a_change_still_to_come(tmp_path):
    with _asked(tmp_path, "Nadia") as (mem, ask):
        mem.remember("Nadia", "lives_in", "Laval", valid_from="2024-07-01", scope="s")
        mem.supersede("Nadia", "lives_in", "Ottawa", since="2025-08-15", scope="s")
        # the only move on record is gone: not the answer to "what day do we move"
        assert not ask("what day do we move").known
        assert ask("when did I move to Ottawa?").answer.startswith("2025-08-15")
        mem.supersede("Nadia", "lives_in", "Montreal", since="2026-03-01", scope="s")
        assert ask("what day do we move").answer.startswith("2026-03-01")


def test_friends_mentioned_by_name_ask_for_them_all():
    from graphmem.answer import _SINGULAR

    assert _SINGULAR.search("who are my friends, the ones I've mentioned by name?") is None
    assert _SINGULAR.search("what's my dog's name?") is not None


def test_a_pet_staying_behind_with_family_is_no_longer_mine():
    [had, gone] = read_turns(
        ("2023-03-11T21:25:00Z", "I live with our cat Paçoca, she's the real boss."),
        ("2023-07-15T20:50:00Z", "the hard part: Paçoca is going to stay with my mum in "
         "Curitiba, the vet said the flight would be too stressful at her age 😿"),
    )  # fmt: skip
    assert ("assert", "Maya", "owns_pet", "Paçoca") in {f[:4] for f in had}
    # what the vet said is hers, and its "would" does not make the rest a hypothetical
    assert ("retract", "Maya", "owns_pet", "Paçoca") in {f[:4] for f in gone}


def test_a_title_to_come_takes_the_start_day_said_after_it():
    [facts] = read_turns((
        "2024-11-30T20:15:00Z",
        "I accepted an offer from Bolha, a product studio in Porto!!! I'll be lead product "
        "designer 🎉 I start on 3 February",
    ))  # fmt: skip
    assert ("supersede", "Maya", "job_title", "lead product designer", "2025-02-03") in facts
    # two days ahead and no start said: no day to take
    [facts] = read_turns((
        "2024-11-30T20:15:00Z",
        "I'll be lead designer. I fly to Rome on 3 March and to Oslo on 5 April.",
    ))  # fmt: skip
    assert not any(f[2] == "job_title" for f in facts)


def test_a_past_month_with_two_values_on_record_is_not_answered_with_both(tmp_path):
    with _asked(tmp_path, "Caio") as (mem, ask):
        mem.remember("Caio", "manager", "Rui", valid_from="2024-07-15", scope="s")
        mem.supersede("Caio", "manager", "Rita", since="2024-08-26", scope="s")
        assert not ask("who was my manager in August 2024?").known
        assert ask("who was my manager in September 2024?").answer.startswith("Rita")
        mem.supersede("Caio", "manager", "Tiago", since="2024-12-20", scope="s")
        assert not ask("who was my manager in December 2024?").known
        # an edge of the window asks for the value there
        assert ask("who was my manager at the end of December 2024?").answer.startswith("Tiago")
        assert ask("who was my manager at the start of December 2024?").answer.startswith("Rita")
