"""Section paths and the source map of a layout, on layouts written by hand."""

from __future__ import annotations

from chronorag.ingest.formats import Layout, section_path, source_offset

#            0         1         2         3         4
#            0123456789012345678901234567890123456789012345
TEXT = "A\n\nintro\n\nB\n\nb text\n\nC\n\nc text\n\nD\n\nd text"
HEADINGS = ((0, 1, 1), (10, 11, 2), (21, 22, 3), (32, 33, 2))
LAYOUT = Layout("markdown", "char", 100, headings=HEADINGS, titles=("A", "B", "C", "D"))


def test_section_path_follows_heading_levels() -> None:
    assert section_path(LAYOUT, TEXT.index("intro")) == ("A",)
    assert section_path(LAYOUT, TEXT.index("b text")) == ("A", "B")
    assert section_path(LAYOUT, TEXT.index("c text")) == ("A", "B", "C")
    # D is a sibling of B: C's section ended with it.
    assert section_path(LAYOUT, TEXT.index("d text")) == ("A", "D")
    assert section_path(LAYOUT, TEXT.index("C")) == ("A", "B", "C")  # inside its heading


def test_no_section_before_the_first_heading_and_from_json() -> None:
    layout = Layout("html", "char", 10, headings=((5, 6, 2),), titles=("X",))
    assert section_path(layout, 0) == ()
    assert section_path(layout.to_json(), 7) == ("X",)
    assert Layout.from_json(LAYOUT.to_json()) == LAYOUT


def test_character_offsets_map_within_their_run() -> None:
    layout = Layout("markdown", "char", 50, source_map=((0, 2), (10, 30)))
    assert source_offset(layout, 0) == 2
    assert source_offset(layout, 4) == 6
    assert source_offset(layout, 9) == 11
    assert source_offset(layout, 12) == 32
    # Past the end of the source the offset stops at its end.
    assert source_offset(layout, 40) == 50


def test_a_run_never_maps_past_the_next_one() -> None:
    layout = Layout("html", "char", 50, source_map=((0, 10), (20, 12)))
    assert source_offset(layout, 5) == 12


def test_pages_map_to_their_number() -> None:
    layout = Layout("pdf", "page", 3, pages=(0, 40, 90), source_map=((0, 1), (40, 2), (90, 3)))
    assert [source_offset(layout, t) for t in (0, 39, 40, 95)] == [1, 1, 2, 3]


def test_table_rows_round_trip_and_a_layout_stored_without_them_has_none() -> None:
    layout = Layout("md", "char", 40, blocks=((0, 10), (11, 20)), rows=((11, 20),))
    assert Layout.from_json(layout.to_json()).rows == ((11, 20),)
    stored = {k: v for k, v in layout.to_json().items() if k != "rows"}
    assert Layout.from_json(stored).rows == ()
    assert layout.shifted(5, source_length=45).rows == ((11, 20),)
