"""A yardstick seat: OpenSpiel's C++ ISMCTS (``pyspiel.ISMCTSBot``) with random rollouts.

The bot searches only in the play phase; it passes with the easy bot's heuristic, because
OpenSpiel's resampler builds inconsistent hands during the passing phase and crashes the process.

To ask OpenSpiel for a card, the observer's information is rebuilt as an OpenSpiel hearts state
(``reconstruct`` then ``openspiel_state``): the pass direction, a deal, the twelve passed cards
and every card played, in order. The observer's own cards are exact; the other seats' cards are
one consistent guess. ISMCTS resamples the hidden cards from the observer's information state on
every simulation, so the guess does not inform its choice, but it must be consistent: an
impossible state makes OpenSpiel's C++ code abort the whole process. Every reconstruction is
therefore replayed with our rules first and must give back the very same observation; when it
does not, the bot plays the easy bot's card and says why in ``last_decision``.

OpenSpiel is an optional dependency (PyPI ``open-spiel``), imported on first use.
"""

from __future__ import annotations

import functools
import importlib
import random
import time
from dataclasses import dataclass
from types import ModuleType
from typing import Any

from ai.bot import Budget
from ai.easy import EasyBot
from ai.knowledge import read_knowledge
from ai.sampler import DealSampler, InconsistentKnowledgeError
from core.cards import cards_of, make_card, mask_of, rank_of, suit_of
from core.errors import HeartsError
from core.hand import HandState
from core.observation import Observation
from core.rules import RuleSet, pass_receiver, pass_sender

#: OpenSpiel's first chance action chooses the pass direction.
OPENSPIEL_DIRECTION = {"hold": 0, "left": 1, "across": 2, "right": 3}
# Our suits are C, D, S, H (card = suit * 13 + rank); OpenSpiel's are C, D, H, S (rank * 4 + suit).
_OTHER_SUIT = (0, 1, 3, 2)

#: UCT exploration constant. Returns are 26 − points, from 0 to 26 (a moon: 26 for the shooter,
#: 0 for the others), so the constant is the width of the reward range.
UCT_C = 26.0
DEFAULT_SIMULATIONS = 1000
#: The shortest search by time, however near the deadline: enough for a few simulations.
MIN_SEARCH_SECONDS = 0.005


def to_openspiel(card: int) -> int:
    """Return the OpenSpiel action of one of our cards."""
    return rank_of(card) * 4 + _OTHER_SUIT[suit_of(card)]


def from_openspiel(action: int) -> int:
    """Return our card for an OpenSpiel card action."""
    rank, suit = divmod(action, 4)
    return make_card(rank, _OTHER_SUIT[suit])


def openspiel_params(rules: RuleSet) -> dict[str, bool]:
    """Return the OpenSpiel hearts parameters matching a RuleSet.

    OpenSpiel only knows the ``add`` moon scoring; under the other modes the shooter gains the
    same 26 points on every opponent, so a search of one hand values the outcomes alike.
    """
    return {
        "pass_cards": True,
        "no_pts_on_first_trick": rules.no_points_first_trick,
        "can_lead_any_club": rules.first_lead == "any_club",
        "jd_bonus": rules.jack_of_diamonds,
        "avoid_all_tricks_bonus": rules.no_tricks_bonus,
        "must_break_hearts": rules.must_break_hearts,
        "qs_breaks_hearts": rules.queen_breaks_hearts,
        # We have no such option: it must stay off for the two engines to agree.
        "can_lead_hearts_instead_of_qs": False,
    }


def import_pyspiel() -> ModuleType:
    """Return the ``pyspiel`` module, or raise ImportError saying how to install it."""
    try:
        return importlib.import_module("pyspiel")
    except ImportError as error:
        raise ImportError(
            "the ISMCTS bot needs OpenSpiel: install it with `pip install open-spiel`"
        ) from error


@functools.cache
def _load_game(params: tuple[tuple[str, bool], ...]) -> Any:
    return import_pyspiel().load_game("hearts", dict(params))


def openspiel_game(rules: RuleSet) -> Any:
    """Return the OpenSpiel hearts game for a RuleSet (loaded once per set of options)."""
    return _load_game(tuple(sorted(openspiel_params(rules).items())))


class ReconstructionError(ValueError):
    """No hand history consistent with the observation could be built."""


@dataclass(frozen=True)
class Reconstruction:
    """A whole hand history that one seat cannot tell from the real one.

    ``dealt`` holds the four dealt hands as masks, ``passes`` each seat's three passed cards
    (empty on a hold hand) and ``plays`` every card played, in order.
    """

    direction: str
    dealt: tuple[int, int, int, int]
    passes: tuple[tuple[int, ...], ...]
    plays: tuple[int, ...]


def reconstruct(observation: Observation, rng: random.Random) -> Reconstruction:
    """Build a deal, passes and plays consistent with what the observer knows.

    1. The sampler deals the unseen cards to the other seats as they are held now, respecting
       shown voids, the cards the observer passed, and the 2♣ in the first leader's hand.
    2. A seat's hand right after the exchange is what it holds now plus what it has played.
    3. The observer knows two passes: its own and the one it received. Every other pass
       (two of them, or none when passing across) is unknown to it; any three cards of the
       receiver's hand after the exchange will do, since passing is simultaneous and nothing
       else constrains them, so three are drawn at random.
    4. A seat was dealt its hand after the exchange, minus what it received, plus what it passed.
       For the observer that is its real dealt hand.

    Raises ReconstructionError before the exchange or when the knowledge is contradictory.
    """
    knowledge = read_knowledge(observation)
    try:
        now = DealSampler(knowledge).sample(rng)
    except InconsistentKnowledgeError as error:
        raise ReconstructionError(f"no deal fits the observation: {error}") from error
    played_by = observation.played_by
    plays = [card for trick in observation.tricks for card in trick.cards]
    after_exchange = [now[seat] | played_by[seat] for seat in range(4)]
    direction = observation.direction
    if direction == "hold":
        dealt = after_exchange
        passes: list[tuple[int, ...]] = []
    else:
        if observation.passed is None or observation.received is None:
            raise ReconstructionError("the passed cards have not been exchanged yet")
        seat = observation.seat
        passes = [(), (), (), ()]
        passes[seat] = tuple(sorted(observation.passed))
        passes[pass_sender(seat, direction)] = tuple(sorted(observation.received))
        for passer in range(4):
            if not passes[passer]:
                held = cards_of(after_exchange[pass_receiver(passer, direction)])
                passes[passer] = tuple(sorted(rng.sample(held, 3)))
        dealt = [
            after_exchange[s] & ~mask_of(passes[pass_sender(s, direction)]) | mask_of(passes[s])
            for s in range(4)
        ]
    return Reconstruction(
        direction, (dealt[0], dealt[1], dealt[2], dealt[3]), tuple(passes), tuple(plays)
    )


def replay(rules: RuleSet, reconstruction: Reconstruction) -> HandState:
    """Replay a reconstruction under our rules; raise ReconstructionError if a step is illegal."""
    try:
        hand = HandState.new(rules, reconstruction.direction, reconstruction.dealt)
        for seat, cards in enumerate(reconstruction.passes):
            hand.submit_pass(seat, cards)
        for card in reconstruction.plays:
            player = hand.turn
            if player is None:
                raise ReconstructionError("more cards played than the hand has")
            hand.play(player, card)
    except HeartsError as error:
        raise ReconstructionError(f"the reconstruction breaks the rules: {error}") from error
    return hand


def verify(observation: Observation, reconstruction: Reconstruction) -> None:
    """Raise ReconstructionError unless the reconstruction gives back the observation exactly."""
    hand = replay(observation.rules, reconstruction)
    if hand.observation(observation.seat, observation.scores) != observation:
        raise ReconstructionError("the replayed hand looks different to the observer")


def openspiel_state(rules: RuleSet, reconstruction: Reconstruction) -> Any:
    """Return the OpenSpiel hearts state after the reconstructed deal, passes and plays.

    Only hand a verified reconstruction to this: OpenSpiel checks each action, but ISMCTS
    aborts the process on states that are inconsistent in ways those checks miss.
    """
    state = openspiel_game(rules).new_initial_state()
    state.apply_action(OPENSPIEL_DIRECTION[reconstruction.direction])
    # The i-th dealt card goes to seat i % 4.
    hands = [cards_of(mask) for mask in reconstruction.dealt]
    for position in range(52):
        state.apply_action(to_openspiel(hands[position % 4][position // 4]))
    for cards in reconstruction.passes:
        for card in cards:
            state.apply_action(to_openspiel(card))
    for card in reconstruction.plays:
        state.apply_action(to_openspiel(card))
    return state


def legal_cards_of(state: Any) -> int:
    """Return OpenSpiel's legal actions in a state as a mask of our cards."""
    return mask_of(from_openspiel(action) for action in state.legal_actions())


def observer_state(observation: Observation, rng: random.Random) -> Any:
    """Return a verified OpenSpiel state for the observer to move in; raise ReconstructionError.

    Besides replaying to the same observation, the state must have the observer to play with
    the same legal cards in both engines.
    """
    reconstruction = reconstruct(observation, rng)
    verify(observation, reconstruction)
    try:
        state = openspiel_state(observation.rules, reconstruction)
    except RuntimeError as error:  # pyspiel.SpielError
        raise ReconstructionError(f"OpenSpiel refused the reconstruction: {error}") from error
    if state.current_player() != observation.seat:
        raise ReconstructionError(f"OpenSpiel has seat {state.current_player()} to play")
    if legal_cards_of(state) != observation.legal_mask():
        raise ReconstructionError("OpenSpiel's legal cards differ from ours")
    return state


class IsmctsBot:
    """OpenSpiel's ISMCTS with random rollouts in the play phase; the easy bot's passes.

    A search runs a fixed number of simulations. When a budget's deadline comes sooner than
    they would take at the speed of the previous search, the search runs until the deadline
    instead. A cancelled decision still runs to its end: OpenSpiel cannot be interrupted.
    """

    def __init__(self, seed: int | None = None, simulations: int = DEFAULT_SIMULATIONS) -> None:
        self._pyspiel = import_pyspiel()
        if simulations < 2:
            # The first simulation only expands the root; OpenSpiel fails without a second.
            raise ValueError("simulations must be at least 2")
        self.simulations = simulations
        self._rng = random.Random(seed)
        self._heuristic = EasyBot(self._rng.randrange(2**31))
        self._seconds_per_simulation: float | None = None
        self.last_decision: dict[str, Any] = {}

    def choose_pass(
        self, observation: Observation, budget: Budget | None = None
    ) -> tuple[int, int, int]:
        """Pass as the easy bot does (OpenSpiel's search crashes in the passing phase)."""
        self.last_decision = {"engine": "easy heuristic"}
        return self._heuristic.choose_pass(observation, budget)

    def choose_play(self, observation: Observation, budget: Budget | None = None) -> int:
        """Return the card OpenSpiel's ISMCTS picks, or the easy bot's if no state can be built."""
        legal = cards_of(observation.legal_mask())
        if len(legal) == 1:
            self.last_decision = {"engine": "forced"}
            return legal[0]
        try:
            state = observer_state(observation, self._rng)
        except ReconstructionError as error:
            self.last_decision = {"engine": "easy heuristic", "problem": str(error)}
            return self._heuristic.choose_play(observation, budget)
        seconds = self._time_limit(budget)
        seed = self._rng.randrange(2**31)
        search = self._pyspiel.ISMCTSBot(
            seed,
            self._pyspiel.RandomRolloutEvaluator(1, seed),
            UCT_C,
            self.simulations,
            max_wall_clock_time=seconds or -1.0,
        )
        start = time.perf_counter()
        try:
            card = from_openspiel(search.step(state))
        except RuntimeError as error:  # pyspiel.SpielError, e.g. no time for two simulations
            self.last_decision = {"engine": "easy heuristic", "problem": f"OpenSpiel: {error}"}
            return self._heuristic.choose_play(observation, budget)
        elapsed = time.perf_counter() - start
        if seconds is None:
            self._seconds_per_simulation = elapsed / self.simulations
        self.last_decision = {
            "engine": "openspiel ismcts",
            "simulations": "until the deadline" if seconds else self.simulations,
            "search_ms": elapsed * 1000,
        }
        return card

    def _time_limit(self, budget: Budget | None) -> float | None:
        """Return the seconds to search when the deadline is too near for every simulation."""
        remaining_ms = budget.remaining_ms() if budget is not None else None
        if remaining_ms is None or self._seconds_per_simulation is None:
            return None
        if remaining_ms / 1000 >= self.simulations * self._seconds_per_simulation:
            return None
        return max(remaining_ms / 1000, MIN_SEARCH_SECONDS)
