"""TemporalBounds: one declaration of what a read sees, and its compilations agree.

The reference here is the bitemporal design written out longhand: a row is visible
``as_of`` t when ``valid_from <= t < valid_to``, ``known_at`` T when
``recorded_at <= T < expired_at`` (the current belief: never expired), ``during`` a
window when the valid intervals overlap, and in ``history`` whenever it was recorded.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

import numpy as np
import pytest
from conftest import neo4j_auth, neo4j_uri
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from graphmem.time.bounds import ALWAYS, Changes, TemporalBounds, point
from graphmem.time.instant import NEG_INF, POS_INF, to_instant, to_micros
from graphmem.time.interval import Interval

T0 = to_instant("2024-01-01")
GRID = [T0 + timedelta(days=d) for d in range(6)]


@dataclass(frozen=True)
class Row:
    id: str
    valid_from: datetime
    valid_to: datetime
    recorded_at: datetime
    expired_at: datetime


def row(vf, vt, ra, ea, ident="r") -> Row:
    return Row(ident, vf, vt, ra, ea)


def reference(b: str, args: tuple, r: Row) -> bool:
    """The modes as the design states them, independent of the module under test."""
    known_at = args[-1]
    believed = (
        (r.expired_at == POS_INF)
        if known_at >= POS_INF
        else (r.recorded_at <= known_at < r.expired_at)
    )
    if b == "as_of":
        return believed and r.valid_from <= args[0] < r.valid_to
    if b == "known_at":
        return believed
    if b == "during":
        start, end = args[0]
        return believed and r.valid_from < end and start < r.valid_to
    if b == "current":
        return r.expired_at == POS_INF and r.valid_from <= args[0] < r.valid_to
    if b == "history":
        return True
    raise AssertionError(b)


def build(b: str, args: tuple) -> TemporalBounds:
    if b == "as_of":
        return TemporalBounds.as_of(args[0], known_at=args[1])
    if b == "known_at":
        return TemporalBounds.known_at(args[0])
    if b == "during":
        return TemporalBounds.during(Interval(*args[0]), known_at=args[1])
    if b == "current":
        return TemporalBounds.current(args[0])
    return TemporalBounds.history()


# -- the modes, by example ----------------------------------------------------------

BERLIN = row(GRID[1], GRID[3], GRID[0], POS_INF)  # valid [1, 3), believed since 0
OLD = row(GRID[0], POS_INF, GRID[0], GRID[2])  # believed [0, 2), then expired


def test_as_of_sees_a_row_at_its_valid_from_and_not_at_its_valid_to() -> None:
    assert TemporalBounds.as_of(GRID[1]).admits(BERLIN)
    assert not TemporalBounds.as_of(GRID[3]).admits(BERLIN)
    assert not TemporalBounds.as_of(GRID[3] - timedelta(microseconds=1)).admits(OLD)


def test_known_at_sees_a_row_from_its_recording_until_it_expires() -> None:
    assert TemporalBounds.known_at(GRID[0]).admits(OLD)
    assert TemporalBounds.known_at(GRID[2] - timedelta(microseconds=1)).admits(OLD)
    assert not TemporalBounds.known_at(GRID[2]).admits(OLD)


def test_the_default_is_the_current_belief_over_all_valid_time() -> None:
    b = TemporalBounds()
    assert b.admits(BERLIN) and not b.admits(OLD)
    assert b.belief == POS_INF and not b.is_history
    assert TemporalBounds.known_at(POS_INF) == b


def test_history_sees_rows_no_longer_believed() -> None:
    assert TemporalBounds.history().admits(OLD)
    assert TemporalBounds.history().is_history and TemporalBounds.history().belief is None
    assert not TemporalBounds.history(Interval(GRID[4], GRID[5])).admits(BERLIN)


def test_during_is_an_overlap_of_half_open_intervals() -> None:
    assert TemporalBounds.during(Interval(GRID[2], GRID[4])).admits(BERLIN)
    assert not TemporalBounds.during(Interval(GRID[3], GRID[4])).admits(BERLIN)
    assert not TemporalBounds.during(Interval(GRID[0], GRID[1])).admits(BERLIN)


def test_a_point_is_one_microsecond_and_the_end_of_time_is_the_last_one() -> None:
    assert point(GRID[0]) == Interval(GRID[0], GRID[0] + timedelta(microseconds=1))
    assert point(POS_INF).end == POS_INF


def test_descriptions_are_the_words_users_see() -> None:
    assert TemporalBounds().describe() == "current belief"
    assert TemporalBounds.current(GRID[1]).describe() == "valid at 2024-01-02"
    assert TemporalBounds.known_at(GRID[2]).describe() == "all valid time, as known at 2024-01-03"
    assert (
        TemporalBounds.during(Interval(GRID[0], GRID[2])).describe()
        == "valid during 2024-01-01 to 2024-01-03"
    )
    assert (
        TemporalBounds.history().describe() == "history (all valid time, every row ever recorded)"
    )


def test_changes_on_each_axis() -> None:
    learned = Changes(GRID[1], GRID[2], "recorded")
    assert learned.admits(OLD)  # expired at 2: learned something in (1, 2]
    assert not learned.admits(BERLIN)  # recorded at 0
    world = Changes(GRID[0], GRID[1], "valid")
    assert world.admits(BERLIN)  # starts at 1, believed now
    assert not world.admits(OLD)  # no longer believed
    assert Changes(GRID[0], GRID[1], "valid", known_at=GRID[1]).admits(OLD) is False
    assert Changes(GRID[1], GRID[3], "valid", known_at=GRID[1]).admits(OLD) is False


# -- the compilations agree ---------------------------------------------------------

instants = st.sampled_from([NEG_INF, *GRID, POS_INF])
finite = st.sampled_from(GRID)


@st.composite
def rows(draw) -> list[Row]:
    out = []
    for i in range(draw(st.integers(1, 12))):
        vf, vt = sorted(draw(st.lists(instants, min_size=2, max_size=2, unique=True)))
        ra = draw(finite)
        ea = draw(st.sampled_from([t for t in [*GRID, POS_INF] if t > ra]))
        out.append(row(vf, vt, ra, ea, f"r{i}"))
    return out


@st.composite
def bounds(draw) -> tuple[str, tuple]:
    kind = draw(st.sampled_from(["as_of", "known_at", "during", "current", "history"]))
    belief = draw(st.sampled_from([*GRID, POS_INF]))
    if kind == "as_of":
        return kind, (draw(finite), belief)
    if kind == "known_at":
        return kind, (belief,)
    if kind == "during":
        start, end = sorted(draw(st.lists(instants, min_size=2, max_size=2, unique=True)))
        return kind, ((start, end), belief)
    if kind == "current":
        return kind, (draw(finite),)
    return kind, (POS_INF,)


def columns(rs: list[Row]) -> dict[str, np.ndarray]:
    names = ("valid_from", "valid_to", "recorded_at", "expired_at")
    return {n: np.array([to_micros(getattr(r, n)) for r in rs], dtype=np.int64) for n in names}


@given(rows(), bounds())
def test_the_row_predicate_and_the_numpy_mask_agree_with_the_reference(rs, spec) -> None:
    b = build(*spec)
    expected = [reference(*spec, r) for r in rs]
    assert [b.admits(r) for r in rs] == expected
    assert b.mask(columns(rs)).tolist() == expected


CYPHER_COLUMNS = {n: f"r.{n}" for n in ("valid_from", "valid_to", "recorded_at", "expired_at")}


@pytest.fixture(scope="module")
def neo4j_session():
    uri = neo4j_uri()
    if uri is None:
        pytest.skip("GRAPHMEM_NEO4J_URI is not set")
    import neo4j

    driver = neo4j.GraphDatabase.driver(uri, auth=neo4j_auth())
    yield driver
    driver.close()


def _cypher_ids(driver, condition: str, params: dict, rs: list[Row]) -> list[str]:
    # Evaluated over parameter maps: nothing is written to the database.
    maps = [vars(r) for r in rs]
    records, _, _ = driver.execute_query(
        f"UNWIND $rows AS r WITH r WHERE {condition} RETURN r.id AS id", {"rows": maps, **params}
    )
    return sorted(rec["id"] for rec in records)


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(rs=rows(), spec=bounds())
def test_the_cypher_compilation_agrees_on_a_running_neo4j(neo4j_session, rs, spec) -> None:
    condition, params = build(*spec).cypher(CYPHER_COLUMNS)
    expected = sorted(r.id for r in rs if reference(*spec, r))
    assert _cypher_ids(neo4j_session, condition, params, rs) == expected


@settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(rs=rows(), since=finite, until=finite, axis=st.sampled_from(["valid", "recorded"]),
       known_at=st.sampled_from([*GRID, POS_INF]))  # fmt: skip
def test_changes_compile_to_the_same_rows_in_cypher(
    neo4j_session, rs, since, until, axis, known_at
):
    changes = Changes(since, until, axis, known_at)
    condition, params = changes.cypher(CYPHER_COLUMNS)
    expected = sorted(r.id for r in rs if changes.admits(r))
    assert _cypher_ids(neo4j_session, condition, params, rs) == expected
    for r in rs:  # and the predicate is what the words say
        ends = (r.valid_from, r.valid_to) if axis == "valid" else (r.recorded_at, r.expired_at)
        believed = axis == "recorded" or reference("known_at", (known_at,), r)
        assert changes.admits(r) == (believed and any(since < t <= until for t in ends))


def test_always_restricts_nothing() -> None:
    assert TemporalBounds.history().cypher(CYPHER_COLUMNS) == ("true", {})
    assert TemporalBounds.history().valid == ALWAYS
