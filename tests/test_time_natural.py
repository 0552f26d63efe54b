"""Natural-language time expressions: the specification, as tables.

Every case is resolved against one fixed reference, **Wednesday 2024-05-15 14:30 UTC**
(never the wall clock). Expected intervals are half-open ``[start, end)`` in UTC;
``"-inf"``/``"inf"`` are the open ends. Dates without a time mean midnight UTC.
"""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
from dateutil.relativedelta import relativedelta
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from graphmem.errors import InvalidTimeError
from graphmem.time.instant import to_instant
from graphmem.time.natural import (
    GRAINS,
    KINDS,
    TimeExpression,
    find_time_expressions,
    parse_when,
    resolve_time,
)

REF = datetime(2024, 5, 15, 14, 30, tzinfo=UTC)  # a Wednesday
NOW = "2024-05-15T14:30:00Z"
NOW_END = "2024-05-15T14:30:00.000001Z"


def t(s: str) -> datetime:
    return to_instant(s)


def case(text, start, end, grain, kind="point"):
    return pytest.param(text, start, end, grain, kind, id=text)


# (phrase, start, end, grain, kind) with the default prefer="past"
RESOLVE_CASES = [
    # --- the reference day and its neighbours
    case("today", "2024-05-15", "2024-05-16", "day"),
    case("Today", "2024-05-15", "2024-05-16", "day"),
    case("yesterday", "2024-05-14", "2024-05-15", "day"),
    case("tomorrow", "2024-05-16", "2024-05-17", "day"),
    case("tonight", "2024-05-15", "2024-05-16", "day"),
    case("this morning", "2024-05-15", "2024-05-16", "day"),
    case("last night", "2024-05-14", "2024-05-15", "day"),
    case("yesterday evening", "2024-05-14", "2024-05-15", "day"),
    case("the day before yesterday", "2024-05-13", "2024-05-14", "day"),
    case("the day after tomorrow", "2024-05-17", "2024-05-18", "day"),
    # --- the present moment: an instant
    case("now", NOW, NOW_END, "instant"),
    case("right now", NOW, NOW_END, "instant"),
    case("currently", NOW, NOW_END, "instant"),
    case("these days", NOW, NOW_END, "instant"),
    case("at the moment", NOW, NOW_END, "instant"),
    case("nowadays", NOW, NOW_END, "instant"),
    # --- recently: the 30 days before the reference day, plus that day
    case("recently", "2024-04-15", "2024-05-16", "day"),
    case("lately", "2024-04-15", "2024-05-16", "day"),
    # --- calendar weeks (Monday-Sunday), months, years, decades
    case("this week", "2024-05-13", "2024-05-20", "week"),
    case("last week", "2024-05-06", "2024-05-13", "week"),
    case("next week", "2024-05-20", "2024-05-27", "week"),
    case("this past week", "2024-05-06", "2024-05-13", "week"),
    case("the week before last", "2024-04-29", "2024-05-06", "week"),
    case("the week after next", "2024-05-27", "2024-06-03", "week"),
    case("this month", "2024-05-01", "2024-06-01", "month"),
    case("last month", "2024-04-01", "2024-05-01", "month"),
    case("next month", "2024-06-01", "2024-07-01", "month"),
    case("the month before last", "2024-03-01", "2024-04-01", "month"),
    case("this year", "2024-01-01", "2025-01-01", "year"),
    case("last year", "2023-01-01", "2024-01-01", "year"),
    case("next year", "2025-01-01", "2026-01-01", "year"),
    case("the year before last", "2022-01-01", "2023-01-01", "year"),
    case("this decade", "2020-01-01", "2030-01-01", "decade"),
    case("last decade", "2010-01-01", "2020-01-01", "decade"),
    case("earlier this week", "2024-05-13", "2024-05-15", "day"),
    case("later this week", "2024-05-16", "2024-05-20", "day"),
    case("earlier this year", "2024-01-01", "2024-05-15", "day"),
    # --- weekdays: last = strictly before the reference day, next = strictly after,
    #     this = in the current week, bare ("on Tuesday") = most recent on or before it
    case("last Monday", "2024-05-13", "2024-05-14", "day"),
    case("last Wednesday", "2024-05-08", "2024-05-09", "day"),
    case("last Friday", "2024-05-10", "2024-05-11", "day"),
    case("last tue", "2024-05-14", "2024-05-15", "day"),
    case("next Monday", "2024-05-20", "2024-05-21", "day"),
    case("next Friday", "2024-05-17", "2024-05-18", "day"),
    case("next Wednesday", "2024-05-22", "2024-05-23", "day"),
    case("next thurs", "2024-05-16", "2024-05-17", "day"),
    case("this Monday", "2024-05-13", "2024-05-14", "day"),
    case("this Friday", "2024-05-17", "2024-05-18", "day"),
    case("on Tuesday", "2024-05-14", "2024-05-15", "day"),
    case("on Wednesday", "2024-05-15", "2024-05-16", "day"),
    case("on Sat", "2024-05-11", "2024-05-12", "day"),
    case("Friday last week", "2024-05-10", "2024-05-11", "day"),
    case("Monday next week", "2024-05-20", "2024-05-21", "day"),
    # --- weekends: Saturday and Sunday of the current/previous/next ISO week
    case("this weekend", "2024-05-18", "2024-05-20", "day"),
    case("last weekend", "2024-05-11", "2024-05-13", "day"),
    case("next weekend", "2024-05-25", "2024-05-27", "day"),
    case("over the weekend", "2024-05-11", "2024-05-13", "day"),
    # --- N units ago / in N units: the grain-sized window containing ref -+ N units
    case("3 days ago", "2024-05-12", "2024-05-13", "day"),
    case("a few days ago", "2024-05-12", "2024-05-13", "day"),
    case("twenty-one days ago", "2024-04-24", "2024-04-25", "day"),
    case("two weeks ago", "2024-04-29", "2024-05-06", "week"),
    case("a couple of weeks ago", "2024-04-29", "2024-05-06", "week"),
    case("a fortnight ago", "2024-04-29", "2024-05-06", "week"),
    case("a month ago", "2024-04-01", "2024-05-01", "month"),
    case("six months ago", "2023-11-01", "2023-12-01", "month"),
    case("a year ago", "2023-01-01", "2024-01-01", "year"),
    case("two years ago", "2022-01-01", "2023-01-01", "year"),
    case("five years back", "2019-01-01", "2020-01-01", "year"),
    case("a decade ago", "2010-01-01", "2020-01-01", "decade"),
    case("2 hours ago", "2024-05-15T12:30Z", "2024-05-15T12:30:00.000001Z", "instant"),
    case("in 3 days", "2024-05-18", "2024-05-19", "day"),
    case("3 days from now", "2024-05-18", "2024-05-19", "day"),
    case("in two weeks", "2024-05-27", "2024-06-03", "week"),
    case("in two weeks' time", "2024-05-27", "2024-06-03", "week"),
    case("in a month", "2024-06-01", "2024-07-01", "month"),
    case("in 30 minutes", "2024-05-15T15:00Z", "2024-05-15T15:00:00.000001Z", "instant"),
    # --- trailing windows: whole days through the reference day
    case("the past 3 days", "2024-05-12", "2024-05-16", "day"),
    case("the past week", "2024-05-08", "2024-05-16", "day"),
    case("the last two weeks", "2024-05-01", "2024-05-16", "day"),
    case("over the past two years", "2022-05-15", "2024-05-16", "day"),
    case("the next 3 days", "2024-05-15", "2024-05-19", "day"),
    case("the past 2 hours", "2024-05-15T12:30Z", NOW_END, "instant"),
    # --- month names: bare ones need a preposition; most recent not after the ref month
    case("in March", "2024-03-01", "2024-04-01", "month"),
    case("in May", "2024-05-01", "2024-06-01", "month"),
    case("in June", "2023-06-01", "2023-07-01", "month"),
    case("during August", "2023-08-01", "2023-09-01", "month"),
    case("in March 2024", "2024-03-01", "2024-04-01", "month"),
    case("March 2024", "2024-03-01", "2024-04-01", "month"),
    case("Mar '23", "2023-03-01", "2023-04-01", "month"),
    case("March of 2022", "2022-03-01", "2022-04-01", "month"),
    case("Sept 2021", "2021-09-01", "2021-10-01", "month"),
    case("last March", "2024-03-01", "2024-04-01", "month"),
    case("last May", "2023-05-01", "2023-06-01", "month"),
    case("next March", "2025-03-01", "2025-04-01", "month"),
    case("next June", "2024-06-01", "2024-07-01", "month"),
    case("this June", "2024-06-01", "2024-07-01", "month"),
    # --- years and decades
    case("in 2019", "2019-01-01", "2020-01-01", "year"),
    case("the year 2010", "2010-01-01", "2011-01-01", "year"),
    case("2019-2021", "2019-01-01", "2022-01-01", "year", "range"),
    case("2019–21", "2019-01-01", "2022-01-01", "year", "range"),
    case("the 90s", "1990-01-01", "2000-01-01", "decade"),
    case("the '90s", "1990-01-01", "2000-01-01", "decade"),
    case("the 1980s", "1980-01-01", "1990-01-01", "decade"),
    case("in the 2010s", "2010-01-01", "2020-01-01", "decade"),
    # --- early/mid/late: thirds in sub-units (middle third takes the remainder); halves
    case("early 2020", "2020-01-01", "2020-05-01", "month"),
    case("mid 2020", "2020-05-01", "2020-09-01", "month"),
    case("mid-2020", "2020-05-01", "2020-09-01", "month"),
    case("late 2020", "2020-09-01", "2021-01-01", "month"),
    case("in early 2020", "2020-01-01", "2020-05-01", "month"),
    case("the first half of 2020", "2020-01-01", "2020-07-01", "month"),
    case("the second half of 2020", "2020-07-01", "2021-01-01", "month"),
    case("early March", "2024-03-01", "2024-03-11", "day"),
    case("mid-March", "2024-03-11", "2024-03-22", "day"),
    case("the end of May", "2024-05-22", "2024-06-01", "day"),
    case("late last year", "2023-09-01", "2024-01-01", "month"),
    case("the beginning of the year", "2024-01-01", "2024-05-01", "month"),
    case("early next week", "2024-05-20", "2024-05-22", "day"),
    case("in the early 2000s", "2000-01-01", "2003-01-01", "year"),
    case("the late '90s", "1997-01-01", "2000-01-01", "year"),
    # --- seasons: meteorological, northern hemisphere; winter Y = Dec Y - Feb Y+1
    case("last summer", "2023-06-01", "2023-09-01", "season"),
    case("this summer", "2024-06-01", "2024-09-01", "season"),
    case("next summer", "2024-06-01", "2024-09-01", "season"),
    case("in the summer", "2023-06-01", "2023-09-01", "season"),
    case("in spring", "2024-03-01", "2024-06-01", "season"),
    case("in the fall", "2023-09-01", "2023-12-01", "season"),
    case("last winter", "2023-12-01", "2024-03-01", "season"),
    case("this winter", "2024-12-01", "2025-03-01", "season"),
    case("in winter 2022", "2022-12-01", "2023-03-01", "season"),
    case("the summer of 2022", "2022-06-01", "2022-09-01", "season"),
    case("summer '22", "2022-06-01", "2022-09-01", "season"),
    # --- explicit dates; year-less ones are the most recent not after the reference
    case("2024-03-01", "2024-03-01", "2024-03-02", "day"),
    case("2024-03", "2024-03-01", "2024-04-01", "month"),
    case(
        "2024-03-01T12:00:00+02:00", "2024-03-01T10:00Z", "2024-03-01T10:00:00.000001Z", "instant"
    ),
    case("2024-03-01 09:15", "2024-03-01T09:15Z", "2024-03-01T09:15:00.000001Z", "instant"),
    case("3 June", "2023-06-03", "2023-06-04", "day"),
    case("3 May", "2024-05-03", "2024-05-04", "day"),
    case("June 3rd, 2023", "2023-06-03", "2023-06-04", "day"),
    case("the 3rd of June 2023", "2023-06-03", "2023-06-04", "day"),
    case("8 May, 2023", "2023-05-08", "2023-05-09", "day"),
    case("Sunday, March 3, 2024", "2024-03-03", "2024-03-04", "day"),
    case("Jan. 5, 2023", "2023-01-05", "2023-01-06", "day"),
    case("03/06/2024", "2024-03-06", "2024-03-07", "day"),  # month first (US)
    case("13/06/2024", "2024-06-13", "2024-06-14", "day"),  # 13 cannot be a month
    case("03/06/24", "2024-03-06", "2024-03-07", "day"),
    case("1.5.2024", "2024-05-01", "2024-05-02", "day"),  # dots: day first
    case("2023/05/20", "2023-05-20", "2023-05-21", "day"),
    case("June 3-5, 2023", "2023-06-03", "2023-06-06", "day", "range"),
    # --- clock times: instants
    case("1:56 pm on 8 May, 2023", "2023-05-08T13:56Z", "2023-05-08T13:56:00.000001Z", "instant"),
    case("2023/05/20 (Sat) 02:21", "2023-05-20T02:21Z", "2023-05-20T02:21:00.000001Z", "instant"),
    case("8 May 2023 at 1:56 pm", "2023-05-08T13:56Z", "2023-05-08T13:56:00.000001Z", "instant"),
    case(
        "10:30 a.m. on June 3, 2023", "2023-06-03T10:30Z", "2023-06-03T10:30:00.000001Z", "instant"
    ),
    case("yesterday at 5pm", "2024-05-14T17:00Z", "2024-05-14T17:00:00.000001Z", "instant"),
    case("at 3pm", "2024-05-15T15:00Z", "2024-05-15T15:00:00.000001Z", "instant"),
    case("at noon", "2024-05-15T12:00Z", "2024-05-15T12:00:00.000001Z", "instant"),
    case("at midnight on Monday", "2024-05-13T00:00Z", "2024-05-13T00:00:00.000001Z", "instant"),
    # --- since / until / before / after
    case("since March", "2024-03-01", "inf", "month", "since"),
    case("since 2023", "2023-01-01", "inf", "year", "since"),
    case("since last week", "2024-05-06", "inf", "week", "since"),
    case("ever since 2019", "2019-01-01", "inf", "year", "since"),
    case("starting next Monday", "2024-05-20", "inf", "day", "since"),
    case("starting from March", "2024-03-01", "inf", "month", "since"),
    case("from March onwards", "2024-03-01", "inf", "month", "since"),
    case("from now on", NOW, "inf", "instant", "since"),
    case("until March", "-inf", "2024-04-01", "month", "until"),  # March included
    case("until now", "-inf", NOW_END, "instant", "until"),
    case("till Friday", "-inf", "2024-05-11", "day", "until"),
    case("through 2021", "-inf", "2022-01-01", "year", "until"),
    case("by Friday", "-inf", "2024-05-11", "day", "until"),
    case("before March", "-inf", "2024-03-01", "month", "before"),  # March excluded
    case("prior to 2020", "-inf", "2020-01-01", "year", "before"),
    case("after March", "2024-04-01", "inf", "month", "after"),
    case("after 2020", "2021-01-01", "inf", "year", "after"),
    # --- ranges: inclusive at their grain
    case("from 2019 to 2021", "2019-01-01", "2022-01-01", "year", "range"),
    case("between 2019 and 2021", "2019-01-01", "2022-01-01", "year", "range"),
    case("from 2019 until 2021", "2019-01-01", "2022-01-01", "year", "range"),
    case("from March until May", "2024-03-01", "2024-06-01", "month", "range"),
    case("from March to June", "2023-03-01", "2023-07-01", "month", "range"),  # June 2024: future
    case("from December 2022 to March", "2022-12-01", "2023-04-01", "month", "range"),
    case("from December to February", "2023-12-01", "2024-03-01", "month", "range"),
    case("from Monday to Friday", "2024-05-06", "2024-05-11", "day", "range"),
    case("from last Monday to Friday", "2024-05-13", "2024-05-18", "day", "range"),
    case("between May 3 and May 5", "2024-05-03", "2024-05-06", "day", "range"),
    case("since last summer until now", "2023-06-01", NOW_END, "season", "range"),
    case("from 9am to 5pm", "2024-05-15T09:00Z", "2024-05-15T17:00:00.000001Z", "instant", "range"),
]


@pytest.mark.parametrize("text, start, end, grain, kind", RESOLVE_CASES)
def test_resolve_time(text, start, end, grain, kind):
    e = resolve_time(text, REF)
    assert (e.interval.start, e.interval.end) == (t(start), t(end))
    assert (e.grain, e.kind) == (grain, kind)
    assert e.text == text and e.span == (0, len(text))
    assert e.reference == REF


# prefer="future": year-less phrases pick the first one not over yet
FUTURE_CASES = [
    case("on Tuesday", "2024-05-21", "2024-05-22", "day"),
    case("on Wednesday", "2024-05-15", "2024-05-16", "day"),
    case("in March", "2025-03-01", "2025-04-01", "month"),
    case("in May", "2024-05-01", "2024-06-01", "month"),
    case("3 June", "2024-06-03", "2024-06-04", "day"),
    case("in the summer", "2024-06-01", "2024-09-01", "season"),
    case("the weekend", "2024-05-18", "2024-05-20", "day"),
    case("from March to June", "2025-03-01", "2025-07-01", "month", "range"),
    case("from Monday to Friday", "2024-05-20", "2024-05-25", "day", "range"),
    case("yesterday", "2024-05-14", "2024-05-15", "day"),  # explicit: unaffected
]


@pytest.mark.parametrize("text, start, end, grain, kind", FUTURE_CASES)
def test_prefer_future(text, start, end, grain, kind):
    e = resolve_time(text, REF, prefer="future")
    assert (e.interval.start, e.interval.end, e.grain, e.kind) == (t(start), t(end), grain, kind)


def test_a_numeric_day_without_its_year_is_placed_like_any_yearless_day():
    assert resolve_time("03/31", REF).interval.start == t("2024-03-31")  # past by default
    assert resolve_time("05/20", REF, prefer="future").interval.start == t("2024-05-20")
    assert resolve_time("31/03", REF).interval.start == t("2024-03-31")  # 31 is no month
    assert resolve_time("04/10", REF, dayfirst=True).interval.start == t("2023-10-04")


def test_dayfirst_option():
    assert resolve_time("03/06/2024", REF, dayfirst=True).interval.start == t("2024-06-03")
    assert resolve_time("03/13/2024", REF, dayfirst=True).interval.start == t("2024-03-13")


# The calendar zone: days start at local midnight; results are UTC.
LATE_UTC = datetime(2024, 5, 15, 23, 30, tzinfo=UTC)  # already the 16th in Tokyo
MONTH_END_UTC = datetime(2024, 5, 31, 20, 0, tzinfo=UTC)  # already June in Tokyo
BERLIN_DST = datetime(2024, 3, 31, 12, 0, tzinfo=ZoneInfo("Europe/Berlin"))  # a 23-hour day
BERLIN_MAY = datetime(2024, 5, 1, tzinfo=ZoneInfo("Europe/Berlin"))
TZ_CASES = [
    # (phrase, reference, tz, start, end); tz None = the reference's own zone
    ("today", REF, "America/New_York", "2024-05-15T04:00Z", "2024-05-16T04:00Z"),
    ("today", LATE_UTC, "Asia/Tokyo", "2024-05-15T15:00Z", "2024-05-16T15:00Z"),
    ("last month", MONTH_END_UTC, "Asia/Tokyo", "2024-04-30T15:00Z", "2024-05-31T15:00Z"),
    ("today", BERLIN_DST, None, "2024-03-30T23:00Z", "2024-03-31T22:00Z"),
    ("2024-03-01", BERLIN_MAY, None, "2024-02-29T23:00Z", "2024-03-01T23:00Z"),
    ("at 3pm", REF, "America/New_York", "2024-05-15T19:00Z", "2024-05-15T19:00:00.000001Z"),
    # an explicit offset wins over the calendar zone
    (
        "2024-03-01T12:00+02:00",
        REF,
        "Asia/Tokyo",
        "2024-03-01T10:00Z",
        "2024-03-01T10:00:00.000001Z",
    ),
]


@pytest.mark.parametrize("text, reference, tz, start, end", TZ_CASES)
def test_calendar_zone(text, reference, tz, start, end):
    e = resolve_time(text, reference, tz=tz)
    assert (e.interval.start, e.interval.end) == (t(start), t(end))
    assert e.interval.start.tzinfo is UTC and e.reference.tzinfo is UTC


# Scanning sentences: which phrases are found (longest wins, no overlaps, in order).
FIND_CASES = [
    ("I may move to Berlin.", []),
    ("The Mayor was marching in the parade.", []),
    ("Option 2 may be better.", []),
    ("The money we put in may be lost.", []),
    ("This book was written by May Sarton.", []),
    ("How many days passed between the Sunday mass and Ash Wednesday?", []),
    ("I love summer and the march of time.", []),
    ("In my late 20s I moved to the fall of Rome.", []),
    ("I moved from Paris to Berlin.", []),
    ("in the last week of March", []),  # not understood: better nothing than wrong
    ("I moved to Berlin in May 2023 and left in March.", ["in May 2023", "in March"]),
    ("In May we went to Rome.", ["In May"]),
    ("What did I say last Tuesday about my job?", ["last Tuesday"]),
    ("We met on 8 May, 2023 at 1:56 pm.", ["on 8 May, 2023 at 1:56 pm"]),
    ("[2023/05/20 (Sat) 02:21] User: hello", ["2023/05/20 (Sat) 02:21"]),
    ("I paid 2000 dollars in 2019.", ["in 2019"]),
    ("She was born on 12/25/1990.", ["on 12/25/1990"]),
    (
        "I've lived here since 2023, and in Paris from 2019 to 2021.",
        ["since 2023", "from 2019 to 2021"],
    ),
    (
        "Where will I be next Monday and the week after next?",
        ["next Monday", "the week after next"],
    ),
    ("I sat on the sun deck on Sat.", ["on Sat"]),
    ("YESTERDAY and Last Week", ["YESTERDAY", "Last Week"]),
    ("Can you remind me about it later this week?", ["later this week"]),
    ("I'll see you in two weeks' time.", ["in two weeks' time"]),
    ("It was 3 years ago yesterday.", ["3 years ago", "yesterday"]),
    ("what did you have on record on 3 June for my employer", ["on 3 June"]),
    # a numeric day without its year: two digits each on their own, one digit after "on"...
    ("Deadline is 03/31.", ["03/31"]),
    ("it went live on 5/15", ["on 5/15"]),
    ("I work 24/7 and rate it 10/10, add 1/2 cup, scored 21/25", []),
]


@pytest.mark.parametrize("text, expected", FIND_CASES, ids=[c[0] for c in FIND_CASES])
def test_find_time_expressions(text, expected):
    found = find_time_expressions(text, REF)
    assert [e.text for e in found] == expected
    for e in found:
        assert text[e.span[0] : e.span[1]] == e.text


def test_found_expression_carries_its_resolution():
    (e,) = find_time_expressions("Where did Alice live in March 2024?", REF)
    assert e == TimeExpression(
        "in March 2024", (21, 34), resolve_time("March 2024", REF).interval, "month", "point", REF
    )


# parse_when: API/CLI arguments -> one UTC instant (an interval's start)
PARSE_WHEN_CASES = [
    # (value, reference, tz, expected)
    ("yesterday", REF, None, "2024-05-14"),
    ("last Tuesday", REF, None, "2024-05-14"),
    ("3 days ago", REF, None, "2024-05-12"),
    ("now", REF, None, NOW),
    ("today", REF, None, "2024-05-15"),
    ("since 2023", REF, None, "2023-01-01"),
    ("2024-03-01", None, None, "2024-03-01"),
    ("2024-03-01", None, "Europe/Berlin", "2024-02-29T23:00Z"),
    ("2024-03-01T12:00:00+01:00", None, None, "2024-03-01T11:00Z"),
    ("March 2024", None, None, "2024-03-01"),
    ("1:56 pm on 8 May, 2023", None, None, "2023-05-08T13:56Z"),
    ("Friday, 1 March 2024 17:05:09 UTC", None, None, "2024-03-01T17:05:09Z"),  # dateutil
    (date(2024, 1, 2), None, None, "2024-01-02"),
    (datetime(2024, 1, 2, 3, 4, tzinfo=UTC), None, None, "2024-01-02T03:04Z"),
    (1_700_000_000, None, None, "2023-11-14T22:13:20Z"),
    ("inf", None, None, "inf"),
]


@pytest.mark.parametrize("value, reference, tz, expected", PARSE_WHEN_CASES, ids=str)
def test_parse_when(value, reference, tz, expected):
    assert parse_when(value, reference, tz=tz) == t(expected)


@pytest.mark.parametrize(
    "call",
    [
        pytest.param(lambda: resolve_time("blah", REF), id="not a time"),
        pytest.param(lambda: resolve_time("yesterday and today", REF), id="two times"),
        pytest.param(lambda: resolve_time("", REF), id="empty"),
        pytest.param(lambda: resolve_time("today", datetime(2024, 5, 15)), id="naive reference"),
        pytest.param(
            lambda: find_time_expressions("today", datetime(2024, 5, 15)), id="naive find"
        ),
        pytest.param(lambda: resolve_time("today", REF, prefer="sideways"), id="bad prefer"),
        pytest.param(lambda: resolve_time("February 30, 2024", REF), id="no such day"),
        pytest.param(lambda: resolve_time("from 2021 to 2019", REF), id="backwards range"),
        pytest.param(lambda: parse_when("yesterday"), id="relative without reference"),
        pytest.param(lambda: parse_when("Tuesday"), id="weekday without reference"),
        pytest.param(lambda: parse_when("until May", REF), id="no start"),
        pytest.param(lambda: parse_when("garbage", REF), id="garbage"),
        pytest.param(lambda: parse_when("   ", REF), id="blank"),
        pytest.param(lambda: parse_when(datetime(2024, 5, 15)), id="naive value"),
    ],
)
def test_errors(call):
    with pytest.raises(InvalidTimeError):
        call()


def test_error_names_the_text():
    with pytest.raises(InvalidTimeError, match="next blursday"):
        resolve_time("next blursday", REF)


def test_never_reads_the_wall_clock():
    """The same phrase against two references gives answers a year apart."""
    a = resolve_time("last month", REF).interval
    b = resolve_time("last month", REF - relativedelta(years=1)).interval
    assert a.start - relativedelta(years=1) == b.start


# ---------------------------------------------------------------------------
# Properties

PHRASES = [c.values[0] for c in RESOLVE_CASES]
FILLER = ["I", "went", "to", "Berlin", "and", "then", "may", "march", "the", ",", "on", "in", "."]
UTC_REFS = st.datetimes(
    min_value=datetime(1950, 1, 1), max_value=datetime(2100, 1, 1), timezones=st.just(UTC)
)


def _well_formed(text: str, found: list[TimeExpression], reference: datetime) -> None:
    last_end = 0
    for e in found:
        assert text[e.span[0] : e.span[1]] == e.text
        assert e.span[0] >= last_end  # in order, not overlapping
        last_end = e.span[1]
        assert e.interval.start < e.interval.end
        assert e.interval.start.tzinfo is UTC and e.interval.end.tzinfo is UTC
        assert e.grain in GRAINS and e.kind in KINDS
        assert e.reference == reference


@given(st.text())
def test_arbitrary_text_never_raises(text):
    _well_formed(text, find_time_expressions(text, REF), REF)


@settings(suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.sampled_from(PHRASES + FILLER), max_size=8), UTC_REFS)
def test_sentences_of_phrases(words, reference):
    text = " ".join(words)
    found = find_time_expressions(text, reference)
    _well_formed(text, found, reference)
    for e in found:  # what was found in a sentence reads the same on its own
        alone = resolve_time(e.text, reference)
        assert (alone.interval, alone.grain, alone.kind) == (e.interval, e.grain, e.kind)


@given(st.integers(0, 60), UTC_REFS)
def test_counted_windows_contain_their_instant(n, reference):
    checks = [
        (f"{n} days ago", reference - timedelta(days=n)),
        (f"{n} weeks ago", reference - timedelta(weeks=n)),
        (f"{n} months ago", reference - relativedelta(months=n)),
        (f"in {n} days", reference + timedelta(days=n)),
        (f"in {n} years", reference + relativedelta(years=n)),
    ]
    for phrase, instant in checks:
        assert resolve_time(phrase, reference).interval.contains(instant), phrase


ABSOLUTE = [
    "2024-03-01",
    "March 2024",
    "8 May, 2023",
    "from 2019 to 2021",
    "1:56 pm on 8 May, 2023",
    "since 2023",
    "early 2020",
    "summer '22",
    "the 1980s",
]


@given(st.sampled_from(ABSOLUTE), UTC_REFS, UTC_REFS)
def test_absolute_phrases_ignore_the_reference(phrase, ref_a, ref_b):
    assert resolve_time(phrase, ref_a).interval == resolve_time(phrase, ref_b).interval


@given(st.sampled_from(PHRASES), st.sampled_from(["Asia/Tokyo", "America/Los_Angeles"]))
def test_only_the_calendar_zone_matters(phrase, zone):
    """The same instant as reference, written in another zone, with the same tz: same answer."""
    shifted = REF.astimezone(ZoneInfo(zone))
    assert resolve_time(phrase, shifted, tz="UTC") == resolve_time(phrase, REF, tz="UTC")
