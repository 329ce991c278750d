"""The inference benchmark with the learned model of play: a reader that weighs deals by it,
named, timed and measured on the same positions as the others, and refused input."""

from __future__ import annotations

from pathlib import Path

import pytest

from ai.inference import DealReader, PlayModel, play_history
from ai.knowledge import read_knowledge
from ai.play_model import load_play_model
from ai.sampler import DealSampler
from ai.search import deal_plan, learned_evidence, sample_deals, tempered_weights
from bench import inference
from bench.__main__ import main


def test_a_learned_reader_weighs_the_pool_by_the_learned_evidence() -> None:
    hands = inference.play_positions("normal", 1, seed=5)
    model = load_play_model()
    checked = 0
    for observation, _ in hands[0]:
        history = play_history(observation)
        if history is None or len(history.cards) < 12:
            continue
        plan = deal_plan(DealSampler(read_knowledge(observation)))
        reader = DealReader(plan, 11, history, PlayModel(passing=None, learned=model))
        drawn = reader.draw(0, 16)
        pool = sample_deals(plan, 16 * reader.pool_factor, 11, 0)
        weights, _ = tempered_weights(learned_evidence(pool, history, model), 16)
        # Every deal drawn comes from the pool, and only deals of weight are drawn.
        weight_of = dict(zip(pool, weights, strict=False))
        assert all(weight_of[deal] > 0 for deal in drawn)
        plain = DealReader(plan, 11, history, PlayModel(passing=None)).draw(0, 16)
        checked += drawn != plain
    assert checked > 5


def test_the_command_measures_the_learned_model_against_today_s(
    capsys: pytest.CaptureFixture[str],
) -> None:
    models = "0.6,0.4,0.3,0.03,0.1;learned,0.1;learned"
    code = main(
        ["inference", "--hands", "1", "--deals", "16", "--lineups", "normal", "--models", models]
    )
    out = capsys.readouterr().out
    assert code == 0
    compared = out.split("Brier score against 0.6,0.4,0.3,0.03,0.1, hand by hand")[1]
    assert "learned,0.1" in compared and "learned " in compared
    assert "µs a deal" in out


@pytest.mark.parametrize("text", ["learned,0", "learned,1", "learned,x"])
def test_a_learned_model_with_a_bad_pass_is_refused(text: str) -> None:
    with pytest.raises(ValueError, match="learned,PASS with PASS in"):
        inference.parse_learned(text)


def test_a_malformed_play_model_file_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "model.json"
    path.write_text("[]", encoding="utf-8")
    code = main(["inference", "--models", "learned", "--play-model", str(path)])
    assert code == 2
    assert f"play model {path}: not a play model" in capsys.readouterr().err


def test_a_hard_bot_can_read_with_the_learned_model(monkeypatch: pytest.MonkeyPatch) -> None:
    from ai import inference as reading
    from ai.hard import HardBot

    calls = []

    def counted(*args: object) -> list[int]:
        calls.append(1)
        return learned_evidence(*args)  # type: ignore[arg-type]

    monkeypatch.setattr(reading, "learned_evidence", counted)
    reader = PlayModel(learned=load_play_model())
    hands = inference.play_positions("normal", 1, seed=9)
    for observation, _ in hands[0][8:40:4]:
        cards = [
            HardBot(seed=4, max_samples=48, reader=reader, threads=1).choose_play(observation)
            for _ in range(2)
        ]
        assert cards[0] == cards[1]
        assert observation.legal_mask() >> cards[0] & 1
    assert calls
    calls.clear()
    HardBot(seed=4, max_samples=48, threads=1).choose_play(hands[0][20][0])
    assert not calls
