"""Matching: a keyword's targets and an output's tokens in, the transferred keywords out.

``targets`` turns a looked-up keyword into what it may match (equivalents, synonyms,
derivations, idiom phrases, a number, a sound key); ``view`` is an output sentence as the stages
see it; ``stages`` is the cascade (exact → inflection → derivation → synonym → idiom → number →
transliteration), each proposing candidates; ``assignment`` chooses one candidate per keyword, one keyword per
output token. ``numbers`` and ``transliteration`` hold both sides of their stage. ``tracing``
reads the other way: which content words of the output the matched spans account for (precision).
"""
