"""Date answers over records: which record's words say when (``answer.personal``)."""

from __future__ import annotations

from datetime import UTC, datetime

from chronorag.answer import personal, when
from chronorag.model import Evidence, Granularity, Interval, Mention

SAID = datetime(2023, 7, 3, 20, 43, tzinfo=UTC)
YESTERDAY = Mention("yesterday", 0, 9, Interval(datetime(2023, 7, 2, tzinfo=UTC),
                                                datetime(2023, 7, 3, tzinfo=UTC),
                                                Granularity.DAY), anchor=SAID)


def _turn(doc: str, text: str, *times: Mention, source_type: str = "message") -> Evidence:
    return Evidence(doc, f"{doc}#0", "", text, 0, len(text), source_type, None, None, None,
                    SAID, True, (), 0.5, {"semantic": 0.5}, times=times)


WHAT = _turn("what", "Maria: A car ran a red light and hit us.")
WHEN = _turn("when", "Maria: Something bad happened with the car yesterday.", YESTERDAY)
OTHER = _turn("other", "Maria: The concert was great yesterday!", YESTERDAY)


def test_a_word_in_most_records_tells_nothing() -> None:
    records = [WHAT, WHEN, OTHER, _turn("x", "Maria: Hello there.")]
    assert personal._telling(frozenset({"maria", "car"}), records) == frozenset({"car"})


def test_the_time_comes_from_a_ranked_record_that_shares_a_telling_word() -> None:
    best, time = personal._dated(WHAT, [WHAT, OTHER, WHEN], telling=frozenset({"car"}),
                                 tense=-1, tz=UTC, sessions={})
    assert best is WHEN and time is not None and time.phrase == "yesterday"


def test_without_a_telling_word_the_best_record_answers_its_own_day() -> None:
    best, time = personal._dated(WHAT, [WHAT, OTHER], telling=frozenset({"car"}),
                                 tense=-1, tz=UTC, sessions={})
    assert best is WHAT and time is not None and time.source == "metadata"


def test_a_record_past_the_first_four_of_the_ranking_does_not_answer() -> None:
    fillers = [_turn(f"f{i}", f"Maria: a car, filler {i}.") for i in range(3)]
    ranked = [WHAT, *fillers, WHEN]
    best, _ = personal._dated(WHAT, ranked, telling=frozenset({"car"}), tense=-1, tz=UTC,
                              sessions={})
    assert best is WHAT and personal.STATED_DEPTH == 4


def test_a_turn_of_the_same_session_answers_at_any_depth() -> None:
    fillers = [_turn(f"f{i}", f"Maria: a car, filler {i}.") for i in range(6)]
    ranked = [WHAT, *fillers, WHEN]
    session = {"what": ("chat", "3"), "when": ("chat", "3")}
    best, time = personal._dated(WHAT, ranked, telling=frozenset({"car"}), tense=-1, tz=UTC,
                                 sessions=session)
    assert best is WHEN and time is not None and time.phrase == "yesterday"
    # A turn of another session that far down is another telling: it does not answer.
    other = {"what": ("chat", "3"), "when": ("chat", "4")}
    best, _ = personal._dated(WHAT, ranked, telling=frozenset({"car"}), tense=-1, tz=UTC,
                              sessions=other)
    assert best is WHAT
    # Nor one of the same session without a telling word.
    best, _ = personal._dated(WHAT, [WHAT, *fillers, OTHER], telling=frozenset({"car"}),
                              tense=-1, tz=UTC, sessions={**session, "other": ("chat", "3")})
    assert best is WHAT


def test_sessions_are_read_from_a_transcripts_metadata() -> None:
    from chronorag.model import Document

    turn = Document(id="what", text="x", metadata={"conversation": "chat", "session": 3})
    note = Document(id="when", text="x", metadata={"session": 3})
    found = personal._sessions([WHAT, WHEN, OTHER], {"what": turn, "when": note})
    assert found == {"what": ("chat", "3")}


def test_a_news_story_takes_no_date_from_another() -> None:
    story = _turn("story", "The car show opened.", source_type="news")
    best, time = personal._dated(story, [story, WHEN], telling=frozenset({"car"}),
                                 tense=-1, tz=UTC, sessions={})
    assert best is story and time is not None and time.source == "metadata"
    assert not when.tells_part(story)
