"""The passages in the other script nearest to a question join the candidates, flagged,
unless the store holds their document in the question's script too
(``pipeline.across``)."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime

from hypothesis import given
from hypothesis import strategies as st

from chronorag.flags import Flag
from chronorag.model import Chunk, Hit, Query, Understanding
from chronorag.pipeline.across import other_script_passages
from chronorag.pipeline.named import Titles
from chronorag.retrieve.tokenize import is_mostly_cjk

NOW = datetime(2026, 1, 1, tzinfo=UTC)
ASKED = "What kinds of content can I create on addons.mozilla.org for other members?"


def query(text: str) -> Query:
    return Query(text=text, now=NOW, as_of=NOW,
                 understanding=Understanding(question=text, content=text))


def hit(chunk_id: str, doc_id: str, text: str) -> Hit:
    return Hit(chunk=Chunk(id=chunk_id, doc_id=doc_id, index=0, start=0, end=len(text),
                           text=text), score=0.0)


TITLES = Titles.of({"notice-en": "Firefox Privacy Notice", "notice-zh": "Firefox 隐私声明",
                    "amo-zh": "AMO 政策", "aup-en": "Acceptable Use Policy"})
CANDIDATES = [
    hit("notice-en-1", "notice-en", "You can install add-ons from addons.mozilla.org."),
    hit("aup-en-1", "aup-en", "You may not use any of Mozilla's services to spam."),
]
DEEPER = [
    *CANDIDATES,
    # The Chinese twin of the English notice, nearer than the AMO policies.
    hit("notice-zh-1", "notice-zh", "您可以从 addons.mozilla.org 安装附加组件。"),
    hit("amo-zh-1", "amo-zh", "您可以选择进行内容扩展、评分、编写主题、收藏或编写其他内容。"),
    hit("amo-zh-2", "amo-zh", "addons.mozilla.org (AMO) 是一个在线社区，托管用户创建的内容。"),
    hit("amo-zh-3", "amo-zh", "不符合这些政策的附加内容是不允许出现的。"),
]


def deeper(depth: int) -> list[Hit]:
    return DEEPER[:depth]


def ids(hits: Sequence[Hit]) -> list[str]:
    return [h.chunk.id for h in hits]


def test_the_nearest_passages_of_a_document_held_only_in_the_other_script_join() -> None:
    got = other_script_passages(query(ASKED), CANDIDATES, titles=TITLES, deeper=deeper, depth=1000)
    # The Chinese twin of the English notice is not gathered: the store holds it in
    # English; the first two passages of the AMO policies are, flagged.
    assert ids(got) == ["notice-en-1", "aup-en-1", "amo-zh-1", "amo-zh-2"]
    assert [Flag.OTHER_SCRIPT in h.flags for h in got] == [False, False, True, True]
    assert ids(other_script_passages(query(ASKED), CANDIDATES, titles=TITLES, deeper=deeper,
                            depth=1000, limit=1))[2:] == ["amo-zh-1"]


def test_a_near_passage_that_says_one_concept_of_the_question_or_none_is_left() -> None:
    unrelated = hit("amo-zh-0", "amo-zh", "违反这些政策的，我们可能会暂停其帐户。")
    got = other_script_passages(query("Am I allowed to keep a backup copy of the Pocket app?"),
                                CANDIDATES, titles=TITLES, deeper=lambda depth: [unrelated],
                                depth=1000)
    assert got == CANDIDATES
    got = other_script_passages(query(ASKED), CANDIDATES, titles=TITLES,
                                deeper=lambda depth: [unrelated, DEEPER[3]], depth=1000)
    assert ids(got)[2:] == ["amo-zh-1"]


def test_a_gathered_passage_already_among_the_candidates_is_flagged_where_it_stands() -> None:
    candidates = [*CANDIDATES, DEEPER[3]]
    got = other_script_passages(query(ASKED), candidates, titles=TITLES, deeper=deeper, depth=1000)
    assert ids(got) == ["notice-en-1", "aup-en-1", "amo-zh-1", "amo-zh-2"]
    assert all(Flag.OTHER_SCRIPT in h.flags for h in got[2:])


def test_a_chinese_question_or_a_store_without_chinese_titles_gathers_nothing() -> None:
    asked = "使用 Mozilla 的服务发送垃圾信息可以吗？"
    candidates = [DEEPER[2], DEEPER[3], CANDIDATES[1]]
    assert other_script_passages(query(asked), candidates, titles=TITLES, deeper=deeper,
                        depth=1000) == candidates
    english = Titles.of({"notice-en": "Firefox Privacy Notice", "amo-zh": "AMO Policies"})
    read = Deeper()
    assert other_script_passages(query(ASKED), CANDIDATES, titles=english, deeper=read,
                        depth=1000) == CANDIDATES
    assert read.depths == []


class Deeper:
    """The dense list, recording how deep it was read."""

    def __init__(self) -> None:
        self.depths: list[int] = []

    def __call__(self, depth: int) -> list[Hit]:
        self.depths.append(depth)
        return DEEPER[:depth]


def test_nothing_is_gathered_where_the_question_s_script_does_not_crowd_the_pool() -> None:
    chinese = [DEEPER[3], DEEPER[4]]
    assert other_script_passages(query(ASKED), chinese, titles=TITLES, deeper=deeper,
                        depth=1000) == chinese
    for depth in (0, -1):
        assert other_script_passages(query(ASKED), CANDIDATES, titles=TITLES, deeper=deeper,
                            depth=depth) == CANDIDATES
    assert other_script_passages(query(ASKED), CANDIDATES, titles=TITLES, deeper=deeper, depth=1000,
                        limit=0) == CANDIDATES
    assert other_script_passages(query(ASKED), [], titles=TITLES, deeper=deeper, depth=1000) == []


def test_a_translation_is_known_by_its_title_either_way() -> None:
    assert TITLES.translated("notice-en") and TITLES.translated("notice-zh")
    assert not TITLES.translated("amo-zh") and not TITLES.translated("aup-en")
    assert not TITLES.translated("not-stored")
    # Two versions of one document in one script are no translation of each other.
    versions = Titles.of({"v1": "Firefox 隐私声明", "v2": "Firefox 隐私声明"})
    assert not versions.translated("v1")


@given(st.text(max_size=60), st.lists(st.text(max_size=60), max_size=5),
       st.lists(st.text(max_size=60), max_size=6), st.integers(0, 3))
def test_candidates_are_kept_in_order_and_only_other_script_passages_are_added(
        question: str, kept: list[str], more: list[str], limit: int) -> None:
    candidates = [hit(f"c{i}", f"c{i}", text) for i, text in enumerate(kept)]
    extra = [hit(f"d{i}", f"d{i}", text) for i, text in enumerate(more)]
    titles = Titles.of({h.chunk.doc_id: h.chunk.text for h in [*candidates, *extra]})
    got = other_script_passages(query(question), candidates, titles=titles,
                       deeper=lambda depth: [*candidates, *extra][:depth], depth=20,
                       limit=limit)
    assert ids(got[:len(candidates)]) == ids(candidates)
    added = got[len(candidates):]
    assert len(added) <= limit
    assert len(set(ids(got))) == len(got)
    cjk = is_mostly_cjk(question)
    assert all(is_mostly_cjk(h.chunk.text) != cjk for h in added)
    assert sum(Flag.OTHER_SCRIPT in h.flags for h in got) <= limit
