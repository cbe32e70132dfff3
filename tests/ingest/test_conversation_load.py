"""Conversation transcripts (``*.chat.jsonl``): one document per turn, with stable ids,
titles that quote the turn replied to, session times inherited by later turns, and
private turns as records of their speaker."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta, timezone
from pathlib import Path
from typing import Any

import pytest

from chronorag.ingest import Named, chunk_document, load_paths
from chronorag.ingest.conversation import CONTEXT_CHARS, quotable, shorten
from chronorag.model import Document, Granularity, Interval
from chronorag.pipeline.embedding import embed_text

CASES = Path(__file__).parents[1] / "cases" / "conversation"
EXAMPLE = CASES / "example.chat.jsonl"
SHANGHAI = timezone(timedelta(hours=8))


def _chat(tmp_path: Path, *turns: dict[str, Any], name: str = "a.chat.jsonl") -> Path:
    path = tmp_path / name
    path.write_text("".join(json.dumps(t, ensure_ascii=False) + "\n" for t in turns),
                    encoding="utf-8")
    return path


def _docs(*paths: Path, **options: Any) -> dict[str, Document]:
    return {d.id: d for f in load_paths(list(paths), **options) for d in f.documents}


def _turn(text: str, speaker: str = "Jon", **fields: Any) -> dict[str, Any]:
    return {"conversation": "c", "session": 1, "speaker": speaker, "text": text, **fields}


T0 = "2023-05-08T13:56"


def test_golden_example_becomes_the_expected_documents() -> None:
    expected = json.loads((CASES / "example.expected.json").read_text(encoding="utf-8"))
    docs = sorted((d for f in load_paths([EXAMPLE]) for d in f.documents),
                  key=lambda d: int(d.source.rsplit(":", 1)[1]))
    got = [{"line": int(d.source.rsplit(":", 1)[1]), "id": d.id, "title": d.title,
            "text": d.text, "occurred_at": d.occurred_at and d.occurred_at.to_json(),
            "source_type": d.source_type, "subject": d.subject, "metadata": dict(d.metadata)}
           for d in docs]
    assert got == expected
    assert all(d.source == f"{EXAMPLE}:{e['line']}" for d, e in zip(docs, expected,
                                                                      strict=True))


def test_relative_phrases_of_a_turn_are_read_at_the_time_it_was_said() -> None:
    docs = _docs(EXAMPLE, tz=SHANGHAI)
    day = timedelta(days=1)

    def first_mention(doc_id: str, phrase: str) -> Interval:
        for chunk in chunk_document(docs[doc_id], tz=SHANGHAI):
            for sentence in chunk.sentences:
                for mention in sentence.mentions:
                    if mention.text == phrase:
                        return mention.interval
        raise AssertionError(f"{phrase!r} not found in {doc_id}")

    may7 = datetime(2023, 5, 7, tzinfo=SHANGHAI)   # said on Monday 8 May 2023
    assert first_mention("hike-club/s1:1", "yesterday") == Interval(may7, may7 + day,
                                                                    Granularity.DAY)
    # The reply has no time of its own: it takes its session's, and so does its phrase.
    may5 = datetime(2023, 5, 5, tzinfo=SHANGHAI)
    assert first_mention("hike-club/s1:2", "last Friday").start == may5
    june2 = datetime(2023, 6, 2, tzinfo=SHANGHAI)  # said on Saturday 10 June 2023
    assert first_mention("家庭群/s2023-06-10:1", "上周五").start == june2
    assert first_mention("家庭群/xiaoyu-reply", "昨天").start == datetime(2023, 6, 9,
                                                                      tzinfo=SHANGHAI)


def test_ids_default_to_the_position_in_the_session(tmp_path: Path) -> None:
    path = _chat(tmp_path, _turn("a", time=T0), _turn("b", speaker="Gina"),
                 _turn("c", session="2", time=T0), _turn("d", session=2, turn="end"),
                 {"conversation": "solo", "speaker": "Ann", "text": "e?", "time": T0},
                 {"conversation": "solo", "speaker": "Ann", "text": "f"})
    docs = _docs(path)
    assert sorted(docs) == ["c/end", "c/s1:1", "c/s1:2", "c/s2:1", "solo/1", "solo/2"]
    # 2 and "2" are one session: the turn named "end" follows "c/s2:1".
    assert docs["c/end"].metadata["previous"] == "c/s2:1"
    assert docs["c/end"].metadata["position"] == 1
    assert docs["c/s2:1"].metadata["next"] == "c/end"
    assert docs["solo/2"].title == "solo — Ann, continuing: “e?”"
    assert docs["solo/1"].metadata["session"] is None


def test_neighbours_position_and_fields(tmp_path: Path) -> None:
    path = _chat(tmp_path, _turn("Did you go hiking?", speaker="Gina", time=T0),
                 _turn("Yes, last Friday!"),
                 _turn("Nice.", speaker="Gina", image_caption=" a trail map "))
    gina, jon, again = _docs(path).values()
    assert (jon.id, jon.text, jon.source_type, jon.subject) == (
        "c/s1:2", "Jon: Yes, last Friday!", "message", None)
    assert again.text == "Gina: Nice. [image: a trail map]"
    assert jon.metadata == {"conversation": "c", "session": 1, "speaker": "Jon",
                            "turn": "s1:2", "position": 1, "previous": "c/s1:1",
                            "next": "c/s1:3", "time_inherited": True}
    assert gina.metadata["previous"] is None and again.metadata["next"] is None


def test_interleaved_sessions_keep_their_own_neighbours(tmp_path: Path) -> None:
    path = _chat(tmp_path, _turn("a1", time=T0), _turn("b1?", session=2, time=T0),
                 _turn("a2"), _turn("b2", session=2))
    docs = _docs(path)
    assert docs["c/s1:2"].metadata["previous"] == "c/s1:1"
    assert docs["c/s2:2"].metadata["previous"] == "c/s2:1"
    assert docs["c/s2:1"].metadata["next"] == "c/s2:2"
    assert docs["c/s2:2"].title == "c · session 2 — Jon, continuing: “b1?”"


def test_title_quotes_the_question_replied_to(tmp_path: Path) -> None:
    path = _chat(tmp_path, _turn("Did you go\n hiking?", speaker="Gina", time=T0),
                 _turn("Yes, last Friday!"), _turn("It was great."))
    gina, jon, more = _docs(path).values()
    assert gina.title == "c · session 1 — Gina"
    assert jon.title == "c · session 1 — Jon, replying to Gina: “Did you go hiking?”"
    # A statement is not quoted: the turn after it does not assert it.
    assert more.title == "c · session 1 — Jon"
    # The text and its offsets stay the turn's own words; the embedder sees the context.
    assert "hiking" not in jon.text
    [chunk] = chunk_document(jon)
    assert jon.text[chunk.start:chunk.end] == chunk.text == jon.text
    assert "Did you go hiking?" in embed_text(jon, chunk)


@pytest.mark.parametrize(("words", "quoted"), [
    ("Great pics! Did you go hiking? I did.", "Did you go hiking?"),
    ("Nice. Where? When?", "Where? When?"),
    ("We climbed Mount Tam.", ""),
    ("你去医院了吗", "你去医院了吗"),
    ("太好了！你复查了吗～", "你复查了吗～"),
    ("吗啡是止痛药。", ""),
    ("Look at this! [image: a trail map]", ""),
])
def test_what_the_next_turn_quotes(words: str, quoted: str) -> None:
    assert quotable(words) == quoted


def test_long_questions_are_quoted_shortened(tmp_path: Path) -> None:
    long = " ".join(["word"] * 100) + "?"
    path = _chat(tmp_path, _turn(long, speaker="Gina", time=T0), _turn("ok"),
                 _turn("长" * 300 + "吗", speaker="Gina"), _turn("好"))
    docs = _docs(path)
    quoted = docs["c/s1:2"].title.split("“", 1)[1].rstrip("”")
    assert quoted.endswith("word…") and len(quoted) <= CONTEXT_CHARS + 1
    assert docs["c/s1:4"].title.endswith("“" + "长" * CONTEXT_CHARS + "…”")
    assert shorten("short  and\tflat") == "short and flat"


def test_private_turns_are_records_of_their_speaker(tmp_path: Path) -> None:
    path = _chat(tmp_path, _turn("Is my salary 5000?", time=T0, private=True),
                 _turn("Public question?", speaker="Gina"),
                 _turn("Secret one?", private=True), _turn("Secret two.", private=True),
                 _turn("Gina's secret?", speaker="Gina", private=True),
                 _turn("Public again.", private=False))
    docs = list(_docs(path).values())
    assert [d.subject for d in docs] == ["Jon", None, "Jon", "Jon", "Gina", None]
    # A turn never quotes words its readers may not see.
    assert docs[1].title == "c · session 1 — Gina"                          # Jon's private
    assert docs[2].title.endswith("replying to Gina: “Public question?”")   # public: quoted
    assert docs[3].title.endswith("continuing: “Secret one?”")              # same subject
    assert docs[4].title == "c · session 1 — Gina"                          # Jon's, not hers
    assert docs[5].title == "c · session 1 — Jon"                           # Gina's private
    assert docs[5].metadata["previous"] == docs[4].id                       # ids stay linked


def test_later_turns_take_the_time_of_the_turn_before_them(tmp_path: Path) -> None:
    path = _chat(tmp_path, _turn("a", time="2023-05-08"), _turn("b"),
                 _turn("c", time="2023-05-08T20:00:00+02:00"), _turn("d"))
    a, b, c, d = _docs(path, tz=SHANGHAI).values()
    assert a.occurred_at == b.occurred_at == Interval(
        datetime(2023, 5, 8, tzinfo=SHANGHAI), datetime(2023, 5, 9, tzinfo=SHANGHAI),
        Granularity.DAY)
    assert c.occurred_at == d.occurred_at
    assert c.occurred_at is not None and c.occurred_at.start == datetime(
        2023, 5, 8, 18, 0, tzinfo=UTC)
    assert [x.metadata["time_inherited"] for x in (a, b, c, d)] == [False, True, False, True]


def test_unknown_keys_are_metadata(tmp_path: Path) -> None:
    path = _chat(tmp_path, _turn("a", time=T0, mood="happy", tags=["x"],
                                 metadata={"source": "export", "position": 99}))
    [doc] = _docs(path).values()
    assert doc.metadata["mood"] == "happy" and doc.metadata["tags"] == ["x"]
    assert doc.metadata["source"] == "export"
    assert doc.metadata["position"] == 0  # the conversation's keys win over a given object


def test_reading_the_same_file_twice_gives_the_same_documents(tmp_path: Path) -> None:
    first = [d.content_hash() for f in load_paths([EXAMPLE]) for d in f.documents]
    assert first == [d.content_hash() for f in load_paths([EXAMPLE]) for d in f.documents]


def test_folders_read_transcripts_beside_documents(tmp_path: Path) -> None:
    (tmp_path / "docs.jsonl").write_text('{"id": "d", "text": "plain"}\n', encoding="utf-8")
    _chat(tmp_path, _turn("a", time=T0), name="talk.CHAT.jsonl")
    assert sorted(_docs(tmp_path)) == ["c/s1:1", "d"]


def test_an_upload_is_a_transcript_by_the_name_it_was_sent_under(tmp_path: Path) -> None:
    kept = _chat(tmp_path, _turn("a", time=T0), name="0.jsonl")  # how the service keeps it
    [source] = load_paths([Named(kept, "talk.chat.jsonl")])
    assert [d.id for d in source.documents] == ["c/s1:1"]
    assert source.documents[0].source == "talk.chat.jsonl:1"


def test_a_bom_and_blank_lines_are_fine(tmp_path: Path) -> None:
    path = tmp_path / "a.chat.jsonl"
    line = json.dumps(_turn("a", time=T0))
    path.write_bytes(b"\xef\xbb\xbf" + line.encode() + b"\n\n  \n")
    assert list(_docs(path)) == ["c/s1:1"]
