"""Opening a log file: gzip by its magic bytes whatever the name, UTF-8 with or without a
byte-order mark, lines streamed one at a time, the head a format sniffs, the file's name
parts, and read failures (truncated gzip, bad UTF-8) as messages."""

from __future__ import annotations

import gzip
import zlib
from collections.abc import Iterator
from pathlib import Path
from typing import IO

from .record import Reporter

HEAD_SIZE = 64 * 1024


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


def read_failure(exc: BaseException) -> str:
    if isinstance(exc, EOFError):
        return "the compressed file ends early (truncated?)"
    if isinstance(exc, UnicodeDecodeError):
        return f"not UTF-8 text ({exc.reason})"
    if isinstance(exc, gzip.BadGzipFile | zlib.error):
        return f"damaged gzip data ({exc})"
    return f"cannot read the file ({exc})"


READ_ERRORS = (OSError, EOFError, zlib.error, UnicodeDecodeError)


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
    except READ_ERRORS as exc:
        reporter.error(read_failure(exc), lineno + 1)


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
