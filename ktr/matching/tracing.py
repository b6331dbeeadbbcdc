"""The other side of matching: which content words of the output trace back to the source.

KTR asks whether each keyword of the source reached the output. Tracing asks the converse: is
each *content word* of the output there because of the source? A content word is a token of the
output that is not an English function word (:data:`ktr.english.tokens.FUNCTION_WORDS`) nor a
piece of a contraction (the ``t`` of "don't"); numbers and names count. A content word is
**traced** when it lies in the span a keyword was matched on, by any stage (its equivalent as
written or inflected, a WordNet synonym or derivation, an idiom or construction realization, a
number by value, a name by sound; "people" after the number of 2명, "o'clock" after that of 3시),
or when the source itself writes it in Latin letters or digits (a name, acronym or number copied:
"CNN", "Judy", the "3" of a list item "3. 아르기닌"), or when it is the English verb of a Korean
light verb 하다 after its object ("playing" of 축구를 하고 있다: :data:`DOING_VERBS`). English light verbs (make, take, get, give, go, come, put, keep,
let, in any form) count only when a keyword matched them. Every other content word is
**added**: the source does not account for it.

The assignment (:mod:`ktr.matching.assignment`) gives each keyword at most one span and each
token to at most one keyword, so a keyword explains one place of the output: a gloss salad that
lists three equivalents of every keyword has two of them added, and a translation padded with
another sentence has that sentence's words added. (A word the source repeats shares the span of
its first mention, which traces that span once.)

``precision`` = traced / content words, the counterpart of KTR's transferred / keywords.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import NamedTuple

from ktr.english.tokens import FUNCTION_WORDS, tokenize
from ktr.korean.analyzers.base import Morpheme

#: the version of the tracing rules and of F (this module), in the signature beside β: bump it when
#: they change (2: an output without content words has F = KTR; 3: digits the source writes trace;
#: 4: the noun a number's counter stands for traces with the number; 5: "o'clock" is one word and
#: traces with the hour, the verb of a light verb 하다 after its object traces)
RULES = 5

#: what the tokenizer leaves of a contraction or possessive after its apostrophe ("it's" → it, s)
CONTRACTION_PIECES = frozenset({"s", "t", "d", "ll", "m", "re", "ve"})


#: English light verbs in all their forms: in "make a decision", "take a walk", "get married",
#: "go shopping" they carry no meaning of their own, so an output is not blamed for them (they
#: count neither as traced nor as added unless a keyword matched them)
LIGHT_VERBS = frozenset(
    """
make makes made making take takes took taken taking get gets got gotten getting give gives gave
given giving go goes went gone going come comes came coming put puts putting keep keeps kept
keeping let lets letting
""".split()
)


#: English verbs that say a Korean light verb 하다 after its object, where the object decides the
#: verb: 축구를 하다 "play soccer", 회담을 하다 "hold talks" (the verb of do, have, make, take and give
#: is a function word or a light verb already). In a line whose source has such a 하다, these
#: trace to it (:func:`light_verb_words`).
DOING_VERBS = frozenset("play plays played playing hold holds held holding".split())


def light_verb_words(morphemes: Sequence[Morpheme]) -> frozenset[str]:
    """:data:`DOING_VERBS` when the source line has a light verb 하다 right after an object
    (``을/를`` JKO then ``하`` VV, Sejong tags: the construction "명사 + 을 하다", whose 하다 is no
    keyword), else nothing."""
    for before, verb in zip(morphemes, morphemes[1:]):
        if verb.form == "하" and verb.tag == "VV" and before.tag == "JKO":
            return DOING_VERBS
    return frozenset()


class Trace(NamedTuple):
    """One output line's content words: how many, how many traced, the added ones' positions."""

    content: int
    traced: int
    added: tuple[int, ...]  # token indexes of the added content words, in order


#: the trace of an output that is not traced (its source line could not be analysed)
NOTHING_TRACED = Trace(0, 0, ())


def content_positions(tokens: Sequence[str]) -> list[int]:
    """Indexes of the content words: not function words, not contraction pieces; the first part
    of a negative contraction ("didn" of "didn't", "won" of "won't") is grammar too."""
    last = len(tokens) - 1
    return [
        i
        for i, t in enumerate(tokens)
        if t not in FUNCTION_WORDS
        and t not in CONTRACTION_PIECES
        and not (i < last and tokens[i + 1] == "t" and t.endswith("n"))
    ]


def latin_words(text: str) -> frozenset[str]:
    """The tokens of a source line written in Latin letters or digits, tokenized as an output is
    (a name, an acronym or a number the source writes itself: "CNN", "3")."""
    return frozenset(t for t in tokenize(text) if t.isascii() and t.isalnum())


def with_counted(tokens: Sequence[str], start: int, end: int, counted: Sequence[str]) -> tuple[int, int]:
    """The span of a number matched at ``start:end``, widened over the noun its counter stands for
    when the translation writes it next, directly or after "of" ("two people" for 2명)."""
    after = end + (end < len(tokens) and tokens[end] == "of")
    return (start, after + 1) if counted and after < len(tokens) and tokens[after] in counted else (start, end)


def trace(tokens: Sequence[str], spans: Iterable[tuple[int, int]], copied: frozenset[str] = frozenset()) -> Trace:
    """Trace the output ``tokens`` given the token spans the keywords were matched on and the
    words the source itself writes in Latin letters (``copied``)."""
    covered: set[int] = set()
    for start, end in spans:
        covered.update(range(start, end))
    if copied:
        covered.update(i for i, t in enumerate(tokens) if t in copied)
    content = [i for i in content_positions(tokens) if i in covered or tokens[i] not in LIGHT_VERBS]
    added = tuple(i for i in content if i not in covered)
    return Trace(len(content), len(content) - len(added), added)
