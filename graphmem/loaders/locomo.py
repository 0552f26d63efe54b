"""LoCoMo conversations (``locomo10.json``; ``.json.gz`` too).

The file is a list of samples (a single sample object is accepted too), streamed one
at a time. A sample has ``sample_id`` and ``conversation``: ``speaker_a``,
``speaker_b``, ``session_<n>`` (a list of turns ``{speaker, dia_id: "D<n>:<k>", text,
img_url?, blip_caption?}``) and ``session_<n>_date_time`` (``"1:56 pm on 8 May, 2023"``).

- scope (decision, as for LongMemEval): each sample is its own scope: the
  ``sample_id`` under the default scope, else ``<scope>/<sample_id>``;
- session = ``session_<n>``, yielded in numeric order; a date key whose session is
  absent is ignored; a session without a date is an error;
- turn = the turn's index in its session (``dia_id`` ``D<n>:<k>`` is normally turn
  ``k - 1`` of ``session_<n>``); speaker = the turn's ``speaker``; no role;
- text: the turn's text; a shared image's ``blip_caption`` is appended as
  ``[image: <caption>]`` (the questions refer to it);
- timestamp: the session's date-time, wall-clock time in the loader's ``tz`` (default
  UTC), shared by all its turns;
- line: the line where the sample starts.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from datetime import datetime, tzinfo
from functools import partial
from pathlib import Path
from typing import Any

from .json_stream import JsonDocumentLoader, has_key, looks_like_json_document
from .record import Record, RecordError, Reporter
from .times import make_zone_time, parse_time
from .turns import Turn, labelled, scoped, session_records

_SESSION = re.compile(r"^session_(\d+)$")
_DATE = re.compile(
    r"^\s*(\d{1,2}):(\d{2})\s*([ap])\.?\s*m\.?\s+on\s+(\d{1,2})\s+([A-Za-z]+)\.?,?\s+(\d{4})\s*$",
    re.IGNORECASE,
)
_MONTHS = {
    name: i
    for i, names in enumerate(
        [
            ("jan", "january"),
            ("feb", "february"),
            ("mar", "march"),
            ("apr", "april"),
            ("may",),
            ("jun", "june"),
            ("jul", "july"),
            ("aug", "august"),
            ("sep", "sept", "september"),
            ("oct", "october"),
            ("nov", "november"),
            ("dec", "december"),
        ],
        start=1,
    )
    for name in names
}


def parse_date(value: Any, tz: tzinfo | None) -> datetime:
    """``"1:56 pm on 8 May, 2023"`` as wall-clock time in ``tz``."""
    if isinstance(value, str):
        m = _DATE.match(value)
        if m:
            hour, minute, ampm, day, month_name, year = m.groups()
            month = _MONTHS.get(month_name.lower())
            h = int(hour)
            if month is None or not 1 <= h <= 12:
                raise RecordError(f"cannot read {value!r} as a date-time")
            h = h % 12 + (12 if ampm.lower() == "p" else 0)
            return make_zone_time(tz, int(year), month, int(day), h, int(minute))
    return parse_time(value, tz, field="date_time")


def session_numbers(conversation: dict[str, Any]) -> list[int]:
    return sorted(int(m.group(1)) for key in conversation if (m := _SESSION.match(key)))


def _turn(turn: dict[str, Any], timestamp: datetime) -> Turn | None:
    speaker = turn.get("speaker")
    if not isinstance(speaker, str) or not speaker.strip():
        raise RecordError(f"speaker: expected a name, got {speaker!r}")
    text = turn.get("text", "")
    if not isinstance(text, str):
        raise RecordError(f"text: expected a string, got {text!r}")
    caption = turn.get("blip_caption")
    if isinstance(caption, str) and caption.strip():
        text = f"{text} [image: {caption.strip()}]".strip()
    if not text.strip():
        return None
    return Turn(speaker=speaker.strip(), text=text, timestamp=timestamp)


class LoCoMoLoader(JsonDocumentLoader):
    name = "locomo"
    item_kind = "sample"

    def sniff(self, path: Path, head: str) -> bool:
        if not looks_like_json_document(head):
            return False
        if has_key(head, "speaker_a", "dia_id", "session_1_date_time"):
            return True
        return has_key(head, "qa") and has_key(head, "evidence") and has_key(head, "category")

    def read_item(
        self, sample: dict[str, Any], line: int, scope: str, tz: tzinfo | None, reporter: Reporter
    ) -> Iterator[Record]:
        sample_id = sample.get("sample_id")
        if not isinstance(sample_id, str) or not sample_id.strip():
            reporter.error("sample has no sample_id", line)
            return
        conversation = sample.get("conversation")
        if not isinstance(conversation, dict):
            reporter.error(f"sample {sample_id}: no 'conversation' object", line)
            return
        sample_scope = scoped(scope, sample_id)
        for n in session_numbers(conversation):
            name = f"session_{n}"
            turns = conversation[name]
            try:
                if not isinstance(turns, list):
                    raise RecordError("expected a list of turns")
                date = conversation.get(f"{name}_date_time")
                if date is None:
                    raise RecordError(f"no {name}_date_time")
                timestamp = parse_date(date, tz)
            except RecordError as exc:
                reporter.error(f"sample {sample_id}, {name}: {exc}", line)
                continue
            yield from session_records(
                labelled(turns, "dia_id"),
                partial(_turn, timestamp=timestamp),
                reporter=reporter,
                line=line,
                scope=sample_scope,
                session=name,
                where=f"sample {sample_id}, {name}",
                kind="turn",
                numbering="position",
            )


LOADER = LoCoMoLoader()
