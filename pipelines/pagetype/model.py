"""The shipped page-type model: plain JSON in, numpy inference out (no pickle).

Normalisation keeps min, max and mean per feature:
z = (x - mean) / (max - min), clipped to ±clip (PageTypeModelParams) so a page far outside the
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
import math
from dataclasses import dataclass
from functools import cached_property, lru_cache
from importlib import resources
from pathlib import Path
from typing import Any

import numpy as np

from pipelines.params import PAGE_TYPE_MODEL, PageTypeModelParams

FORMAT_VERSION = 2
DEFAULT_MODEL = "models_data/pagetype.json"


def normalise(x: np.ndarray, minimum: np.ndarray, maximum: np.ndarray, mean: np.ndarray,
              params: PageTypeModelParams = PAGE_TYPE_MODEL) -> np.ndarray:
    """Scale features as stored with the model; constant features map to 0."""
    spread = np.where(maximum > minimum, maximum - minimum, 1.0)
    return np.clip((x - mean) / spread, -params.clip, params.clip)


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

    @classmethod
    def from_json(cls, features: list[str], norm: dict[str, Any]) -> Scaling:
        return cls(tuple(features), *(np.array(norm[k], dtype=float)
                                      for k in ("min", "max", "mean")))

    def to_json(self, params: PageTypeModelParams = PAGE_TYPE_MODEL) -> dict[str, Any]:
        return {"min": self.minimum.tolist(), "max": self.maximum.tolist(),
                "mean": self.mean.tolist(), "clip": params.clip}


@dataclass(frozen=True)
class ListGate:
    """Logistic list-vs-rest over structural features; decides 'list' above `threshold`."""

    scaling: Scaling
    coef: np.ndarray  # (features,)
    intercept: float
    threshold: float

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

    @cached_property
    def features(self) -> frozenset[str]:
        """Every feature name the model reads: extract only these (one set per model, so
        callers can cache what they derive from it)."""
        gate = self.gate.scaling.features if self.gate else ()
        return frozenset(self.scaling.features) | frozenset(gate)

    @cached_property
    def _scorer(self) -> _Scorer:
        return _Scorer.of(self)

    def rank(self, features: dict[str, float]) -> list[tuple[str, float]]:
        """(type, calibrated probability) for every class, most probable first."""
        scores = self._scorer.scores(features)
        probs = softmax(scores[:len(self.classes)], self.temperature)
        ranked = sorted(zip(self.classes, probs.tolist(), strict=True), key=lambda p: -p[1])
        if self.gate is not None:
            p_list = 1.0 / (1.0 + math.exp(-float(scores[-1])))
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


@dataclass(frozen=True)
class _Scorer:
    """Every linear score of a model (each class, then the gate's logit) as one product.

    Classifier and gate read overlapping features with the same normalisation, so one
    vector over their union is built and scaled once per page (per-page inference is a
    few numpy calls, not two vectors, two normalisations and two products).
    """

    names: tuple[str, ...]
    defaults: tuple[float, ...]  # the training means, for absent features
    mean: np.ndarray
    inv_spread: np.ndarray
    weights: np.ndarray  # (classes [+ gate], features)
    bias: np.ndarray
    clip: float

    @classmethod
    def of(cls, model: PageTypeModel, params: PageTypeModelParams = PAGE_TYPE_MODEL) -> _Scorer:
        parts = [(model.scaling, model.coef, model.intercept)]
        if model.gate is not None:
            gate = model.gate
            parts.append((gate.scaling, gate.coef[None, :], np.array([gate.intercept])))
        names = sorted({n for scaling, *_ in parts for n in scaling.features})
        column = {n: i for i, n in enumerate(names)}
        mean, spread = np.zeros(len(names)), np.ones(len(names))
        rows = []
        for scaling, coef, _ in parts:
            cols = [column[n] for n in scaling.features]
            mean[cols] = scaling.mean
            spread[cols] = np.where(scaling.maximum > scaling.minimum,
                                    scaling.maximum - scaling.minimum, 1.0)
            block = np.zeros((coef.shape[0], len(names)))
            block[:, cols] = coef
            rows.append(block)
        return cls(tuple(names), tuple(mean.tolist()), mean, 1.0 / spread, np.vstack(rows),
                   np.concatenate([bias for *_, bias in parts]), params.clip)

    def scores(self, features: dict[str, float]) -> np.ndarray:
        """Linear scores of one page; an absent feature (URL features of a page without
        URL) takes the training mean, i.e. 0 after normalisation: no evidence either way."""
        # fromiter over map, and clipping by the ufuncs np.clip wraps, give the same values
        # as a list comprehension and np.clip, for less work a page.
        raw = np.fromiter(map(features.get, self.names, self.defaults), float, len(self.names))
        z = np.minimum(np.maximum((raw - self.mean) * self.inv_spread, -self.clip), self.clip)
        return self.weights @ z + self.bias


@lru_cache(maxsize=4)
def load_model(path: str | None = None) -> PageTypeModel:
    """Load a model once per process (the shipped one when `path` is None)."""
    if path is None:
        text = resources.files("pipelines").joinpath(DEFAULT_MODEL).read_text("utf-8")
    else:
        text = Path(path).read_text("utf-8")
    return PageTypeModel.from_json(json.loads(text))
