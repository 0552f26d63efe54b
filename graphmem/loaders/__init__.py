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

Modules: ``registry`` (the formats, ``detect``, ``iter_records``), ``record`` (``Record``,
the ``Loader`` protocol, ``FileLoader``, ``Reporter``), ``files`` (opening, gzip, text,
lines), ``json_stream`` (JSON Lines and the streaming list splitter,
``JsonDocumentLoader``), ``times`` (the loaders' time conventions over
``graphmem.time``), ``messages`` (roles and message text), ``turns`` (turns ->
``Episode`` records: numbering, reporting the bad ones), ``facts`` (rows -> ``FactInput``),
``fields``; then one module per format. A format's loader subclasses ``FileLoader`` (or
``JsonDocumentLoader``, for JSON lists of conversations, samples...), which gives it
``records``.

>>> import json, pathlib, tempfile
>>> log = pathlib.Path(tempfile.mkdtemp()) / "chat.jsonl"
>>> _ = log.write_text(json.dumps({"timestamp": 1709287200, "speaker": "alice", "text": "hi"}))
>>> [(r.line, r.episode.speaker, r.episode.timestamp.isoformat()) for r in iter_records(log)]
[(1, 'alice', '2024-03-01T10:00:00+00:00')]
"""

from .json_stream import loads_json
from .record import ErrorHandler, FileLoader, Loader, Record, RecordError, Reporter
from .registry import FORMATS, detect, get_loader, iter_records

__all__ = [
    "FORMATS",
    "ErrorHandler",
    "FileLoader",
    "Loader",
    "Record",
    "RecordError",
    "Reporter",
    "detect",
    "get_loader",
    "iter_records",
    "loads_json",
]
