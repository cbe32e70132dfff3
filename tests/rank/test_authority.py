"""Authority prior and decisiveness."""

from __future__ import annotations

import pytest

from chronorag.errors import ConfigError
from chronorag.rank.authority import AuthorityPrior


def test_default_priors() -> None:
    prior = AuthorityPrior()
    assert prior.prior("policy") == prior.prior("glossary") == 1.0
    assert prior.prior("wiki") == prior.prior("record") == 0.9
    assert prior.prior("news") == prior.prior("faq") == 0.85
    assert prior.prior("script") == 0.75
    assert prior.prior("note") == 0.7
    assert prior.prior("forum") == 0.5
    assert prior.prior(None) == prior.prior("") == prior.prior("blog") == 0.7
    assert prior.prior(" FAQ ") == 0.85


def test_configurable_weights() -> None:
    prior = AuthorityPrior(weights={"Manual": 0.95}, unknown=0.4)
    assert prior.prior("manual") == 0.95
    assert prior.prior("policy") == 0.4
    tuned = AuthorityPrior().with_weights(forum=0.3, manual=0.95)
    assert tuned.prior("forum") == 0.3 and tuned.prior("manual") == 0.95
    assert tuned.prior("policy") == 1.0
    assert hash(tuned) == hash(AuthorityPrior().with_weights(manual=0.95, forum=0.3))


@pytest.mark.parametrize("bad", [-0.1, float("nan"), float("inf")])
def test_invalid_weights_are_rejected(bad: float) -> None:
    with pytest.raises(ConfigError, match="finite number"):
        AuthorityPrior(weights={"policy": bad})
    with pytest.raises(ConfigError):
        AuthorityPrior(unknown=bad)


def test_forum_never_decides() -> None:
    prior = AuthorityPrior()
    assert not prior.decisive("forum") and not prior.decisive("Forum")
    assert prior.decisive("policy") and prior.decisive(None) and prior.decisive("blog")
    assert AuthorityPrior(non_decisive=frozenset({"Note"})).decisive("forum")
    assert not AuthorityPrior(non_decisive=frozenset({"Note"})).decisive("note")
