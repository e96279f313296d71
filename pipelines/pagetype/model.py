"""The shipped page-type model: plain JSON in, numpy inference out (no pickle).

Normalisation (seed 003, claims 10-11) keeps min, max and mean per feature:
z = (x - mean) / (max - min), clipped to ±CLIP so a page far outside the
training range cannot swing the decision alone. Probabilities are a softmax of
the linear decision values with a temperature fitted on out-of-fold decisions.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Any

import numpy as np

FORMAT_VERSION = 1
CLIP = 3.0
DEFAULT_MODEL = "models_data/pagetype.json"


def normalise(x: np.ndarray, minimum: np.ndarray, maximum: np.ndarray,
              mean: np.ndarray) -> np.ndarray:
    """Scale features as stored with the model; constant features map to 0."""
    spread = np.where(maximum > minimum, maximum - minimum, 1.0)
    return np.clip((x - mean) / spread, -CLIP, CLIP)


def softmax(scores: np.ndarray, temperature: float) -> np.ndarray:
    """Row-wise softmax of temperature-scaled decision values."""
    scaled = scores * temperature
    scaled = scaled - scaled.max(axis=-1, keepdims=True)
    weights = np.exp(scaled)
    return weights / weights.sum(axis=-1, keepdims=True)


@dataclass(frozen=True)
class PageTypeModel:
    """A linear multi-class model over selected, normalised features."""

    classes: tuple[str, ...]
    features: tuple[str, ...]
    minimum: np.ndarray
    maximum: np.ndarray
    mean: np.ndarray
    coef: np.ndarray  # (classes, features)
    intercept: np.ndarray
    temperature: float

    def vector(self, features: dict[str, float]) -> np.ndarray:
        """The model's selected features of one page, in order, normalised.

        An absent feature (URL features of a page without URL) takes the training mean,
        i.e. 0 after normalisation: no evidence either way.
        """
        raw = np.array([features.get(name, m) for name, m in zip(self.features, self.mean,
                                                                  strict=True)], dtype=float)
        return normalise(raw, self.minimum, self.maximum, self.mean)

    def rank(self, features: dict[str, float]) -> list[tuple[str, float]]:
        """(type, calibrated probability) for every class, most probable first."""
        probs = softmax(self.coef @ self.vector(features) + self.intercept, self.temperature)
        return sorted(zip(self.classes, probs.tolist(), strict=True), key=lambda p: -p[1])

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> PageTypeModel:
        if data.get("format_version") != FORMAT_VERSION:
            raise ValueError(f"page-type model format {data.get('format_version')} unsupported")
        norm = data["normalisation"]
        return cls(
            classes=tuple(data["classes"]),
            features=tuple(data["features"]),
            minimum=np.array(norm["min"], dtype=float),
            maximum=np.array(norm["max"], dtype=float),
            mean=np.array(norm["mean"], dtype=float),
            coef=np.array(data["coef"], dtype=float),
            intercept=np.array(data["intercept"], dtype=float),
            temperature=float(data["calibration"]["temperature"]),
        )

    def to_json(self, training: dict[str, Any]) -> dict[str, Any]:
        """The JSON document written by `train-pagetype`; `training` records how it was made."""
        return {
            "format_version": FORMAT_VERSION,
            "classes": list(self.classes),
            "features": list(self.features),
            "normalisation": {"min": self.minimum.tolist(), "max": self.maximum.tolist(),
                              "mean": self.mean.tolist(), "clip": CLIP},
            "coef": self.coef.tolist(),
            "intercept": self.intercept.tolist(),
            "calibration": {"method": "softmax_temperature", "temperature": self.temperature},
            "training": training,
        }


@lru_cache(maxsize=4)
def load_model(path: str | None = None) -> PageTypeModel:
    """Load a model once per process (the shipped one when `path` is None)."""
    if path is None:
        text = resources.files("pipelines").joinpath(DEFAULT_MODEL).read_text("utf-8")
    else:
        text = Path(path).read_text("utf-8")
    return PageTypeModel.from_json(json.loads(text))
