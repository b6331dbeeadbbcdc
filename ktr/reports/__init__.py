"""Reports: results in, every output format out, in one place.

``tables`` writes ``ktr score``'s text table, JSON and TSV; ``explain`` its ``--explain``
view; ``files`` the folder ``ktr run`` writes (``results.json``, ``segments.tsv``, and the
``markdown`` and ``html`` reports, whose tables are built once in ``common``); ``metaeval``
the meta-evaluation's Markdown and chart; ``agreement`` the agreement with judged keywords;
``svg`` every chart, as inline SVG.
"""
