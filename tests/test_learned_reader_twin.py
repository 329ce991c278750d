"""A learned model of play in the kernels: the compiled features and evidence equal the twin's
on many random positions, the features say what they name, and a seat's features read only what
that seat knows."""

from __future__ import annotations

import math
import random
from types import ModuleType

import pytest
from search_kernels import IMPLEMENTATIONS, compiled, needs_compiled
from test_search_twin import random_history, random_state, table_of

from ai import search_py
from ai.knowledge import read_knowledge
from ai.sampler import DealSampler
from ai.search_py import FEATURE_COUNT, FEATURES, LEARNED_KINDS, LearnedModel
from core.cards import QUEEN_OF_SPADES, SUIT_MASKS, parse_cards
from core.hand import HandState

FEATURE = {name: index for index, name in enumerate(FEATURES)}


def random_model(rng: random.Random) -> LearnedModel:
    size = rng.choice((300, 3000, 1 << 20))
    weights = tuple(rng.randrange(-size, size + 1) for _ in range(LEARNED_KINDS * FEATURE_COUNT))
    return LearnedModel(weights, rng.choice((1e-6, 0.05, 0.3, 1.0)))


@needs_compiled
def test_learned_evidence_and_features_agree_on_many_positions() -> None:
    rng = random.Random(41)
    checked = 0
    for _ in range(500):
        hand = random_state(rng)
        seat = hand.turn
        if seat is None or not hand.tricks or not hand.tricks[0].cards:
            continue
        hands = tuple(hand.hands)
        table = table_of(hand)
        assert compiled.card_features(hands, table) == search_py.card_features(hands, table)
        sampler = DealSampler(read_knowledge(hand.observation(seat, (0, 0, 0, 0))))
        deals = [sampler.sample(rng) for _ in range(4)]
        model = random_model(rng)
        history = random_history(hand)
        assert compiled.learned_evidence(deals, history, model) == search_py.learned_evidence(
            deals, history, model
        )
        checked += 1
    assert checked > 350


def position(text: dict[int, str], trick: str, leader: int) -> tuple[tuple[int, ...], object]:
    """Return hands and a table after the first trick's cards ``trick`` led by ``leader``."""
    hands = [0, 0, 0, 0]
    for seat, cards in text.items():
        hands[seat] = sum(1 << card for card in parse_cards(cards))
    played = parse_cards(trick)
    return tuple(hands), search_py.Table((0, 0, 0, 0), tuple(played), leader, 1, False, 0)


@pytest.mark.parametrize("kernel", IMPLEMENTATIONS, ids=lambda module: module.__name__)
def test_features_say_which_card_wins_and_what_it_takes(kernel: ModuleType) -> None:
    # Seat 3 plays last to 5♠ Q♠ 2♥ (hearts taken: 13 + 1 points) holding 4♠ K♠ A♥.
    hands, table = position({3: "4S KS AH"}, "5S QS 2H", 0)
    kind, rows = kernel.card_features(hands, table)
    assert kind == 1
    assert len(rows) == 2
    low, king = rows
    assert low[FEATURE["wins the trick so far"]] == 0
    assert king[FEATURE["wins the trick so far"]] == 1
    assert king[FEATURE["wins the trick, last to play"]] == 1
    assert king[FEATURE["points it would take"]] == 14
    assert low[FEATURE["points it would take"]] == 0
    assert king[FEATURE["rank"]] == 11
    assert king[FEATURE["cards held below it"]] == 1
    assert low[FEATURE["cards held above it in its suit"]] == 1
    # Unseen spades: 13 minus the three played, minus the two held; above the K♠ only the A♠.
    assert king[FEATURE["cards unseen above it"]] == 1
    assert low[FEATURE["cards unseen below it"]] == 2
    assert king[FEATURE["A♠ or K♠ while the Q♠ is unseen"]] == 0


@pytest.mark.parametrize("kernel", IMPLEMENTATIONS, ids=lambda module: module.__name__)
def test_a_winning_heart_counts_itself_and_is_not_last_to_play(kernel: ModuleType) -> None:
    hands, table = position({2: "3H 9H"}, "5H 2H", 0)
    kind, (three, nine) = kernel.card_features(hands, table)
    assert kind == 1
    assert nine[FEATURE["wins the trick so far"]] == 1
    assert nine[FEATURE["wins the trick, last to play"]] == 0
    assert nine[FEATURE["points it would take"]] == 3
    assert three[FEATURE["wins the trick so far"]] == 0
    assert three[FEATURE["heart"]] == 1


@pytest.mark.parametrize("kernel", IMPLEMENTATIONS, ids=lambda module: module.__name__)
def test_features_of_a_lead_and_of_the_queen(kernel: ModuleType) -> None:
    hands, table = position({0: "3S QS AS 5D"}, "", 0)
    kind, rows = kernel.card_features(hands, table)
    assert kind == 0
    by_card = dict(zip(parse_cards("5D 3S QS AS"), rows, strict=True))
    three, queen, ace = (by_card[card] for card in parse_cards("3S QS AS"))
    assert queen[FEATURE["Q♠"]] == 1 and three[FEATURE["Q♠"]] == 0
    assert three[FEATURE["spade while holding the Q♠"]] == 1
    assert queen[FEATURE["spade while holding the Q♠"]] == 0
    # The seat holds the Q♠: it is not unseen, so neither high-spade feature is set.
    assert ace[FEATURE["A♠ or K♠ while the Q♠ is unseen"]] == 0
    assert three[FEATURE["spade below the Q♠ while the Q♠ is unseen"]] == 0
    assert by_card[parse_cards("5D")[0]][FEATURE["last card of its suit"]] == 1
    assert all(row[FEATURE["wins the trick so far"]] == 0 for row in rows)


def unseen_by(hand: HandState, seat: int) -> int:
    """The cards ``seat`` has not seen: neither in its hand nor played, from its observation."""
    observation = hand.observation(seat, (0, 0, 0, 0))
    seen = observation.hand
    for trick in observation.tricks:
        for card in trick.cards:
            seen |= 1 << card
    return ((1 << 52) - 1) & ~seen


@pytest.mark.parametrize("kernel", IMPLEMENTATIONS, ids=lambda module: module.__name__)
def test_features_read_only_what_the_seat_knows(kernel: ModuleType) -> None:
    rng = random.Random(5)
    checked = 0
    for _ in range(150):
        hand = random_state(rng)
        seat = hand.turn
        if seat is None:
            continue
        table = table_of(hand)
        kind, rows = kernel.card_features(tuple(hand.hands), table)
        alone = [hand.hands[other] if other == seat else 0 for other in range(4)]
        if table.leader >= 0:
            assert kernel.card_features(alone, table) == (kind, rows)
            shuffled = [rng.getrandbits(52) if other != seat else alone[seat] for other in range(4)]
            assert kernel.card_features(shuffled, table) == (kind, rows)
        unseen = unseen_by(hand, seat)
        for card, row in zip(
            [c for c in range(52) if hand.legal_mask(seat) >> c & 1], rows, strict=True
        ):
            suit_cards = SUIT_MASKS[card // 13]
            above = suit_cards & ~((2 << card) - 1)
            below = suit_cards & ((1 << card) - 1)
            assert row[FEATURE["cards unseen above it"]] == (unseen & above).bit_count()
            assert row[FEATURE["cards unseen below it"]] == (unseen & below).bit_count()
            queen_unseen = unseen >> QUEEN_OF_SPADES & 1
            low_spade = card // 13 == 2 and card < QUEEN_OF_SPADES
            assert row[FEATURE["spade below the Q♠ while the Q♠ is unseen"]] == int(
                low_spade and queen_unseen == 1
            )
        checked += 1
    assert checked > 100


@pytest.mark.parametrize("kernel", IMPLEMENTATIONS, ids=lambda module: module.__name__)
def test_learned_evidence_sums_the_softmax_of_each_other_seats_play(kernel: ModuleType) -> None:
    rng = random.Random(8)
    checked = 0
    for _ in range(80):
        hand = random_state(rng)
        seat = hand.turn
        if seat is None or not hand.tricks or not hand.tricks[0].cards:
            continue
        model = random_model(rng)
        history = random_history(hand)
        replay = HandState.new(hand.rules, "hold", hand.dealt)
        expected = 0
        for card in history.cards:
            player = replay.turn
            assert player is not None
            legal = replay.legal_mask(player)
            if player != seat and legal.bit_count() > 1:
                kind, rows = kernel.card_features(tuple(replay.hands), table_of(replay))
                weights = model.weights[kind * FEATURE_COUNT : (kind + 1) * FEATURE_COUNT]
                logits = [sum(w * f for w, f in zip(weights, row, strict=True)) for row in rows]
                cards = [c for c in range(52) if legal >> c & 1]
                shares = [math.exp((logit - max(logits)) / 1024) for logit in logits]
                chance = (1 - model.mix) * shares[cards.index(card)] / sum(shares)
                chance += model.mix / len(cards)
                expected += math.floor(1024 * math.log(chance) + 0.5)
            replay.play(player, card)
        got = kernel.learned_evidence([tuple(hand.hands)], history, model)[0]
        # The sums of the shares may differ in the last bit from the kernels' own order.
        assert abs(got - expected) <= 2
        checked += 1
    assert checked > 50


@pytest.mark.parametrize("kernel", IMPLEMENTATIONS, ids=lambda module: module.__name__)
def test_a_learned_model_of_the_wrong_shape_is_refused(kernel: ModuleType) -> None:
    hand = random_state(random.Random(3), plays=10)
    history = random_history(hand)
    deals = [tuple(hand.hands)]
    with pytest.raises(ValueError, match="48 weights"):
        kernel.learned_evidence(deals, history, LearnedModel((0,) * 47, 0.1))
    with pytest.raises(ValueError, match="mix"):
        kernel.learned_evidence(deals, history, LearnedModel((0,) * 48, 0.0))
