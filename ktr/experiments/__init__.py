"""Experiments: a YAML experiment in, a :class:`~ktr.experiments.runner.Run` out.

``config`` reads and checks the experiment file (systems, variants, comparison, output),
``runner`` scores every variant on every system and compares them with paired bootstrap
tests (on a Dask cluster through ``cluster``; BLEU, chrF and METEOR once per system through
``metrics``), ``variants`` builds the controlled variants of human translations and ``metaeval``
scores them to check the metric itself; ``judged`` reads judged keywords and sets ktr's
decisions beside them. The reports are rendered by :mod:`ktr.reports`.
"""
