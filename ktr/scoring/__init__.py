"""Scoring: source, outputs and references in, a :class:`~ktr.scoring.corpus.Report` out.

From the bottom up: ``formula`` is the KTR formula (a line's statistics, and the one function
that turns summed statistics into scores); ``sentences`` the per-line records (each keyword's
result, a line's counts); ``signature`` what reproduces a score; ``layout`` the table layout of
every report; ``corpus`` a system's figures summed line by line, its result and the report.
``pipeline`` is the prepared analyzer and tables and the unit of work every engine runs (one
stretch of lines analysed, prepared and matched); ``metric`` is :class:`~ktr.scoring.metric.KTR`,
the metric object (sentence and corpus scores, its signature); ``scorer`` the
:class:`~ktr.scoring.scorer.Scorer`, which drives it over many systems and files on an engine
(:mod:`ktr.execution`). ``reference`` holds BLEU and chrF (sacreBLEU) and METEOR,
``significance`` the bootstrap, ``transport`` a stretch's results as plain data,
``dataframes`` the scoring of DataFrame columns, ``analysis_cache`` stored analyses and
``preflight`` the checks made before a run.
"""
