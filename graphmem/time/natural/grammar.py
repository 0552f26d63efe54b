"""The grammar: the regular expressions of time phrases, each rule with its resolver, and
the operators ("since", "until", "from ... to ...") and separators the chart combines.

A rule's ``need`` says when a match counts as a time (see ``Rule``).

>>> [r.need for r in RULES if r.pattern.fullmatch("March")]
['name']
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from graphmem.time.natural.dates import (
    resolve_date,
    resolve_day_range,
    resolve_decade,
    resolve_iso,
    resolve_iso_month,
    resolve_iso_week,
    resolve_just_gone,
    resolve_last_day_of,
    resolve_month,
    resolve_month_rel_year,
    resolve_month_year,
    resolve_numeric_date,
    resolve_numeric_day,
    resolve_ordinal_day,
    resolve_quarter,
    resolve_rel_month,
    resolve_rel_season,
    resolve_season,
    resolve_season_before_last,
    resolve_season_year,
    resolve_short_decade,
    resolve_short_decade_part,
    resolve_split_season,
    resolve_week_of,
    resolve_year,
    resolve_year_range,
    resolve_ymd,
)
from graphmem.time.natural.holidays import HOLIDAY, US_HOLIDAY, resolve_holiday, resolve_us_holiday
from graphmem.time.natural.lexicon import ONES, TEENS, TENS
from graphmem.time.natural.relative import (
    Resolver,
    day_offset,
    resolve_clock,
    resolve_count,
    resolve_day_word,
    resolve_earlier_later,
    resolve_now,
    resolve_recently,
    resolve_rel_weekday,
    resolve_relative_unit,
    resolve_this_time,
    resolve_trailing,
    resolve_weekday,
    resolve_weekday_of_week,
    resolve_weekend,
    shifted,
)

_WD_FULL = r"monday|tuesday|wednesday|thursday|friday|saturday|sunday"
_WD_ABBR = r"mon|tues|tue|wed|thurs|thur|thu|fri|sat|sun"
_WD = rf"(?P<wd>(?:{_WD_FULL})\b|(?:{_WD_ABBR})\b(?:\.(?=\s*[\d,]))?)"
_MONTH = (  # an abbreviation's dot only before a day or comma ("Jan. 5"), not "in Jan."
    r"(?P<mon>(?:january|february|march|april|may|june|july|august|september|october|november"
    r"|december)\b|(?:jan|feb|mar|apr|jun|jul|aug|sept|sep|oct|nov|dec)\b(?:\.(?=\s*[\d,]))?)"
)
_SEASON = r"(?P<season>spring|summer|autumn|fall|winter)\b"
_DAY = r"(?P<day>[12]\d|3[01]|0?[1-9])(?:st|nd|rd|th)?\b"
_YEAR = r"(?P<year>(?:1[89]|2[01])\d{2}\b|['’]\d{2}\b)"
_OPT_YEAR = rf"(?:(?:\s*,)?\s+{_YEAR})?"
_REL_RE = (
    r"(?P<rel>this\s+past|this\s+coming|the\s+previous|the\s+current|the\s+coming"
    r"|this|last|next|previous|current|coming|come)"
)
_NUM = "|".join(
    [
        r"\d{1,4}",
        r"a\s+couple(?:\s+of)?",
        r"couple\s+of",
        r"a\s+few",
        r"few",
        rf"(?:{'|'.join(TENS)})(?:[\s-](?:{'|'.join(ONES)}))?",
        *sorted(TEENS + ONES, key=len, reverse=True),
        r"an?",
    ]
)
_NUM = rf"(?P<num>{_NUM})"
_UNIT = (
    r"(?P<unit>seconds?|secs?|minutes?|mins?|hours?|hrs?|days?|weeks?|wks?|fortnights?"
    r"|months?|mos|mths?|years?|yrs?|decades?)\b"
)


@dataclass(frozen=True, slots=True)
class _Rule:
    pattern: re.Pattern[str]
    resolve: Resolver
    # When a match counts as a time: "" always; "prep" after a preposition or operator
    # ("on Tuesday", "at 3pm"); "name" likewise but not after "by"/"within" (a month may be
    # a person: "written by May"); "mod" only after "early", "the end of"...
    need: str
    clock: bool  # a bare clock time, which combines with a day


def _rule(body: str, resolve: Resolver, need: str = "", *, clock: bool = False) -> _Rule:
    # Never end inside a word or a number ("Mayor", "2024-03-01" read as "2024-03").
    pattern = re.compile(rf"(?:{body})(?!\w)(?![/.:]\d)", re.IGNORECASE)
    return _Rule(pattern, resolve, need, clock)


_ISO_WEEK = r"(?:ISO\s+)?(?:week|wk|uke|vecka|Woche|KW)\s*(?P<wk>[1-9]|[1-4]\d|5[0-3])\b"

RULES: list[_Rule] = [
    # now, days
    _rule(
        r"(?:right\s+)?now|just\s+now|currently|at\s+(?:the\s+)?moment|at\s+present|presently"
        r"|these\s+days|nowadays|at\s+this\s+(?:time|point)|as\s+we\s+speak",
        resolve_now,
    ),
    _rule(
        r"(?P<w>today|tonight|yesterday|tomorrow|yday|yest|tmrw|tmr|tdy|2day|2moro)"
        r"(?:\s+(?:morning|afternoon|evening|night))?",
        resolve_day_word,
    ),
    _rule(r"this\s+(?:morning|afternoon|evening)", day_offset(0)),
    _rule(r"last\s+(?:night|evening)", day_offset(-1)),
    _rule(r"(?:the\s+)?day\s+before\s+yesterday", day_offset(-2)),
    _rule(r"(?:the\s+)?day\s+after\s+tomorrow", day_offset(2)),
    _rule(r"recently|lately|of\s+late", resolve_recently),
    # this/last/next week, month, year, decade, weekend
    _rule(
        rf"{_REL_RE}\s+(?P<unit>week|month|year|decade|weekend)(?!\s+of\b)", resolve_relative_unit
    ),
    _rule(rf"{_REL_RE}\s+(?P<unit>wk|yr|mth)(?!\s+of\b)", resolve_relative_unit),
    _rule(r"(?:the\s+)?(?P<unit>week|month|year|weekend)\s+before\s+last", shifted(-2)),
    _rule(r"(?:the\s+)?(?P<unit>week|month|year|weekend)\s+after\s+next", shifted(2)),
    _rule(r"the\s+(?P<unit>week|month|year|decade)", shifted(0), need="mod"),
    _rule(r"(?P<el>earlier|later)\s+this\s+(?P<unit>week|month|year)", resolve_earlier_later),
    # counted units
    _rule(rf"{_NUM}\s+{_UNIT}\s+(?:ago|back)", resolve_count(-1)),
    _rule(rf"in\s+{_NUM}\s+{_UNIT}(?:['’]?\s+time)?", resolve_count(+1)),
    _rule(rf"{_NUM}\s+{_UNIT}\s+from\s+(?:now|today)", resolve_count(+1)),
    _rule(rf"(?:the\s+)?(?:past|last|previous)\s+{_NUM}\s+{_UNIT}", resolve_trailing(-1)),
    _rule(rf"the\s+(?:past|last)\s+{_UNIT}(?!\s+of\b)", resolve_trailing(-1)),
    _rule(rf"(?:the\s+)?(?:next|coming)\s+{_NUM}\s+{_UNIT}", resolve_trailing(+1)),
    # weekdays
    _rule(rf"{_REL_RE}\s+{_WD}", resolve_rel_weekday),
    _rule(rf"{_WD}(?:\s*,)?\s+(?:of\s+)?(?P<rel>last|this|next)\s+week", resolve_weekday_of_week),
    _rule(_WD, resolve_weekday, need="prep"),  # not "Ash Wednesday", "the Sunday mass"
    _rule(r"the\s+weekend", resolve_weekend),
    # months and dates with month names
    _rule(rf"{_REL_RE}\s+{_MONTH}", resolve_rel_month),
    _rule(rf"{_MONTH}(?:\s*,)?\s+(?:of\s+)?{_YEAR}", resolve_month_year),
    _rule(_MONTH, resolve_month, need="name"),
    _rule(
        rf"(?:{_WD}(?:\s*,)?\s+)?(?:the\s+)?{_DAY}(?:\s+of)?\s+{_MONTH}{_OPT_YEAR}", resolve_date
    ),
    _rule(rf"(?:{_WD}(?:\s*,)?\s+)?{_MONTH}\s+(?:the\s+)?{_DAY}{_OPT_YEAR}", resolve_date),
    # "on the 14th", "by the 1st": a day of a month left unsaid (never "the 5 of us")
    _rule(r"the\s+(?P<dn>[12]\d|3[01]|0?[1-9])(?:st|nd|rd|th)", resolve_ordinal_day, need="prep"),
    _rule(
        rf"{_MONTH}\s+{_DAY}\s*[-–—]\s*(?P<day2>\d{{1,2}})(?:st|nd|rd|th)?\b{_OPT_YEAR}",
        resolve_day_range,
    ),
    _rule(
        rf"{_DAY}\s*[-–—]\s*(?P<day2>\d{{1,2}})(?:st|nd|rd|th)?(?:\s+of)?\s+{_MONTH}{_OPT_YEAR}",
        resolve_day_range,
    ),
    # numeric dates
    _rule(
        r"(?P<y>\d{4})-(?P<mo>\d{2})-(?P<d>\d{2})"
        r"(?:[T ](?P<time>\d{2}:\d{2}(?::\d{2}(?:[.,]\d{1,6})?)?)(?:Z|[+-]\d{2}(?::?\d{2})?)?)?",
        resolve_iso,
    ),
    _rule(r"(?P<y>\d{4})-(?P<mo>0[1-9]|1[0-2])(?!-\d)", resolve_iso_month),
    # ISO week numbers, as shift workers and Scandinavians date things
    _rule(
        rf"{_ISO_WEEK}\s*(?:of|,|in)?\s*(?P<y>(?:19|20)\d{{2}})",
        resolve_iso_week,
    ),
    _rule(_ISO_WEEK, resolve_iso_week, need="prep"),  # "in week 5": of the year spoken in
    # "in 2024/06", "2025.01": a month written year first, as in Japan or China
    _rule(
        r"(?P<y>(?:19|20)\d{2})(?:/(?P<mo>0?[1-9]|1[0-2])|\.(?P<mo2>0[1-9]|1[0-2]))(?![/.]?\d)",
        resolve_iso_month,
    ),
    _rule(
        rf"(?P<y>\d{{4}})(?P<sep>[/.])(?P<mo>\d{{1,2}})(?P=sep)(?P<d>\d{{1,2}})(?:\s*\({_WD}\))?",
        resolve_ymd,
    ),
    _rule(
        r"(?P<a>\d{1,2})(?P<sep>[/.-])(?P<b>\d{1,2})(?P=sep)(?P<y>\d{4}|\d{2})",
        resolve_numeric_date,
    ),
    # a day without its year: two digits each ("03/31") stand alone; "5/15" needs "on", "by"...
    _rule(r"(?<![\d/.])(?P<a>\d{2})/(?P<b>\d{2})(?!/)", resolve_numeric_day),
    _rule(r"(?<![\d/.])(?P<a>\d{1,2})/(?P<b>\d{1,2})(?!/)", resolve_numeric_day, need="prep"),
    # years and decades
    _rule(
        r"(?P<y1>(?:1[89]|2[01])\d{2})\s*(?:[-–—]|to)\s*(?P<y2>(?:1[89]|2[01])\d{2}|\d{2})",
        resolve_year_range,
    ),
    _rule(r"the\s+year\s+(?P<year>\d{4})", resolve_year),
    _rule(r"(?P<year>(?:1[89]|2[01])\d{2})", resolve_year, need="prep"),
    _rule(r"(?P<year>['’]\d{2})", resolve_year, need="prep"),
    _rule(r"(?:the\s+)?(?P<dec>(?:1[89]|2[01])\d)0['’]?s", resolve_decade),
    _rule(r"the\s+['’]?(?P<d>\d)0['’]?s", resolve_short_decade),
    _rule(
        r"the\s+(?:very\s+)?(?P<part>early|mid|late)(?:\s*-\s*|\s+)['’]?(?P<d>\d)0['’]?s",
        resolve_short_decade_part,
    ),
    # quarters, halves, US holidays, split-year seasons, weeks of, months of another year
    _rule(
        rf"(?:in\s+)?(?:Q(?P<q>[1-4])|H(?P<h>[12]))(?:\s+|\s*/\s*|\s*-\s*)?{_YEAR}?",
        resolve_quarter,
    ),
    _rule(
        rf"(?:the\s+)?(?P<qw>first|second|third|fourth|last)\s+(?:(?P<quarter>quarter)|(?P<half>half))"
        rf"(?:\s+of)?(?:\s+{_YEAR})?",
        resolve_quarter,
    ),
    _rule(rf"(?:on\s+)?{US_HOLIDAY}(?:(?:\s*,)?\s+{_YEAR})?", resolve_us_holiday),
    _rule(
        rf"{_SEASON}\s+(?P<y1>\d{{4}}|\d{{2}})\s*[/-]\s*(?:\d{{4}}|\d{{2}})", resolve_split_season
    ),
    _rule(
        r"(?:the\s+)?week\s+(?:of|beginning|starting|commencing)\s+(?P<d>[^,;?!]{6,40}\d)(?!\d)",
        resolve_week_of,
    ),
    _rule(
        rf"(?:the\s+)?(?:(?P<md>[12]\d|3[01]|0?[1-9])(?:st|nd|rd|th)?\s+(?:of\s+)?)?{_MONTH}\s+"
        r"(?:(?P<yrel>last|this|next)\s+year|(?P<bl>before\s+last))",
        resolve_month_rel_year,
    ),
    _rule(rf"(?:on\s+)?the\s+(?P<fl>last|first)\s+day\s+of\s+{_YEAR}", resolve_last_day_of),
    # holidays and anniversaries
    _rule(
        rf"(?:(?P<rel>last|next|this\s+past|this\s+coming|the\s+previous)\s+)?(?:the\s+)?{HOLIDAY}"
        rf"(?:(?:\s*,)?\s+{_YEAR}|\s+(?P<gone>just\s+gone|before\s+last)|\s+(?P<yrel>last|next|this)\s+year)?",
        resolve_holiday,
    ),
    _rule(rf"{_NUM}\s+(?P<hols>christmases|easters|halloweens|valentines)\s+ago", resolve_holiday),
    _rule(
        r"(?:this|about\s+this|around\s+this)\s+time\s+(?:last\s+year|(?P<num>\w+)\s+years\s+ago)",
        resolve_this_time,
    ),
    _rule(rf"(?:the\s+)?{_SEASON}\s+before\s+last", resolve_season_before_last),
    _rule(
        rf"(?:the\s+|this\s+)?{_SEASON}\s+(?:just\s+gone|that\s+just\s+(?:ended|finished))",
        resolve_just_gone,
    ),
    # seasons
    _rule(rf"(?:the\s+)?{_SEASON}(?:\s+of)?\s+{_YEAR}", resolve_season_year),
    _rule(rf"{_REL_RE}\s+{_SEASON}", resolve_rel_season),
    _rule(rf"(?:the\s+)?{_SEASON}(?!\s+of\b)", resolve_season, need="prep"),
    # clock times: alone, on the reference day ("at 3pm"); see Chart.nodes for "8 May at 3pm"
    _rule(
        r"(?P<h>[01]?\d|2[0-3]):(?P<mi>[0-5]\d)(?::(?P<s>[0-5]\d))?(?:\s*(?P<ap>[ap])(?:\.\s?m\b\.?|\s?m\b))?",
        resolve_clock,
        need="prep",
        clock=True,
    ),
    _rule(
        r"(?P<h>1[0-2]|0?[1-9])\s*(?P<ap>[ap])(?:\.\s?m\b\.?|\s?m\b)",
        resolve_clock,
        "prep",
        clock=True,
    ),
    _rule(r"(?P<word>noon|midday|midnight)", resolve_clock, need="prep", clock=True),
]

MODIFIER = re.compile(
    r"(?:the\s+)?(?:very\s+)?(?P<part>early|mid|late)(?:\s*-\s*|\s+)"
    r"|(?:the\s+)?(?P<part2>beginning|start|middle|end)\s+of\s+"
    r"|(?:the\s+)?(?P<part3>first|second|latter)\s+half\s+of\s+",
    re.IGNORECASE,
)
OPERATOR = re.compile(
    r"(?:(?P<since>ever\s+since|since|starting|beginning|as\s+from)"
    r"|(?P<until>up\s+until|up\s+till|up\s+to|until|till|til|['’]til|through|thru)"
    r"|(?P<before>before|prior\s+to|earlier\s+than)"
    r"|(?P<after>after|later\s+than)"
    r"|(?P<by>by)"
    r"|(?P<within>within)"
    r"|(?P<from>from)"
    r"|(?P<point>sometime\s+(?:in|during|around|on)|at\s+some\s+point\s+(?:in|during)"
    r"|in|on|during|at|around|over|throughout))\s+",
    re.IGNORECASE,
)
OPERATOR_KIND = {"by": "until", "within": "point", "from": "point"}
NAME_BLIND = frozenset({"by", "within"})  # operators that do not make a "name" node a time
LEAD_PREP = re.compile(r"(?:from|on|in|at|during)\s+", re.IGNORECASE)  # "starting on Monday"
RANGE_TO = re.compile(r"\s*[-–—]\s*|\s+(?:to|until|till|through|thru)\s+", re.IGNORECASE)
AND = re.compile(r"\s+and\s+", re.IGNORECASE)
BETWEEN = re.compile(r"between\s+", re.IGNORECASE)
ONWARDS = re.compile(r"\s+(?:onwards?|forwards?|on)\b", re.IGNORECASE)
AT_SEP = re.compile(r"(?:\s*,\s*|\s+)(?:at\s+|@\s*|around\s+)?", re.IGNORECASE)
ON_SEP = re.compile(r"(?:\s*,\s*|\s+)(?:on\s+)?", re.IGNORECASE)
WORD_START = re.compile(r"(?<![\w'’])[\w'’]")
