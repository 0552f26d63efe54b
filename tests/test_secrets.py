"""Secret detection (graphmem.extraction.secrets): what must be caught, what must not."""

from __future__ import annotations

import pytest

from graphmem.extraction.secrets import (
    contains_secret,
    find_secrets,
    iban_valid,
    luhn_valid,
    redact,
)

SECRETS = [
    # (text, kind, the secret itself)
    (
        "my key is sk-proj-4fG7hJ2kL9mN3pQ8rS1tU6vW ok",
        "openai_key",
        "sk-proj-4fG7hJ2kL9mN3pQ8rS1tU6vW",
    ),
    ("sk-abc123def456ghi789jkl", "openai_key", "sk-abc123def456ghi789jkl"),
    ("use sk-ant-api03-abcdefghijklmnop1234", "anthropic_key", "sk-ant-api03-abcdefghijklmnop1234"),
    ("AWS: AKIAIOSFODNN7EXAMPLE", "aws_access_key", "AKIAIOSFODNN7EXAMPLE"),
    (
        "token ghp_aB3dE5fG7hI9jK1lM3nO5pQ7rS9tU1vW3xY5 here",
        "github_token",
        "ghp_aB3dE5fG7hI9jK1lM3nO5pQ7rS9tU1vW3xY5",
    ),
    (
        "github_pat_11ABCDEFG0123456789_abcdefghijklmnop",
        "github_token",
        "github_pat_11ABCDEFG0123456789_abcdefghijklmnop",
    ),
    ("slack xoxb-1234567890-abcdefghij", "slack_token", "xoxb-1234567890-abcdefghij"),
    ("stripe sk_live_abcdefghij1234", "stripe_key", "sk_live_abcdefghij1234"),
    (
        "AIzaSyA1234567890abcdefghijklmnopqrstuv",
        "google_api_key",
        "AIzaSyA1234567890abcdefghijklmnopqrstuv",
    ),
    ("jwt eyJhbGciOi.eyJzdWIiOi.SflKxwRJSM", "jwt", "eyJhbGciOi.eyJzdWIiOi.SflKxwRJSM"),
    (
        "Authorization: Bearer abcdefghijklmnopqrstuvwxyz012345",
        "bearer_token",
        "abcdefghijklmnopqrstuvwxyz012345",
    ),
    (
        "-----BEGIN RSA PRIVATE KEY-----\nMIIEow\n-----END RSA PRIVATE KEY-----",
        "private_key",
        "-----BEGIN RSA PRIVATE KEY-----\nMIIEow\n-----END RSA PRIVATE KEY-----",
    ),
    ("my password is hunter2.", "password", "hunter2"),
    ('My password is "correct horse battery staple".', "password", "correct horse battery staple"),
    ("the password for my gmail account is qwerty123!", "password", "qwerty123"),
    ("pwd=Tr0ub4dor&3", "password", "Tr0ub4dor&3"),
    ("My PIN is 4821.", "credential", "4821"),
    ("api key: abc-123-def", "credential", "abc-123-def"),
    ("my social security number is 123-45-6789", "credential", "123-45-6789"),
    ("card 4111 1111 1111 1111 thanks", "card_number", "4111 1111 1111 1111"),
    ("card 4242-4242-4242-4242", "card_number", "4242-4242-4242-4242"),
    ("amex 378282246310005", "card_number", "378282246310005"),
    ("IBAN GB82 WEST 1234 5698 7654 32", "iban", "GB82 WEST 1234 5698 7654 32"),
    ("send it to DE89370400440532013000 please", "iban", "DE89370400440532013000"),
    # said the short way, the other way round, or as an answer
    ("my pw is Tr0ub4dor", "password", "Tr0ub4dor"),
    ("hunter22 is my password.", "password", "hunter22"),
    ("wifi password? Sunflower99", "password", "Sunflower99"),
    ("card 4111.1111.1111.1111", "card_number", "4111.1111.1111.1111"),
    ("key sk-abcdefghijklmnopqrstuvwxYZ", "openai_key", "sk-abcdefghijklmnopqrstuvwxYZ"),
    ("aws secret wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY", "aws_secret_key",
     "secret wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"),
]  # fmt: skip


@pytest.mark.parametrize(
    ("text", "kind", "secret"), SECRETS, ids=[s[1] + ":" + s[0][:20] for s in SECRETS]
)
def test_finds_secret(text: str, kind: str, secret: str) -> None:
    found = find_secrets(text)
    assert [(m.kind, text[m.start : m.end]) for m in found] == [(kind, secret)]
    assert contains_secret(text)


NOT_SECRETS = [
    "I live in Berlin and work at Acme.",
    "I use scikit-learn, sk-learn for short.",
    "call me at 555-0100 or +1 (555) 010-0199",
    "I forgot my password again.",
    "my password is too long to remember",
    "the password is wrong",
    "My card was declined.",
    "Order 1234 5678 9012 3456 shipped",  # 16 digits, fails Luhn
    "The meeting is at 10:30 on 2024-05-15.",
    "My PIN is the same as always.",
    "GB82 is a nice prefix",
    "AKIA is not enough",
    "ghp_short",
    "I have 4 cats and 2 dogs.",
    "Tracking number 1Z999AA10123456784",
    "Bitwarden is my password manager",
    "version 3.14.15.92 of the app",
    "sk-learn-is-a-nickname",
]


@pytest.mark.parametrize("text", NOT_SECRETS)
def test_no_false_alarm(text: str) -> None:
    assert find_secrets(text) == []
    assert not contains_secret(text)


def test_luhn() -> None:
    assert luhn_valid("4111111111111111")
    assert luhn_valid("79927398713")
    assert not luhn_valid("4111111111111112")
    assert not luhn_valid("4111-1111")


def test_iban_checksum() -> None:
    assert iban_valid("GB82 WEST 1234 5698 7654 32")
    assert iban_valid("de89370400440532013000")
    assert not iban_valid("GB82 WEST 1234 5698 7654 33")
    assert not iban_valid("XX00")


def test_spans_are_offsets_in_the_text() -> None:
    text = "key sk-proj-4fG7hJ2kL9mN3pQ8rS1tU6vW and password: hunter2"
    spans = [m.span for m in find_secrets(text)]
    assert [text[a:b] for a, b in spans] == ["sk-proj-4fG7hJ2kL9mN3pQ8rS1tU6vW", "hunter2"]
    assert spans == sorted(spans)


def test_overlapping_finds_are_merged() -> None:
    text = "my api key is sk-proj-4fG7hJ2kL9mN3pQ8rS1tU6vW"
    [match] = find_secrets(text)
    assert text[match.start : match.end] == "sk-proj-4fG7hJ2kL9mN3pQ8rS1tU6vW"


def test_redact() -> None:
    text = "I live in Berlin, my password is hunter2 and my card is 4111 1111 1111 1111."
    assert redact(text) == "I live in Berlin, my password is [REDACTED] and my card is [REDACTED]."
    assert redact(text, "***").count("***") == 2
    assert redact("nothing here") == "nothing here"


def test_no_way_in_stores_a_secret(tmp_path):
    from graphmem import Episode, InvalidFactError, Memory

    with Memory.open(tmp_path / "m.db", embedder=None) as mem:
        with pytest.raises(InvalidFactError, match="secret"):
            mem.remember("Alice", "hobby", "AKIAIOSFODNN7EXAMPLE")
        mem.add_episodes([Episode(speaker="Sam", text="my password is hunter22 lol",
                                  timestamp="2024-01-01T00:00:00Z")])  # fmt: skip
        (stored,) = mem.backend.episodes("default")
        assert stored.text == "my password is [REDACTED] lol"
        assert mem.facts("Alice") == []
