"""Fitting a learned model of play: a softmax over each legal card's features, per kind of play.

Each kind (lead, follow, discard) has its own weight vector, fitted by Newton's method on the
log-likelihood of the cards played with a small L2 penalty. The weights are then quantised to
whole numbers of ``1 / WEIGHT_UNIT``, and the share of uniformly random play mixed in (so that
no play is impossible) is chosen from a few values by the log-loss on the same plays.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from ai.search import FEATURE_COUNT, LEARNED_KINDS, WEIGHT_UNIT, LearnedModel

Floats = npt.NDArray[np.float64]
#: L2 penalty on the weights (in logits per feature unit), against the summed log-likelihood.
PENALTY = 1.0
NEWTON_STEPS = 30
MIXES = (0.005, 0.01, 0.02, 0.05, 0.1, 0.2)


@dataclass(frozen=True)
class Choice:
    """One play with a choice: its kind, each legal card's features, and which was played."""

    kind: int
    rows: tuple[tuple[int, ...], ...]
    played: int


@dataclass(frozen=True)
class Batch:
    """The choices of one kind as padded arrays: features, which cards exist, which played."""

    features: Floats
    present: npt.NDArray[np.bool_]
    played: npt.NDArray[np.int64]


def batch(choices: Sequence[Choice]) -> Batch:
    """Return choices (of one kind) as padded arrays, 13 cards wide."""
    features = np.zeros((len(choices), 13, FEATURE_COUNT))
    present = np.zeros((len(choices), 13), dtype=bool)
    for index, choice in enumerate(choices):
        features[index, : len(choice.rows)] = choice.rows
        present[index, : len(choice.rows)] = True
    played = np.array([choice.played for choice in choices], dtype=np.int64)
    return Batch(features, present, played)


def shares(weights: Floats, data: Batch) -> Floats:
    """Return the softmax's probability of every card of every choice (0 where no card)."""
    logits = np.where(data.present, data.features @ weights, -np.inf)
    logits -= logits.max(axis=1, keepdims=True)
    exps = np.exp(logits)
    result: Floats = exps / exps.sum(axis=1, keepdims=True)
    return result


def fit_kind(data: Batch, penalty: float = PENALTY) -> Floats:
    """Return the weights (in logits) maximising the penalised log-likelihood of the plays."""
    weights = np.zeros(FEATURE_COUNT)
    if not len(data.played):
        return weights
    chosen = data.features[np.arange(len(data.played)), data.played]

    def objective(candidate: Floats) -> float:
        probability = shares(candidate, data)[np.arange(len(data.played)), data.played]
        return float(np.log(probability).sum() - penalty / 2 * candidate @ candidate)

    current = objective(weights)
    for _ in range(NEWTON_STEPS):
        probability = shares(weights, data)
        mean = np.einsum("nc,ncf->nf", probability, data.features)
        gradient = (chosen - mean).sum(axis=0) - penalty * weights
        second = np.einsum("nc,ncf,ncg->fg", probability, data.features, data.features)
        hessian = second - mean.T @ mean + penalty * np.eye(FEATURE_COUNT)
        step = np.linalg.solve(hessian, gradient)
        size = 1.0
        while size > 1e-4:
            trial = weights + size * step
            value = objective(trial)
            if value >= current:
                break
            size /= 2
        else:
            break
        weights, improved = trial, value - current
        current = value
        if improved < 1e-7:
            break
    return weights


def _played_share(model: LearnedModel, choice: Choice) -> float:
    """Return the softmax's probability of the played card (before the mix)."""
    weights = model.weights[choice.kind * FEATURE_COUNT : (choice.kind + 1) * FEATURE_COUNT]
    logits = [sum(w * f for w, f in zip(weights, row, strict=True)) for row in choice.rows]
    top = max(logits)
    values = [math.exp((logit - top) / WEIGHT_UNIT) for logit in logits]
    return values[choice.played] / sum(values)


def log_probabilities(model: LearnedModel, choices: Sequence[Choice]) -> list[float]:
    """Return the natural log-probability of each choice's played card under the model."""
    return [
        math.log((1.0 - model.mix) * _played_share(model, choice) + model.mix / len(choice.rows))
        for choice in choices
    ]


def predicted(model: LearnedModel, choice: Choice) -> int:
    """Return the index of the card the model finds likeliest (the lowest on ties)."""
    weights = model.weights[choice.kind * FEATURE_COUNT : (choice.kind + 1) * FEATURE_COUNT]
    logits = [sum(w * f for w, f in zip(weights, row, strict=True)) for row in choice.rows]
    return logits.index(max(logits))


def fit(choices: Sequence[Choice], penalty: float = PENALTY) -> LearnedModel:
    """Return the model fitted to the choices: quantised weights per kind and the mix."""
    weights: list[int] = []
    for kind in range(LEARNED_KINDS):
        fitted = fit_kind(batch([c for c in choices if c.kind == kind]), penalty)
        weights += [round(float(value) * WEIGHT_UNIT) for value in fitted]
    softmax = LearnedModel(tuple(weights), 1.0)
    found = [(_played_share(softmax, choice), len(choice.rows)) for choice in choices]

    def loss(mix: float) -> float:
        return -sum(math.log((1.0 - mix) * share + mix / n) for share, n in found)

    return LearnedModel(tuple(weights), min(MIXES, key=loss))
