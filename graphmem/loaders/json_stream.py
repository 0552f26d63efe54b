"""JSON in log files, streamed.

JSON Lines (``iter_json_objects``: one object a line) and JSON documents whose top level
is a list (``iter_json_items``): a small scanner (``_ArraySplitter``) splits the list,
read in chunks of ``CHUNK_SIZE``, into the text of its items, keeping one item in memory
at a time and knowing the line each starts on, so a malformed item is reported and
skipped without losing the rest. A top-level object is read whole. ``JsonDocumentLoader``
is the frame of the formats whose file is such a list (chat exports, datasets).
"""

from __future__ import annotations

import itertools
import json
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from datetime import tzinfo
from pathlib import Path
from typing import IO, Any

from .files import READ_ERRORS, iter_lines, open_text, read_failure
from .record import FileLoader, Record, Reporter

CHUNK_SIZE = 1 << 20


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
    except READ_ERRORS as exc:
        reporter.error(read_failure(exc), counter[0] + 1)


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
