"""Deal the unseen cards to the other seats, uniformly among deals consistent with knowledge.

Consistent means: every seat gets exactly the number of cards it still holds, cards known to be
in a hand stay there, and no seat gets a card of a group it has shown a void in. Cards of one
group are interchangeable for these constraints, so a table counts, group by group, the ways to
split each group's free cards among the three other seats; a deal is drawn by walking that table
with exact weights, then shuffling the cards within each group. Every consistent deal is equally
likely.
"""

from __future__ import annotations

import random
from functools import cached_property
from math import comb

from ai.knowledge import GROUP_COUNT, GROUP_MASKS, Knowledge
from core.cards import cards_of, count

Split = tuple[int, int, int]


class InconsistentKnowledgeError(ValueError):
    """No deal satisfies the knowledge (it cannot come from a legal game)."""


def _weighted_choice(options: list[tuple[Split, int, int]], rng: random.Random) -> Split:
    """Pick a split with probability proportional to the deals through it."""
    pick = rng.randrange(sum(here * rest for _, here, rest in options))
    for split, here, rest in options:
        if pick < here * rest:
            return split
        pick -= here * rest
    raise AssertionError("weights changed while picking")


class DealSampler:
    """Draws complete deals (four hand masks) consistent with one seat's knowledge."""

    def __init__(self, knowledge: Knowledge) -> None:
        self.knowledge = knowledge
        self.others = tuple(seat for seat in range(4) if seat != knowledge.seat)
        free = knowledge.free
        self.group_cards = [cards_of(free & mask) for mask in GROUP_MASKS]
        self.slots = tuple(
            knowledge.remaining[seat] - count(knowledge.known[seat]) for seat in self.others
        )
        if min(self.slots) < 0 or sum(self.slots) != count(free):
            raise InconsistentKnowledgeError("hand sizes do not match the unseen cards")
        # after[g][(a, b)]: ways to deal groups g.. when the first two other seats still take
        # a and b cards (the third takes the rest).
        self._after: list[dict[tuple[int, int], int]] = [{} for _ in range(GROUP_COUNT + 1)]
        self._after[GROUP_COUNT][(0, 0)] = 1
        free_from = [0] * (GROUP_COUNT + 1)
        for group in range(GROUP_COUNT - 1, -1, -1):
            free_from[group] = free_from[group + 1] + len(self.group_cards[group])
        self._free_from = free_from
        for group in range(GROUP_COUNT - 1, -1, -1):
            table = self._after[group]
            for a in range(self.slots[0] + 1):
                for b in range(self.slots[1] + 1):
                    c = free_from[group] - a - b
                    if 0 <= c <= self.slots[2]:
                        ways = sum(here * rest for _, here, rest in self._splits(group, a, b, c))
                        if ways:
                            table[(a, b)] = ways
        if self.deal_count == 0:
            raise InconsistentKnowledgeError("no deal fits the voids and hand sizes")

    @property
    def deal_count(self) -> int:
        """Return how many distinct deals are consistent with the knowledge."""
        return self._after[0].get((self.slots[0], self.slots[1]), 0)

    def _splits(self, group: int, a: int, b: int, c: int) -> list[tuple[Split, int, int]]:
        """Return each way to split a group among the three seats that can still complete.

        Each entry is (split, ways to deal this group so, ways to deal the later groups).
        """
        size = len(self.group_cards[group])
        voids = [self.knowledge.voids[seat] >> group & 1 for seat in self.others]
        following = self._after[group + 1]
        options = []
        for x in range(0 if voids[0] else min(size, a), -1, -1):
            for y in range(0 if voids[1] else min(size - x, b), -1, -1):
                z = size - x - y
                if z > c or (z and voids[2]):
                    continue
                rest = following.get((a - x, b - y), 0)
                if rest:
                    options.append(((x, y, z), comb(size, x) * comb(size - x, y), rest))
        return options

    def sample(self, rng: random.Random) -> tuple[int, int, int, int]:
        """Return one consistent deal: the current hand of every seat, as masks."""
        hands = list(self.knowledge.known)
        a, b = self.slots[0], self.slots[1]
        for group in range(GROUP_COUNT):
            c = self._free_from[group] - a - b
            split = _weighted_choice(self._splits(group, a, b, c), rng)
            cards = list(self.group_cards[group])
            rng.shuffle(cards)
            start = 0
            for seat, take in zip(self.others, split, strict=True):
                for card in cards[start : start + take]:
                    hands[seat] |= 1 << card
                start += take
            a, b = a - split[0], b - split[1]
        return hands[0], hands[1], hands[2], hands[3]

    @cached_property
    def probabilities(self) -> list[list[float]]:
        """Return, for each card 0..51, the chance that each seat holds it now."""
        table = [[0.0] * 4 for _ in range(52)]
        for seat, mask in enumerate(self.knowledge.known):
            for card in cards_of(mask):
                table[card][seat] = 1.0
        total = self.deal_count
        # reach[(a, b)]: ways to deal the groups before this one and arrive at (a, b).
        reach: dict[tuple[int, int], int] = {(self.slots[0], self.slots[1]): 1}
        for group in range(GROUP_COUNT):
            expected = [0, 0, 0]
            following: dict[tuple[int, int], int] = {}
            for (a, b), ways_before in reach.items():
                c = self._free_from[group] - a - b
                for split, here, rest in self._splits(group, a, b, c):
                    paths = ways_before * here * rest
                    for index in range(3):
                        expected[index] += paths * split[index]
                    key = (a - split[0], b - split[1])
                    following[key] = following.get(key, 0) + ways_before * here
            reach = following
            size = len(self.group_cards[group])
            for card in self.group_cards[group]:
                for index, seat in enumerate(self.others):
                    table[card][seat] = expected[index] / (total * size)
        return table
