"""What a correction corrects, and other readings that must not guess.

A correction that names the wrong value ("..., not Initech") fixes the fact whose
recorded value that is, whatever was said last; one whose wrong value is on record for
nothing, while the last fact has another value, corrects nothing (a guess would put the
right value on the wrong fact). A "he" or "she" is only someone named in this turn or the
one before it, or someone the turn announces it is about ("Rafa news!! she ...").
"""

from __future__ import annotations

from graphmem.extraction.rules import RuleExtractor
from graphmem.model import Episode


def _read(*turns: str, session: str = "a") -> list[set[tuple]]:
    """The facts of each turn, read in order by one extractor (it remembers between them)."""
    extractor, out = RuleExtractor(), []
    for i, text in enumerate(turns):
        episode = Episode(scope="s", session=session, turn=i, speaker="Maya", role="user",
                          text=text, timestamp="2025-03-12T10:00:00Z")  # fmt: skip
        out.append(
            {
                (f.op, f.subject, f.predicate, f.object, f.wrong_object)
                for f in extractor.extract(episode)
            }  # fmt: skip
        )
    return out


def test_a_correction_fixes_the_fact_whose_value_it_calls_wrong():
    *_, fix = _read("My phone is a Pixel 7.", "I live in Leeds.",
                    "Correction: it's a Pixel 7a, not the Pixel 7.")  # fmt: skip
    assert fix == {("correct", "Maya", "phone", "Pixel 7a", "Pixel 7")}


def test_a_correction_may_name_what_it_fixes_after_a_preface():
    *_, fix = _read("I work at Umbrella Corp.", "I live in Leeds.",
                    "Quick fix to something I told you: the company is Globex, not Umbrella Corp.")  # fmt: skip
    assert fix == {("correct", "Maya", "works_at", "Globex", "Umbrella Corp")}


def test_a_short_correction_completes_the_recorded_value():
    *_, fix = _read("I've got a Galaxy S21 now.", "Sorry, the S22, not the S21.")
    assert fix == {("correct", "Maya", "phone", "Galaxy S22", "Galaxy S21")}


def test_a_correction_of_something_never_read_corrects_nothing():
    # the wrong name was never on record; the last fact (a home) has another value
    *_, fix = _read("I live in Bristol.", "It's Geraint, not Gareth.")
    assert fix == set()
    # nor is a hobby, a set, given a member that was never named
    *_, fix = _read("I've taken up pottery.", "It's Geraint, not Gareth.")
    assert fix == set()


def test_not_followed_by_no_value_of_the_predicate_is_no_correction():
    *_, now = _read("I'm vegetarian.", "I'm vegan now, properly, not just for January.")
    assert now == {("supersede", "Maya", "diet", "vegan", None)}


def test_a_correction_names_a_set_member_on_record():
    *_, fix = _read("I've taken up golf.", "I live in Leeds.", "Sorry, padel, not golf.")
    assert fix == {("correct", "Maya", "hobby", "padel", "golf")}


def test_a_pronoun_reaches_back_one_turn_at_most():
    facts = _read("My friend Tom came round.", "He's a paramedic.")
    assert ("assert", "Tom", "job_title", "paramedic", None) in facts[1]
    facts = _read("My friend Tom came round.", "Lovely weather.", "Busy week.",
                  "He's a paramedic.")  # fmt: skip
    assert not any(f[2] == "job_title" for f in facts[3])


def test_a_person_described_then_named_is_the_relation():
    (facts,) = _read("Our new manager is a fellow named Gord.")
    assert ("supersede", "Maya", "manager", "Gord", None) in facts
    (facts,) = _read("My line manager is Declan, the headteacher.")
    assert ("assert", "Maya", "manager", "Declan", None) in facts


def test_a_favourite_graded_by_an_adverb():
    (facts,) = _read("Kotlin is hands down my favourite programming language.")
    assert facts == {("assert", "Maya", "favourite_language", "Kotlin", None)}
    (facts,) = _read("Oolong is easily my favourite drink.")
    assert facts == {("assert", "Maya", "favourite_drink", "Oolong", None)}


def test_recalling_the_slip_states_nothing_and_what_follows_corrects_it():
    *_, fix = _read("My sister Bruna lives in Faro.",
                    "Correction! I told you Bruna lives in Faro but that's wrong, she's in Porto.")  # fmt: skip
    assert fix == {("correct", "Bruna", "lives_in", "Porto", "Faro")}
    # without a word of correction, "I told you I moved" is the speaker's own statement
    (facts,) = _read("I told you I moved to Leeds.")
    assert ("supersede", "Maya", "lives_in", "Leeds", None) in facts


def test_the_recalled_slip_names_what_a_bare_correction_fixes():
    # the fact recalled after "I told you" is the one corrected, not the speaker's last
    *_, fix = _read("My partner is Maren.",
                    "sorry, I told you Nour moved to Evanston, it's actually Skokie.")  # fmt: skip
    assert fix == {("correct", "Nour", "lives_in", "Skokie", "Evanston")}
    (fix,) = _read("sorry, I told you the title was staff engineer. it's senior engineer.")
    assert fix == {("correct", "Maya", "job_title", "senior engineer", "staff engineer")}
    # a recalled slip no rule can read: no guess at which fact it was
    *_, fix = _read("My partner is Maren.",
                    "Correction: I told you the Kalina thing moved. Wrong. It's the 13th.")  # fmt: skip
    assert fix == set()


def test_a_relation_word_is_no_corrected_value():
    *_, fix = _read("My sister Nour works at Mayo.",
                    "my roommate... sorry, my girlfriend, I keep calling Maren my roommate")  # fmt: skip
    assert not any(op == "correct" for op, *_ in fix)


def test_what_a_correction_is_about_is_no_value():
    *_, fix = _read("I live in Kraków.", "Correction about my sister: she is fine.")
    assert not any(op == "correct" for op, *_ in fix)
    # "not" inside an aside corrects nothing
    (facts,) = _read("I live in Columbus (Ohio, not the guy), I work at Lumen Freight")
    assert ("assert", "Maya", "lives_in", "Columbus", None) in facts


def test_a_contracted_be_in_a_place_is_a_home():
    *_, facts = _read("My friend Ana lives in Faro.", "She's in Porto now.")
    assert ("supersede", "Ana", "lives_in", "Porto", None) in facts
    (facts,) = _read("I'm in Lisbon for the conference.")
    assert facts == set()


def test_it_is_my_favourite_names_the_language_said_before_it():
    *_, facts = _read("Python is my favourite language.",
                      "R has stolen my heart. It's my favourite language now, sorry Python.")  # fmt: skip
    assert facts == {("supersede", "Maya", "favourite_language", "R", None)}


def test_an_undated_future_belongs_to_the_change_dated_next_to_it():
    extractor = RuleExtractor()
    turns = ["I start at Northwind on the 6th of April.", "I'll be reporting to Raj."]
    facts = [
        extractor.extract(
            Episode(
                scope="s",
                session="a",
                turn=i,
                speaker="Maya",
                role="user",
                text=t,
                timestamp="2025-03-12T10:00:00Z",
            )
        )  # fmt: skip
        for i, t in enumerate(turns)
    ]
    (raj,) = [f for f in facts[1] if f.predicate == "manager"]
    assert (raj.object, raj.valid_from.date().isoformat()) == ("Raj", "2025-04-06")
    # alone, an undated future is no fact yet
    assert _read("I'll be reporting to Raj.") == [set()]


def test_an_apology_without_a_value_corrects_nothing():
    *_, later = _read("My manager is Marta.", "Broke my diet, sorry 🙏😂")
    assert not any(f[0] == "correct" for f in later)


def test_a_pronoun_is_not_a_person_from_an_earlier_turn_when_this_one_names_someone_new():
    *_, facts = _read("My new manager is Duarte.",
                      "Tomás and I are dating! he's an architect at Atelier Sal.")  # fmt: skip
    assert not any(f[1] == "Duarte" for f in facts)


def test_an_organisation_or_place_described_then_named():
    (facts,) = _read("Owen got a job at a firm called Ferrous Labs.")
    assert ("supersede", "Owen", "works_at", "Ferrous Labs", None) in facts
    (facts,) = _read("We moved to a little town called Haxby.")
    assert ("supersede", "Maya", "lives_in", "Haxby", None) in facts


def test_a_parent_called_by_the_role_is_the_speakers():
    (facts,) = _read("Dad lives in Leeds.")
    assert ("assert", "Maya's father", "lives_in", "Leeds", None) in facts


def test_pastimes_named_by_a_noun_and_the_words_around_them():
    (facts,) = _read("I've started pottery.")
    assert facts == {("assert", "Maya", "hobby", "pottery", None)}
    (facts,) = _read("I've taken up birdwatching properly.")
    assert facts == {("assert", "Maya", "hobby", "birdwatching", None)}
    (facts,) = _read("I officially gave up on pottery.")
    assert facts == {("retract", "Maya", "hobby", "pottery", None)}
    (facts,) = _read("I've stopped the sourdough baking.")
    assert facts == {("retract", "Maya", "hobby", "sourdough baking", None)}


def test_off_the_project_is_the_project_the_turn_named():
    *_, facts = _read("I'm working on Kestrel.", "Kestrel shipped! I'm off the project now.")
    assert facts == {("retract", "Maya", "works_on", "Kestrel", None)}
    *_, facts = _read("I'm working on Kestrel.", "I'm off the project now.")
    assert facts == set()  # which project is not said: nothing


def test_hens_are_pets_and_now_is_a_favourites_verb():
    (facts,) = _read("We've got two hens called Edith and Piaf.")
    assert {f[3] for f in facts if f[2] == "owns_pet"} == {"Edith", "Piaf"}
    (facts,) = _read("my favourite drink now is vinho verde")
    assert facts == {("supersede", "Maya", "favourite_drink", "Vinho Verde", None)}


def test_a_pet_named_after_it_is_introduced():
    (facts,) = _read("We adopted a dog! her name is Pippa, a scruffy little thing.")
    assert ("assert", "Maya", "owns_pet", "Pippa", None) in facts
    assert not any(f[3] == "dog" for f in facts)


def test_a_shorthand_wrong_value_names_the_value_on_record():
    *_, fix = _read(
        "I got a Pixel 7.", "Correction on the phone: it's actually a Pixel 7a, not the 7."
    )
    assert fix == {("correct", "Maya", "phone", "Pixel 7a", "Pixel 7")}


def test_a_date_correction_names_the_recorded_deadline_by_its_day():
    *_, fix = _read("I'm working on Nimbus now.", "The Nimbus deadline is now June 2nd.",
                    "I misread the memo. It's actually June 9th, not the 2nd.")  # fmt: skip
    assert fix == {("correct", "Nimbus", "deadline", "2025-06-09", "2025-06-02")}


def test_a_deadline_without_a_project_name_is_the_project_on_record_named_in_the_turn():
    *_, moved = _read("I'm working on Nimbus now.",
                      "Nimbus got pushed back. The go-live deadline is now June 2nd.")  # fmt: skip
    assert moved == {("supersede", "Nimbus", "deadline", "2025-06-02", None)}


def test_a_turn_that_announces_whom_it_is_about_gives_the_pronoun_its_person():
    (news,) = _read("Rafa news!! she left Tangerina and got a job at Loomi.")
    assert news == {("retract", "Rafa", "works_at", "Tangerina", None),
                    ("supersede", "Rafa", "works_at", "Loomi", None)}  # fmt: skip
