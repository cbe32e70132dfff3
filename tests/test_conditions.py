"""Declared conditions, askers' attributes and how a document's ``applies_to`` fits them
(``chronorag.conditions``): pure functions, and none of them crashes on any text."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from chronorag.conditions import (
    ConditionError,
    Fit,
    as_json,
    context_problems,
    declare,
    dump_declared,
    fit,
    label,
    parse_context,
    parse_declared,
    problems,
    undeclare,
)

DECLARED = {"region": ("EU", "US"), "segment": ()}


def test_declaring_adds_keys_and_values_in_order() -> None:
    keys = declare({}, "region", ["US", "EU", "EU"])
    assert keys == {"region": ("EU", "US")}
    keys = declare(keys, "region", ["UK"])
    assert keys == {"region": ("EU", "UK", "US")}
    assert declare(keys, "region") == keys  # no values: nothing to add
    assert list(declare(keys, "地区")) == ["region", "地区"]
    assert parse_declared(dump_declared(keys)) == keys
    assert as_json(keys) == {"conditions": {"region": ["EU", "UK", "US"]}}
    assert parse_declared(None) == {}


@pytest.mark.parametrize(("key", "values", "message"), [
    ("bad key", [], "must be a word"),
    ("1st", [], "must be a word"),
    ("", [], "must be a word"),
    ("region", [" "], "must be non-empty"),
    ("region", ["EU,US"], "hold no ','"),
    ("segment", ["business"], "declared to take any value"),
])
def test_bad_declarations_are_refused(key: str, values: list[str], message: str) -> None:
    with pytest.raises(ConditionError, match=message):
        declare(DECLARED, key, values)


def test_undeclaring() -> None:
    assert undeclare(DECLARED, "segment") == {"region": ("EU", "US")}
    with pytest.raises(ConditionError, match="'tier' is not declared; declared: region, segment"):
        undeclare(DECLARED, "tier")


def test_problems_name_the_key_and_the_declared_ones() -> None:
    assert problems({"region": ("EU",), "segment": ("anything",)}, DECLARED) == []
    assert problems({"country": ("FR",)}, {}) == [
        "condition 'country' is not declared; no condition is declared "
        "(declare it with: chronorag conditions declare country VALUE...)"]
    assert problems({"region": ("EU", "Mars")}, DECLARED) == [
        "region: 'Mars' not among the declared values EU, US"]
    assert context_problems({"region": "US"}, DECLARED) == []


def test_parse_context() -> None:
    assert parse_context(["region=EU", " segment = business "]) == {
        "region": "EU", "segment": "business"}
    assert parse_context(["region=EU", "region=EU"]) == {"region": "EU"}
    for bad in (["region"], ["=EU"], ["region="], ["region=EU", "region=US"]):
        with pytest.raises(ConditionError):
            parse_context(bad)


def test_fit_is_judged_key_by_key() -> None:
    eu = {"region": ("EU",)}
    assert fit(eu, {"region": "EU"}) == Fit(matched=("region",))
    assert fit(eu, {"region": "EU"}).specific
    assert fit(eu, {"region": "US"}) == Fit(unmet=("region",))
    assert not fit(eu, {"region": "US"}).applies
    assert fit(eu, {}) == Fit(unknown=("region",))
    assert fit(eu, {}).applies and not fit(eu, {}).specific
    assert fit({}, {"region": "US"}) == Fit() and not Fit().specific
    both = {"region": ("EU",), "segment": ("business",)}
    assert fit(both, {"region": "EU"}) == Fit(matched=("region",), unknown=("segment",))


def test_labels() -> None:
    assert label({"segment": ("business", "enterprise"), "region": ("EU",)}) == \
        "region: EU; segment: business, enterprise"
    assert label({}) == ""


@given(st.lists(st.text(max_size=30), max_size=5))
def test_parse_context_reads_any_text_or_says_why(items: list[str]) -> None:
    try:
        context = parse_context(items)
    except ConditionError as exc:
        assert str(exc)
    else:
        assert all(k and v and k == k.strip() for k, v in context.items())


@given(st.text(max_size=30), st.lists(st.text(max_size=20), max_size=4))
def test_declare_accepts_any_text_or_says_why(key: str, values: list[str]) -> None:
    try:
        keys = declare(DECLARED, key, values)
    except ConditionError as exc:
        assert str(exc)
    else:
        assert parse_declared(dump_declared(keys)) == keys
        assert problems({key.strip(): tuple(v.strip() for v in values)}, keys) == [] or \
            not values


@given(st.dictionaries(st.text(max_size=10), st.lists(st.text(max_size=10), max_size=3),
                       max_size=4),
       st.dictionaries(st.text(max_size=10), st.text(max_size=10), max_size=4))
def test_fit_splits_every_key_once(applies_to: dict[str, list[str]],
                                   context: dict[str, str]) -> None:
    conditions = {k: tuple(v) for k, v in applies_to.items()}
    verdict = fit(conditions, context)
    assert sorted((*verdict.matched, *verdict.unmet, *verdict.unknown)) == sorted(conditions)
    assert isinstance(problems(conditions, DECLARED), list)
    assert isinstance(label(conditions), str)
