"""API keys: made here, shown once, stored only as a hash.

A key is ``crk_<id>_<secret>``: the id names it in ``keys list`` and ``keys revoke``, the
secret (256 random bits) makes it unguessable. The store keeps the SHA-256 of the whole
key; a fast hash is enough because the key is random, not a password a person chose.
"""

from __future__ import annotations

import hashlib
import re
import secrets
from datetime import datetime

from chronorag.errors import ConfigError
from chronorag.store.base import ApiKey, KeyStore

PREFIX = "crk_"
_USER = re.compile(r"\S(.*\S)?", re.DOTALL)


def digest(key: str) -> str:
    """The hash under which ``key`` is stored."""
    return hashlib.sha256(key.encode("utf-8", "surrogatepass")).hexdigest()


def add_key(store: KeyStore, *, user: str, admin: bool, now: datetime) -> tuple[ApiKey, str]:
    """A new key for ``user``: its stored record and the key itself (shown once)."""
    if not _USER.fullmatch(user) or len(user) > 200:
        raise ConfigError("--user must be a person's id: 1 to 200 characters, not blank "
                          "and without leading or trailing spaces")
    record = ApiKey(secrets.token_hex(4), user, admin, now)
    key = f"{PREFIX}{record.id}_{secrets.token_urlsafe(32)}"
    store.add_api_key(record, digest=digest(key))
    return record, key


def authenticate(store: KeyStore, key: str) -> ApiKey | None:
    """The live (unrevoked) key record of ``key``, or None."""
    if not key.startswith(PREFIX) or len(key) > 200:
        return None
    record = store.api_key(digest(key))
    return record if record is not None and record.revoked_at is None else None


def revoke_key(store: KeyStore, key_id: str, *, now: datetime) -> None:
    """Revoke the key with this id; ``ConfigError`` naming the live ids when none matches."""
    if not store.revoke_api_key(key_id, at=now):
        live = [k.id for k in store.api_keys() if k.revoked_at is None]
        raise ConfigError(f"no live key with id {key_id!r}; live keys: "
                          + (", ".join(live) or "none") + " (see chronorag keys list)")
