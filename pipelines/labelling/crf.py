"""A linear-chain CRF held as plain JSON weights, decoded by our own Viterbi.

crfsuite learns the weights (train.py); inference needs only numpy and this
file, so the shipped model is a readable, diffable JSON document rather than a
pickle or a crfsuite binary. Like crfsuite's CRF1d, the model has state
features (attribute × label, scaled by the attribute's value) and label-to-label
transitions, and no start or end weights.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from pipelines.params import LABELLER_TRAINING, LabellerTrainingParams

FORMAT_VERSION = 1


def viterbi(emissions: np.ndarray, transitions: np.ndarray) -> list[int]:
    """The best label path for per-item scores (T × K) and transition scores (K × K)."""
    steps = emissions.shape[0]
    if steps == 0:
        return []
    best = emissions[0].copy()
    back = np.zeros(emissions.shape, dtype=np.intp)
    for t in range(1, steps):
        candidates = best[:, None] + transitions  # previous label × next label
        back[t] = candidates.argmax(axis=0)
        best = candidates.max(axis=0) + emissions[t]
    path = [int(best.argmax())]
    for t in range(steps - 1, 0, -1):
        path.append(int(back[t, path[-1]]))
    return path[::-1]


@dataclass
class CrfModel:
    """Labels, attribute → weight-row index, state weights and transitions."""

    labels: list[str]
    attributes: dict[str, int]
    state: np.ndarray  # attributes × labels
    transitions: np.ndarray  # labels × labels, from row to column

    @classmethod
    def from_crfsuite(
        cls,
        labels: Sequence[str],
        state_features: Mapping[tuple[str, str], float],
        transitions: Mapping[tuple[str, str], float],
        min_weight: float = 0.0,
    ) -> CrfModel:
        """Build from pycrfsuite Tagger.info() tables, dropping attributes with tiny weights."""
        index = {label: i for i, label in enumerate(labels)}
        rows: dict[str, np.ndarray] = {}
        for (attribute, label), weight in state_features.items():
            rows.setdefault(attribute, np.zeros(len(labels)))[index[label]] = weight
        kept = sorted(a for a, row in rows.items() if np.abs(row).max() >= min_weight)
        trans = np.zeros((len(labels), len(labels)))
        for (source, target), weight in transitions.items():
            trans[index[source], index[target]] = weight
        state = np.array([rows[a] for a in kept]).reshape(len(kept), len(labels))
        return cls(list(labels), {a: i for i, a in enumerate(kept)}, state, trans)

    def emissions(self, items: Sequence[Mapping[str, float]]) -> np.ndarray:
        """Per-item label scores: Σ value × weight over the item's known attributes."""
        positions, rows, values = [], [], []
        for t, item in enumerate(items):
            for name, value in item.items():
                row = self.attributes.get(name)
                if row is not None:
                    positions.append(t)
                    rows.append(row)
                    values.append(value)
        scores = np.zeros((len(items), len(self.labels)))
        np.add.at(scores, positions, self.state[rows] * np.asarray(values)[:, None])
        return scores

    def tag(self, items: Sequence[Mapping[str, float]]) -> list[str]:
        """The most likely label sequence."""
        return [self.labels[i] for i in viterbi(self.emissions(items), self.transitions)]

    def to_json(self, about: Mapping[str, object],
                params: LabellerTrainingParams = LABELLER_TRAINING) -> dict:
        """The model document: format, labels, feature names and weights, plus `about`."""
        return {
            "format_version": FORMAT_VERSION,
            **about,
            "labels": self.labels,
            "transitions": np.round(self.transitions, params.weight_decimals).tolist(),
            "state_features": {
                name: np.round(self.state[i], params.weight_decimals).tolist()
                for name, i in self.attributes.items()
            },
        }

    @classmethod
    def from_json(cls, data: Mapping) -> CrfModel:
        """Read a model document written by to_json."""
        if data.get("format_version") != FORMAT_VERSION:
            raise ValueError(f"unsupported labeller format {data.get('format_version')!r}")
        names = list(data["state_features"])
        labels = list(data["labels"])
        state = np.array([data["state_features"][n] for n in names], dtype=float)
        return cls(labels, {n: i for i, n in enumerate(names)},
                   state.reshape(len(names), len(labels)), np.array(data["transitions"]))

    @classmethod
    def load(cls, path: Path) -> CrfModel:
        """Read a model JSON file."""
        return cls.from_json(json.loads(path.read_text(encoding="utf-8")))
