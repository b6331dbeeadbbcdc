"""Matching: a keyword's targets and an output's tokens in, the transferred keywords out.

``targets`` turns a looked-up keyword into what it may match (equivalents, synonyms,
derivations, idiom phrases, a number, a sound key); ``view`` is an output sentence as the stages
see it; ``registry`` names the stages and ``stage`` says what a stage is and builds the cascade a
config names (by default exact → inflection → derivation → synonym → idiom → construction →
number → transliteration → semantic), each stage in a module of its own idea proposing
candidates; ``cascade`` runs them and ``assignment`` chooses one candidate per keyword, one
keyword per output token. ``numbers`` and ``transliteration`` hold both sides of their stage.
``tracing`` reads the other way: which content words of the output the matched spans account
for (precision).
"""
