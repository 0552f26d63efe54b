"""Connecting to Neo4j: credentials from the URI or the environment, and the driver's
failures as graphmem's errors (``StoreError``; ``TransientStoreError`` when a retry may
succeed)."""

from __future__ import annotations

import os
from urllib.parse import unquote, urlsplit, urlunsplit

from graphmem.errors import StoreError, TransientStoreError

try:
    import neo4j
    from neo4j import exceptions as neo4j_errors
except ImportError:  # pragma: no cover - a dependency, but the embedded backend runs without it
    neo4j = None  # type: ignore[assignment]
    neo4j_errors = None  # type: ignore[assignment]


# -- errors ------------------------------------------------------------------------------


def failure_reason(exc: BaseException) -> str:
    if neo4j_errors is not None and isinstance(exc, neo4j_errors.Neo4jError):
        message = (exc.message or str(exc)).strip()
        return f"{exc.code}: {message}" if exc.code else message
    text = str(exc).strip().splitlines()
    return text[-1] if text else type(exc).__name__


def store_error(location: str, action: str, exc: BaseException) -> StoreError:
    if isinstance(exc, neo4j_errors.IncompleteCommit):
        return StoreError(
            f"{location}: {action}: the connection was lost while committing, so the write "
            f"may or may not have been stored ({failure_reason(exc)})"
        )
    if isinstance(
        exc,
        neo4j_errors.TransientError | neo4j_errors.ServiceUnavailable | neo4j_errors.SessionExpired,
    ):
        return TransientStoreError(
            f"{location}: {action} failed on a transient Neo4j error and was rolled back; "
            f"retry ({failure_reason(exc)})"
        )
    return StoreError(f"{location}: {action} failed: {failure_reason(exc)}")


def open_failure(where: str, exc: BaseException, *, auth_given: bool = True) -> str:
    if isinstance(exc, neo4j_errors.AuthError):
        refused = "the user or password was refused" if auth_given else "no password was given"
        return (
            f"cannot open Neo4j store {where}: authentication failed ({refused}); "
            "give the password with "
            "auth=(user, password), bolt://user:password@host or GRAPHMEM_NEO4J_USER / "
            "GRAPHMEM_NEO4J_PASSWORD (scripts/neo4j/start.sh keeps it in .neo4j/password) "
            f"({failure_reason(exc)})"
        )
    if isinstance(exc, neo4j_errors.ServiceUnavailable):
        return (
            f"cannot open Neo4j store {where}: no Neo4j answers there (is it running? "
            f"scripts/neo4j/start.sh starts a local one): {failure_reason(exc)}"
        )
    if isinstance(exc, neo4j_errors.Neo4jError) and exc.code and "DatabaseNotFound" in exc.code:
        return (
            f"cannot open Neo4j store {where}: the database does not exist ({failure_reason(exc)})"
        )
    return f"cannot open Neo4j store {where}: {failure_reason(exc)}"


def split_userinfo(uri: str) -> tuple[str, tuple[str, str] | None]:
    """``bolt://user:pw@host`` -> (``bolt://host``, (user, pw)); the URI we print has no secret."""
    parts = urlsplit(uri)
    if "@" not in parts.netloc:
        return uri, None
    userinfo, host = parts.netloc.rsplit("@", 1)
    user, _, password = userinfo.partition(":")
    return urlunsplit(parts._replace(netloc=host)), (unquote(user), unquote(password))


def env_auth(user: str | None = None, password: str | None = None) -> tuple[str, str] | None:
    """``(user, password)`` from the arguments, else ``GRAPHMEM_NEO4J_USER`` (default
    ``neo4j``) / ``GRAPHMEM_NEO4J_PASSWORD``; None when no password is given anywhere and
    no user is named (then the driver connects without auth)."""
    user = user or os.environ.get("GRAPHMEM_NEO4J_USER") or None
    password = password or os.environ.get("GRAPHMEM_NEO4J_PASSWORD") or None
    if user is None and password is None:
        return None
    return (user or "neo4j", password or "")
