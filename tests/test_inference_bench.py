"""The inference benchmark: samplers measured on the same positions, by model and pool."""

from __future__ import annotations

import pytest

from ai.inference import DEFAULT_MODEL, POOL_FACTOR, PlayModel
from bench import inference
from bench.__main__ import main


def test_each_pool_is_measured_and_a_larger_one_weighs_the_evidence_more() -> None:
    hands = inference.play_positions("normal", 2, seed=3)
    readers = [inference.Reader(PlayModel()), inference.Reader(PlayModel(), 64)]
    tallies = inference.measure(hands, readers, 32, seed=3)
    assert list(tallies) == ["uniform", inference.model_name(PlayModel()), readers[1].name]
    assert readers[1].name.endswith("pool×64")
    default_power, _, weighed = tallies[readers[0].name].summary("power")
    large_power, _, _ = tallies[readers[1].name].summary("power")
    assert weighed > 0 and 0.0 <= default_power <= large_power <= 1.0
    # A pool sixteen times larger lets nearly all the evidence weigh; four times, about 0.8.
    assert large_power >= 0.95 and default_power <= 0.9
    counts = {name: tally.summary("all")[2] for name, tally in tallies.items()}
    assert len(set(counts.values())) == 1 and counts["uniform"] > 0
    assert all(tally.summary("all Brier")[2] == counts["uniform"] for tally in tallies.values())


def test_the_brier_score_is_the_distance_to_the_true_holder() -> None:
    assert inference.brier([0, 1, 0, 0], 1) == 0
    assert inference.brier([0, 0, 1, 0], 1) == 2
    assert inference.brier([0, 1 / 3, 1 / 3, 1 / 3], 2) == pytest.approx(2 / 3)
    # Surer than the evidence allows scores worse when wrong, unlike the probability on the truth.
    assert inference.brier([0, 0.5, 0.5, 0], 1) < inference.brier([0, 0.1, 0.9, 0], 1)


@pytest.mark.parametrize("text", ["0", "257", "x", "1.5"])
def test_a_pool_out_of_range_is_refused(text: str) -> None:
    with pytest.raises(ValueError, match="a pool is a whole number from 1 to 256"):
        inference.parse_pool(text)


def test_the_command_reports_every_pool(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(
        ["inference", "--hands", "1", "--deals", "8", "--lineups", "normal", "--pools", "4,16"]
    )
    out = capsys.readouterr().out
    assert code == 0
    assert "pool×16" in out and "evidence" in out and "Brier score" in out
    assert f"pool×{POOL_FACTOR}" not in out
    # Every other sampler is compared with the first reader, hand by hand.
    # The first reader is the hard bot's: the mixture, which reads the pass too.
    assert inference.model_name(DEFAULT_MODEL) == "mixed,0.1"
    compared = out.split("Brier score against mixed,0.1, hand by hand")[1]
    assert "uniform" in compared and "pool×16" in compared
    assert main(["inference", "--pools", "0"]) == 2
    assert "a pool is a whole number" in capsys.readouterr().err


def test_a_change_is_measured_hand_by_hand() -> None:
    reference, other = inference.Tally(), inference.Tally()
    for hand, (base, shift) in enumerate([(0.2, 0.1), (0.9, 0.1), (0.5, 0.1), (0.4, 0.1)]):
        reference.add(hand, "all Brier", base)
        other.add(hand, "all Brier", base + shift)
    change, interval = other.change(reference, "all Brier")
    # Hands that differ a lot cancel out: the change is exact although the scores vary.
    assert change == pytest.approx(0.1) and interval == pytest.approx(0.0, abs=1e-12)
    assert other.summary("all Brier")[1] > 0.1
