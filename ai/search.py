"""The search's hot loop: the compiled kernel ``ai._search`` when it is built, else its twin.

``COMPILED`` says which one is loaded. Setting ``MDH_PURE_PYTHON=1`` forces the twin
``ai.search_py``, whose notes describe the rollout policy, the exact search, the cost and the
sampling. ``deal_plan`` and ``effective_size`` are plain Python in both cases (``deal_plan``
runs once per decision).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ai import search_py
from ai.search_py import (
    EPSILON,
    EVIDENCE_SIZE,
    FEATURE_COUNT,
    FEATURES,
    GUARD_KEYS,
    LEARNED_KINDS,
    LOG_UNIT,
    MAX_THREADS,
    TALLY_BONUS,
    TALLY_CONCEDED,
    TALLY_HEARTS,
    TALLY_JACK,
    TALLY_MATCH_LOST,
    TALLY_MATCH_WON,
    TALLY_OTHERS_BONUS,
    TALLY_QUEEN,
    TALLY_SHOT,
    TALLY_SIZE,
    TALLY_TRICK,
    WEIGHT_UNIT,
    DealPlan,
    Goal,
    History,
    LearnedModel,
    PassRecord,
    Table,
    check_learned_model,
    check_mixture,
    check_threads,
    deal_plan,
    effective_size,
)
from core.native import load_native, same_function

_implementation, COMPILED = load_native("ai._search", search_py)

if TYPE_CHECKING:
    from ai.search_py import PlayMemo
else:
    PlayMemo = _implementation.PlayMemo

card_features = same_function(search_py.card_features, _implementation)
evaluate = same_function(search_py.evaluate, _implementation)
evaluate_detail = same_function(search_py.evaluate_detail, _implementation)
exact = same_function(search_py.exact, _implementation)
learned_evidence = same_function(search_py.learned_evidence, _implementation)
mixed_evidence = same_function(search_py.mixed_evidence, _implementation)
pass_evidence = same_function(search_py.pass_evidence, _implementation)
play_evidence = same_function(search_py.play_evidence, _implementation)
policy_card = same_function(search_py.policy_card, _implementation)
rollout = same_function(search_py.rollout, _implementation)
rollout_cards = same_function(search_py.rollout_cards, _implementation)
runner_evidence = same_function(search_py.runner_evidence, _implementation)
sample_deals = same_function(search_py.sample_deals, _implementation)
tempered_weights = same_function(search_py.tempered_weights, _implementation)

__all__ = [
    "COMPILED",
    "EPSILON",
    "EVIDENCE_SIZE",
    "FEATURES",
    "FEATURE_COUNT",
    "GUARD_KEYS",
    "LEARNED_KINDS",
    "LOG_UNIT",
    "MAX_THREADS",
    "TALLY_BONUS",
    "TALLY_CONCEDED",
    "TALLY_HEARTS",
    "TALLY_JACK",
    "TALLY_MATCH_LOST",
    "TALLY_MATCH_WON",
    "TALLY_OTHERS_BONUS",
    "TALLY_QUEEN",
    "TALLY_SHOT",
    "TALLY_SIZE",
    "TALLY_TRICK",
    "WEIGHT_UNIT",
    "DealPlan",
    "Goal",
    "History",
    "LearnedModel",
    "PassRecord",
    "PlayMemo",
    "Table",
    "card_features",
    "check_learned_model",
    "check_mixture",
    "check_threads",
    "deal_plan",
    "effective_size",
    "evaluate",
    "evaluate_detail",
    "exact",
    "learned_evidence",
    "mixed_evidence",
    "pass_evidence",
    "play_evidence",
    "policy_card",
    "rollout",
    "rollout_cards",
    "runner_evidence",
    "sample_deals",
    "tempered_weights",
]
