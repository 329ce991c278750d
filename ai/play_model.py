"""A learned model of play, as plain data: its weights file, read and written.

The model (``ai.search_py.LearnedModel``: a softmax over features of each legal card, one weight
vector per kind of play, mixed with a uniformly random legal card) is fitted to the hard bot's
own plays by ``python -m bench policy`` and kept in ``ai/play_model.json``. The file names the
features it was fitted on, so weights fitted for other features are refused rather than misread.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from ai.search import (
    FEATURE_COUNT,
    FEATURES,
    WEIGHT_UNIT,
    LearnedModel,
    check_learned_model,
)
from core.files import StrictJsonError, decode_utf8, parse_strict_json, read_regular_file

#: The weights fitted to the hard bot's plays, shipped with the program.
DEFAULT_PATH = Path(__file__).with_name("play_model.json")
FORMAT = "mdhearts play model"
VERSION = 1
#: Kinds of play, in the order of the model's weight vectors.
KINDS = ("lead", "follow", "discard")
#: The largest weights file read (a model is a few kilobytes).
MAX_BYTES = 1 << 20


class PlayModelError(ValueError):
    """A weights file that cannot be used; the message names the file and what is wrong."""


def model_json(model: LearnedModel, fitted: dict[str, Any]) -> str:
    """Return a model as the text of its weights file, with ``fitted`` saying how it was fitted."""
    check_learned_model(model)
    weights = {
        kind: list(model.weights[index * FEATURE_COUNT : (index + 1) * FEATURE_COUNT])
        for index, kind in enumerate(KINDS)
    }
    data = {
        "format": FORMAT,
        "version": VERSION,
        "features": list(FEATURES),
        "weight_unit": WEIGHT_UNIT,
        "mix": model.mix,
        "weights": weights,
        "fitted": fitted,
    }
    return json.dumps(data, ensure_ascii=False, indent=1) + "\n"


def parse_model(text: str) -> LearnedModel:
    """Return the model of a weights file's text; raise ValueError saying what is wrong."""
    data = parse_strict_json(text, max_depth=4)
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise ValueError(f"not a play model (its format is not {FORMAT!r})")
    if data.get("version") != VERSION:
        raise ValueError(f"version {data.get('version')!r} of the format, not {VERSION}")
    if data.get("features") != list(FEATURES):
        raise ValueError("fitted on other features than this program computes")
    if data.get("weight_unit") != WEIGHT_UNIT:
        raise ValueError(f"weight_unit is not {WEIGHT_UNIT}")
    mix = data.get("mix")
    if isinstance(mix, bool) or not isinstance(mix, (int, float)) or not 0.0 < mix <= 1.0:
        raise ValueError("mix is not a number in (0, 1]")
    by_kind = data.get("weights")
    if not isinstance(by_kind, dict) or sorted(by_kind) != sorted(KINDS):
        raise ValueError(f"weights is not an object of {', '.join(KINDS)}")
    weights: list[int] = []
    for kind in KINDS:
        row = by_kind[kind]
        if not isinstance(row, list) or len(row) != FEATURE_COUNT:
            raise ValueError(f"the {kind} weights are not a list of {FEATURE_COUNT} numbers")
        if not all(isinstance(value, int) and not isinstance(value, bool) for value in row):
            raise ValueError(f"the {kind} weights are not all whole numbers")
        weights += row
    model = LearnedModel(tuple(weights), float(mix))
    check_learned_model(model)
    return model


def load_play_model(path: Path = DEFAULT_PATH) -> LearnedModel:
    """Return the model in a weights file; raise PlayModelError naming the file and the fault."""
    try:
        return parse_model(decode_utf8(read_regular_file(path, MAX_BYTES)))
    except OSError as error:
        raise PlayModelError(f"play model {path}: cannot be read ({error.strerror})") from None
    except (StrictJsonError, ValueError) as error:
        raise PlayModelError(f"play model {path}: {error}") from None
