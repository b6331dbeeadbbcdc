"""Every Python snippet of README.md and docs/ runs as written (in order, one namespace per page,
on the embedded sample), so that no snippet a reader copies raises: a snippet for a cluster or a
package not installed is skipped by name."""

from __future__ import annotations

import importlib.util
import re

import pytest

from ktr.sample import paths
from ktr.textio import read_lines
from tests.conftest import ROOT

PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
BLOCK = re.compile(r"^```python\n(.*?)^```", re.S | re.M)
#: snippets that need what a test cannot have here: a cluster manager's package and its batch system
NEEDS = {"dask_jobqueue": "a SLURM cluster (dask_jobqueue)"}


def _snippets() -> list[tuple[str, list[str]]]:
    found = []
    for page in PAGES:
        blocks = BLOCK.findall(page.read_text(encoding="utf-8"))
        if blocks:
            found.append((page.name, blocks))
    return found


@pytest.fixture(scope="module")
def namespace():
    """What the snippets take as given: a sample's source, two systems' lines and a reference,
    and the same as a pandas frame and a Hugging Face dataset."""
    files = paths()
    sources = read_lines(files["source"])
    hyps_a, hyps_b = read_lines(files["fluent"]), read_lines(files["literal"])
    refs = read_lines(files["reference"])
    given = {"sources": sources, "hypotheses": hyps_a, "hyps_a": hyps_a, "hyps_b": hyps_b, "refs": refs}
    if importlib.util.find_spec("pandas"):
        import pandas

        given["frame"] = pandas.DataFrame({"ko": sources, "mt_a": hyps_a, "mt_b": hyps_b, "ref": refs})
        if importlib.util.find_spec("datasets"):
            import datasets

            given["dataset"] = datasets.Dataset.from_pandas(given["frame"])
    return given


@pytest.mark.slow  # builds the metric and scorers of every page, mecab-ko's among them
@pytest.mark.parametrize("page, blocks", _snippets(), ids=[name for name, _ in _snippets()])
def test_every_python_snippet_runs(page, blocks, namespace, capsys):
    assert blocks
    scope = dict(namespace)
    for block in blocks:
        missing = [why for module, why in NEEDS.items() if f"import {module}" in block or f"from {module}" in block]
        if missing:
            continue  # said in the module doc; the other blocks of the page still run
        exec(compile(block, f"{page} snippet", "exec"), scope)
    assert capsys.readouterr().out or page != "README.md"
