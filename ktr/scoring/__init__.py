"""Scoring: source, outputs and references in, a :class:`~ktr.scoring.results.Report` out.

``pipeline`` is the prepared scorer (analyzer and tables built once from a config) and the unit
of work every engine runs: one stretch of lines analysed, prepared and matched. ``scorer`` is the
public :class:`Scorer`, which checks the input and hands its stretches to an engine
(:mod:`ktr.execution`). ``results`` holds the per-sentence statistics, the corpus aggregation
and the signature; ``reference`` BLEU and chrF (sacreBLEU), ``significance`` the bootstrap,
``analysis_cache`` stored analyses, ``preflight`` the checks made before a run.
"""
