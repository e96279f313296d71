"""Training: how the shipped models are made, kept out of the inference path.

`pagetype` fits the page-type model (scikit-learn) and `labeller` the node labeller's CRF
(python-crfsuite, on the `corpus` pages labelled by `label_alignment`); both write the JSON
that inference (`pipelines.pagetype.model`, `pipelines.labelling.crf`) reads with numpy
alone. These libraries come with the `train` extra: `pip install -e '.[train]'`.

The command entry points below check for the extra before importing a trainer, so a
crawler install without it gets one line instead of a traceback.
"""

from __future__ import annotations

import sys
from importlib import import_module

from pipelines.subcommands import USAGE_ERROR

EXTRA_HINT = "pip install -e '.[train]' (the train extra)"


def _run(command: str, module: str, needs: tuple[str, str], argv: list[str]) -> int:
    """Run `module.main(argv)` when the library `needs` names (import name, package) is
    installed, else say which extra to install (one line, usage-error exit status)."""
    import_name, package = needs
    try:
        import_module(import_name)
    except ImportError:
        print(f"python -m pipelines {command}: needs {package}: {EXTRA_HINT}", file=sys.stderr)
        return USAGE_ERROR
    return int(import_module(module).main(argv) or 0)


def train_pagetype(argv: list[str]) -> int:
    """`python -m pipelines train-pagetype`: see pipelines.training.pagetype."""
    return _run("train-pagetype", "pipelines.training.pagetype", ("sklearn", "scikit-learn"),
                argv)


def train_labeller(argv: list[str]) -> int:
    """`python -m pipelines train-labeller`: see pipelines.training.labeller."""
    return _run("train-labeller", "pipelines.training.labeller",
                ("pycrfsuite", "python-crfsuite"), argv)
