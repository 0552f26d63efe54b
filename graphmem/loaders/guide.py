"""What each format expects, for people: the keys it reads and one example record.

``load --help`` lists the keys and ``graphmem formats`` prints the examples; each module's
docstring is the full account. The examples are real: the tests load every one of them,
under its file name, through auto-detection.

>>> guide = GUIDE["facts-jsonl"]
>>> guide.file, guide.keys.split(";")[0]
('facts.jsonl', 'subject, predicate, object (required)')
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class FormatGuide:
    name: str
    file: str  # a file name auto-detection recognises the example under
    keys: str
    example: str


_TURN = "I moved to Berlin."
GUIDE: dict[str, FormatGuide] = {
    g.name: g
    for g in (
        FormatGuide(
            "facts-csv",
            "facts.csv",
            "header row: subject, predicate, object (required); valid_from, valid_to, "
            "scope, confidence, subject_type, object_type (optional)",
            "subject,predicate,object,valid_from,valid_to\nAlice,lives_in,Berlin,2024-03-01,\n",
        ),
        FormatGuide(
            "facts-jsonl",
            "facts.jsonl",
            "subject, predicate, object (required); valid_from, valid_to, scope, confidence, "
            "subject_type, object_type (optional)",
            '{"subject": "Alice", "predicate": "lives_in", "object": "Berlin", '
            '"valid_from": "2024-03-01"}\n',
        ),
        FormatGuide(
            "jsonl",
            "chat.jsonl",
            "one turn a line: timestamp (required; or time, ts, date, created_at...), text "
            "(or content, message...), speaker (or name, author...; else the role), role, "
            "session, scope, turn",
            '{"timestamp": "2024-03-01T10:00:00Z", "speaker": "Alice", "role": "user", '
            f'"text": "{_TURN}"}}\n',
        ),
        FormatGuide(
            "longmemeval",
            "longmemeval_s.json",
            "a list of entries: question_id, haystack_session_ids, haystack_dates, "
            "haystack_sessions (lists of {role, content}); each entry is its own scope",
            '[{"question_id": "q1", "haystack_session_ids": ["s1"], '
            '"haystack_dates": ["2024/03/01 (Fri) 10:00"], '
            f'"haystack_sessions": [[{{"role": "user", "content": "{_TURN}"}}]]}}]\n',
        ),
        FormatGuide(
            "locomo",
            "locomo10.json",
            "a list of samples: sample_id, conversation {speaker_a, speaker_b, session_<n> "
            "(turns {speaker, dia_id, text}), session_<n>_date_time}; each sample a scope",
            '[{"sample_id": "conv-1", "conversation": {"speaker_a": "Alice", '
            '"speaker_b": "Bob", "session_1_date_time": "10:00 am on 1 March, 2024", '
            f'"session_1": [{{"speaker": "Alice", "dia_id": "D1:1", "text": "{_TURN}"}}]}}}}]\n',
        ),
        FormatGuide(
            "chatgpt",
            "conversations.json",
            "ChatGPT export: a list of {id, title, create_time, current_node, mapping: "
            "{node: {parent, children, message {author.role, create_time, content.parts}}}}",
            '[{"id": "c1", "title": "Moving", "create_time": 1709287200, '
            '"current_node": "m1", "mapping": {"m1": {"id": "m1", "parent": null, '
            '"children": [], "message": {"author": {"role": "user"}, '
            '"create_time": 1709287200, "content": {"content_type": "text", '
            f'"parts": ["{_TURN}"]}}}}}}}}}}]\n',
        ),
        FormatGuide(
            "claude",
            "conversations.json",
            "Claude export: a list of {uuid, name, created_at, chat_messages: [{sender "
            "(human/assistant), text or content, created_at}]}",
            '[{"uuid": "c1", "name": "Moving", "created_at": "2024-03-01T10:00:00Z", '
            '"chat_messages": [{"uuid": "m1", "sender": "human", '
            f'"text": "{_TURN}", "created_at": "2024-03-01T10:00:00Z"}}]}}]\n',
        ),
        FormatGuide(
            "openai",
            "messages.json",
            "a list of {role, content[, name, timestamp]}, or {id, timestamp, messages: "
            "[...]} (one conversation), or a list of those",
            '{"id": "c1", "timestamp": "2024-03-01T10:00:00Z", '
            f'"messages": [{{"role": "user", "content": "{_TURN}"}}]}}\n',
        ),
        FormatGuide(
            "whatsapp",
            "WhatsApp Chat with Alice.txt",
            "'Export chat' text: '[31/12/2023, 21:41:05] Name: text' (iOS) or "
            "'12/31/23, 9:41 PM - Name: text' (Android); times in --tz",
            f"[13/03/2024, 10:00:00] Alice: {_TURN}\n",
        ),
        FormatGuide(
            "transcript",
            "transcript.txt",
            "'2024-03-01 10:00 Name: text' or '[2024-03-01T10:00:00Z] Name: text' a line; "
            "following lines continue the message",
            f"2024-03-01 10:00 Alice: {_TURN}\n",
        ),
    )
}
