"""The search's hot loop: the compiled kernel ``ai._search`` when it is built, else its twin.

``COMPILED`` says which one is loaded. Setting ``MDH_PURE_PYTHON=1`` forces the twin
``ai.search_py``, whose notes describe the rollout policy, the exact search, the cost and the
sampling. ``deal_plan`` is plain Python in both cases (it runs once per decision).
"""

from __future__ import annotations

from ai import search_py
from ai.search_py import EPSILON, DealPlan, Goal, Table, deal_plan
from core.native import load_native

_implementation, COMPILED = load_native("ai._search", search_py)

evaluate = _implementation.evaluate
exact = _implementation.exact
policy_card = _implementation.policy_card
rollout = _implementation.rollout
rollout_cards = _implementation.rollout_cards
sample_deals = _implementation.sample_deals

__all__ = [
    "COMPILED",
    "EPSILON",
    "DealPlan",
    "Goal",
    "Table",
    "deal_plan",
    "evaluate",
    "exact",
    "policy_card",
    "rollout",
    "rollout_cards",
    "sample_deals",
]
