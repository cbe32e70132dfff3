"""Passages in another script that spell a Chinese question's Latin names join the
candidates when no candidate spells them; the passages of a document a question names by
its title in another script go first (``pipeline.named``)."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime

import pytest
from hypothesis import given
from hypothesis import strategies as st

from chronorag.flags import Flag
from chronorag.model import Chunk, Hit, Query, Understanding
from chronorag.pipeline.named import (
    Titles,
    names_title,
    says_title,
    spelled_elsewhere,
    titled_elsewhere,
)
from chronorag.retrieve.glossary import concepts

NOW = datetime(2026, 1, 1, tzinfo=UTC)
ASKED = "2021 年 10 月时，按照 GitHub 当时的隐私声明，新用户的邮箱地址默认是设为私密的吗？"


def query(text: str) -> Query:
    return Query(text=text, now=NOW, as_of=NOW,
                 understanding=Understanding(question=text, content=text))


def hit(chunk_id: str, text: str) -> Hit:
    return Hit(chunk=Chunk(id=chunk_id, doc_id=chunk_id, index=0, start=0, end=len(text),
                           text=text), score=0.0)


FIREFOX = hit("ff-zh", "Firefox 隐私声明：我们会根据您的 IP 地址推断您所在的国家。")
CANDIDATES = [hit("relay-zh", "订阅付费版后，您可以创建不限数量的电子邮箱别名。"), FIREFOX]
DEEPER = [
    *CANDIDATES,
    hit("amo-zh", "附加组件的源代码可以托管在 GitHub 上。"),
    hit("github-en", "We set current Users' email address private by default on GitHub."),
    hit("mozilla-en", "Mozilla may infer your country from your IP address."),
    hit("githubber-en", "Githubber is not the name asked for."),
    hit("github-en-2", "GitHub Privacy Statement, effective December 19, 2020."),
]


class Deeper:
    """A dense list that records how deep it was read."""

    def __init__(self, hits: Sequence[Hit]) -> None:
        self.hits = list(hits)
        self.depths: list[int] = []

    def __call__(self, depth: int) -> list[Hit]:
        self.depths.append(depth)
        return self.hits[:depth]


def test_passages_in_another_script_spelling_a_missing_name_follow_the_candidates() -> None:
    deeper = Deeper(DEEPER)
    got = spelled_elsewhere(query(ASKED), CANDIDATES, deeper=deeper, depth=1000, limit=10)
    # The Chinese passage that spells the name, a passage that does not spell it and a
    # longer word that starts with it are not gathered.
    assert [h.chunk.id for h in got] == ["relay-zh", "ff-zh", "github-en", "github-en-2"]
    assert deeper.depths == [1000]
    limited = spelled_elsewhere(query(ASKED), CANDIDATES, deeper=Deeper(DEEPER), depth=1000,
                                limit=1)
    assert [h.chunk.id for h in limited][2:] == ["github-en"]


def test_nothing_is_gathered_where_the_candidates_spell_the_names_or_none_are_asked() -> None:
    for text, candidates in [
            # Some candidate spells the name (the Chinese Firefox policy).
            ("Firefox 会根据我的 IP 地址推断位置吗？", CANDIDATES),
            # An English question, a Chinese question without Latin names.
            ("Does GitHub set my email address private by default?", CANDIDATES),
            ("新用户的邮箱地址默认是设为私密的吗？", CANDIDATES)]:
        deeper = Deeper(DEEPER)
        assert spelled_elsewhere(query(text), candidates, deeper=deeper, depth=1000,
                                 limit=10) == candidates
        assert deeper.depths == []
    assert spelled_elsewhere(query(ASKED), CANDIDATES, deeper=Deeper(DEEPER), depth=0,
                             limit=10) == CANDIDATES


def test_only_the_names_no_candidate_spells_are_gathered() -> None:
    asked = "Firefox 和 GitHub 的隐私声明分别是哪天生效的？"
    got = spelled_elsewhere(query(asked), CANDIDATES, deeper=Deeper(DEEPER), depth=1000,
                            limit=10)
    assert "mozilla-en" not in {h.chunk.id for h in got}
    assert [h.chunk.id for h in got][2:] == ["github-en", "github-en-2"]


@given(st.text(max_size=60), st.lists(st.text(max_size=80), max_size=6),
       st.lists(st.text(max_size=80), max_size=6), st.integers(0, 8))
def test_candidates_are_kept_first_and_nothing_is_repeated(
        question: str, kept: list[str], deeper: list[str], limit: int) -> None:
    candidates = [hit(f"c{i}", text) for i, text in enumerate(kept)]
    more = [hit(f"d{i}", text) for i, text in enumerate(deeper)]
    got = spelled_elsewhere(query(question), candidates, deeper=Deeper([*candidates, *more]),
                            depth=20, limit=limit)
    assert got[:len(candidates)] == candidates
    assert len(got) - len(candidates) <= limit
    assert len({h.chunk.id for h in got}) == len(got)


AUP_ASKED = "如果有人违反了 Mozilla 的可接受使用政策，Mozilla 保留了采取哪些措施的权利？"
TITLES = {"tos-zh": "Mozilla 订阅服务 | 服务条款", "aup-en": "Acceptable Use Policy",
          "notice-en": "Firefox Privacy Notice"}
POOL = [hit("tos-zh", "您对本服务的使用将遵守 Mozilla 的可接受使用政策。"),
        hit("notice-en", "Mozilla may infer your country from your IP address.")]
AUP = hit("aup-en", "Mozilla reserves the right to remove any content or suspend any users.")


def test_a_title_is_named_by_concepts_in_its_order() -> None:
    asked = concepts(AUP_ASKED)
    assert names_title(asked, concepts("Acceptable Use Policy"))
    # Its words in another order, one word alone, a title the question does not say.
    assert not names_title(asked, concepts("Policy of Acceptable Use"))
    assert not names_title(asked, concepts("Policy"))
    assert not names_title(asked, concepts("Firefox Privacy Notice"))
    assert names_title(concepts("According to the AMO policies, whose content is hosted?"),
                       concepts("AMO 政策"))


def test_the_document_named_by_its_title_in_another_script_goes_first() -> None:
    got = titled_elsewhere(query(AUP_ASKED), POOL, titles=Titles.of(TITLES),
                           deeper=Deeper([*POOL, AUP]), depth=1000, limit=10)
    assert [h.chunk.id for h in got] == ["aup-en", "tos-zh", "notice-en"]
    assert Flag.TITLE_NAMED in got[0].flags
    assert not any(Flag.TITLE_NAMED in h.flags for h in got[1:])


def test_a_title_in_the_questions_own_script_or_no_crowding_moves_nothing() -> None:
    own = {**TITLES, "aup-zh": "可接受使用政策"}
    english = [POOL[1]]
    for titles, pool in [(own, POOL), (TITLES, english)]:
        deeper = Deeper([*pool, AUP])
        assert titled_elsewhere(query(AUP_ASKED), pool, titles=Titles.of(titles), deeper=deeper,
                                depth=1000, limit=10) == pool
    # The named document's own passages are in the question's script (a Chinese page
    # titled in English): it is no document elsewhere.
    page = [*POOL, hit("aup-en", "违反本政策的内容将被删除。")]
    assert titled_elsewhere(query(AUP_ASKED), page, titles=Titles.of(TITLES),
                            deeper=Deeper([*page, AUP]), depth=1000, limit=10) == page
    assert titled_elsewhere(query("这份文件讲的是什么？"), POOL, titles=Titles.of(TITLES),
                            deeper=Deeper([*POOL, AUP]), depth=1000, limit=10) == POOL
    assert titled_elsewhere(query(AUP_ASKED), POOL, titles=Titles.of(TITLES),
                            deeper=Deeper([*POOL, AUP]), depth=0, limit=10) == POOL


@given(st.text(max_size=60), st.lists(st.tuples(st.text(max_size=20), st.text(max_size=60)),
                                      max_size=6))
def test_any_titles_and_pool_are_reordered_never_cut(question: str,
                                                     rows: list[tuple[str, str]]) -> None:
    pool = [hit(f"c{i}", text) for i, (_, text) in enumerate(rows)]
    titles = {f"c{i}": title for i, (title, _) in enumerate(rows)}
    got = titled_elsewhere(query(question), pool, titles=Titles.of(titles), deeper=Deeper(pool),
                           depth=20, limit=5)
    assert sorted(h.chunk.id for h in got) == sorted(h.chunk.id for h in pool)


def test_a_named_candidate_gathers_nothing_more() -> None:
    more = hit("aup-en-2", "You may not use any Mozilla service to harm users.")
    deeper = Deeper([*POOL, AUP, more])
    pool = [*POOL, AUP]
    got = titled_elsewhere(query(AUP_ASKED), pool, titles=Titles.of({**TITLES, "aup-en-2": "x"}),
                           deeper=deeper, depth=1000, limit=10)
    assert [h.chunk.id for h in got] == ["aup-en", "tos-zh", "notice-en"]
    assert deeper.depths == []


@pytest.mark.parametrize("asked", [
    "在 AMO 上分享的扩展，除了可接受使用政策以外，还必须符合哪个协议？",
    "除可接受使用政策外，AMO 上的扩展还必须符合哪个协议？",
])
def test_a_title_the_question_sets_aside_names_nothing(asked: str) -> None:
    assert titled_elsewhere(query(asked), POOL, titles=Titles.of(TITLES),
                            deeper=Deeper([*POOL, AUP]),
                            depth=1000, limit=10) == POOL


def test_a_title_of_its_own_script_said_but_for_one_word_keeps_the_pool() -> None:
    asked = "What does the Firefox privacy statement say about crash reports?"
    assert names_title(concepts(asked), concepts("Firefox 隐私声明"))
    assert not names_title(concepts(asked), concepts("Firefox Privacy Notice"))
    assert names_title(concepts(asked), concepts("Firefox Privacy Notice"), spare=1)
    pool = [hit("notice-en", "Firefox sends crash reports when you choose to.")]
    titles = {"notice-en": "Firefox Privacy Notice", "notice-zh": "Firefox 隐私声明"}
    deeper = Deeper([*pool, hit("notice-zh", "崩溃报告会发送给我们。")])
    assert titled_elsewhere(query(asked), pool, titles=Titles.of(titles), deeper=deeper, depth=1000,
                            limit=10) == pool
    assert deeper.depths == []


STATEMENT_ASKED = "按 GitHub 隐私声明，我应该发邮件到哪个地址？"
STATEMENTS = {"ff-zh": "Firefox 隐私声明", "gh-2022": "GitHub Privacy Statement",
              "gh-2024": "GitHub General Privacy Statement"}
STATEMENT_POOL = [hit("ff-zh", "如需行使这些权利，请通过我们的表单联系 Mozilla。")]
CURRENT = hit("gh-2024", "To exercise these rights, please send an email to privacy@github.com.")


def test_a_title_of_its_own_script_naming_another_product_keeps_nothing_back() -> None:
    # "GitHub 隐私声明" says "Firefox 隐私声明" but for its first word, and that word is
    # the name of another product: the question names GitHub's statement.
    deeper = Deeper([*STATEMENT_POOL, hit("gh-2022", "Send an email to privacy@github.com."),
                     CURRENT])
    got = titled_elsewhere(query(STATEMENT_ASKED), STATEMENT_POOL,
                           titles=Titles.of(STATEMENTS), deeper=deeper, depth=1000, limit=10)
    assert [h.chunk.id for h in got] == ["gh-2022", "ff-zh"]
    # The Firefox statement asked in the same words is the question's own.
    asked = "按 Firefox 隐私声明，我应该发邮件到哪个地址？"
    assert titled_elsewhere(query(asked), STATEMENT_POOL, titles=Titles.of(STATEMENTS),
                            deeper=deeper, depth=1000, limit=10) == STATEMENT_POOL


def test_a_title_names_every_version_of_its_document() -> None:
    # The current version is titled otherwise ("General"); it supersedes the one named.
    def versions(ids: set[str]) -> set[str]:
        return ids | {"gh-2024"} if "gh-2022" in ids else set(ids)

    deeper = Deeper([*STATEMENT_POOL, CURRENT, hit("gh-2022", "Send an email to us.")])
    got = titled_elsewhere(query(STATEMENT_ASKED), STATEMENT_POOL, titles=Titles.of(STATEMENTS),
                           deeper=deeper, depth=1000, limit=10, versions=versions)
    assert [h.chunk.id for h in got] == ["gh-2024", "gh-2022", "ff-zh"]
    assert all(Flag.TITLE_NAMED in h.flags for h in got[:2])


@pytest.mark.parametrize(("asked", "title"), [
    ("Mozilla 帐户服务条款规定适用哪里的法律？", "Mozilla Accounts Terms of Service"),
    ("Firefox 隐私声明说了什么？", "Privacy Notice for Firefox"),
    ("按照 Mozilla 订阅服务条款，我授予了谁权利？", "Mozilla 订阅服务 | 服务条款"),
])
def test_a_title_is_said_in_the_order_a_chinese_title_has(asked: str, title: str) -> None:
    assert not names_title(concepts(asked), concepts(title))
    assert says_title(concepts(asked), title)


def test_a_plain_title_names_nothing_where_the_question_names_a_product() -> None:
    titles = {"pocket": "Terms of Service", "gh": "GitHub Terms of Service",
              "zh": "Firefox 使用条款"}
    pool = [hit("zh", "您对 Firefox 的使用须遵守本条款。")]
    deeper = Deeper([*pool, hit("pocket", "These terms govern Pocket."),
                     hit("gh", "These terms govern GitHub.")])
    for asked, first in [("GitHub 服务条款适用哪里的法律？", "gh"),
                         ("GitHub 隐私声明说，它会检测哪些违反服务条款的内容？", "zh"),
                         ("服务条款适用哪里的法律？", "pocket")]:
        got = titled_elsewhere(query(asked), pool, titles=Titles.of(titles), deeper=deeper,
                               depth=1000, limit=10)
        assert got[0].chunk.id == first, asked


@given(st.text(max_size=80), st.text(max_size=60))
def test_any_question_and_title_are_read_without_error(question: str, title: str) -> None:
    asked = concepts(question)
    assert isinstance(says_title(asked, title), bool)
    assert isinstance(says_title(asked, title, spare=1), bool)


FOCUS_ASKED = "按照 Firefox Focus 和 Klar 的使用条款，Mozilla 承担的赔偿责任最多是多少？"
FOCUS_TITLES = {"tou-zh": "Firefox 使用条款", "focus-en": "Firefox Focus and Klar Terms of Use"}
FOCUS_POOL = [hit("tou-zh", "Mozilla 在本协议下的赔偿责任以 500 美元为限。")]
FOCUS = hit("focus-en", "Any liability for Mozilla under this agreement is limited to $500.")


def test_a_title_of_its_own_script_spelling_fewer_of_the_names_keeps_nothing_back() -> None:
    # "Firefox 使用条款" is said but for one word, and spells "Firefox" alone; the title
    # said whole in the other script spells "Focus" and "Klar" too: it names the document.
    got = titled_elsewhere(query(FOCUS_ASKED), FOCUS_POOL, titles=Titles.of(FOCUS_TITLES),
                           deeper=Deeper([*FOCUS_POOL, FOCUS]), depth=1000, limit=10)
    assert [h.chunk.id for h in got] == ["focus-en", "tou-zh"]
    # Asked by the Firefox terms alone, the question's own title keeps the pool.
    asked = "按照 Firefox 使用条款，Mozilla 承担的赔偿责任最多是多少？"
    assert titled_elsewhere(query(asked), FOCUS_POOL, titles=Titles.of(FOCUS_TITLES),
                            deeper=Deeper([*FOCUS_POOL, FOCUS]), depth=1000,
                            limit=10) == FOCUS_POOL
