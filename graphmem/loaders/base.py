"""Streaming readers that turn conversation logs and fact files into records.

A *loader* reads one file format and yields ``Record`` objects: a conversation turn
(``Record.episode``) or a structured fact (``Record.fact``), each with the file and the
1-based line it came from. Loaders only parse; batching, idempotency and extraction are
the store's business.

Formats (``FORMATS``, also the auto-detection order): ``facts-csv``, ``facts-jsonl``,
``jsonl``, ``longmemeval``, ``locomo``, ``chatgpt``, ``claude``, ``openai``,
``whatsapp``, ``transcript``. Each lives in its own module of this package.

Conventions shared by every format:

- **Streaming.** Line formats (JSONL, CSV, WhatsApp, transcripts) are read line by line.
  JSON documents whose top level is a list (ChatGPT, Claude, LoCoMo, LongMemEval, OpenAI
  message lists) are split into their top-level items by a small scanner that keeps only
  one item in memory at a time and knows the line each item starts on; a malformed item
  is reported and skipped without losing the rest. (A top-level *object* is read whole.)
- **Compression.** Gzip input is recognised by its magic bytes, whatever the file name.
- **Text.** UTF-8, with or without a byte-order mark.
- **Time.** Every episode gets an aware UTC timestamp. Times written without an offset
  are read as wall-clock time in the ``tz`` passed to the loader (default UTC). Numbers
  are seconds since the Unix epoch; numbers of 10**11 or more are milliseconds. A
  string must name a full date: a bare "10:00" or "Tuesday" is an error, never "today".
- **Roles.** Role-based formats use ``speaker == role``: ``"user"`` or ``"assistant"``
  (``human``/``gpt``/``bot``/``ai``/``model`` are aliases). System, developer and tool
  messages are not conversation turns and are skipped, as are turns with empty text.
- **Turns.** ``Episode.turn`` is the 0-based position of the turn in its session.
- **Errors.** A malformed record raises ``LoadError`` whose message starts with
  ``path:line:``. Through ``iter_records(..., skip_bad=True, report=[...])`` the error is
  appended to ``report`` and loading goes on with the next record. Problems with the
  file as a whole (unknown format, missing CSV columns, not JSON at all) always raise.

What the formats share lives here and in ``turns``: a format's loader subclasses
``FileLoader`` (or ``JsonDocumentLoader``, for JSON lists of conversations, samples...),
which gives it ``records``; ``turns`` builds the ``Episode`` records from the turns a
format has read, numbering them and reporting the bad ones.
"""

from __future__ import annotations

import gzip
import importlib
import itertools
import json
import re
import zlib
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from datetime import UTC, datetime, tzinfo
from pathlib import Path
from typing import IO, Any, Protocol, TypeVar, runtime_checkable

from dateutil import parser as date_parser
from pydantic import ValidationError

from graphmem.errors import GraphmemError, LoadError
from graphmem.model import DEFAULT_SCOPE, Episode, FactInput, Provenance
from graphmem.time.instant import NEG_INF, POS_INF, is_infinite, resolve_tz, to_instant

__all__ = [
    "FORMATS",
    "ErrorHandler",
    "Loader",
    "Record",
    "Reporter",
    "RecordError",
    "detect",
    "get_loader",
    "iter_records",
    "loads_json",
]

HEAD_SIZE = 64 * 1024
CHUNK_SIZE = 1 << 20

#: Every format, in the order auto-detection tries them (most specific first).
FORMATS: tuple[str, ...] = (
    "facts-csv",
    "facts-jsonl",
    "jsonl",
    "longmemeval",
    "locomo",
    "chatgpt",
    "claude",
    "openai",
    "whatsapp",
    "transcript",
)

ErrorHandler = Callable[[LoadError], None]
_T = TypeVar("_T")


@dataclass(frozen=True, slots=True)
class Record:
    """One thing read from a log: a conversation turn or a structured fact."""

    path: str  # the file
    line: int  # 1-based; for JSON documents the line where the item starts (best effort)
    episode: Episode | None = None
    fact: FactInput | None = None

    def __post_init__(self) -> None:
        if (self.episode is None) == (self.fact is None):
            raise ValueError("a Record holds exactly one of episode or fact")


@runtime_checkable
class Loader(Protocol):
    name: str

    def sniff(self, path: Path, head: str) -> bool:
        """Whether the file looks like this format, from its name and first ~64 KiB."""
        ...

    def records(
        self,
        path: Path,
        *,
        scope: str = DEFAULT_SCOPE,
        tz: tzinfo | None = None,
        on_error: ErrorHandler | None = None,
    ) -> Iterator[Record]:
        """Stream the file's records. A malformed record raises ``LoadError`` unless
        ``on_error`` is given, in which case it receives the error and the record is
        skipped."""
        ...


class RecordError(Exception):
    """Internal: what is wrong with a record, before the loader adds file and line."""


def load_error(message: str, path: Path | str, line: int | None = None) -> LoadError:
    if line is None:
        return LoadError(f"{path}: {message}", path=str(path))
    return LoadError(message, path=str(path), line=line)


class Reporter:
    """Raises a record's error, or hands it to ``on_error`` (skip-bad mode)."""

    __slots__ = ("path", "on_error")

    def __init__(self, path: Path | str, on_error: ErrorHandler | None = None):
        self.path = path
        self.on_error = on_error

    def error(self, message: str, line: int | None) -> None:
        err = load_error(message, self.path, line)
        if self.on_error is None:
            raise err
        self.on_error(err)

    def fatal(self, message: str, line: int | None = None) -> LoadError:
        """An error about the whole file; the caller raises it."""
        return load_error(message, self.path, line)

    def attempt(
        self, line: int, build: Callable[..., _T], /, *args: Any, **kwargs: Any
    ) -> _T | None:
        """``build(*args, **kwargs)``; if it raises ``RecordError``, that error is reported
        at ``line`` (see ``error``) and the result is None."""
        try:
            return build(*args, **kwargs)
        except RecordError as exc:
            self.error(str(exc), line)
            return None


class FileLoader:
    """The frame of every format's loader: ``records`` (see ``Loader``) sets up the
    file's ``Reporter`` and streams what ``read``, the format's own part, yields. A
    subclass sets ``name`` and defines ``sniff`` and ``read``."""

    name: str

    def records(
        self,
        path: Path,
        *,
        scope: str = DEFAULT_SCOPE,
        tz: tzinfo | None = None,
        on_error: ErrorHandler | None = None,
    ) -> Iterator[Record]:
        path = Path(path)
        yield from self.read(path, Reporter(path, on_error), scope, tz)

    def read(
        self, path: Path, reporter: Reporter, scope: str, tz: tzinfo | None
    ) -> Iterator[Record]:
        """The file's records; malformed ones go to ``reporter``."""
        raise NotImplementedError


# --------------------------------------------------------------------------- files


def is_gzip(path: Path | str) -> bool:
    with open(path, "rb") as fh:
        return fh.read(2) == b"\x1f\x8b"


def open_text(path: Path | str, *, newline: str | None = None, errors: str = "strict") -> IO[str]:
    """Open a file for reading text, gunzipping it when it is gzip."""
    if is_gzip(path):
        return gzip.open(path, "rt", encoding="utf-8-sig", errors=errors, newline=newline)
    return open(path, encoding="utf-8-sig", errors=errors, newline=newline)  # noqa: SIM115


def read_head(path: Path | str, size: int = HEAD_SIZE) -> str:
    """Up to ``size`` characters from the start of the (decompressed) file, for sniffing."""
    pieces: list[str] = []
    got = 0
    try:
        with open_text(path, errors="replace") as fh:
            while got < size:
                piece = fh.read(min(4096, size - got))
                if not piece:
                    break
                pieces.append(piece)
                got += len(piece)
    except (OSError, EOFError, zlib.error):
        pass  # unreadable or truncated: sniff what we have
    return "".join(pieces)


def inner_suffix(path: Path | str) -> str:
    """The file's extension, ignoring a trailing ``.gz``: ``a.jsonl.gz`` -> ``.jsonl``."""
    name = Path(path).name.lower()
    if name.endswith(".gz"):
        name = name[:-3]
    return Path(name).suffix


def file_stem(path: Path | str) -> str:
    """The file's name without ``.gz`` and its extension (default session name)."""
    name = Path(path).name
    if name.lower().endswith(".gz"):
        name = name[:-3]
    return Path(name).stem or name


def _read_failure(exc: BaseException) -> str:
    if isinstance(exc, EOFError):
        return "the compressed file ends early (truncated?)"
    if isinstance(exc, UnicodeDecodeError):
        return f"not UTF-8 text ({exc.reason})"
    if isinstance(exc, gzip.BadGzipFile | zlib.error):
        return f"damaged gzip data ({exc})"
    return f"cannot read the file ({exc})"


_READ_ERRORS = (OSError, EOFError, zlib.error, UnicodeDecodeError)


def iter_lines(
    path: Path, reporter: Reporter, *, newline: str | None = None
) -> Iterator[tuple[int, str]]:
    """(line number, line without its end-of-line) for each line, streaming.

    A read failure midway (truncated gzip, bad UTF-8) is reported at the line it hit,
    and ends the stream.
    """
    lineno = 0
    try:
        with open_text(path, newline=newline) as fh:
            for lineno, line in enumerate(fh, start=1):  # noqa: B007
                yield lineno, line.rstrip("\r\n")
    except _READ_ERRORS as exc:
        reporter.error(_read_failure(exc), lineno + 1)


def first_lines(head: str, count: int = 1) -> list[str]:
    """The first ``count`` non-blank *complete* lines of a sniffing head."""
    lines = head.splitlines(keepends=True)
    if len(head) >= HEAD_SIZE and lines and not lines[-1].endswith(("\n", "\r")):
        lines.pop()  # cut off by the head limit
    out: list[str] = []
    for line in lines:
        if line.strip():
            out.append(line.strip())
            if len(out) == count:
                break
    return out


def loads_json(text: str) -> Any:
    """``json.loads``, with absurd nesting reported as invalid JSON instead of crashing."""
    try:
        return json.loads(text)
    except RecursionError:
        raise json.JSONDecodeError("nesting too deep", text, 0) from None


def json_object_line(line: str) -> dict[str, Any] | None:
    try:
        value = loads_json(line)
    except ValueError:
        return None
    return value if isinstance(value, dict) else None


#: What ``decode_json`` returns for text that is not JSON (after reporting it).
NOT_JSON: Any = object()


def decode_json(text: str, reporter: Reporter, line: int) -> Any:
    """The JSON value of ``text``, which starts at ``line``; if it is not valid JSON, the
    error is reported at the line it is on and the result is ``NOT_JSON``."""
    try:
        return loads_json(text)
    except json.JSONDecodeError as exc:
        reporter.error(f"invalid JSON: {exc.msg} (column {exc.colno})", line + exc.lineno - 1)
        return NOT_JSON


def iter_json_objects(path: Path, reporter: Reporter) -> Iterator[tuple[int, dict[str, Any]]]:
    """(line number, object) for each line of a JSON Lines file, streaming. Blank lines are
    skipped; a line that is not a JSON object is reported."""
    for lineno, line in iter_lines(path, reporter):
        if not line.strip():
            continue
        data = decode_json(line, reporter, lineno)
        if data is NOT_JSON:
            continue
        if not isinstance(data, dict):
            reporter.error(f"expected a JSON object, got {type(data).__name__}", lineno)
            continue
        yield lineno, data


def looks_like_json_document(head: str) -> bool:
    return head.lstrip().startswith(("[", "{"))


def has_key(head: str, *keys: str) -> bool:
    """Whether any of ``keys`` occurs as a JSON object key in ``head``."""
    return any(re.search(rf'"{re.escape(key)}"\s*:', head) for key in keys)


# --------------------------------------------------------------------------- JSON documents


@dataclass(frozen=True, slots=True)
class JsonItem:
    line: int  # where the item starts
    value: Any
    document: str | None = None  # the whole text, when the top level is an object


_IN_STRING = re.compile(r'["\\]')
# Runs of text that cannot change the nesting: anything but quotes and brackets (and, at
# the top level, commas), and complete strings. One regex call skips a whole run.
_STRING = r'"[^"\\]*(?:\\.[^"\\]*)*"'
_RUN_AT_TOP = re.compile(rf'(?:[^"\[\]{{}},]+|{_STRING})*')
_RUN_NESTED = re.compile(rf'(?:[^"\[\]{{}}]+|{_STRING})*')


class _ArraySplitter:
    """Split a JSON array, read in chunks, into the text of its elements.

    Start it just after the array's ``[``. Iterating yields ``(raw_line, start_line,
    text)`` for each element, where ``raw_line`` is the line ``text`` begins on and
    ``start_line`` the line of its first non-blank character; ``text`` is ``None`` when
    the input ends inside the array. After the closing ``]``, ``closed`` is true, ``rest``
    holds the rest of that chunk and ``line`` the line reached. Only strings and
    brackets are tracked; the elements are parsed (and so validated) by the caller.
    """

    def __init__(self, chunks: Iterable[str], line: int):
        self._chunks = chunks
        self.line = line
        self.closed = False
        self.rest = ""

    def _element(self, text: str) -> tuple[int, int, str]:
        raw_line = self.line
        body = text.lstrip()
        start_line = raw_line + text.count("\n", 0, len(text) - len(body))
        self.line += text.count("\n")
        return raw_line, start_line, text

    def __iter__(self) -> Iterator[tuple[int, int, str | None]]:
        depth = 0
        in_string = False
        escaped = False
        seen_element = False
        parts: list[str] = []
        for chunk in self._chunks:
            n = len(chunk)
            pos = 0
            seg = 0  # start of this chunk's part of the current element
            while pos < n:
                if escaped:
                    escaped = False
                    pos += 1
                    continue
                if in_string:
                    m = _IN_STRING.search(chunk, pos)
                    if m is None:
                        break
                    if m.group() == '"':
                        in_string = False
                        pos = m.end()
                    elif m.end() < n:
                        pos = m.end() + 1
                    else:
                        escaped = True
                        pos = n
                    continue
                run = (_RUN_AT_TOP if depth == 0 else _RUN_NESTED).match(chunk, pos)
                pos = run.end()
                if pos >= n:
                    break
                char = chunk[pos]
                pos += 1
                if char == '"':  # a string that goes on in the next chunk
                    in_string = True
                elif char in "[{":
                    depth += 1
                elif depth:
                    depth -= 1
                elif char == "}":
                    continue  # stray brace: the element's parser reports it
                else:  # "," or the closing "]"
                    parts.append(chunk[seg : pos - 1])
                    text = "".join(parts)
                    parts = []
                    seg = pos
                    if char == "]":
                        if text.strip() or seen_element:
                            yield self._element(text)
                        else:
                            self.line += text.count("\n")
                        self.closed = True
                        self.rest = chunk[pos:]
                        return
                    seen_element = True
                    yield self._element(text)
            parts.append(chunk[seg:])
        text = "".join(parts)
        raw_line, start_line, _ = self._element(text)
        yield raw_line, (start_line if text.strip() else self.line), None


def _chunks(fh: IO[str], first: str, counter: list[int]) -> Iterator[str]:
    """``first``, then the rest of ``fh`` in chunks; counts newlines read into counter[0]."""
    if first:
        yield first
    while True:
        chunk = fh.read(CHUNK_SIZE)
        if not chunk:
            return
        counter[0] += chunk.count("\n")
        yield chunk


def _decode_items(splitter: _ArraySplitter, reporter: Reporter) -> Iterator[JsonItem]:
    for raw_line, start_line, text in splitter:
        if text is None:
            reporter.error("the file ends inside the JSON list (truncated?)", start_line)
            return
        value = decode_json(text, reporter, raw_line)
        if value is not NOT_JSON:
            yield JsonItem(start_line, value)


def iter_json_items(path: Path, reporter: Reporter) -> Iterator[JsonItem]:
    """The items of a JSON document's top-level list, one at a time, with their lines.

    A top-level object is read whole and yielded as the single item (with
    ``document`` set to the text). A read failure midway is reported and ends the stream.
    """
    counter = [0]  # newlines read so far, for locating read failures
    try:
        with open_text(path) as fh:
            line = 1
            first = ""
            while True:
                chunk = fh.read(CHUNK_SIZE)
                if not chunk:
                    break
                counter[0] += chunk.count("\n")
                body = chunk.lstrip()
                line += chunk.count("\n", 0, len(chunk) - len(body))
                if body:
                    first = body
                    break
            if not first:
                raise reporter.fatal("empty file: expected a JSON document")
            if first.startswith("{"):
                text = "".join(_chunks(fh, first, counter))
                value = decode_json(text, reporter, line)
                if value is not NOT_JSON:
                    yield JsonItem(line, value, document=text)
                return
            if not first.startswith("["):
                raise reporter.fatal(f"not a JSON document (starts with {first[:20]!r})", line)
            splitter = _ArraySplitter(_chunks(fh, first[1:], counter), line)
            yield from _decode_items(splitter, reporter)
            if splitter.closed:
                rest = itertools.chain([splitter.rest], _chunks(fh, "", counter))
                for chunk in rest:
                    body = chunk.lstrip()
                    if body:
                        line = splitter.line + chunk.count("\n", 0, len(chunk) - len(body))
                        reporter.error("unexpected data after the end of the JSON list", line)
                        break
                    splitter.line += chunk.count("\n")
    except _READ_ERRORS as exc:
        reporter.error(_read_failure(exc), counter[0] + 1)


def array_element_lines(document: str, key: str, first_line: int = 1) -> list[int]:
    """Best effort: the start lines of the elements of the list under ``key`` in a JSON
    object's text (first occurrence of the key)."""
    m = re.search(rf'"{re.escape(key)}"\s*:\s*\[', document)
    if m is None:
        return []
    line = first_line + document.count("\n", 0, m.end())
    splitter = _ArraySplitter([document[m.end() :]], line)
    return [start for _, start, text in splitter if text is not None]


class JsonDocumentLoader(FileLoader):
    """A format whose file is a JSON list of objects (a single object is accepted too):
    each object is read on its own by ``read_item``; an item that is not an object is
    reported as not an ``item_kind``."""

    item_kind: str  # what an item is, in errors: "conversation", "sample"...

    def read(
        self, path: Path, reporter: Reporter, scope: str, tz: tzinfo | None
    ) -> Iterator[Record]:
        for item in iter_json_items(path, reporter):
            if isinstance(item.value, dict):
                yield from self.read_item(item.value, item.line, scope, tz, reporter)
            else:
                kind = type(item.value).__name__
                reporter.error(f"expected a {self.item_kind} object, got {kind}", item.line)

    def read_item(
        self, data: dict[str, Any], line: int, scope: str, tz: tzinfo | None, reporter: Reporter
    ) -> Iterator[Record]:
        """The records of one item, which starts at ``line``."""
        raise NotImplementedError


# --------------------------------------------------------------------------- values


_EPOCH_STRING = re.compile(r"^-?\d{9,13}(?:\.\d+)?$")
_INFINITE = {"inf", "+inf", "infinity", "+infinity", "forever", "-inf", "-infinity"}
_DEFAULT_A = datetime(1904, 1, 1)
_DEFAULT_B = datetime(1908, 2, 2)


def parse_time(
    value: Any,
    tz: tzinfo | str | None = None,
    *,
    field: str = "timestamp",
    allow_infinite: bool = False,
) -> datetime:
    """An aware UTC instant from a log value (see the module notes); RecordError if not."""
    if value is None or (isinstance(value, str) and not value.strip()):
        raise RecordError(f"{field} is missing")
    try:
        if isinstance(value, bool):
            raise RecordError(f"{field}: expected a time, got {value!r}")
        if isinstance(value, int | float):
            result = to_instant(value / 1000 if abs(value) >= 1e11 else value, field=field)
        elif isinstance(value, str):
            text = value.strip()
            if _EPOCH_STRING.match(text):
                return parse_time(float(text), tz, field=field, allow_infinite=allow_infinite)
            if text.lower() in _INFINITE:
                if not allow_infinite:
                    raise RecordError(f"{field}: {value!r} is not a point in time")
                return to_instant(text, field=field)
            try:
                parsed = date_parser.isoparse(text)
            except (ValueError, OverflowError):
                parsed = _parse_loose(text, field)
            if parsed.tzinfo is None or parsed.utcoffset() is None:
                parsed = parsed.replace(tzinfo=resolve_tz(tz))
            result = parsed.astimezone(UTC)
        else:
            raise RecordError(f"{field}: expected a time, got {type(value).__name__}")
    except (GraphmemError, OverflowError, ValueError) as exc:
        if isinstance(exc, RecordError):
            raise
        raise RecordError(f"{field}: cannot read {value!r} as a time") from exc
    if is_infinite(result) and not allow_infinite:
        raise RecordError(f"{field}: {value!r} is out of range")
    return result


def _parse_loose(text: str, field: str) -> datetime:
    try:
        a = date_parser.parse(text, default=_DEFAULT_A)
        b = date_parser.parse(text, default=_DEFAULT_B)
    except (ValueError, OverflowError) as exc:
        raise RecordError(f"{field}: cannot read {text!r} as a time") from exc
    if a.date() != b.date():
        raise RecordError(f"{field}: {text!r} is not a complete date")
    return a


def make_zone_time(
    tz: tzinfo | None,
    year: int,
    month: int,
    day: int,
    hour: int = 0,
    minute: int = 0,
    second: int = 0,
) -> datetime:
    """A wall-clock time in ``tz`` (default UTC), as a UTC instant; RecordError if invalid."""
    try:
        local = datetime(year, month, day, hour, minute, second, tzinfo=resolve_tz(tz))
    except ValueError as exc:
        raise RecordError(f"invalid date/time: {exc}") from exc
    return local.astimezone(UTC)


_TEXT_PART_TYPES = {"text", "input_text", "output_text"}


def text_of(value: Any) -> str | None:
    """The text of a message's content: a string, a list of parts, or a dict with text."""
    if value is None:
        return None
    if isinstance(value, str):
        return value
    if isinstance(value, bool):
        return None
    if isinstance(value, int | float):
        return str(value)
    if isinstance(value, dict):
        for key in ("text", "content", "value"):
            if key in value:
                return text_of(value[key])
        return None
    if isinstance(value, list):  # content parts: keep the text ones
        texts = [
            text_of(part)
            for part in value
            if not (isinstance(part, dict) and part.get("type", "text") not in _TEXT_PART_TYPES)
        ]
        return "\n".join(t for t in texts if t)
    return None


ROLE_ALIASES = {
    "user": "user",
    "human": "user",
    "assistant": "assistant",
    "ai": "assistant",
    "bot": "assistant",
    "gpt": "assistant",
    "model": "assistant",
    "chatbot": "assistant",
    "system": "system",
    "developer": "system",
    "tool": "tool",
    "function": "tool",
    "ipython": "tool",
}
NON_TURN_ROLES = frozenset({"system", "tool"})


def normalise_role(value: Any) -> str | None:
    if not isinstance(value, str) or not value.strip():
        return None
    role = value.strip().lower()
    return ROLE_ALIASES.get(role, role)


def first_key(data: dict[str, Any], keys: Iterable[str]) -> tuple[str, Any] | None:
    """The first of ``keys`` present in ``data`` with a non-null value."""
    for key in keys:
        if data.get(key) is not None:
            return key, data[key]
    return None


def scoped(scope: str, key: str) -> str:
    """The scope for a dataset's own unit (a LongMemEval question, a LoCoMo sample):
    the key itself under the default scope, else ``scope/key``."""
    return key if scope == DEFAULT_SCOPE else f"{scope}/{key}"


class TurnCounter:
    """0-based turn numbers per (scope, session), in file order."""

    __slots__ = ("_next",)

    def __init__(self) -> None:
        self._next: dict[tuple[str, str], int] = {}

    def __call__(self, scope: str, session: str) -> int:
        key = (scope, session)
        turn = self._next.get(key, 0)
        self._next[key] = turn + 1
        return turn


def _validation_message(exc: ValidationError) -> str:
    parts = []
    for err in exc.errors():
        loc = ".".join(str(p) for p in err.get("loc", ()))
        parts.append(f"{loc}: {err.get('msg')}" if loc else str(err.get("msg")))
    return "; ".join(parts)


def make_episode(**fields: Any) -> Episode:
    try:
        return Episode(**fields)
    except ValidationError as exc:
        raise RecordError(_validation_message(exc)) from None


def _fact_string(data: dict[str, Any], key: str, *, required: bool) -> str | None:
    value = data.get(key)
    if value is None or (isinstance(value, str) and not value.strip()):
        if required:
            raise RecordError(f"{key} is missing")
        return None
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float | str):
        return str(value).strip()
    raise RecordError(f"{key}: expected a string, got {type(value).__name__}")


def make_fact(data: dict[str, Any], *, scope: str, tz: tzinfo | None, source: str) -> FactInput:
    """A FactInput from a row/object with subject, predicate, object, and optionally
    valid_from / valid_to (empty or missing = open end; ``from``/``to`` are aliases),
    scope (overrides the loader's), confidence (default 1), subject_type, object_type."""
    subject = _fact_string(data, "subject", required=True)
    predicate = _fact_string(data, "predicate", required=True)
    obj = _fact_string(data, "object", required=True)
    start = first_key(data, ("valid_from", "from"))
    end = first_key(data, ("valid_to", "to"))
    valid_from = NEG_INF
    valid_to = POS_INF
    if start is not None and not (isinstance(start[1], str) and not start[1].strip()):
        valid_from = parse_time(start[1], tz, field=start[0], allow_infinite=True)
    if end is not None and not (isinstance(end[1], str) and not end[1].strip()):
        valid_to = parse_time(end[1], tz, field=end[0], allow_infinite=True)
    if valid_from >= valid_to:
        raise RecordError("valid_from must be before valid_to (intervals are [from, to))")
    confidence: Any = data.get("confidence")
    if confidence is None or (isinstance(confidence, str) and not confidence.strip()):
        confidence = 1.0
    elif isinstance(confidence, bool):
        raise RecordError("confidence: expected a number")
    else:
        try:
            confidence = float(confidence)
        except (TypeError, ValueError):
            raise RecordError(f"confidence: cannot read {confidence!r} as a number") from None
    row_scope = _fact_string(data, "scope", required=False)
    try:
        return FactInput(
            subject=subject,
            predicate=predicate,
            object=obj,
            valid_from=valid_from,
            valid_to=valid_to,
            scope=row_scope or scope,
            confidence=confidence,
            subject_type=_fact_string(data, "subject_type", required=False),
            object_type=_fact_string(data, "object_type", required=False),
            provenance=Provenance(source=source, extractor="given"),
        )
    except ValidationError as exc:
        raise RecordError(_validation_message(exc)) from None


# --------------------------------------------------------------------------- registry


def _module_name(name: str) -> str:
    return "graphmem.loaders." + name.replace("-", "_")


_LOADERS: dict[str, Loader] = {}


def get_loader(name: str) -> Loader:
    """The loader of a format by name (``"chatgpt"``, ``"facts-csv"``...)."""
    key = name.strip().lower().replace("_", "-")
    if key not in FORMATS:
        raise LoadError(f"unknown log format {name!r}; known formats: {', '.join(FORMATS)}")
    loader = _LOADERS.get(key)
    if loader is None:
        loader = importlib.import_module(_module_name(key)).LOADER
        _LOADERS[key] = loader
    return loader


def detect(path: Path | str) -> Loader:
    """Guess a file's format from its name and first 64 KiB (see each ``sniff``)."""
    path = Path(path)
    if not path.is_file():
        raise load_error("no such file", path)
    head = read_head(path)
    for name in FORMATS:
        loader = get_loader(name)
        if loader.sniff(path, head):
            return loader
    raise load_error(f"cannot tell the log format; pass format= one of: {', '.join(FORMATS)}", path)


def iter_records(
    path: Path | str,
    *,
    format: str | None = None,
    scope: str = DEFAULT_SCOPE,
    tz: tzinfo | str | None = None,
    skip_bad: bool = False,
    report: list[LoadError] | None = None,
) -> Iterator[Record]:
    """Stream the records of a log file, detecting its format unless ``format`` is given.

    Without ``skip_bad`` the first malformed record raises ``LoadError`` (message
    ``path:line: reason``). With it, each malformed record's error is appended to
    ``report`` (when given) and the record is skipped. The file, the format and the
    time zone are checked now; records are read as the iterator is consumed.
    """
    path = Path(path)
    if not path.is_file():
        raise load_error("no such file", path)
    if not scope or not scope.strip():
        raise LoadError("scope must not be blank")
    zone = resolve_tz(tz)
    loader = get_loader(format) if format else detect(path)
    on_error: ErrorHandler | None = None
    if skip_bad:
        on_error = report.append if report is not None else (lambda _err: None)
    return loader.records(path, scope=scope, tz=zone, on_error=on_error)
