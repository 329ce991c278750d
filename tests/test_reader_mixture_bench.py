"""The mixture of the learned model and today's explorations as a play model: a deal reader given
it weighs by the mixture, and the inference benchmark names, parses and measures it."""

from __future__ import annotations

from dataclasses import replace

import pytest

from ai import inference as reading
from ai.inference import DealReader, PlayModel, play_history
from ai.knowledge import read_knowledge
from ai.play_model import load_play_model
from ai.sampler import DealSampler
from ai.search import deal_plan, learned_evidence, mixed_evidence
from bench import inference
from bench.__main__ import main


@pytest.mark.parametrize(
    ("text", "prior", "per_play", "passing"),
    [
        ("mixed,0.1", 0.5, False, 0.1),
        ("mixed", 0.5, False, None),
        ("mixed:0.2,0.1", 0.2, False, 0.1),
        ("mixed-play,0.1", 0.5, True, 0.1),
        ("mixed-play:0", 0.0, True, None),
        ("learned,0.1", None, False, 0.1),
    ],
)
def test_mixtures_are_parsed_and_named_as_written(
    text: str, prior: float | None, per_play: bool, passing: float | None
) -> None:
    model = inference.parse_learned(text)
    assert model is not None
    assert (model.mixture, model.mix_per_play, model.passing) == (prior, per_play, passing)
    assert inference.learned_name(model) == text
    assert inference.parse_learned("0.6,0.4,0.3,0.03") is None


@pytest.mark.parametrize(
    "text", ["mixed:1.5", "mixed:-0.1", "mixed:x,0.1", "mixed:nan", "mixed,1", "learned:0.5"]
)
def test_a_bad_mixture_is_refused(text: str) -> None:
    with pytest.raises(ValueError, match=r"mixed\[:PRIOR\]\[,PASS\]"):
        inference.parse_learned(text)


def test_a_bad_mixture_on_the_command_line_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["inference", "--models", "mixed:2"]) == 2
    assert "PRIOR in [0, 1], got 'mixed:2'" in capsys.readouterr().err


def test_a_reader_with_a_mixture_weighs_by_it(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[str] = []

    def counted(name: str, function: object) -> object:
        def call(*args: object) -> object:
            calls.append(name)
            return function(*args)  # type: ignore[operator]

        return call

    monkeypatch.setattr(reading, "mixed_evidence", counted("mixed", mixed_evidence))
    monkeypatch.setattr(reading, "learned_evidence", counted("learned", learned_evidence))
    learned = load_play_model()
    hands = inference.play_positions("normal", 1, seed=5)
    differ = 0
    for observation, _ in hands[0][16:40:4]:
        history = play_history(observation)
        assert history is not None
        plan = deal_plan(DealSampler(read_knowledge(observation)))
        alone = PlayModel(passing=None, learned=learned)
        drawn = {}
        for name, model in [
            ("learned", alone),
            ("mixed", replace(alone, mixture=0.5)),
            ("mixed-play", replace(alone, mixture=0.5, mix_per_play=True)),
            ("today", PlayModel(passing=None)),
        ]:
            calls.clear()
            drawn[name] = DealReader(plan, 11, history, model).draw(0, 32)
            expected = {"learned": ["learned"], "today": []}.get(name, ["mixed"])
            assert calls == expected * 2
        # A mixture of 1 reads as the learned model alone.
        whole = replace(alone, mixture=1.0)
        assert DealReader(plan, 11, history, whole).draw(0, 32) == drawn["learned"]
        differ += drawn["mixed"] != drawn["learned"] and drawn["mixed"] != drawn["today"]
    assert differ >= 3


def test_the_command_measures_the_mixtures(capsys: pytest.CaptureFixture[str]) -> None:
    models = "0.6,0.4,0.3,0.03,0.1;mixed,0.1;mixed-play:0.3"
    code = main(
        ["inference", "--hands", "1", "--deals", "16", "--lineups", "normal", "--models", models]
    )
    out = capsys.readouterr().out
    assert code == 0
    compared = out.split("Brier score against 0.6,0.4,0.3,0.03,0.1, hand by hand")[1]
    assert "mixed,0.1 " in compared and "mixed-play:0.3 " in compared
