"""``chronorag keys``: a key is printed once, alone on the last line, and stored as a hash."""

from __future__ import annotations

import json
from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path

import pytest

from chronorag import cli
from chronorag.errors import ConfigError
from chronorag.serve.keys import add_key, authenticate, digest, revoke_key
from chronorag.store.base import ApiKey
from chronorag.store.sqlite import SQLiteStore

NOW = datetime(2026, 1, 1, tzinfo=UTC)


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = cli.main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_add_prints_the_key_last_and_stores_only_its_hash(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = str(tmp_path / "kb.db")
    code, out, _ = _run(capsys, "keys", "add", "--user", "mom", "--admin", "--db", db)
    assert code == 0
    key = out.splitlines()[-1]
    assert key.startswith("crk_") and " " not in key and len(key) > 40
    with SQLiteStore(db) as store:
        record = authenticate(store, key)
        assert record is not None and (record.user, record.admin) == ("mom", True)
        assert authenticate(store, key + "x") is None
    data = Path(db).read_bytes() + b"".join(p.read_bytes() for p in tmp_path.glob("kb.db-*"))
    assert key.encode() not in data and digest(key).encode() in data


def test_list_and_revoke(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = str(tmp_path / "kb.db")
    _run(capsys, "keys", "add", "--user", "me", "--db", db)
    _, out, _ = _run(capsys, "keys", "add", "--user", "kid", "--db", db)
    key = out.splitlines()[-1]
    _, out, _ = _run(capsys, "keys", "list", "--json", "--db", db)
    listed = json.loads(out)
    assert [(k["user"], k["admin"], k["revoked_at"]) for k in listed] == [
        ("me", False, None), ("kid", False, None)]
    assert key not in out
    kid = listed[1]["id"]
    assert _run(capsys, "keys", "revoke", kid, "--db", db)[0] == 0
    with SQLiteStore(db) as store:
        assert authenticate(store, key) is None
    code, _, err = _run(capsys, "keys", "revoke", kid, "--db", db)
    assert code == 1 and f"no live key with id {kid!r}" in err and listed[0]["id"] in err
    _, out, _ = _run(capsys, "keys", "list", "--db", db)
    assert "REVOKED" in out.splitlines()[1]


@pytest.mark.parametrize("user", ["", "  ", " me"])
def test_a_blank_user_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                 user: str) -> None:
    code, out, err = _run(capsys, "keys", "add", "--user", user, "--db",
                          str(tmp_path / "kb.db"))
    assert code == 1 and "--user" in err and "crk_" not in out


def test_serve_without_its_extra_names_the_extra(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    import chronorag.serve

    monkeypatch.setitem(chronorag.serve._NEEDED, "no_such_module_for_this_test", "fastapi")
    code, _, err = _run(capsys, "serve", "--db", str(tmp_path / "kb.db"))
    assert code == 1 and "pip install 'chronorag[serve]'" in err and "internal" not in err


class MemoryKeys:
    """Only the keys part of a store (``KeyStore``), in dicts."""

    def __init__(self) -> None:
        self.keys: dict[str, tuple[ApiKey, str]] = {}

    def add_api_key(self, key: ApiKey, *, digest: str) -> None:
        self.keys[key.id] = (key, digest)

    def api_key(self, digest: str) -> ApiKey | None:
        return next((k for k, d in self.keys.values() if d == digest), None)

    def api_keys(self) -> list[ApiKey]:
        return sorted((k for k, _ in self.keys.values()), key=lambda k: (k.created_at, k.id))

    def revoke_api_key(self, key_id: str, *, at: datetime) -> bool:
        key, found = self.keys.get(key_id, (None, ""))
        if key is None or key.revoked_at is not None:
            return False
        self.keys[key_id] = (replace(key, revoked_at=at), found)
        return True

    def api_key_digests(self) -> dict[str, str]:
        return {i: d for i, (_, d) in self.keys.items()}


def test_keys_need_only_the_keys_part_of_a_store() -> None:
    store = MemoryKeys()
    record, key = add_key(store, user="mom", admin=False, now=NOW)
    assert authenticate(store, key) == record
    revoke_key(store, record.id, now=NOW)
    assert authenticate(store, key) is None
    with pytest.raises(ConfigError, match="live keys: none"):
        revoke_key(store, record.id, now=NOW)
