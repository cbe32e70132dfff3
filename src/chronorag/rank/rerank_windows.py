"""Time-aware sentence-window reranking with the cross-encoder.

A passage of a long page speaks of many periods; the question asks about one. Rather than
asking the cross-encoder about whole passages (slow, and it then rewards passages that
*mention* the question's subject), this reranker asks it about the few sentences of each
candidate passage whose times fit the question's constraint — each with its neighbours and
the page title for context. The passage's semantic score is its best window's score, and
the window's sentence becomes the passage's ``best_sentence``. Windows are short, so far
more candidates fit in the same time budget than with whole passages.

Which passages are judged matters as much as how: the search orders the pool before
the model runs (``SearchConfig.late``, then ``SearchConfig.prerank``: see
``rank.prerank``), so the model's budget goes to passages that are about the subject
*and* speak of the asked period.

Without a time constraint the windows are the sentences that share most words with the
question, as stems ("renews" says "renew"), each word weighing what it tells the passages
apart: a word most candidate sentences say (the subject every passage is about) weighs
little, a word few say much (``SentenceTerms``). A question that states the asker's case
before asking is read twice, whole and by its asking sentence (``asked_sentence``), and a
window is as relevant as the better of the whole and a mean of both in which the ask counts
twice (``_ASK_WEIGHT``).

Which sentence of a relevant passage answers is a second reading, apart from how relevant
the passage is. The best window is the sentence most *about* the question; the answer is
often the next one, which says little alone: "We may also send you … security messages
like password resets" is followed by "These are necessary to our services and cannot be
unsubscribed from." So in the most relevant passages (``answer_top``) each sentence around
the best window is read alone and after the sentence before it; the one whose reading alone
plus the better of its two readings is highest answers (``_answering``). A sentence that
continues its antecedent gains from it; one that stands alone counts its own reading
twice, so an unrelated sentence before it costs nothing (benchmarks/README.md §52).

The model reads English: a pair with a mostly-Chinese question or passage is judged by the
multilingual judge (``rank.multilingual``) when one is given, else keeps its retrieval
relevance (flagged ``rerank_skipped_cjk``).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from functools import lru_cache

import numpy as np

from chronorag.flags import Flag
from chronorag.ingest.sentences import asked_sentence
from chronorag.lang import states
from chronorag.model import Chunk, Hit, Intent, Query, Sentence
from chronorag.rank.base import rarity
from chronorag.rank.multilingual import MultilingualJudge, levels
from chronorag.rank.rerank_ce import CrossEncoderReranker, fallback, unjudged
from chronorag.rank.rerank_none import fallback_semantics, with_scores
from chronorag.rank.temporal import UNKNOWN, sentence_fits
from chronorag.retrieve.glossary import english_words
from chronorag.retrieve.tokenize import is_mostly_cjk

# How much more the asking sentence of a question that states a case counts than the whole
# question (benchmarks/README.md §56: an even mean, this and the ask alone measured over the
# policy questions; of the other development sets' English questions, 2 of TimeQA's 1 316
# state a case, none of the rest).
_ASK_WEIGHT = 2.0


class WindowReranker:
    """Cross-encoder over time-fitting sentence windows of the first ``top_n`` hits.

    Args:
        top_n: how many hits are judged; the rest follow, flagged ``not_reranked``.
        per_chunk: how many windows of one passage are judged.
        context: sentences on each side of the chosen sentence.
        max_length: token limit of one (question, window) pair.
        titles: document id -> title; a window is prefixed with its page's title, since a
            lone sentence ("He was prime minister from 2022") rarely names its subject.
        judge: judges the pairs the model cannot read (mostly-Chinese question or
            passage); it costs no model run per passage, so it judges ``judge_top``.
        judge_top: how deep in the list the judge looks.
        enough: the model reads the windows of the first half of the head, and those of
            the rest only when no passage of that half reached this relevance (None: all
            at once); passages left unread follow unjudged (``unjudged``).
        kin: (documents read, documents unread) -> those of the unread that must be
            judged beside the read ones (their versions, or variants for other askers),
            read even when one read passage reached ``enough``. None: the reranker knows
            no relations and never stops early.
        answer_top: in how many of the most relevant passages it read the model chooses
            the answering sentence among the sentences around the best window
            (``_answering``); 0: the best window's sentence answers.
    """

    name = "windows"

    def __init__(self, *, top_n: int = 10, per_chunk: int = 2, context: int = 0,
                 max_length: int = 128, batch_size: int = 8,
                 titles: Callable[[str], str] | None = None,
                 judge: MultilingualJudge | None = None, judge_top: int = 10,
                 enough: float | None = None,
                 kin: Callable[[set[str], set[str]], set[str]] | None = None,
                 answer_top: int = 1) -> None:
        self.top_n = top_n
        self.answer_top = answer_top
        self.enough = enough
        self.kin = kin
        self.judge = judge
        self.judge_top = judge_top
        self.titles = titles
        self.per_chunk = per_chunk
        self.context = context
        self.model = CrossEncoderReranker(max_length=max_length, batch_size=batch_size,
                                          top_n=top_n)

    def warm_up(self) -> None:
        """Load the cross-encoder now (it loads on first use otherwise)."""
        self.model.warm_up()

    def rerank(self, query: Query, hits: Sequence[Hit]) -> list[Hit]:
        """Hits sorted by their best window's ``semantic`` score."""
        if not hits:
            return []
        question_cjk = is_mostly_cjk(query.text)
        if question_cjk and self.judge is None:
            return fallback(hits, flag=Flag.RERANK_SKIPPED_CJK)
        # The model reads the English pairs among the first ``top_n``; the judge, which
        # costs no model run, the others among the first ``judge_top``.
        readable: list[Hit] = []
        foreign: list[Hit] = []
        tail: list[Hit] = []
        judge_depth = self.judge_top if self.judge is not None else self.top_n
        depth = max(self.top_n, judge_depth)
        # Only the head's scripts are read: counting the words of every candidate would
        # cost ~3 ms a question.
        for i, hit in enumerate(hits[:depth]):
            if not question_cjk and not is_mostly_cjk(hit.chunk.text):
                (readable if i < self.top_n else tail).append(hit)
            else:
                (foreign if i < judge_depth else tail).append(hit)
        # The passages in the other script the search gathered (``pipeline.across``) are
        # judged wherever the pool order put them: the judge costs no model run.
        gathered = [h for h in hits[depth:] if self.judge is not None
                    and Flag.OTHER_SCRIPT in h.flags]
        foreign += gathered
        tail += [h for h in hits[depth:] if not any(h is g for g in gathered)]
        judged = self._answered(query, self._cross_encode(query, readable)) + \
            self._judge(query, foreign)
        judged.sort(key=lambda h: -h.scores["semantic"])
        floor = min((h.scores["semantic"] for h in judged), default=0.0)
        return judged + unjudged(tail, floor=floor)

    def _cross_encode(self, query: Query, head: list[Hit]) -> list[Hit]:
        # A when-question is answered from the record that says when, often not the most
        # relevant one; a count or a change reads several records: every record of the
        # head needs its own judgement.
        if self.enough is None or self.kin is None or not head or \
                query.understanding.intent is not Intent.CONTENT:
            return self._read(query, head)
        half = (len(head) + 1) // 2
        # One version of a policy, or its rule for one region, being relevant says
        # nothing of the others: they are worded alike, and the answer weighs each. So
        # they are read with the first half, whatever it scores.
        kin = self.kin({h.chunk.doc_id for h in head[:half]},
                       {h.chunk.doc_id for h in head[half:]})
        first: list[Hit] = []
        rest: list[Hit] = []
        for i, hit in enumerate(head):
            (first if i < half or hit.chunk.doc_id in kin else rest).append(hit)
        judged = self._read(query, first)
        if max(h.scores["semantic"] for h in judged) < self.enough:
            return judged + self._read(query, rest)
        floor = min(h.scores["semantic"] for h in judged)
        return judged + [with_scores(h, flags=(Flag.RERANK_CUT_SHORT,))
                         for h in unjudged(rest, floor=floor)]

    def _read(self, query: Query, head: list[Hit]) -> list[Hit]:
        if not head:
            return []
        terms = SentenceTerms.of(query.content, head)
        windows = [(i, s, text) for i, hit in enumerate(head)
                   for s, text in self._windows(query, hit, terms)]
        logits = self._logits(query, [text for _, _, text in windows])
        best: dict[int, tuple[float, int | None]] = {}
        for (i, sentence, _), logit in zip(windows, logits, strict=True):
            if i not in best or logit > best[i][0]:
                best[i] = (float(logit), sentence)
        judged = []
        for i, hit in enumerate(head):
            logit, sentence = best.get(i, (-20.0, None))
            semantic = float(1.0 / (1.0 + np.exp(-logit)))
            judged.append(_scored(hit, sentence, rerank=logit, semantic=semantic))
        return judged

    def _logits(self, query: Query, texts: list[str]) -> np.ndarray:
        logits = self.model.score(query.text, texts)
        ask = asked_sentence(query.text)
        if ask is not None:
            # A window that answers what is asked gains two thirds of what the ask alone
            # sees in it beyond the whole question (the case stated before it is context;
            # the ask says what answers); none loses, so a question that states its case
            # keeps the level that decides whether it is answered at all.
            asked = self.model.score(ask, texts)
            logits = np.maximum(logits, (logits + _ASK_WEIGHT * asked) / (1 + _ASK_WEIGHT))
        return logits

    def _answered(self, query: Query, read: list[Hit]) -> list[Hit]:
        """``read`` with the answering sentence of its ``answer_top`` most relevant
        passages the model read chosen anew (``_answering``); relevance is unchanged."""
        judged = [k for k, h in enumerate(read)
                  if Flag.NOT_RERANKED not in h.flags and h.best_sentence is not None]
        first = sorted(judged, key=lambda k: -read[k].scores["semantic"])[:self.answer_top]
        out = list(read)
        for k in first:
            out[k] = replace(read[k], best_sentence=self._answering(query, read[k]))
        return out

    def _answering(self, query: Query, hit: Hit) -> int | None:
        """The sentence of ``hit`` that answers: of the best window's sentence, the one
        before it and the two after it (of ``lang.STATING_WORDS`` words or more while one is),
        the one read as most relevant alone plus the better of that and its reading after
        the sentence before it. The window's sentence when the question asks a time and
        the passage states one."""
        sentences = hit.chunk.sentences
        at = next((p for p, s in enumerate(sentences) if s.index == hit.best_sentence), None)
        if at is None or len(sentences) < 2:
            return hit.best_sentence
        if query.constraint.interval is not None and any(
                fit.tier != UNKNOWN for fit in sentence_fits(hit, query.constraint)):
            # Where the passage states times, the asked time chose the window's sentence;
            # a reading by relevance alone would overrule it.
            return hit.best_sentence
        near = range(max(at - 1, 0), min(at + 3, len(sentences)))
        positions = [p for p in near if states(sentences[p].text)] or list(near)
        title = self.titles(hit.chunk.doc_id) if self.titles else ""
        alone = [window_text(hit.chunk, p, context=0, title=title) for p in positions]
        # The first sentence of a passage has none before it: it is read alone twice.
        after = [_titled(title, sentences[max(p - 1, 0):p + 1]) for p in positions]
        logits = self._logits(query, alone + after)
        own, led = logits[:len(positions)], logits[len(positions):]
        # A continuation gains from its antecedent; a sentence that stands alone does not
        # lose to an unrelated one before it.
        summed = own + np.maximum(own, led)
        return sentences[positions[int(np.argmax(summed))]].index

    def _judge(self, query: Query, hits: list[Hit]) -> list[Hit]:
        """The hits the model cannot read, ordered by the judge within each passage
        script, each pair keeping its calibrated retrieval relevance as a set
        (``multilingual.levels``); a hit the judge has no vectors for keeps its own."""
        if self.judge is None:
            return fallback(hits, flag=Flag.RERANK_SKIPPED_CJK)
        judgements = self.judge.judge(query.text, hits)
        unjudgeable = [h for h, j in zip(hits, judgements, strict=True) if j is None]
        pairs = [(h, j) for h, j in zip(hits, judgements, strict=True) if j is not None]
        judged = [h for h, _ in pairs]
        scores = [j.score for _, j in pairs]
        relevance = levels(judged, scores, fallback_semantics(judged))
        out = [_scored(h, j.sentence, judge=j.score, semantic=r)
               for (h, j), r in zip(pairs, relevance, strict=True)]
        # Equal relevance (clipped at 0 or 1) keeps the judge's order: the sort is stable.
        out.sort(key=lambda h: -h.scores["judge"])
        return out + fallback(unjudgeable, flag=Flag.RERANK_SKIPPED_CJK)

    def _windows(self, query: Query, hit: Hit, terms: SentenceTerms | None = None
                 ) -> list[tuple[int | None, str]]:
        """The (sentence index, text) windows of ``hit`` the model reads; ``terms``
        weighs the question's words over the passages read with it (alone: over its own)."""
        chunk = hit.chunk
        if not chunk.sentences:
            return [(None, chunk.text)]
        chosen = self._choose(query, hit, terms or SentenceTerms.of(query.content, [hit]))
        title = self.titles(chunk.doc_id) if self.titles else ""
        return [(chunk.sentences[p].index,
                 window_text(chunk, p, context=self.context, title=title)) for p in chosen]

    def _choose(self, query: Query, hit: Hit, terms: SentenceTerms) -> list[int]:
        """Positions (in the chunk) of the sentences worth judging."""
        sentences = hit.chunk.sentences
        overlap = [terms.shared(s.text) for s in sentences]
        if query.understanding.intent is Intent.TIME:
            # "When was it completed?" is answered by a sentence that states a time.
            overlap = [o + (2 if s.mentions else 0) for o, s in zip(overlap, sentences,
                                                                     strict=True)]
        if query.constraint.interval is not None:
            fits = sentence_fits(hit, query.constraint)
            ranked = sorted(range(len(sentences)),
                            key=lambda p: (fits[p].tier, fits[p].fit, overlap[p]), reverse=True)
        else:
            ranked = sorted(range(len(sentences)), key=lambda p: overlap[p], reverse=True)
        return sorted(ranked[: self.per_chunk])


@dataclass(frozen=True)
class SentenceTerms:
    """What a sentence shares with the question: the question's stems it says, each
    weighing its inverse document frequency over the sentences of the passages read
    together (``rank.base.rarity``). A stem every candidate says names the subject
    they are all about and tells none of their sentences apart; one few say does: "If
    Mozilla ends my access without specific cause…" is answered by the sentence saying
    "without specific cause", not by the one saying "Mozilla", "end" and "access"."""

    asked: frozenset[str]
    weights: dict[str, float]

    @classmethod
    def of(cls, question: str, hits: Sequence[Hit]) -> SentenceTerms:
        asked = _stems(question)
        sentences = [_stems(s.text) for hit in hits for s in hit.chunk.sentences]
        counts = Counter(w for bag in sentences for w in bag & asked)
        n = len(sentences)
        return cls(asked, {w: rarity(counts[w], n) for w in asked})

    def shared(self, sentence: str) -> float:
        """The weight of the question's stems ``sentence`` says."""
        return sum(self.weights[w] for w in self.asked & _stems(sentence))


@lru_cache(maxsize=8192)
def _stems(text: str) -> frozenset[str]:
    # Sentences of one store come back question after question: stem each once.
    return frozenset(english_words(text))


def _scored(hit: Hit, sentence: int | None, **scores: float) -> Hit:
    """``hit`` with ``scores`` added, ordered by its ``semantic`` score, and ``sentence``
    as its best sentence."""
    return replace(hit, score=scores["semantic"], scores={**hit.scores, **scores},
                   best_sentence=sentence)


def window_text(chunk: Chunk, position: int, *, context: int, title: str = "") -> str:
    """The text the model reads for the sentence at ``position`` of ``chunk``: the page
    ``title``, then the sentence with ``context`` neighbours on each side (never crossing
    the chunk). Training data for a reader is cut with this same function."""
    return _titled(title, window_sentences(chunk, position, context=context))


def _titled(title: str, sentences: Sequence[Sentence]) -> str:
    text = " ".join(s.text for s in sentences)
    return f"{title}: {text}" if title else text


def window_sentences(chunk: Chunk, position: int, *, context: int) -> Sequence[Sentence]:
    """The sentence at ``position`` of ``chunk`` with ``context`` neighbours on each side,
    never crossing the chunk."""
    sentences: Sequence[Sentence] = chunk.sentences
    return sentences[max(position - context, 0):position + context + 1]
