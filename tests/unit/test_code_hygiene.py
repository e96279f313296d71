"""The code states contracts; figures, dates and tuning history live in docs/, and the
extraction's tunable numbers in pipelines/params.py."""

from __future__ import annotations

import ast
import io
import re
import tokenize
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("crawler", "pipelines", "models")
# A benchmark figure, a date of the project's measurements, an evaluation set or the seed
# documents' section names.
HISTORY = re.compile(r"\bF1\b[^.\n]{0,12}\d\.\d|instructions? (per|a) page|"
                     r"\b202[6-9]-[01]\d-[0-3]\d\b|SPEC S\d|\bseed 00\d|"
                     r"article-bench|dragnet-dev|metadata-dev|\b\d+(\.\d+)? M instr")
# Module-level numbers in the extraction package that are formats, not tunings.
NOT_TUNINGS = {"FORMAT_VERSION", "MODEL_VERSION", "USAGE_ERROR", "SOME_FAILED"}


def _sources(*packages: str) -> Iterator[Path]:
    for package in packages:
        yield from sorted((ROOT / package).rglob("*.py"))


def _prose(source: str) -> Iterator[tuple[int, str]]:
    """(line, text) of every comment and docstring of a module."""
    for token in tokenize.generate_tokens(io.StringIO(source).readline):
        if token.type == tokenize.COMMENT:
            yield token.start[0], token.string
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            docstring = ast.get_docstring(node, clean=False)
            if docstring:
                yield node.body[0].lineno, docstring


def test_no_comment_or_docstring_cites_a_figure_or_its_history() -> None:
    cited = [f"{path.relative_to(ROOT)}:{line}: {match.group(0)!r}"
             for path in _sources(*PACKAGES)
             for line, text in _prose(path.read_text(encoding="utf-8"))
             for match in [HISTORY.search(text)] if match]
    assert cited == []


def test_the_extraction_keeps_its_tunable_numbers_in_the_parameter_module() -> None:
    numbers = []
    for path in _sources("pipelines"):
        if path.name == "params.py":
            continue
        for node in ast.parse(path.read_text(encoding="utf-8")).body:
            if isinstance(node, ast.Assign | ast.AnnAssign) and isinstance(
                    node.value, ast.Constant) and type(node.value.value) in (int, float):
                targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                names = {target.id for target in targets if isinstance(target, ast.Name)}
                if names - NOT_TUNINGS:
                    numbers.append(f"{path.relative_to(ROOT)}:{node.lineno}: {sorted(names)}")
    assert numbers == []


# Each package and the packages above it, which it must never import.
LAYERS_ABOVE = {"pipelines": {"models", "crawler", "tests", "bench"},
                "models": {"crawler", "tests", "bench"},
                "crawler": {"tests", "bench"}}


def test_no_package_imports_one_above_it() -> None:
    upward = []
    for package, above in LAYERS_ABOVE.items():
        for path in _sources(package):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                names = ([alias.name for alias in node.names] if isinstance(node, ast.Import)
                         else [node.module or ""] if isinstance(node, ast.ImportFrom) else [])
                upward += [f"{path.relative_to(ROOT)}:{node.lineno}: {name}"
                           for name in names if name.split(".")[0] in above]
    assert upward == []
