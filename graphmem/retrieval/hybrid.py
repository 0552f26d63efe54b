"""Hybrid retrieval: vector + keyword + graph candidates, time-sliced first, then fused.

1. The question's own time phrases ("in March 2024", "last week") become a window,
   resolved against the question's date (``reference``; default now).
2. Scope and time mode filter candidates *inside* each source: the backend's vector
   and keyword searches see only allowed entries; graph expansion walks only facts
   visible in the mode. In current and ``as_of`` modes a functional key contributes
   only its value at that time; ``history=True`` widens to every row ever recorded,
   and marks superseded, corrected and retracted ones.
3. Each source's ranking is fused (``graphmem.retrieval.fusion``: a convex combination
   of each source's scores over its best, ``"score"``, or reciprocal rank fusion,
   ``"rrf"``; the default ``"auto"`` takes score fusion when the turns found are said by
   named people and RRF when by roles such as "user"), then re-scored with recency, importance and
   the question's window. Every hit carries its score components (``Hit.components``;
   the score is the sum of the non-rank ones). Episodes are indexed with whose words
   they are (``graphmem.store.index_text``); each hit names its turn
   (``Hit.turn``: a fact's is the turn that established it) and the best episode hits
   their passage (``Hit.passage``, ``graphmem.retrieval.passages``). A long turn is
   also embedded as its passages (``graphmem.store.passage_index``): among the
   ``passage_pool`` best vector candidates and the keyword ones, a turn's vector score is
   the best cosine of itself and its passages, and it reports that passage.
4. Newer first: among the best episode hits, one that says nearly the same thing as a
   newer one (their own embeddings at cosine >= 0.7) and outscores it only narrowly
   (by <= 0.25) is placed just below it, so an update outranks the stale statement, as a
   supersession shadows a fact. Only near-ties move.
5. ``SearchResult.sessions()`` ranks conversation sessions: best hit + 0.5 x second
   best (facts count for the session of their provenance).

Default weights (``Weights``):

- sources: vector 2.0, keyword (BM25) 1.0, graph 0.5, fused score in [0, 1] (1: best
  in every source; under ``"rrf"``, k=60, rank 1 in every source); ``candidates`` 50
  per source (at least ``k``) before fusion. Chosen on the dev turns
  (``bench/turn_retrieval.py``): score fusion with vector 2.0 was the one variant not
  below its best single source there; RRF fell below both sources. On LongMemEval
  (58 dev questions) it lifts recall_all@10 0.980 -> 1.000 but loses recall_any@5 on
  one multi-session question (1.000 -> 0.980) and knowledge-update newest-first
  (9/9 -> 6/9). So ``"auto"`` ranks turns said by roles (LongMemEval's "user" and
  "assistant") as before issue 12: ``fusion="rrf", vector=1.0, newer_first=0.5,
  newer_first_margin=0.1`` (any@5 1.000, all@10 0.980, newest first 9/9 there);
- recency +0.1 x 0.5^(age / 180 days), age before the reference time (facts: from
  ``valid_from``; episodes: when said);
- importance +0.05 x fact confidence (episodes count 0.5);
- window: an episode said inside the question's window +0.3, said after it (up to the
  reference time, so possibly about it) +0.15 (``window_after`` 0.5), before it 0;
- newer first: ``newer_first`` 0.7 (cosine), ``newer_first_margin`` 0.25 (score fusion
  spreads scores wider than RRF did, where it was 0.5 and 0.1; turns indexed with
  their speaker's name are more alike, so "one topic" needs a higher cosine),
  ``newer_first_pool`` 100 (episode hits compared); ``newer_first > 1`` turns it off.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field, replace
from datetime import datetime
from typing import Literal

import numpy as np
from pydantic import BaseModel, ConfigDict

from graphmem.history import status_of
from graphmem.model import Episode, Fact, FactStatus
from graphmem.retrieval.embedder import Embedder
from graphmem.retrieval.fusion import fuse
from graphmem.retrieval.passages import best_of_passages, best_passages
from graphmem.store.index_text import speaker_name
from graphmem.store.protocol import Backend, RowQuery
from graphmem.store.words import tokenize
from graphmem.time.bounds import ALWAYS, TemporalBounds
from graphmem.time.instant import POS_INF, is_open_end, is_open_start
from graphmem.time.interval import Interval
from graphmem.time.window import window_of


@dataclass(frozen=True)
class Weights:
    """How sources and signals combine; change with ``Memory.search(weights=...)``."""

    vector: float = 2.0  # cosines crowd near the best: see fusion.py
    keyword: float = 1.0
    graph: float = 0.5
    rrf_k: int = 60
    recency: float = 0.1
    recency_half_life_days: float = 180.0
    importance: float = 0.05
    window: float = 0.3
    window_after: float = 0.5  # share of ``window`` for episodes said after the window
    candidates: int = 50  # per source, before fusion
    newer_first: float = 0.7  # cosine at which two episodes are on one topic; >1: off
    newer_first_margin: float = 0.25  # how far a newer one may trail and still go first
    newer_first_pool: int = 100  # how many of the best episode hits are compared
    fusion: str = "auto"  # how sources combine: ``fusion.FUSIONS``, or "auto" (below)
    passages: int = 5  # the best episode hits that report their passage (0: none)
    # The best vector and keyword candidates whose passages are scored (a turn scores
    # its best passage's cosine, ``graphmem.retrieval.passages``); 0: turns alone.
    passage_pool: int = 50


class Hit(BaseModel):
    """One ranked result: a fact or an episode, with why it ranked where it did."""

    model_config = ConfigDict(frozen=True)

    kind: Literal["fact", "episode"]
    id: str
    score: float
    components: dict[str, float]
    fact: Fact | None = None
    episode: Episode | None = None
    status: FactStatus | None = None
    # The turn the hit comes from: the episode itself, or the turn that established the
    # fact (its provenance), so a user sees the sentence behind a fact.
    turn: Episode | None = None
    # The sentence of that turn closest to the question (best ``Weights.passages`` hits).
    passage: str | None = None

    @property
    def text(self) -> str:
        return self.fact.text if self.fact is not None else self.episode.text  # type: ignore[union-attr]

    @property
    def session(self) -> str | None:
        if self.episode is not None:
            return self.episode.session
        return self.fact.provenance.session if self.fact is not None else None


class SearchResult(BaseModel):
    model_config = ConfigDict(frozen=True)

    query: str
    hits: list[Hit]
    window: tuple[datetime, datetime] | None = None
    window_text: str | None = None
    mode: str = "current"

    @property
    def facts(self) -> list[Hit]:
        return [h for h in self.hits if h.kind == "fact"]

    @property
    def episodes(self) -> list[Hit]:
        return [h for h in self.hits if h.kind == "episode"]

    def sessions(self, support: float = 0.5) -> list[tuple[str, float]]:
        """Conversation sessions ranked best first: a session scores its best hit plus
        ``support`` x its second best (a session where two turns match is more likely
        the one about the question; ``support=0``: best hit only). Facts count for the
        session of their provenance; hits without a session are left out."""
        best: dict[str, list[float]] = {}
        for hit in sorted(self.hits, key=lambda h: -h.score):
            session = hit.session
            if session is not None:
                top = best.setdefault(session, [])
                if len(top) < 2:
                    top.append(hit.score)
        ranked = [(s, top[0] + support * (top[1] if len(top) > 1 else 0.0))
                  for s, top in best.items()]  # fmt: skip
        return sorted(ranked, key=lambda item: -item[1])


@dataclass
class _Candidate:
    kind: str
    id: str
    ranks: dict[str, int] = field(default_factory=dict)
    similarity: float | None = None


def question_window(
    query: str, reference: datetime, tz=None
) -> tuple[tuple[datetime, datetime] | None, str | None]:
    """The time window a question names, if any: ``graphmem.time.window``'s reading,
    the one ``ask`` reads questions by."""
    found = window_of(query, reference, tz=tz)
    if found is None:
        return None, None
    return (found.interval.start, found.interval.end), found.text


class Retriever:
    def __init__(self, backend: Backend, embedder: Embedder | None, weights: Weights | None = None):
        self.backend = backend
        self.embedder = embedder
        self.weights = weights or Weights()

    def search(
        self,
        query: str,
        *,
        scope: str,
        k: int = 10,
        as_of: datetime | None = None,
        known_at: datetime = POS_INF,
        reference: datetime,
        history: bool = False,
        targets: tuple[str, ...] = ("facts", "episodes"),
        weights: Weights | None = None,
        tz=None,
    ) -> SearchResult:
        w = weights or self.weights
        window, window_text = question_window(query, reference, tz)
        span = Interval(*window) if window is not None else None
        if history:
            bounds = TemporalBounds.history(span or ALWAYS)
        elif as_of is not None:
            bounds = TemporalBounds.as_of(as_of, known_at=known_at)
        elif span is not None:
            bounds = TemporalBounds.during(span, known_at=known_at)
        else:
            bounds = TemporalBounds.as_of(reference, known_at=known_at)
        plain = as_of is None and span is None and not history and is_open_end(known_at)
        mode = "current" if plain else bounds.describe()
        if window_text and not plain:
            mode += f" (from {window_text!r})"
        fact_filter = RowQuery(scope=scope, bounds=bounds)
        episode_filter = RowQuery(scope=scope, bounds=TemporalBounds.known_at(known_at))

        vector = self.embedder.embed([query])[0] if self.embedder is not None else None
        candidates: dict[tuple[str, str], _Candidate] = {}
        lists: dict[str, dict[str, list[tuple[str, float]]]] = {"fact": {}, "episode": {}}

        def collect(kind: str, source: str, ranked: list[tuple[str, float]]) -> None:
            lists[kind][source] = ranked
            for rank, (ident, score) in enumerate(ranked):
                cand = candidates.setdefault((kind, ident), _Candidate(kind, ident))
                cand.ranks[source] = rank
                if source == "vector":
                    cand.similarity = score

        n = max(w.candidates, k)
        if "facts" in targets:
            found = self.backend.search("facts", fact_filter, vector=vector, text=query, k=n)
            collect("fact", "vector", found["vector"])
            collect("fact", "keyword", found["keyword"])
            collect("fact", "graph", self._graph(query, fact_filter, n))
        passages: dict[str, tuple[str, float]] = {}
        if "episodes" in targets:
            found = self.backend.search("episodes", episode_filter, vector=vector, text=query, k=n)
            by_vector = found["vector"]
            if vector is not None and w.passage_pool > 0:
                # A turn scores the best cosine of itself and its passages, among what
                # either source found (a long turn's one sentence is diluted in its own).
                by_vector, passages = best_of_passages(
                    self.backend, scope, vector, by_vector, found["keyword"], w.passage_pool
                )
            collect("episode", "vector", by_vector[:n])
            collect("episode", "keyword", found["keyword"])

        w = self._profile(w, scope, lists.get("episode", {}))
        fused = {kind: fuse(by_source, self._source_weights(w), w.fusion, rrf_k=w.rrf_k)
                 for kind, by_source in lists.items()}  # fmt: skip
        hits = self._score(candidates.values(), fused, w, scope, reference, window)
        hits.sort(key=lambda h: -h.score)
        if w.newer_first <= 1.0:
            hits = self._newer_first(hits, w)
        hits = self._with_turns(query, hits[:k], scope, w, passages)
        return SearchResult(
            query=query, hits=hits, window=window, window_text=window_text, mode=mode
        )

    # -- turns and passages ------------------------------------------------------------
    def _with_turns(
        self,
        query: str,
        hits: list[Hit],
        scope: str,
        w: Weights,
        scored: dict[str, tuple[str, float]] | None = None,
    ) -> list[Hit]:
        """Each hit with the turn it comes from, and the best hits with their passage: a
        long turn's best-scoring passage (``scored``), else the one sharing most words."""
        wanted = [h.fact.provenance.episode_id for h in hits if h.fact is not None]
        wanted = sorted({i for i in wanted if i is not None})
        stored = {e.id: e for e in self.backend.episodes(scope, wanted)} if wanted else {}
        out = []
        for hit in hits:
            if hit.episode is not None:
                turn = hit.episode
            else:
                turn = stored.get(hit.fact.provenance.episode_id or "")  # type: ignore[union-attr]
            out.append(hit.model_copy(update={"turn": turn}) if turn is not None else hit)
        chosen = [i for i, h in enumerate(out) if h.kind == "episode"][: w.passages]
        if chosen:
            found = best_passages(
                query,
                [(out[i].turn.speaker, out[i].turn.text) for i in chosen],  # type: ignore[union-attr]
            )
            for i, passage in zip(chosen, found, strict=True):
                best = (scored or {}).get(out[i].id)
                out[i] = out[i].model_copy(update={"passage": best[0] if best else passage})
        return out

    # -- graph neighbourhood -----------------------------------------------------------
    def _graph(self, query: str, f: RowQuery, n: int) -> list[tuple[str, float]]:
        """Facts of the entities the question names, then of their neighbours, walking only
        facts visible in the time mode. Hubs (entities in more than ``GRAPH_HUB`` facts)
        are not expanded: listing thousands of equal
        graph hits would cost time and rank arbitrary ones; the vector and keyword sources
        rank a hub's facts already."""
        mentioned = self.backend.entities_named(f.scope, _ngrams(query))
        if not mentioned:
            return []
        ranked: list[tuple[str, float]] = []
        seen: set[str] = set()
        ids = sorted(e.id for e in mentioned)
        for depth in (0, 1):
            if depth == 1:  # neighbours only when the named entities gave too few facts
                ids = sorted(self.backend.neighbours(f.scope, ids)) if ids else []
            degree = self.backend.degrees(f.scope, ids) if ids else {}
            ids = [i for i in ids if degree.get(i, 0) <= GRAPH_HUB]
            for entity_id in ids:
                for row in self.backend.rows(_row_query(f, entity_id)):
                    if row.id not in seen:
                        seen.add(row.id)
                        ranked.append((row.id, 1.0 / (depth + 1)))
                if len(ranked) >= n:
                    return ranked[:n]
        return ranked

    # -- fusion --------------------------------------------------------------------------
    def _profile(self, w: Weights, scope: str, episode_lists: dict) -> Weights:
        """``fusion="auto"``: score fusion where the turns found are said by named people
        (the turn benchmark: turns indexed with whose words they are), reciprocal rank
        fusion with the settings measured before them where they are said by roles
        ("user", "assistant": LongMemEval, where score fusion lost a session at any@5
        and the newest evidence first in 3 of 9 knowledge updates)."""
        if w.fusion != "auto":
            return w
        ids = list(dict.fromkeys(i for ranked in episode_lists.values() for i, _ in ranked[:10]))
        speakers = [e.speaker for e in self.backend.episodes(scope, ids)] if ids else []
        named = sum(speaker_name(s) is not None for s in speakers)
        if speakers and named * 2 < len(speakers):
            return replace(w, fusion="rrf", vector=1.0, newer_first=0.5, newer_first_margin=0.1)
        return replace(w, fusion="score")

    @staticmethod
    def _source_weights(w: Weights) -> dict[str, float]:
        return {"vector": w.vector, "keyword": w.keyword, "graph": w.graph}

    def _score(
        self, candidates, fused, w: Weights, scope: str, reference: datetime, window
    ) -> list[Hit]:
        cands = list(candidates)
        fact_ids = [c.id for c in cands if c.kind == "fact"]
        episode_ids = [c.id for c in cands if c.kind == "episode"]
        facts = {f.id: f for f in self.backend.rows(RowQuery(scope=scope, row_ids=tuple(fact_ids),
                                                             bounds=TemporalBounds.history()))}  # fmt: skip
        episodes = (
            {e.id: e for e in self.backend.episodes(scope, episode_ids)} if episode_ids else {}
        )
        hits = []
        for c in cands:
            fact = facts.get(c.id) if c.kind == "fact" else None
            episode = episodes.get(c.id) if c.kind == "episode" else None
            if fact is None and episode is None:
                continue  # erased between search and fetch
            components = {f"{s}_rank": float(r + 1) for s, r in c.ranks.items()}
            if c.similarity is not None:
                components["similarity"] = round(c.similarity, 4)
            # "rrf" under reciprocal rank fusion, "fused" under the score fusions.
            components["rrf" if w.fusion == "rrf" else "fused"] = fused[c.kind].get(c.id, 0.0)
            when = fact.valid_from if fact is not None else episode.timestamp  # type: ignore[union-attr]
            age_days = (
                max((reference - when).total_seconds() / 86400, 0.0)
                if not is_open_start(when)
                else 3650
            )
            components["recency"] = w.recency * math.pow(0.5, age_days / w.recency_half_life_days)
            importance = fact.confidence if fact is not None else 0.5
            components["importance"] = w.importance * importance
            if episode is not None and window is not None:
                said = episode.timestamp
                if window[0] <= said < window[1]:
                    components["window"] = w.window
                elif window[1] <= said <= max(reference, window[1]):
                    components["window"] = w.window * w.window_after  # told afterwards
                else:
                    components["window"] = 0.0
            score = sum(v for key, v in components.items() if key in _ADDITIVE)
            hits.append(
                Hit(
                    kind=c.kind,  # type: ignore[arg-type]
                    id=c.id,
                    score=round(score, 6),
                    components=components,
                    fact=fact,
                    episode=episode,
                    status=status_of(fact, reference) if fact is not None else None,
                )
            )
        return hits

    # -- newer first -------------------------------------------------------------------
    def _newer_first(self, hits: list[Hit], w: Weights) -> list[Hit]:
        """A later statement on a topic shadows an earlier one, as a supersession shadows a
        fact: among the best episode hits, an episode whose own embedding is at cosine >=
        ``w.newer_first`` to a *newer* episode's, and that outscores it by no more than
        ``w.newer_first_margin``, is placed just below it. (Only near-ties move, so nothing
        falls far; the change is the negative ``newer_first`` component.)"""
        pool = [i for i, h in enumerate(hits) if h.kind == "episode"][: w.newer_first_pool]
        if len(pool) < 2:
            return hits
        stored = self.backend.embeddings([hits[i].id for i in pool])
        pool = [i for i in pool if hits[i].id in stored]
        if len(pool) < 2:
            return hits
        vectors = np.asarray([stored[hits[i].id] for i in pool], dtype=np.float32)
        vectors /= np.maximum(np.linalg.norm(vectors, axis=1, keepdims=True), 1e-12)
        similar = vectors @ vectors.T >= w.newer_first
        said = [hits[i].episode.timestamp for i in pool]  # type: ignore[union-attr]
        score = [hits[i].score for i in pool]
        for a in range(len(pool)):  # best first: a demoted hit can still push down older ones
            newer = [
                score[b]
                for b in np.flatnonzero(similar[a])
                if said[b] > said[a] and score[a] - w.newer_first_margin <= score[b] <= score[a]
            ]
            if newer:
                score[a] = min(newer) - 1e-6
        out = list(hits)
        for slot, i in enumerate(pool):
            if score[slot] != hits[i].score:
                components = dict(hits[i].components)
                components["newer_first"] = round(score[slot] - hits[i].score, 6)
                out[i] = hits[i].model_copy(update={"score": score[slot], "components": components})
        out.sort(key=lambda h: -h.score)
        return out


GRAPH_HUB = 1_000  # entities in more facts than this are not expanded by the graph source

_ADDITIVE = ("rrf", "fused", "recency", "importance", "window", "newer_first")


def _row_query(f: RowQuery, entity_id: str) -> RowQuery:
    return RowQuery(scope=f.scope, bounds=f.bounds, entity_id=entity_id, limit=200)


_WORD = re.compile(r"[\w'-]+")


def _ngrams(text: str, longest: int = 4) -> list[str]:
    """Word n-grams of the question (names may be several words: "New York")."""
    words = [w.strip("'") for w in _WORD.findall(text)]
    out = []
    for size in range(1, longest + 1):
        for i in range(len(words) - size + 1):
            gram = " ".join(words[i : i + size])
            if size > 1 or tokenize(gram):  # single stop words never name an entity
                out.append(gram)
    return out
