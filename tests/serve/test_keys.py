"""``chronorag keys``: a key is printed once, alone on the last line, and stored as a hash."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from chronorag import cli
from chronorag.serve.keys import authenticate, digest
from chronorag.store.sqlite import SQLiteStore


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
