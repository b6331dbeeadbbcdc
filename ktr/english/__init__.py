"""The English side: an output line in, its tokens (and what they may inflect) out.

``tokens`` tokenizes and case-folds MT output and lexicon equivalents alike, ``inflection``
builds the table of inflected forms (``went`` → go), ``numbers`` finds number expressions
("350 million", "third", "half an hour") and ``wordnet`` reads WordNet (the copy shipped with
ktr), never downloading it. Nothing here knows of Korean, lexicons or scores.
"""
