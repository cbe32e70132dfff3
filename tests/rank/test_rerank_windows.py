"""The window reranker's reading rules, with a model whose judgements the test sets."""

from collections.abc import Callable, Sequence
from dataclasses import replace
from datetime import UTC, datetime

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from chronorag.flags import Flag
from chronorag.model import (
    Chunk,
    Constraint,
    Granularity,
    Hit,
    Intent,
    Interval,
    Mention,
    Query,
    Relation,
    Sentence,
    Understanding,
)
from chronorag.rank.multilingual import Judgement
from chronorag.rank.rerank_windows import SentenceTerms, WindowReranker


class Judgements:
    """Stands in for the cross-encoder: a logit per passage text, every call recorded; a
    text without one is an error, or reads ``default`` when one is given."""

    def __init__(self, logits: dict[str, float], *, default: float | None = None) -> None:
        self.logits = logits
        self.default = default
        self.calls: list[list[str]] = []

    def score(self, question: str, texts: Sequence[str]) -> np.ndarray:
        self.calls.append(list(texts))
        return np.array([self.logits[t] if self.default is None
                         else self.logits.get(t, self.default) for t in texts],
                        dtype=np.float32)


def query(text: str, *, intent: Intent = Intent.CONTENT) -> Query:
    now = datetime(2026, 1, 1, tzinfo=UTC)
    return Query(text=text, now=now, as_of=now,
                 understanding=Understanding(question=text, content=text, intent=intent))


def hits(texts: Sequence[str]) -> list[Hit]:
    return [Hit(chunk=Chunk(id=t, doc_id=t, index=0, start=0, end=len(t), text=t),
                score=1.0 / (i + 1), scores={"rrf": 1.0 / (i + 1)})
            for i, t in enumerate(texts)]


def unrelated(read: set[str], unread: set[str]) -> set[str]:
    return set()


def reranker(logits: dict[str, float], *, enough: float | None, top_n: int = 4,
             kin: Callable[[set[str], set[str]], set[str]] | None = unrelated,
             ) -> WindowReranker:
    out = WindowReranker(top_n=top_n, enough=enough, kin=kin)
    out.model = Judgements(logits)  # type: ignore[assignment]
    return out


PASSAGES = ["alpha", "beta", "gamma", "delta", "epsilon"]


def calls(model: WindowReranker) -> list[list[str]]:
    return model.model.calls  # type: ignore[attr-defined]


def test_a_relevant_enough_first_stage_leaves_the_rest_unread_and_says_so():
    model = reranker({"alpha": 0.0, "beta": 4.0, "gamma": 6.0, "delta": 1.0}, enough=0.95)
    ranked = model.rerank(query("Which one?"), hits(PASSAGES))
    assert calls(model) == [["alpha", "beta"]]
    assert [h.chunk.id for h in ranked] == ["beta", "alpha", "gamma", "delta", "epsilon"]
    for h in ranked[2:4]:
        assert {Flag.NOT_RERANKED, Flag.RERANK_CUT_SHORT} <= set(h.flags)
        assert h.scores["semantic"] <= ranked[1].scores["semantic"]
    assert Flag.RERANK_CUT_SHORT not in ranked[4].flags  # beyond top_n: never in the head


def test_the_second_half_is_read_when_no_passage_of_the_first_is_relevant_enough():
    texts = [f"passage {i}" for i in range(10)]
    logits = dict.fromkeys(texts, 1.0) | {"passage 6": 9.0}
    model = reranker(logits, enough=0.95, top_n=8)
    ranked = model.rerank(query("Which one?"), hits(texts))
    assert calls(model) == [texts[:4], texts[4:8]]
    assert ranked[0].chunk.id == "passage 6"
    assert not any(Flag.RERANK_CUT_SHORT in h.flags for h in ranked)
    assert [Flag.NOT_RERANKED in h.flags for h in ranked] == [False] * 8 + [True] * 2


def test_an_odd_head_reads_the_larger_half_first():
    texts = [f"passage {i}" for i in range(5)]
    model = reranker(dict.fromkeys(texts, 1.0) | {"passage 2": 5.0}, enough=0.95, top_n=5)
    ranked = model.rerank(query("Which one?"), hits(texts))
    assert calls(model) == [texts[:3]]
    assert [Flag.RERANK_CUT_SHORT in h.flags for h in ranked] == [False] * 3 + [True] * 2


@pytest.mark.parametrize("enough, intent", [(None, Intent.CONTENT), (0.95, Intent.TIME),
                                           (0.95, Intent.COUNT), (0.95, Intent.CHANGE)])
def test_all_is_read_at_once_without_a_level_or_when_the_answer_reads_several(enough, intent):
    model = reranker({"alpha": 9.0, "beta": 4.0, "gamma": 6.0, "delta": 1.0}, enough=enough)
    ranked = model.rerank(query("When?", intent=intent), hits(PASSAGES))
    assert calls(model) == [["alpha", "beta", "gamma", "delta"]]
    assert [h.chunk.id for h in ranked[:4]] == ["alpha", "gamma", "beta", "delta"]


def test_versions_and_variants_of_the_first_half_are_read_with_it():
    asked: list[tuple[set[str], set[str]]] = []

    def versions(read: set[str], unread: set[str]) -> set[str]:
        asked.append((read, unread))
        return {"delta"} & unread  # delta is a later version of alpha

    logits = {"alpha": 9.0, "beta": 4.0, "gamma": 6.0, "delta": 8.0}
    model = reranker(logits, enough=0.95, kin=versions)
    ranked = model.rerank(query("Which one?"), hits(PASSAGES))
    assert asked == [({"alpha", "beta"}, {"gamma", "delta"})]
    assert calls(model) == [["alpha", "beta", "delta"]]  # one batch, whatever it scores
    assert [h.chunk.id for h in ranked[:4]] == ["alpha", "delta", "beta", "gamma"]
    assert [Flag.RERANK_CUT_SHORT in h.flags for h in ranked[:4]] == [False] * 3 + [True]


def test_a_reranker_that_knows_no_relations_never_stops_early():
    model = reranker({"alpha": 9.0, "beta": 4.0, "gamma": 6.0, "delta": 1.0}, enough=0.95,
                     kin=None)
    ranked = model.rerank(query("Which one?"), hits(PASSAGES))
    assert calls(model) == [["alpha", "beta", "gamma", "delta"]]
    assert not any(Flag.RERANK_CUT_SHORT in h.flags for h in ranked)


def test_no_passage_no_reading():
    model = reranker({}, enough=0.95)
    assert model.rerank(query("Which one?"), []) == [] and calls(model) == []


def sentenced(doc_id: str, sentences: Sequence[str]) -> Hit:
    text, parts, at = " ".join(sentences), [], 0
    for i, sentence in enumerate(sentences):
        parts.append(Sentence(doc_id=doc_id, index=i, start=at, end=at + len(sentence),
                              text=sentence))
        at += len(sentence) + 1
    return Hit(chunk=Chunk(id=doc_id, doc_id=doc_id, index=0, start=0, end=len(text),
                           text=text, sentences=tuple(parts)), score=1.0)


TERMINATION = sentenced("mdn", [
    "Mozilla can suspend or end anyone's access to the Service at any time.",
    "Without specific cause, we will refund the current month.",
    "Mozilla may end the Service, and with it your access.",
    "Mozilla gives you access to the Service.",
    "Mozilla may update the Service.",
    "You can end your access to the Service by deleting your account.",
])


def test_a_word_few_sentences_say_outweighs_the_subject_all_of_them_say() -> None:
    # "Mozilla", "end" and "access" are said across the passage; "specific cause" once.
    q = query("If Mozilla ends my access to the Service without specific cause, what happens?")
    model = WindowReranker(per_chunk=1)
    terms = SentenceTerms.of(q.content, [TERMINATION])
    assert model._choose(q, TERMINATION, terms) == [1]


def test_words_are_matched_as_stems() -> None:
    terms = SentenceTerms.of("When does my plan renew and get charged?", [TERMINATION])
    assert terms.shared("Your plan renews, and we charge the fee.") > \
        terms.shared("We offer a renewing plan.") > 0


@given(question=st.text(max_size=80), sentences=st.lists(st.text(max_size=80), min_size=1,
                                                         max_size=4))
def test_no_sentence_shares_more_than_the_question_says(question: str,
                                                        sentences: list[str]) -> None:
    terms = SentenceTerms.of(question, [sentenced("d", sentences)])
    most = terms.shared(question)
    assert all(0.0 <= terms.shared(s) <= most + 1e-9 for s in sentences)


class ByQuestion(Judgements):
    """A logit per (question, passage) pair."""

    def __init__(self, logits: dict[tuple[str, str], float]) -> None:
        super().__init__({})
        self.pairs = logits

    def score(self, question: str, texts: Sequence[str]) -> np.ndarray:
        self.calls.append(list(texts))
        return np.array([self.pairs[(question, t)] for t in texts], dtype=np.float32)


def test_what_is_asked_orders_passages_and_never_lowers_a_level() -> None:
    premise = "The terms said my data may be processed abroad. "
    ask = "How did I agree to that transfer?"
    question = premise + ask
    restates, answers = "Your data may be processed abroad.", "By using it you consent."
    model = WindowReranker(top_n=4)
    model.model = ByQuestion({(question, restates): 3.0, (question, answers): 2.0,  # type: ignore[assignment]
                              (ask, restates): -1.0, (ask, answers): 6.0})
    ranked = model.rerank(query(question), hits([restates, answers]))
    assert [h.chunk.text for h in ranked] == [answers, restates]
    assert ranked[0].scores["rerank"] == pytest.approx(14.0 / 3)  # (2 + 2 × 6) / 3
    assert ranked[1].scores["rerank"] == pytest.approx(3.0)  # the whole question's


def test_the_ask_outweighs_the_case_a_question_states() -> None:
    # The whole question, mostly its case, reads the restating window 3 and the answering
    # one 0; the ask reads the answer 5: counted twice, (0 + 2 × 5) / 3 > 3 (an even mean,
    # 2.5, would leave the restatement first).
    premise = "I use the mobile app. The terms say content in it may have other terms. "
    ask = "Whose additional terms may apply?"
    restates, answers = "Content in the app is governed by these terms.", "App stores' terms."
    model = WindowReranker(top_n=4)
    model.model = ByQuestion({(premise + ask, restates): 3.0,  # type: ignore[assignment]
                              (premise + ask, answers): 0.0,
                              (ask, restates): 1.0, (ask, answers): 5.0})
    ranked = model.rerank(query(premise + ask), hits([restates, answers]))
    assert [h.chunk.text for h in ranked] == [answers, restates]


def readings(logits: dict[str, float]) -> Judgements:
    """A logit per window text, -5 for any other text."""
    return Judgements(logits, default=-5.0)


EMAILS = [
    "We send you account emails about your subscription and its renewal.",
    "We may also send you security messages like password resets.",
    "These are necessary to our services and cannot be unsubscribed from.",
    "Marketing emails can be turned off in your settings at any time.",
]


def answering(logits: dict[str, float], *, answer_top: int = 2,
              constraint: Constraint | None = None) -> Hit:
    model = WindowReranker(top_n=4, per_chunk=1, answer_top=answer_top)
    model.model = readings(logits)  # type: ignore[assignment]
    q = query("Can I opt out of emails such as password resets?")
    if constraint is not None:
        q = replace(q, understanding=replace(q.understanding, constraint=constraint))
    (ranked,) = model.rerank(q, [sentenced("emails", EMAILS)])
    return ranked


def test_the_sentence_that_continues_the_best_one_answers_when_read_after_it() -> None:
    # Alone, "These are necessary …" says little; after its antecedent it answers.
    logits = {EMAILS[1]: 3.0, EMAILS[2]: -1.0, f"{EMAILS[1]} {EMAILS[2]}": 8.0,
              f"{EMAILS[0]} {EMAILS[1]}": 2.0}
    ranked = answering(logits)
    assert ranked.best_sentence == 2
    # How relevant the passage is stays its best window's reading.
    assert ranked.scores["rerank"] == pytest.approx(3.0)


def test_a_sentence_that_stands_alone_keeps_its_own_reading() -> None:
    logits = {EMAILS[1]: 5.0, EMAILS[2]: -3.0, f"{EMAILS[1]} {EMAILS[2]}": 1.0,
              f"{EMAILS[0]} {EMAILS[1]}": 5.0}
    assert answering(logits).best_sentence == 1


def test_the_sentence_after_an_answer_does_not_take_its_relevance() -> None:
    # Read after the answer, the next sentence borrows the answer's relevance (6.0), and
    # the answer read after an unrelated sentence loses some (1.0): the answer, read
    # alone at 4.0, still counts 4.0 twice against the next one's 1.0 + 6.0.
    logits = {EMAILS[1]: 4.0, EMAILS[2]: 1.0, f"{EMAILS[1]} {EMAILS[2]}": 6.0,
              f"{EMAILS[0]} {EMAILS[1]}": 1.0}
    assert answering(logits).best_sentence == 1
    assert answering({EMAILS[1]: 3.0, f"{EMAILS[1]} {EMAILS[2]}": 8.0},
                     answer_top=0).best_sentence == 1


def test_a_heading_is_not_chosen_while_a_sentence_near_it_states_something() -> None:
    heading = sentenced("refunds", ["30-Day Refund Policy.",
                                    "Refunds are given in addition to your consumer rights."])
    model = WindowReranker(top_n=4, per_chunk=2)
    model.model = readings({"30-Day Refund Policy.": 6.0,  # type: ignore[assignment]
                            "Refunds are given in addition to your consumer rights.": 1.0})
    (ranked,) = model.rerank(query("Does the refund policy replace my rights?"), [heading])
    assert ranked.best_sentence == 1
    assert ranked.scores["rerank"] == pytest.approx(6.0)


YEAR = Interval(datetime(2021, 1, 1, tzinfo=UTC), datetime(2022, 1, 1, tzinfo=UTC),
                Granularity.YEAR)


def test_a_passage_stating_times_keeps_the_window_the_asked_time_chose() -> None:
    hit = sentenced("emails", EMAILS)
    dated = tuple(replace(s, mentions=(Mention("2021", s.start, s.start + 4, YEAR),))
                  if s.index == 1 else s for s in hit.chunk.sentences)
    model = WindowReranker(top_n=4, per_chunk=1)
    model.model = readings({EMAILS[1]: 3.0,  # type: ignore[assignment]
                            f"{EMAILS[1]} {EMAILS[2]}": 8.0})
    q = query("In 2021, could I opt out of emails such as password resets?")
    q = replace(q, understanding=replace(q.understanding,
                                         constraint=Constraint(Relation.IN, interval=YEAR)))
    (ranked,) = model.rerank(q, [replace(hit, chunk=replace(hit.chunk, sentences=dated))])
    assert ranked.best_sentence == 1


def test_passages_past_the_first_keep_their_windows_sentence() -> None:
    model = WindowReranker(top_n=4, per_chunk=1, answer_top=1)
    first, second = sentenced("a", EMAILS), sentenced("b", EMAILS)
    model.model = readings({EMAILS[1]: 3.0, EMAILS[2]: -1.0,  # type: ignore[assignment]
                            f"{EMAILS[1]} {EMAILS[2]}": 8.0})
    ranked = model.rerank(query("Can I opt out of emails such as password resets?"),
                          [first, second])
    assert sorted(h.best_sentence for h in ranked) == [1, 2]


def test_a_passage_stating_no_time_is_read_again_for_a_question_asking_one() -> None:
    logits = {EMAILS[1]: 3.0, EMAILS[2]: -1.0, f"{EMAILS[1]} {EMAILS[2]}": 8.0}
    assert answering(logits, constraint=Constraint(Relation.IN, interval=YEAR)
                     ).best_sentence == 2


class Judged:
    """Stands in for the multilingual judge: a score per passage text, the passages it
    was asked about recorded."""

    def __init__(self, scores: dict[str, float]) -> None:
        self.scores = scores
        self.asked: list[str] = []

    def judge(self, question: str, hits: Sequence[Hit]) -> list[Judgement | None]:
        self.asked += [h.chunk.text for h in hits]
        return [Judgement(score=self.scores[h.chunk.text], sentence=None) for h in hits]


def test_a_passage_the_search_gathered_in_the_other_script_is_judged_wherever_it_is() -> None:
    english = [f"passage {n}" for n in range(6)]
    gathered, left = "社区成员可以编写主题和收藏。", "本政策自发布之日起施行。"
    pool = hits([*english, gathered, left])
    pool[6] = replace(pool[6], flags=(Flag.OTHER_SCRIPT,))
    judge = Judged({gathered: 3.0, left: 1.0})
    model = WindowReranker(top_n=2, judge=judge, judge_top=2)  # type: ignore[arg-type]
    model.model = Judgements({}, default=0.0)  # type: ignore[assignment]
    ranked = model.rerank(query("What can community members create?"), pool)
    # Past the judge's depth, only the flagged passage is judged; the other waits unread.
    assert judge.asked == [gathered]
    flags = {h.chunk.text: h.flags for h in ranked}
    assert Flag.NOT_RERANKED not in flags[gathered]
    assert Flag.NOT_RERANKED in flags[left]
    assert [h.chunk.text for h in ranked].index(gathered) < 2 + 1
