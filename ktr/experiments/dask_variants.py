"""An experiment's variants scored on a Dask cluster (``ktr run --engine dask``).

``ktr run`` analyses its source once per analyzer, on the cluster's workers
(:class:`~ktr.execution.dask_analyzer.ClusterAnalyzer`), and keeps the analyses as it does
on one machine (in memory, and in the analysis cache). Each variant is then scored on the
workers too: a task is a stretch of the source and of every system's output, sent with its
lines' analyses (:class:`~ktr.execution.unit.Analysed`), and each worker builds a variant's
tables once (a worker plugin per variant) and no analyzer. The results come back in line order
and make the same :class:`~ktr.scoring.corpus.SystemResult`\\ s, warnings included, as
``Scorer.prepare`` and ``Scorer.score_prepared`` make in one process.
"""

from __future__ import annotations

import dataclasses
import warnings
from collections.abc import Iterator
from contextlib import contextmanager
from functools import partial
from typing import Any, cast

from ktr.config import Config
from ktr.errors import InputWarning
from ktr.execution.engines import Engine, Execution, iter_stretches
from ktr.execution.ranges import task_lines
from ktr.execution.unit import Analysed, Unit, sliced
from ktr.scoring.corpus import SystemResult
from ktr.scoring.pipeline import Pipeline
from ktr.scoring.scorer import Scorer


class Analyses:
    """A worker's stand-in for the analyzer of a variant: named as the analyzer, but its
    analyses come with each task, so it never analyses."""

    def __init__(self, name: str, tagset: str, version: str):
        self.name, self.tagset, self.version = name, tagset, version

    def analyze(self, text: str) -> Any:
        raise RuntimeError("a variant's worker scores the analyses sent with each task; it does not analyse")


def variant_pipeline(config: Config, analyzer: str, tagset: str, version: str) -> Pipeline:
    """On a worker: a variant's tables (read back from the cache the client wrote), without an analyzer."""
    return Pipeline(config, Analyses(analyzer, tagset, version))  # type: ignore[arg-type]


def score_variant(
    scorer: Scorer,
    sources: list[str],
    outputs: dict[str, list[str]],
    name: str,
    engine: Engine,
    files: dict[str, str] | None = None,
) -> list[SystemResult]:
    """Every system's result for the variant of ``scorer`` (whose analyzer holds the source's
    analyses), scored on the engine's cluster; input warnings, naming ``name`` (the source) or a
    system's file in ``files`` and the line, go out through :mod:`warnings` in line order."""
    size = task_lines(len(sources))
    items = (Analysed(s, scorer.pipeline.analyse(s.sources)) for s in sliced(sources, outputs, [], size))
    a = scorer.analyzer
    kept: dict[str, list[Any]] = {system: [] for system in outputs}
    messages: list[str] = []
    run = Execution(
        name=name,
        outputs=files or {},
        engine=dataclasses.replace(engine, shards=None, resume=False, announce=None),
        factory=partial(variant_pipeline, scorer.config, a.name, a.tagset, a.version),
        plan={"lines": len(sources)},
    )
    for found, notes in iter_stretches(cast(Unit, scorer.pipeline), items, run):
        for system, sentences in found.items():
            kept[system] += sentences
        messages += notes
    for message in messages:
        warnings.warn(message, InputWarning, stacklevel=2)
    return [SystemResult(system, kept[system], scorer.metric.averaging) for system in outputs]


@contextmanager
def one_cluster(engine: Engine | None) -> Iterator[Engine | None]:
    """The engine for a whole experiment: a Dask engine without a scheduler starts one
    LocalCluster for the analysis and every variant (:func:`ktr.execution.dask_engine.running`)."""
    if engine is None or not engine.distributed:
        yield engine
        return
    from ktr.execution.dask_engine import running

    with running(engine) as found:
        yield found
