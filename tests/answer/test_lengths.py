"""How long a duration span says (``answer.lengths``)."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from chronorag.answer.lengths import amount, length_in_days


def test_a_range_is_its_upper_bound_for_the_most_and_its_lower_for_the_least() -> None:
    assert length_in_days("10-14 business days", most=True) == 14
    assert length_in_days("10-14 business days", most=False) == 10
    assert length_in_days("two weeks", most=True) == 14
    assert length_in_days("三个月", most=True) == 90
    assert length_in_days("25 个月", most=True) == 750


def test_a_span_without_a_known_number_or_unit_has_no_length() -> None:
    assert length_in_days("many years", most=True) is None
    assert length_in_days("for as long as your account is active", most=True) is None
    assert amount("fourteen") == 14 and amount("三") == 3 and amount("days") is None


@given(st.text(alphabet=st.characters(codec="utf-8"), max_size=60), st.booleans())
def test_any_text_has_a_length_or_none(span: str, most: bool) -> None:
    value = length_in_days(span, most=most)
    assert value is None or value >= 0
