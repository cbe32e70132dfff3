"""The Store protocol's parts: every backend has each of them, together they make up
``Store``, and an object with one part's methods is that part and nothing more."""

from __future__ import annotations

from datetime import datetime

from chronorag.store import (
    CorpusStore,
    DocumentStore,
    KeyStore,
    LayerStore,
    PeopleStore,
    Store,
    VectorStore,
)
from chronorag.store.base import ApiKey

PARTS: tuple[type, ...] = (DocumentStore, VectorStore, PeopleStore, KeyStore, LayerStore)


def _members(protocol: type) -> set[str]:
    return {name for name in dir(protocol) if not name.startswith("_")}


def test_every_backend_is_every_part(store: Store) -> None:
    for part in (*PARTS, CorpusStore, Store):
        assert isinstance(store, part), part.__name__


def test_the_parts_make_up_store_without_overlap() -> None:
    members = [_members(part) for part in PARTS]
    every = set().union(*members)
    assert sum(len(m) for m in members) == len(every), "a method is in two parts"
    assert every | {"close"} == _members(Store)
    assert _members(CorpusStore) == _members(DocumentStore) | _members(VectorStore)


class _Keys:
    """The keys part alone."""

    def add_api_key(self, key: ApiKey, *, digest: str) -> None: ...

    def api_key(self, digest: str) -> ApiKey | None:
        return None

    def api_keys(self) -> list[ApiKey]:
        return []

    def revoke_api_key(self, key_id: str, *, at: datetime) -> bool:
        return False

    def api_key_digests(self) -> dict[str, str]:
        return {}


def test_one_part_is_not_the_others() -> None:
    keys = _Keys()
    assert isinstance(keys, KeyStore)
    assert not any(isinstance(keys, part) for part in (*PARTS[:3], LayerStore, Store))
