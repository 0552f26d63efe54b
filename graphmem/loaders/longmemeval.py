"""LongMemEval question entries (``longmemeval_s*.json``, ``.json.gz`` too).

The file is a list of question entries (a single entry object is accepted too),
streamed one at a time. An entry has ``question_id``, ``haystack_session_ids``,
``haystack_dates`` (``"2023/05/20 (Sat) 02:21"``) and ``haystack_sessions`` (lists of
turns ``{role, content, has_answer?}``), the three lists of equal length. Each turn of
haystack session ``i`` becomes an episode:

- scope (decision): every question has its own haystack, so each entry is its own
  scope: the ``question_id`` under the default scope, else ``<scope>/<question_id>``;
- session = ``haystack_session_ids[i]``; turn = the turn's index in that session;
  speaker = role = ``user`` / ``assistant``;
- timestamp = the session's date, as wall-clock time in the loader's ``tz`` (default
  UTC); all turns of a session share it, and their order is ``turn``;
- order (decision): an entry's sessions are yielded in chronological order (a stable
  sort on the dates, haystack order breaking ties), because the store takes a scope's
  writes in time order and the haystack lists are not sorted;
- line: the line where the entry starts.

The question itself (``question``, ``question_date``, ``answer``,
``answer_session_ids``) is for the benchmark, not a turn, and is not yielded.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from datetime import datetime, tzinfo
from functools import partial
from pathlib import Path
from typing import Any

from .json_stream import JsonDocumentLoader, has_key, looks_like_json_document
from .messages import normalise_role
from .record import Record, RecordError, Reporter
from .times import make_zone_time, parse_time
from .turns import Turn, scoped, session_records

_DATE = re.compile(
    r"^\s*(\d{4})/(\d{1,2})/(\d{1,2})\s*(?:\([A-Za-z]+\))?\s*(\d{1,2}):(\d{2})(?::(\d{2}))?\s*$"
)


def parse_date(value: Any, tz: tzinfo | None) -> datetime:
    """``"2023/05/20 (Sat) 02:21"`` as wall-clock time in ``tz``."""
    if isinstance(value, str):
        m = _DATE.match(value)
        if m:
            y, mo, d, h, mi, s = m.groups()
            return make_zone_time(tz, int(y), int(mo), int(d), int(h), int(mi), int(s or 0))
    return parse_time(value, tz, field="haystack date")


def _turn(turn: dict[str, Any], timestamp: datetime) -> Turn | None:
    role = normalise_role(turn.get("role"))
    if role not in {"user", "assistant"}:
        raise RecordError(f"unknown role {turn.get('role')!r}")
    text = turn.get("content")
    if not isinstance(text, str):
        raise RecordError(f"content: expected a string, got {text!r}")
    if not text.strip():
        return None
    return Turn(speaker=role, role=role, text=text, timestamp=timestamp)


class LongMemEvalLoader(JsonDocumentLoader):
    name = "longmemeval"
    item_kind = "question entry"

    def sniff(self, path: Path, head: str) -> bool:
        return looks_like_json_document(head) and has_key(
            head, "haystack_sessions", "haystack_session_ids", "haystack_dates"
        )

    def read_item(
        self, entry: dict[str, Any], line: int, scope: str, tz: tzinfo | None, reporter: Reporter
    ) -> Iterator[Record]:
        qid = entry.get("question_id")
        if not isinstance(qid, str) or not qid.strip():
            reporter.error("entry has no question_id", line)
            return
        ids = entry.get("haystack_session_ids")
        dates = entry.get("haystack_dates")
        sessions = entry.get("haystack_sessions")
        if not all(isinstance(x, list) for x in (ids, dates, sessions)):
            reporter.error(
                f"question {qid}: haystack_session_ids, haystack_dates and haystack_sessions "
                "must be lists",
                line,
            )
            return
        if not len(ids) == len(dates) == len(sessions):
            reporter.error(
                f"question {qid}: {len(ids)} session ids, {len(dates)} dates and "
                f"{len(sessions)} sessions (they must match)",
                line,
            )
            return
        entry_scope = scoped(scope, qid)
        dated: list[tuple[datetime, int]] = []
        for i, date in enumerate(dates):
            try:
                if not isinstance(ids[i], str) or not ids[i].strip():
                    raise RecordError(f"session id {ids[i]!r} is not a string")
                dated.append((parse_date(date, tz), i))
            except RecordError as exc:
                reporter.error(f"question {qid}, session {i}: {exc}", line)
        dated.sort(key=lambda pair: pair[0])
        for timestamp, i in dated:
            session = sessions[i]
            if not isinstance(session, list):
                reporter.error(f"question {qid}, session {ids[i]}: expected a list of turns", line)
                continue
            yield from session_records(
                enumerate(session),
                partial(_turn, timestamp=timestamp),
                reporter=reporter,
                line=line,
                scope=entry_scope,
                session=ids[i],
                where=f"question {qid}, session {ids[i]}",
                kind="turn",
                numbering="position",
            )


LOADER = LongMemEvalLoader()
