"""Plain-text rendering of a context pack (the library never prints; the CLI does)."""

from __future__ import annotations

from chronorag.semantic.context import ContextPack


def render_pack(pack: ContextPack) -> str:
    """The prompt-ready pack text, then a footer (not part of the pack) with the token
    accounting and what corrective retrieval did."""
    tokens = pack.pack.tokens_json()
    budget = "no budget" if tokens["budget"] is None else f"budget {tokens['budget']}"
    corrective = pack.retrieval.corrective
    footer = [f"-- tokens {tokens['used']} ({budget}, estimator words+cjk)"]
    if corrective.get("retried"):
        footer.append(f"-- corrective: grade {corrective['initial_grade']} -> "
                      f"{corrective.get('final_grade')}; " + "; ".join(corrective["actions"]))
    if tokens["dropped"]:
        dropped = ", ".join(f"{k} {v}" for k, v in tokens["dropped"].items())
        footer.append(f"-- trimmed to budget: {dropped}")
    return "\n".join([pack.text(), "", *footer])
