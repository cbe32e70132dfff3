"""Which unread candidates a reranker must judge beside the read ones (``Components.kin``)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import cast

from chronorag.model import Document
from chronorag.pipeline.search import Components, SearchStore
from chronorag.retrieve.snapshot import Indexes


class Documents:
    """The three reads ``Components.kin`` makes of a store."""

    def __init__(self, documents: Sequence[Document]) -> None:
        self.by_id = {d.id: d for d in documents}

    def generation(self) -> int:
        return 1

    def documents(self, ids: Sequence[str], *, text: bool = True) -> list[Document]:
        return [self.by_id[i] for i in ids if i in self.by_id]

    def links(self, kind: str | None = None) -> list[tuple[str, str, str]]:
        return sorted((d.id, dst, "supersedes") for d in self.by_id.values()
                      for dst in d.supersedes)


def components(*documents: Document) -> Components:
    store = cast(SearchStore, Documents(documents))
    return Components(store, indexes=Indexes(store, persist=False))


def test_versions_are_kin_either_way_and_through_versions_not_in_the_head() -> None:
    kin = components(Document(id="v1", text="x"),
                     Document(id="v2", text="x", supersedes=("v1",)),
                     Document(id="v3", text="x", supersedes=("v2",)),
                     Document(id="other", text="x")).kin
    assert kin({"v1"}, {"v3", "other"}) == {"v3"}  # v2, between them, was not retrieved
    assert kin({"v3", "other"}, {"v1"}) == {"v1"}
    assert kin({"other"}, {"v1", "v2"}) == set()


def test_a_rule_for_some_askers_makes_every_candidate_kin() -> None:
    kin = components(Document(id="returns", text="x"),
                     Document(id="returns-eu", text="x", applies_to={"region": ("EU",)}),
                     Document(id="support", text="x")).kin
    assert kin({"returns"}, {"returns-eu", "support"}) == {"returns-eu", "support"}
    assert kin({"returns-eu"}, {"returns"}) == {"returns"}
    assert kin({"returns"}, {"support"}) == set()


def test_another_owner_or_another_type_is_kin_one_of_the_same_kind_is_not() -> None:
    kin = components(Document(id="hr", text="x", source_type="policy", owner="hr"),
                     Document(id="legal", text="x", source_type="policy", owner="legal"),
                     Document(id="hr-2", text="x", source_type="policy", owner="hr"),
                     Document(id="faq", text="x", source_type="faq", owner="hr"),
                     Document(id="anon", text="x", source_type="policy")).kin
    assert kin({"hr"}, {"legal", "hr-2", "faq", "anon"}) == {"legal", "faq"}
    assert kin({"hr", "faq"}, {"hr-2"}) == set()


def test_a_document_the_store_does_not_know_is_read() -> None:
    assert components(Document(id="a", text="x")).kin({"a"}, {"gone"}) == {"gone"}
