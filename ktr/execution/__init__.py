"""Execution: how the stretches of a corpus are run, and on how many cores.

An engine takes a unit of work (:class:`~ktr.execution.unit.Unit`: something that analyses a
stretch of lines and scores it) and a stream of stretches, and returns every stretch's results
in line order. ``local`` runs them in this process (Kiwi streamed, or analysis a few stretches
ahead in a thread), ``processes`` in spawned worker processes that each build their own unit
from a picklable factory, ``analyzer_pool`` shares an analyzer's batches among processes
(``ktr run``), ``cluster`` on the workers of a Dask cluster (``--engine dask``: line ranges
read by the workers, ``ranges``; results on disk and resumable, ``shards``; ``cluster_analyzer``
for ``ktr run``). ``columns`` reads Parquet, JSON Lines and TSV tables for any engine. Engines
know the unit only through its protocol, never the scorer that drives them, so a new engine is
one more module here.
"""
