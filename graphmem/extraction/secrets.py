"""Detect obvious secrets in text, so that graphmem never stores them as facts.

The detectors are deliberately simple and high-precision: well-known token
shapes (OpenAI/Anthropic ``sk-...``, AWS ``AKIA...``, GitHub ``ghp_...``, Slack,
Stripe, Google API keys, JWTs, PEM private keys), credentials stated in words
("my password is X", "PIN: 1234", "api key = X"), card numbers that pass the
Luhn check and IBANs that pass the ISO 13616 mod-97 check.

>>> [m.kind for m in find_secrets("my key is sk-proj-a1B2c3D4e5F6g7H8i9J0 ok")]
['openai_key']
>>> contains_secret("card 4111 1111 1111 1111"), contains_secret("call me at 555-0100")
(True, False)
>>> redact("my password is hunter2, thanks")
'my password is [REDACTED], thanks'
"""

from __future__ import annotations

import re
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class SecretMatch:
    """One secret found in a text: what kind it looks like and where it is."""

    kind: str
    start: int
    end: int

    @property
    def span(self) -> tuple[int, int]:
        return (self.start, self.end)


# Token shapes: the whole match is the secret.
_TOKEN_PATTERNS: tuple[tuple[str, re.Pattern[str]], ...] = tuple(
    (kind, re.compile(pattern))
    for kind, pattern in (
        (
            "private_key",
            r"-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY-----"
            r"(?:[\s\S]*?-----END (?:[A-Z0-9]+ )*PRIVATE KEY-----)?",
        ),
        ("anthropic_key", r"\bsk-ant-[A-Za-z0-9_\-]{16,}"),
        (
            "openai_key",
            r"\bsk-(?:proj-|svcacct-|admin-)?(?=[A-Za-z0-9_\-]*\d)[A-Za-z0-9_\-]{16,}"
            r"|\bsk-(?:proj-|svcacct-|admin-)?(?=[A-Za-z]*[a-z])(?=[A-Za-z]*[A-Z])[A-Za-z]{24,}\b",
        ),
        # an AWS secret access key (40 characters) named as a secret
        ("aws_secret_key", r"(?i)\bsecret(?:[ _]access)?(?:[ _]key)?\W{1,4}[A-Za-z0-9/+]{40}\b"),
        ("stripe_key", r"\b(?:sk|pk|rk)_(?:live|test)_[A-Za-z0-9]{10,}"),
        ("aws_access_key", r"\b(?:AKIA|ASIA|AGPA|AIDA|AROA|ANPA|ANVA|AIPA)[A-Z0-9]{16}\b"),
        (
            "github_token",
            r"\b(?:ghp|gho|ghu|ghs|ghr)_[A-Za-z0-9]{20,}\b|\bgithub_pat_[A-Za-z0-9_]{22,}",
        ),
        ("gitlab_token", r"\bglpat-[A-Za-z0-9_\-]{20,}"),
        ("slack_token", r"\bxox[abposr]-[A-Za-z0-9\-]{10,}"),
        ("google_api_key", r"\bAIza[0-9A-Za-z_\-]{35}"),
        ("jwt", r"\beyJ[A-Za-z0-9_\-]{5,}\.eyJ[A-Za-z0-9_\-]{5,}\.[A-Za-z0-9_\-]{5,}"),
        ("bearer_token", r"(?i)(?<=bearer )[A-Za-z0-9\-._~+/]{20,}=*"),
    )
)

# Credentials stated in words: only the value (group "value") is the secret.
_VALUE = (
    r"""(?:"(?P<dq>[^"\n]{1,100})"|'(?P<sq>[^'\n]{1,100})'|“(?P<cq>[^”\n]{1,100})”"""
    r"""|(?P<bare>[^\s"'“”]{1,100}))"""
)
_KEYWORD = re.compile(
    r"(?i)\b(?P<kw>password|passwd|pwd|pw|pword|passcode|passphrase|pass phrase|pin(?: code| number)?|"
    r"api[ _\-]?key|secret(?: key)?|access[ _\-]?token|auth[ _\-]?token|token|"
    r"aws_secret_access_key|client[ _\-]?secret|security code|cvv|cvc|social security number|ssn)"
    r"(?:\s+(?:for|to|on|of)\s+(?:my\s+|the\s+)?[\w.\-@]+(?:\s+account)?)?"
    r"\s*(?:is|was|:|=|->|\?|will be|is now|is still)\s*(?:now\s+|still\s+|just\s+)?" + _VALUE
)
# "hunter22 is my password": the value said first.
_VALUE_FIRST = re.compile(
    r"(?i)(?<![\w'’])(?P<bare>[^\s\"'“”]{4,64})\s+(?:is|was|=)\s+(?:my|the|our)\s+(?:[\w-]+\s+)?"
    r"(?P<kw>password|passwd|pw|passcode|pin)\b(?!\s+(?:manager|reset|app|vault|hint|policy|rules?|"
    r"generator|strength)\b)"
)
# Words that follow "password is" without being a password.
_NOT_A_VALUE = frozenset(
    str.split(
        "the a an my your his her our their this that it too not wrong incorrect correct expired "
        "weak strong secure insecure long short hard easy simple on in at saved stored written "
        "still also very really so same different new old required needed missing invalid "
        "case-sensitive changed reset locked what where"
    )
)
_PIN_VALUE = re.compile(r"^\d{4,8}$")

_CARD = re.compile(r"(?<![\d\-.])(?:\d[ \-.]?){12,18}\d(?![\d\-])")
_IBAN = re.compile(r"\b[A-Z]{2}\d{2}(?: ?[A-Z0-9]){11,30}\b")
_IBAN_KEYWORD = re.compile(r"(?i)\biban\b\s*(?:is|:|=)?\s*(?P<value>[A-Z]{2}\d{2}[A-Z0-9 ]{8,34})")


def luhn_valid(digits: str) -> bool:
    """True when the digit string passes the Luhn checksum (payment card numbers do)."""
    if not digits.isdigit():
        return False
    total = 0
    for index, char in enumerate(reversed(digits)):
        value = int(char)
        if index % 2 == 1:
            value = value * 2 - 9 if value > 4 else value * 2
        total += value
    return total % 10 == 0


def iban_valid(text: str) -> bool:
    """True when ``text`` (spaces allowed) has an IBAN's shape and passes the mod-97 check."""
    compact = text.replace(" ", "").upper()
    if not re.fullmatch(r"[A-Z]{2}\d{2}[A-Z0-9]{11,30}", compact):
        return False
    rearranged = compact[4:] + compact[:4]
    numeric = "".join(str(int(char, 36)) for char in rearranged)
    return int(numeric) % 97 == 1


def _card_number(digits: str) -> bool:
    return (
        13 <= len(digits) <= 19
        and digits[0] in "23456"
        and len(set(digits)) > 1
        and luhn_valid(digits)
    )


def _keyword_matches(text: str) -> list[SecretMatch]:
    found = []
    for match in _KEYWORD.finditer(text):
        group = next(g for g in ("dq", "sq", "cq", "bare") if match.group(g) is not None)
        value = match.group(group)
        start, end = match.span(group)
        if group == "bare":
            stripped = value.rstrip(".,;:!?)")
            end -= len(value) - len(stripped)
            value = stripped
            if not value or value.lower() in _NOT_A_VALUE:
                continue
        keyword = match.group("kw").lower()
        if keyword.startswith("pin") and not _PIN_VALUE.match(value):
            continue
        kind = (
            "password"
            if keyword in {"password", "passwd", "pwd", "pw", "pword", "passcode"}
            else "credential"
        )
        found.append(SecretMatch(kind, start, end))
    for match in _VALUE_FIRST.finditer(text):
        value = match.group("bare")
        if value.lower() in _NOT_A_VALUE or value.lower() in ("this", "that", "what", "which"):
            continue
        if match.group("kw").lower() == "pin" and not _PIN_VALUE.match(value):
            continue
        found.append(SecretMatch("password", *match.span("bare")))
    return found


def find_secrets(text: str) -> list[SecretMatch]:
    """Every secret in ``text``, sorted by position, overlapping finds merged."""
    found: list[SecretMatch] = []
    for kind, pattern in _TOKEN_PATTERNS:
        found.extend(SecretMatch(kind, *m.span()) for m in pattern.finditer(text))
    found.extend(_keyword_matches(text))
    for match in _CARD.finditer(text):
        digits = re.sub(r"\D", "", match.group())
        if _card_number(digits):
            found.append(SecretMatch("card_number", *match.span()))
    for match in _IBAN.finditer(text):
        if iban_valid(match.group()):
            found.append(SecretMatch("iban", *match.span()))
    for match in _IBAN_KEYWORD.finditer(text):
        value = match.group("value").rstrip()
        found.append(SecretMatch("iban", match.start("value"), match.start("value") + len(value)))
    return _merge(found)


def _merge(found: list[SecretMatch]) -> list[SecretMatch]:
    merged: list[SecretMatch] = []
    for item in sorted(found, key=lambda m: (m.start, -m.end)):
        if merged and item.start < merged[-1].end:
            last = merged[-1]
            merged[-1] = SecretMatch(last.kind, last.start, max(last.end, item.end))
        else:
            merged.append(item)
    return merged


def contains_secret(text: str) -> bool:
    """True when ``text`` holds anything that looks like a secret."""
    return bool(find_secrets(text))


def redact(text: str, placeholder: str = "[REDACTED]") -> str:
    """``text`` with every secret replaced by ``placeholder``."""
    pieces, last = [], 0
    for match in find_secrets(text):
        pieces.append(text[last : match.start])
        pieces.append(placeholder)
        last = match.end
    pieces.append(text[last:])
    return "".join(pieces)
