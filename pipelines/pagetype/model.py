"""The shipped page-type model: plain JSON in, numpy inference out (no pickle).

Normalisation (seed 003, claims 10-11) keeps min, max and mean per feature:
z = (x - mean) / (max - min), clipped to ±CLIP so a page far outside the
training range cannot swing the decision alone. Probabilities are a softmax of
the linear decision values with a temperature fitted on out-of-fold decisions.

Format 2 adds a list gate: a logistic list-vs-rest model over structural,
language-neutral features only. Content words say "news" on a section index full
of news summaries; the gate looks at how links cut the text instead, and when it
is sure the page is a list, list ranks first (a list mistaken for an article is
never revisited, so its new links are never found).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Any

import numpy as np

FORMAT_VERSION = 2
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
class Scaling:
    """Selected feature names with the normalisation stored for them."""

    features: tuple[str, ...]
    minimum: np.ndarray
    maximum: np.ndarray
    mean: np.ndarray

    def vector(self, features: dict[str, float]) -> np.ndarray:
        """The selected features of one page, in order, normalised.

        An absent feature (URL features of a page without URL) takes the training mean,
        i.e. 0 after normalisation: no evidence either way.
        """
        raw = np.array([features.get(name, m) for name, m in zip(self.features, self.mean,
                                                                  strict=True)], dtype=float)
        return normalise(raw, self.minimum, self.maximum, self.mean)

    @classmethod
    def from_json(cls, features: list[str], norm: dict[str, Any]) -> Scaling:
        return cls(tuple(features), *(np.array(norm[k], dtype=float)
                                      for k in ("min", "max", "mean")))

    def to_json(self) -> dict[str, Any]:
        return {"min": self.minimum.tolist(), "max": self.maximum.tolist(),
                "mean": self.mean.tolist(), "clip": CLIP}


@dataclass(frozen=True)
class ListGate:
    """Logistic list-vs-rest over structural features; decides 'list' above `threshold`."""

    scaling: Scaling
    coef: np.ndarray  # (features,)
    intercept: float
    threshold: float

    def probability(self, features: dict[str, float]) -> float:
        score = float(self.coef @ self.scaling.vector(features) + self.intercept)
        return 1.0 / (1.0 + np.exp(-score))

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> ListGate:
        return cls(Scaling.from_json(data["features"], data["normalisation"]),
                   np.array(data["coef"], dtype=float), float(data["intercept"]),
                   float(data["threshold"]))

    def to_json(self) -> dict[str, Any]:
        return {"features": list(self.scaling.features),
                "normalisation": self.scaling.to_json(), "coef": self.coef.tolist(),
                "intercept": self.intercept, "threshold": self.threshold}


def _gated(ranked: list[tuple[str, float]], p_list: float) -> list[tuple[str, float]]:
    """Put list first with the gate's probability; the other classes share the rest."""
    rest = [(c, p) for c, p in ranked if c != "list"]
    scale = (1.0 - p_list) / max(sum(p for _, p in rest), 1e-12)
    return [("list", p_list)] + [(c, p * scale) for c, p in rest]


@dataclass(frozen=True)
class PageTypeModel:
    """A linear multi-class model over selected, normalised features."""

    classes: tuple[str, ...]
    scaling: Scaling
    coef: np.ndarray  # (classes, features)
    intercept: np.ndarray
    temperature: float
    gate: ListGate | None = None

    @property
    def features(self) -> frozenset[str]:
        """Every feature name the model reads: extract only these."""
        gate = self.gate.scaling.features if self.gate else ()
        return frozenset(self.scaling.features) | frozenset(gate)

    def rank(self, features: dict[str, float]) -> list[tuple[str, float]]:
        """(type, calibrated probability) for every class, most probable first."""
        scores = self.coef @ self.scaling.vector(features) + self.intercept
        probs = softmax(scores, self.temperature)
        ranked = sorted(zip(self.classes, probs.tolist(), strict=True), key=lambda p: -p[1])
        if self.gate is not None:
            p_list = self.gate.probability(features)
            if p_list >= self.gate.threshold and p_list > dict(ranked).get("list", 0.0):
                return _gated(ranked, p_list)
        return ranked

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> PageTypeModel:
        if data.get("format_version") != FORMAT_VERSION:
            raise ValueError(f"page-type model format {data.get('format_version')} unsupported")
        gate = data.get("list_gate")
        return cls(
            classes=tuple(data["classes"]),
            scaling=Scaling.from_json(data["features"], data["normalisation"]),
            coef=np.array(data["coef"], dtype=float),
            intercept=np.array(data["intercept"], dtype=float),
            temperature=float(data["calibration"]["temperature"]),
            gate=ListGate.from_json(gate) if gate else None,
        )

    def to_json(self, training: dict[str, Any]) -> dict[str, Any]:
        """The JSON document written by `train-pagetype`; `training` records how it was made."""
        return {
            "format_version": FORMAT_VERSION,
            "classes": list(self.classes),
            "features": list(self.scaling.features),
            "normalisation": self.scaling.to_json(),
            "coef": self.coef.tolist(),
            "intercept": self.intercept.tolist(),
            "calibration": {"method": "softmax_temperature", "temperature": self.temperature},
            "list_gate": self.gate.to_json() if self.gate else None,
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
