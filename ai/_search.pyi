"""Types of the compiled search kernel; its pure-Python twin ``ai.search_py`` documents it."""

from collections.abc import Sequence

from ai.search_py import DealPlan, Goal, History, LearnedModel, PassRecord, Table

TALLY_SIZE: int
MAX_THREADS: int

def rollout(
    hands: Sequence[int], table: Table, card: int, seed: int
) -> tuple[tuple[int, int, int, int], int]: ...
def rollout_cards(hands: Sequence[int], table: Table, card: int, seed: int) -> list[int]: ...
def exact(
    hands: Sequence[int], table: Table, card: int
) -> tuple[tuple[int, int, int, int], int]: ...
def policy_card(hands: Sequence[int], table: Table) -> int: ...
def evaluate(
    deals: Sequence[Sequence[int]],
    table: Table,
    candidates: Sequence[int],
    rollouts: int,
    seed: int,
    first_deal: int,
    exact_cards: int,
    goal: Goal,
    leaf_cards: int = 0,
    look_ahead: bool = False,
    threads: int = 1,
) -> list[int]: ...
def evaluate_detail(
    deals: Sequence[Sequence[int]],
    table: Table,
    candidates: Sequence[int],
    rollouts: int,
    seed: int,
    first_deal: int,
    exact_cards: int,
    goal: Goal,
    leaf_cards: int = 0,
    look_ahead: bool = False,
    threads: int = 1,
) -> tuple[list[int], list[int]]: ...
def sample_deals(
    plan: DealPlan, count: int, seed: int, first: int
) -> list[tuple[int, int, int, int]]: ...
def pass_evidence(deals: Sequence[Sequence[int]], record: PassRecord) -> list[int]: ...
def runner_evidence(
    deals: Sequence[Sequence[int]], seat: int, log_weights: Sequence[int]
) -> list[int]: ...
def play_evidence(
    deals: Sequence[Sequence[int]], history: History, log_weights: Sequence[int]
) -> list[int]: ...
def tempered_weights(log_weights: Sequence[int], minimum: float) -> tuple[list[float], float]: ...
def card_features(hands: Sequence[int], table: Table) -> tuple[int, list[tuple[int, ...]]]: ...

class PlayMemo: ...

def learned_evidence(
    deals: Sequence[Sequence[int]],
    history: History,
    model: LearnedModel,
    memo: PlayMemo | None = None,
) -> list[int]: ...
def mixed_evidence(
    deals: Sequence[Sequence[int]],
    history: History,
    log_weights: Sequence[int],
    model: LearnedModel,
    prior: float,
    per_play: bool = False,
    memo: PlayMemo | None = None,
) -> list[int]: ...
