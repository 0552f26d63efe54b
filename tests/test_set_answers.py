"""A set's members are named in passing, so one member on record is rarely all of them:
``ask`` lists it but does not call it the answer, unless the question asks for one."""

from __future__ import annotations

ONE_PET = ("2024-01-08T09:00:00Z", "We adopted a cat called Miso last week.")
ANOTHER_PET = ("2024-02-08T09:00:00Z", "We got a puppy called Rex yesterday.")


def test_one_member_on_record_is_not_given_as_the_whole_set(chat_memory):
    memory = chat_memory(ONE_PET)
    answer = memory.ask("What pets do I have now?", reference="2024-06-01")
    assert not answer.known
    assert "Miso" in answer.answer and "others" in answer.answer


def test_several_members_on_record_are_the_answer(chat_memory):
    memory = chat_memory(ONE_PET, ANOTHER_PET)
    answer = memory.ask("What pets do I have now?", reference="2024-06-01")
    assert answer.known and {v.value for v in answer.values} == {"Miso", "Rex"}


def test_a_question_for_one_member_gets_it(chat_memory):
    memory = chat_memory(ONE_PET)
    answer = memory.ask("What's my pet called?", reference="2024-06-01")
    assert answer.known and [v.value for v in answer.values] == ["Miso"]
