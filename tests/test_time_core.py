"""The time core: instants, half-open intervals and the per-key row planner."""

from __future__ import annotations

import re
from datetime import UTC, date, datetime, timedelta, timezone

import pytest
from hypothesis import given
from hypothesis import strategies as st

from graphmem.errors import (
    ConflictError,
    EmptyIntervalError,
    InvalidTimeError,
    TransactionTimeError,
)
from graphmem.time.bitemporal import Clock, CurrentRow, KeyState, believed_at, valid_at
from graphmem.time.instant import (
    NEG_INF,
    POS_INF,
    format_instant,
    from_micros,
    to_instant,
    to_micros,
)
from graphmem.time.interval import Interval, coalesce, subtract_all
from graphmem.time.natural import parse_when


def t(text: str) -> datetime:
    return to_instant(text)


def iv(a: str, b: str) -> Interval:
    return Interval(t(a), t(b))


# -- instants ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("2024-03-01T12:00:00+01:00", "2024-03-01T11:00:00Z"),
        ("2024-03-01T12:00:00Z", "2024-03-01T12:00:00Z"),
        ("2024-03-01", "2024-03-01T00:00:00Z"),
        (date(2024, 3, 1), "2024-03-01T00:00:00Z"),
        (datetime(2024, 3, 1, 12, tzinfo=timezone(timedelta(hours=-5))), "2024-03-01T17:00:00Z"),
        (0, "1970-01-01T00:00:00Z"),
        (1.5, "1970-01-01T00:00:01.500000Z"),
        ("inf", "inf"),
        ("-inf", "-inf"),
    ],
)
def test_instants_are_normalised_to_utc(value, expected):
    assert format_instant(to_instant(value)) == expected


def test_strings_without_offset_are_localised_in_the_given_zone():
    assert format_instant(to_instant("2024-07-01 09:00", tz="Europe/Berlin")) == (
        "2024-07-01T07:00:00Z"
    )


@pytest.mark.parametrize(
    "bad",
    # "10:00" and "March 3" are not completed from today's date
    [datetime(2024, 1, 1), "", "next blursday", True, [2024], "10:00", "March 3", "Tuesday"],
)
def test_unreadable_or_naive_times_are_refused(bad):
    with pytest.raises(InvalidTimeError):
        to_instant(bad, field="valid_from")


@pytest.mark.parametrize(
    ("text", "why"),
    [
        ("2024-01-01T00:00:00+25:00", r"UTC offset \+25:00 is out of range"),
        ("2024-01-01 10:00 -24:30", r"UTC offset -24:30 is out of range"),
        ("0001-01-01T00:00:00+01:00", "before year 1 or after 9999"),
    ],
)
def test_offsets_and_years_past_the_range_are_refused_naming_the_argument(text, why):
    with pytest.raises(InvalidTimeError, match=f"^valid_from: {re.escape(repr(text))}.*{why}"):
        to_instant(text, field="valid_from")
    with pytest.raises(InvalidTimeError, match=f"^when: .*{why}"):
        parse_when(text, datetime(2024, 6, 1, tzinfo=UTC))
    assert format_instant(to_instant("2024-01-01T00:00:00+23:59")) == "2023-12-31T00:01:00Z"


def test_written_full_dates_are_read():
    assert format_instant(to_instant("March 1, 2024 10:00 AM")) == "2024-03-01T10:00:00Z"


def test_unknown_zone_is_refused():
    with pytest.raises(InvalidTimeError, match="Mars/Olympus"):
        to_instant("2024-01-01", tz="Mars/Olympus")


@given(st.datetimes(timezones=st.just(UTC)))
def test_micros_round_trip(moment):
    assert from_micros(to_micros(moment)) == moment


def test_sentinels_order_every_instant():
    assert t("0001-01-02") > NEG_INF and t("9999-12-30") < POS_INF
    assert from_micros(to_micros(POS_INF)) == POS_INF


# -- intervals ----------------------------------------------------------------------------


def test_intervals_are_half_open():
    a = iv("2024-01-01", "2024-02-01")
    assert a.contains(t("2024-01-01"))
    assert not a.contains(t("2024-02-01"))
    assert not a.overlaps(iv("2024-02-01", "2024-03-01"))  # adjacent is not overlapping
    assert a.meets(iv("2024-02-01", "2024-03-01"))


@pytest.mark.parametrize(("a", "b"), [("2024-02-01", "2024-01-01"), ("2024-01-01", "2024-01-01")])
def test_empty_and_inverted_intervals_are_refused(a, b):
    with pytest.raises(EmptyIntervalError):
        iv(a, b)


@pytest.mark.parametrize(
    ("hole", "expected"),
    [
        (("2024-02-01", "2024-03-01"), ["[2024-01-01T00:00:00Z, 2024-02-01T00:00:00Z)",
                                        "[2024-03-01T00:00:00Z, 2024-04-01T00:00:00Z)"]),
        (("2023-01-01", "2024-02-01"), ["[2024-02-01T00:00:00Z, 2024-04-01T00:00:00Z)"]),
        (("2024-03-01", "2025-01-01"), ["[2024-01-01T00:00:00Z, 2024-03-01T00:00:00Z)"]),
        (("2023-01-01", "2025-01-01"), []),
        (("2025-01-01", "2026-01-01"), ["[2024-01-01T00:00:00Z, 2024-04-01T00:00:00Z)"]),
    ],
    ids=["middle", "left", "right", "all", "disjoint"],
)  # fmt: skip
def test_minus_gives_the_temporal_leftovers(hole, expected):
    assert [str(p) for p in iv("2024-01-01", "2024-04-01").minus(iv(*hole))] == expected


intervals = st.tuples(st.integers(0, 20), st.integers(1, 10)).map(
    lambda p: Interval(
        t("2024-01-01") + timedelta(days=p[0]), t("2024-01-01") + timedelta(days=p[0] + p[1])
    )
)
probes = st.integers(-2, 32).map(lambda d: t("2024-01-01") + timedelta(days=d))


@given(intervals, intervals, probes)
def test_minus_removes_exactly_the_hole(a, b, probe):
    inside_leftover = any(piece.contains(probe) for piece in a.minus(b))
    assert inside_leftover == (a.contains(probe) and not b.contains(probe))


@given(intervals, intervals)
def test_overlap_is_symmetric_and_matches_intersection(a, b):
    assert a.overlaps(b) == b.overlaps(a) == (a.intersect(b) is not None)


@given(st.lists(intervals, max_size=6), probes)
def test_coalesce_keeps_coverage_and_disjointness(items, probe):
    merged = coalesce(items)
    assert any(m.contains(probe) for m in merged) == any(i.contains(probe) for i in items)
    assert all(x.end < y.start for x, y in zip(merged, merged[1:], strict=False))


@given(intervals, st.lists(intervals, max_size=4), probes)
def test_subtract_all_matches_pointwise(base, holes, probe):
    inside = any(p.contains(probe) for p in subtract_all(base, holes))
    assert inside == (base.contains(probe) and not any(h.contains(probe) for h in holes))


# -- the row planner ------------------------------------------------------------------------


def state(*rows: tuple[str, str, str]) -> KeyState:
    return KeyState([CurrentRow(f"r{i}", v, iv(a, b)) for i, (v, a, b) in enumerate(rows)])


def inserted(plan):
    return [(r.value, format_instant(r.valid.start)[:10], format_instant(r.valid.end)[:10])
            for r in plan.insert]  # fmt: skip


def test_supersede_ends_the_previous_value_and_keeps_its_leftover():
    s = state(("Paris", "2019-01-01", "inf"))
    s.supersede("Berlin", t("2022-01-01"))
    plan = s.plan()
    assert plan.expire == ("r0",)
    assert inserted(plan) == [
        ("Paris", "2019-01-01", "2022-01-01"),
        ("Berlin", "2022-01-01", "inf"),
    ]
    assert plan.insert[0].source == "r0" and plan.insert[1].source is None


def test_back_dated_supersession_stops_at_the_next_change():
    s = state(("Paris", "2019-01-01", "2022-01-01"), ("Berlin", "2022-01-01", "inf"))
    s.supersede("Rome", t("2020-01-01"))
    assert inserted(s.plan()) == [
        ("Paris", "2019-01-01", "2020-01-01"),
        ("Rome", "2020-01-01", "2022-01-01"),
    ]


def test_next_change_ignores_adjacent_pieces_of_the_same_value():
    s = state(("Paris", "2019-01-01", "2021-01-01"), ("Paris", "2021-01-01", "2023-01-01"))
    assert s.next_change_after(t("2020-01-01")) == POS_INF


def test_assert_conflicts_with_another_value_but_not_with_itself():
    s = state(("Paris", "2019-01-01", "2021-01-01"))
    with pytest.raises(ConflictError, match="Paris"):
        s.assert_value("Rome", iv("2020-01-01", "2022-01-01"))
    s.assert_value("Paris", iv("2020-01-01", "2022-01-01"))  # fills only the gap
    assert inserted(s.plan()) == [("Paris", "2021-01-01", "2022-01-01")]


def test_steps_within_one_write_net_out():
    s = state()
    s.assert_value("Paris", iv("2020-01-01", "2021-01-01"))
    s.delete(iv("2019-01-01", "2022-01-01"))
    assert s.plan().is_noop


def test_a_row_written_and_cut_in_the_same_write_keeps_its_origin():
    # a turn that supersedes and then retracts later the same value: the leftover of the
    # fresh row is new content, not a copy of some stored row
    s = state()
    s.supersede("Paris", t("2020-01-01"), origin="turn 1")
    s.retract(t("2022-01-01"), "Paris")
    plan = s.plan()
    assert inserted(plan) == [("Paris", "2020-01-01", "2022-01-01")]
    assert plan.insert[0].source is None and plan.insert[0].origin == "turn 1"


def test_retract_deletes_from_t0_on_only_the_named_value():
    s = state(("Paris", "2019-01-01", "2021-01-01"), ("Rome", "2021-01-01", "inf"))
    s.retract(t("2020-01-01"), "Paris")
    assert inserted(s.plan()) == [("Paris", "2019-01-01", "2020-01-01")]
    assert s.plan().expire == ("r0",)


def test_correct_returns_the_windows_the_right_value_takes():
    s = state(("Berlin", "2024-01-01", "2024-06-01"), ("Oslo", "2024-06-01", "inf"))
    removed = s.correct(Interval.always(), "Berlin")
    assert [str(w) for w in removed] == ["[2024-01-01T00:00:00Z, 2024-06-01T00:00:00Z)"]


def test_visibility_rules():
    assert valid_at(t("2024-01-01"), t("2024-02-01"), t("2024-01-01"))
    assert not valid_at(t("2024-01-01"), t("2024-02-01"), t("2024-02-01"))
    assert believed_at(t("2024-01-01"), POS_INF, POS_INF)
    assert not believed_at(t("2024-01-01"), t("2024-02-01"), POS_INF)
    assert believed_at(t("2024-01-01"), t("2024-02-01"), t("2024-01-15"))
    assert not believed_at(t("2024-01-01"), t("2024-02-01"), t("2023-12-31"))


def test_the_clock_only_moves_forward_and_never_repeats():
    clock = Clock(NEG_INF, NEG_INF).advance(t("2024-01-01"))
    same = clock.advance(t("2024-01-01"))
    assert same.assigned == t("2024-01-01") + timedelta(microseconds=1)
    with pytest.raises(TransactionTimeError, match="earlier"):
        same.advance(t("2023-12-31"))
