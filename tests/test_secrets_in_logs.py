"""Secrets in a log are detected and left out: not stored as facts, not kept in the turn
text, not in exports, not anywhere in the store's file."""

from __future__ import annotations

import io
import json

from graphmem import Memory
from graphmem.export import export_jsonl

API_KEY = "sk-proj-4f9Xb2Lq8Zt7Vw1Rk3Mn6Pq0Sd5Fg"
PASSWORD = "Tr0ub4dor&3horse"
CARD = "4111 1111 1111 1111"


def test_secrets_in_a_log_never_reach_the_store(tmp_path):
    log = tmp_path / "chat.jsonl"
    turns = [
        f"My OpenAI key is {API_KEY}, can you check why it fails?",
        f"my password is {PASSWORD}",
        f"Pay with my card {CARD} please.",
        "I live in Lisbon.",
    ]
    log.write_text("".join(
        json.dumps({"timestamp": f"2024-05-0{i + 1}T10:00:00Z", "speaker": "Ana", "role": "user",
                    "text": text}) + "\n" for i, text in enumerate(turns)
    ))  # fmt: skip
    db = tmp_path / "m.db"
    mem = Memory.open(db, embedder=None)
    report = mem.load(log, scope="s")

    assert report.episodes_added == 4 and report.secrets_redacted == 3
    assert [f.object for f in mem.facts("Ana", scope="s")] == ["Lisbon"]
    texts = " ".join(e.text for e in mem.backend.episodes("s"))
    dump = io.StringIO()
    export_jsonl(mem, dump)
    mem.close()
    raw = (
        db.read_bytes() + (tmp_path / "m.db-wal").read_bytes()
        if (tmp_path / "m.db-wal").exists()
        else db.read_bytes()
    )
    for secret in (API_KEY, PASSWORD, CARD):
        assert secret not in texts
        assert secret not in dump.getvalue()
        assert secret.encode() not in raw
    assert "Lisbon" in texts  # the rest of what was said is kept
