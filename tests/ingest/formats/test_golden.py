"""Golden Markdown and HTML files (tests/cases/formats): each ``NAME.json`` holds the text
and title its reader must write, the headings, the section path at a phrase, and what a
phrase of the text maps back to in the source."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from chronorag.ingest.formats import reader_for, section_path, source_offset

CASES = Path(__file__).parents[2] / "cases" / "formats"
NAMES = sorted(p.name for p in CASES.iterdir() if not p.name.endswith(".json"))


@pytest.mark.parametrize("name", NAMES)
def test_golden_file(name: str) -> None:
    pytest.importorskip("selectolax")
    data = (CASES / name).read_bytes()
    expected = json.loads((CASES / f"{name}.json").read_text(encoding="utf-8"))
    extracted = reader_for(name).read(data, name=name)  # type: ignore[union-attr]
    text, layout = extracted.text, extracted.layout
    assert text == expected["text"]
    assert extracted.title == expected["title"]
    assert [[text[s:e], level] for s, e, level in layout.headings] == expected["headings"]
    assert list(layout.titles) == [h[0] for h in expected["headings"]]
    for phrase, path in expected["sections"].items():
        assert list(section_path(layout, text.index(phrase))) == path, phrase
    source = data.decode("utf-8")
    for phrase, found in expected["source"].items():
        at = source_offset(layout, text.index(phrase))
        assert source[at:at + len(found)] == found, phrase


def test_golden_cases_exist() -> None:
    assert {n.rsplit(".", 1)[-1] for n in NAMES} >= {"md", "html"}
