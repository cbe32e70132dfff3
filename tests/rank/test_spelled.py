"""The sources a Chinese question names in Latin letters go first in the reranker's pool
(``rank.spelled``)."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime

from hypothesis import given
from hypothesis import strategies as st

from chronorag.flags import Flag
from chronorag.model import Chunk, Hit, Query, Understanding
from chronorag.rank.prerank import PRERANKS
from chronorag.rank.spelled import NamesPrerank, spelled_by, spelled_names

NOW = datetime(2026, 1, 1, tzinfo=UTC)


def query(text: str) -> Query:
    return Query(text=text, now=NOW, as_of=NOW,
                 understanding=Understanding(question=text, content=text))


def hit(chunk_id: str, text: str, doc: str) -> Hit:
    return Hit(chunk=Chunk(id=chunk_id, doc_id=doc, index=0, start=0, end=len(text),
                           text=text), score=0.0)


ASKED = "GitHub 的用户名是按什么规则分配的？"
HITS = [
    hit("amo", "如果有人在附加组件网站上分享违规内容，Mozilla 可能会删除内容并限制帐户。", "amo"),
    hit("names", "GitHub account names are available on a first-come, first-served basis.",
        "username-policy"),
    hit("relay", "订阅付费版后，您可以创建一个电话号码别名与不限数量的电子邮箱别名。", "subs"),
    hit("zh-named", "GitHub 帐户的名称按先到先得的原则分配。", "zh-policy"),
    hit("zh-same-doc", "用户名不得冒充他人。", "zh-policy"),
]


def test_chinese_passages_of_documents_naming_none_go_behind_with_a_flag() -> None:
    got = NamesPrerank().rerank(query(ASKED), HITS)
    assert [h.chunk.id for h in got] == ["names", "zh-named", "zh-same-doc", "amo", "relay"]
    assert [Flag.NAMES_ABSENT in h.flags for h in got] == [False, False, False, True, True]


def test_a_name_only_the_other_script_spells_tells_the_sources_apart() -> None:
    """"Cookie" is spelled by Mozilla's Chinese policy too; "GitHub" only by GitHub's
    English one: the Chinese passages go behind, though one of them names a name."""
    asked = "GitHub 网站的会话 Cookie 会在我的设备上保留多久？"
    hits = [hit("ff-cookie", "Firefox 使用 Cookie 记住您的设置。", "ff-zh"),
            hit("ff-other", "您可以随时删除您的数据。", "ff-zh"),
            hit("gh-cookie", "Session cookies stay on your device until you stop browsing.",
                "gh-privacy"),
            hit("gh-named", "GitHub uses cookies to keep you logged in.", "gh-privacy")]
    got = NamesPrerank().rerank(query(asked), hits)
    assert [h.chunk.id for h in got] == ["gh-cookie", "gh-named", "ff-cookie", "ff-other"]
    # Where the Chinese passages spell every name the other script spells, the documents
    # that name none of the question's names go behind, as before.
    both = [hit("zh-gh", "GitHub 帐户的 Cookie 设置。", "zh-gh"), *hits]
    got = NamesPrerank().rerank(query(asked), both)
    assert [h.chunk.id for h in got] == ["zh-gh", "ff-cookie", "ff-other", "gh-cookie",
                                         "gh-named"]


def test_the_order_is_kept_where_the_rule_has_nothing_to_say() -> None:
    prerank = NamesPrerank()
    # An English question, a question without Latin names, a pool where no passage in
    # another script names the name.
    for text, hits in [("How are GitHub usernames assigned?", HITS),
                       ("用户名是按什么规则分配的？", HITS),
                       (ASKED, [h for h in HITS if h.chunk.id != "names"])]:
        assert prerank.rerank(query(text), hits) == list(hits)


def test_the_names_of_a_question() -> None:
    assert spelled_names("2021 年 10 月时，GitHub 的 Octodex 在哪里？") == {"github", "octodex"}
    assert spelled_names("Where is GitHub's Octodex?") == frozenset()
    assert PRERANKS.create("names").name == "names"
    # A name is spelled as a whole word, in any case.
    assert spelled_by(frozenset({"github", "cookie"}), ["Cookie 设置", "GitHubber"]) == {"cookie"}


@given(st.text(max_size=60), st.lists(st.tuples(st.text(max_size=80),
                                                st.sampled_from(["a", "b", "c"])), max_size=8))
def test_any_pool_is_reordered_never_cut(question: str, texts: list[tuple[str, str]]) -> None:
    hits = [hit(f"c{i}", text, doc) for i, (text, doc) in enumerate(texts)]
    got = NamesPrerank().rerank(query(question), hits)
    assert sorted(h.chunk.id for h in got) == sorted(h.chunk.id for h in hits)


def test_a_document_named_by_title_goes_first_and_the_questions_script_behind() -> None:
    asked = "违反可接受使用政策会怎样？"
    pool = [hit("tos", "您对本服务的使用将遵守可接受使用政策。", "tos-zh"),
            hit("notice", "Mozilla may infer your country.", "notice-en"),
            replace(hit("aup", "Mozilla may remove any content.", "aup-en"),
                    flags=(Flag.TITLE_NAMED,))]
    got = NamesPrerank().rerank(query(asked), pool)
    assert [h.chunk.id for h in got] == ["aup", "notice", "tos"]
    assert [Flag.NAMES_ABSENT in h.flags for h in got] == [False, False, True]
