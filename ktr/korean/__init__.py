"""The Korean side: a source line in, its keywords out.

``normalize`` cleans a line (and remembers where each character came from), ``analyzers/``
turns it into morphemes (one module per backend, resolved by name only when asked for),
``guard`` runs an analyzer line by line so that one bad line fails alone, and ``keywords``
picks the content morphemes by the tag tables in ``configs/tagsets/``. Nothing here knows of
English, lexicons or scores.
"""
