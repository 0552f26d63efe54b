"""The words of time phrases: months, weekdays, seasons, number words, units, and the
small readers that turn a matched word into its value.

>>> number_of("twenty-one"), number_of("a couple of"), unit_of("wks")[0]
(21, 2, 'week')
>>> year_of("'23"), year_of("'99")
(2023, 1999)
"""

from __future__ import annotations

import re
from datetime import time

from dateutil.relativedelta import relativedelta

_MONTH_ABBR = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]
_MONTHS = {m: i for i, m in enumerate(_MONTH_ABBR, 1)}
_WEEKDAYS = {d: i for i, d in enumerate(["mon", "tue", "wed", "thu", "fri", "sat", "sun"])}
SEASON_START = {"spring": 3, "summer": 6, "autumn": 9, "fall": 9, "winter": 12}
REL = {
    "this": 0,
    "current": 0,
    "the current": 0,
    "last": -1,
    "previous": -1,
    "the previous": -1,
    "this past": -1,
    "next": 1,
    "coming": 1,
    "the coming": 1,
    "this coming": 1,
    "come": 1,  # "where will I live come June?"
}
ONES = ["one", "two", "three", "four", "five", "six", "seven", "eight", "nine"]
TEENS = "ten eleven twelve thirteen fourteen fifteen sixteen seventeen eighteen nineteen".split()  # noqa: SIM905
TENS = ["twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"]
_NUMBER_WORDS = {w: i for i, w in enumerate(ONES, 1)} | {w: i for i, w in enumerate(TEENS, 10)}
_NUMBER_WORDS |= {w: 10 * i for i, w in enumerate(TENS, 2)} | {"a": 1, "an": 1}
_UNITS = {
    "second": ("instant", relativedelta(seconds=1)),
    "minute": ("instant", relativedelta(minutes=1)),
    "hour": ("instant", relativedelta(hours=1)),
    "day": ("day", relativedelta(days=1)),
    "week": ("week", relativedelta(weeks=1)),
    "fortnight": ("week", relativedelta(weeks=2)),
    "month": ("month", relativedelta(months=1)),
    "year": ("year", relativedelta(years=1)),
    "decade": ("decade", relativedelta(years=10)),
}
UNIT_ALIASES = {"sec": "second", "min": "minute", "hr": "hour", "yr": "year", "wk": "week",
                 "mo": "month", "mth": "month"}  # fmt: skip
# Words that, following "may", make it the modal verb rather than the month.
_MODAL_FOLLOWERS = frozenset(
    """be have not also well want need take get help go come make seem find feel look still
    just even never only or include require cause contain vary differ affect lead result
    apply work use happen change mean sound hurt become already actually possibly perhaps
    probably sometimes really suggest indicate explain know""".split()  # noqa: SIM905
)


def words_of(s: str) -> str:
    return re.sub(r"\s+", " ", s.strip().lower())


def number_of(s: str) -> int:
    w = words_of(s)
    if w.isdigit():
        return int(w)
    if "couple" in w:
        return 2
    if "few" in w:
        return 3
    return sum(_NUMBER_WORDS[part] for part in re.split(r"[\s-]+", w))


def unit_of(s: str) -> tuple[str, relativedelta]:
    w = s.lower()
    w = w[:-1] if w.endswith("s") else w
    return _UNITS[UNIT_ALIASES.get(w, w)]


def month_of(m: re.Match) -> int:
    return _MONTHS[m["mon"][:3].lower()]


def weekday_of(m: re.Match) -> int:
    return _WEEKDAYS[m["wd"][:3].lower()]


def year_of(s: str) -> int:
    digits = s.lstrip("'’")
    if len(digits) == 2:  # POSIX two-digit years
        return int(digits) + (2000 if int(digits) < 69 else 1900)
    return int(digits)


def day_of(s: str) -> int:
    return int(re.match(r"\d+", s).group())


def may_is_verb(m: re.Match) -> bool:
    """True when "may" is the modal verb: the next word is verb-like ("2 may be")."""
    if m.groupdict().get("mon", "").lower() != "may":
        return False
    after = re.match(r"\s+([a-z]+)", m.string[m.end() :], re.I)
    return bool(after) and after.group(1).lower() in _MODAL_FOLLOWERS


def clock_of(m: re.Match) -> time | None:
    """The time of day a clock-time match names, or None if it is not a valid one."""
    groups = m.groupdict()
    if groups.get("word"):
        return time(12) if groups["word"].lower() in ("noon", "midday") else time(0)
    hour, minute = int(groups["h"]), int(groups.get("mi") or 0)
    second = int(groups.get("s") or 0)
    if groups.get("ap"):
        if not 1 <= hour <= 12:
            return None
        hour = hour % 12 + (12 if groups["ap"].lower() == "p" else 0)
    return time(hour, minute, second)


PARTS = {
    "early": "early",
    "beginning": "early",
    "start": "early",
    "mid": "mid",
    "middle": "mid",
    "late": "late",
    "end": "late",
    "first": "first",
    "second": "second",
    "latter": "second",
}
