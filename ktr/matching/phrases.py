"""The phrase stages: a keyword's English phrases found in the output, as written or inflected.

- ``exact``: a lexicon equivalent as written (after tokenization and case folding);
- ``inflection``: an equivalent inflected (waiting → wait, went → go, rooms → room): at least
  one token an inflected form of its word (:mod:`ktr.english.inflection`);
- ``synonym``: a WordNet synonym of an equivalent, either way (:mod:`ktr.lexicon.expand`);
- ``derivation``: a word WordNet derives from an equivalent, either way (criticism → criticized);
- ``idiom``: an English phrase of an idiom unit, either way (:mod:`ktr.lexicon.idioms`).

Each keyword's phrases are indexed by their first word (:class:`~ktr.matching.targets.Targets`),
so a stage looks only at the phrases whose first word the output holds, as written or as the
base word of an inflected token. A phrasal verb may have its object between its verb and its
particle ("put the keys in") where matching reads English grammar: in the phrases of a lexicon
entry with the inflection stage on (so that ``configs/paper.yaml``'s exact matching is the
paper's), in the other stages' always.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any, NamedTuple

from ktr.errors import brief
from ktr.korean.analyzers.base import Morpheme
from ktr.korean.keywords import Keyword
from ktr.lexicon import Lexicon
from ktr.lexicon.format import Lookup
from ktr.matching.candidate import Candidate
from ktr.matching.stage import Joined, Option, Stage
from ktr.matching.targets import Index, Targets
from ktr.matching.view import SentenceView

#: adverbial particles of phrasal verbs, which English may put after the verb's object ("turn
#: the light off", "put the keys in"); an equivalent "turn off" then matches with at most
#: ``PARTICLE_GAP`` words between (prepositional verbs, "look for", never split), with the
#: inflection stage on
PARTICLES = frozenset({"up", "out", "off", "down", "in", "on", "back", "over", "away", "around", "aside", "together"})
PARTICLE_GAP = 3


class Forms(NamedTuple):
    """Which forms of a phrase a stage credits: as written, inflected, and whether a phrasal
    verb may be split by its object (with the inflection stage on)."""

    written: bool
    inflected: bool
    split: bool


def phrases(stage: Stage, k: int, index: Index, hits: frozenset[str], v: SentenceView, forms: Forms) -> list[Candidate]:
    """Where the phrases of ``index`` starting with a word of ``hits`` occur, in ``forms``,
    credited to ``stage``: as written, or inflected (a token an inflected form of its word:
    ``rooms`` for ``room``, ``went`` for ``go``, where the phrase is not there as written)."""
    out: list[Candidate] = []
    tokens, n, positions, inflected = v.tokens, len(v.tokens), v.positions, v.inflected_forms
    for first in hits:
        here = positions.get(first, ())
        based = v.base_positions(first) if forms.inflected and first in inflected else ()
        for rank, equivalent, words in index[first]:
            size = len(words)
            if size == 1:  # most phrases: a token is the word itself or one of its forms
                if forms.written:
                    out += [stage.candidate(k, equivalent, (s, s + 1), rank) for s in here]
                out += [stage.candidate(k, equivalent, (s, s + 1), rank) for s in based if tokens[s] != first]
                continue
            for start in here if not based else set(here).union(based):
                end = start + size
                if end > n:
                    continue
                as_written = tokens[start] == first
                if forms.split and size == 2 and words[1] in PARTICLES and tokens[start + 1] != words[1]:
                    # a phrasal verb with its object between (put the keys in): the verb carries it
                    if (forms.written if as_written else forms.inflected) and words[1] in tokens[
                        start + 2 : end + PARTICLE_GAP
                    ]:
                        out.append(stage.candidate(k, equivalent, (start, start + 1), rank))
                    continue
                if as_written and tuple(tokens[start:end]) == words:
                    if forms.written:
                        out.append(stage.candidate(k, equivalent, (start, end), rank))
                elif forms.inflected and all(
                    tokens[start + j] == w or w in v.bases(start + j) for j, w in enumerate(words)
                ):
                    out.append(stage.candidate(k, equivalent, (start, end), rank))
    return out


#: WordNet's senses and the entry's equivalents the synonym and derivation stages expand
SENSES = Option(
    "synonym_senses",
    2,
    "WordNet senses (synsets) per equivalent whose lemmas count as synonyms, and in which its "
    "derivations are looked for.",
    lambda v: (
        None
        if not isinstance(v, bool) and isinstance(v, int) and v >= 1
        else f"must be a whole number of at least 1, got {brief(v)}"
    ),
)
EXPANDED = Option(
    "expanded_equivalents",
    3,
    "How many of each entry's equivalents (the first, most common senses) WordNet expands into "
    "synonyms and derivations; 0: all of them.",
    lambda v: (
        None
        if not isinstance(v, bool) and isinstance(v, int) and v >= 0
        else f"must be a whole number (0: all equivalents), got {brief(v)}"
    ),
)


class ExactStage(Stage):
    """A lexicon equivalent as written (where the output is read with English grammar, i.e. with
    the inflections of its words known, a phrasal verb also split by its object)."""

    name = "exact"
    strength = 0

    def propose(self, k: int, targets: Targets, v: SentenceView) -> list[Candidate]:
        hits = targets.own_firsts[0] & v.present
        if not hits:
            return []
        return phrases(self, k, targets.by_first, hits, v, Forms(True, False, bool(v.inflections)))


class InflectionStage(Stage):
    """A lexicon equivalent inflected (an equivalent as written is the exact stage's)."""

    name = "inflection"
    strength = 1
    needs = ("WordNet",)
    reads = frozenset({"inflections"})  # also lets the other stages' phrases match inflected

    def propose(self, k: int, targets: Targets, v: SentenceView) -> list[Candidate]:
        hits = targets.own_firsts[0] & v.present
        return phrases(self, k, targets.by_first, hits, v, Forms(False, True, True)) if hits else []


class _EitherWay(Stage):
    """A stage that finds phrases of its own kind as written or inflected, both credited to it
    (a phrasal verb split by its object too: a synonym or an idiom is already a reading of the
    English, with the inflection stage on or not)."""

    #: which of the targets' phrases (their place in ``Targets.own_firsts``) and their index
    kind = 0
    index = ""

    def wanted(self, targets: Targets) -> bool:
        return True

    def propose(self, k: int, targets: Targets, v: SentenceView) -> list[Candidate]:
        hits = targets.own_firsts[self.kind] & v.present
        if not hits or not self.wanted(targets):
            return []
        return phrases(self, k, getattr(targets, self.index), hits, v, Forms(True, True, True))


class _Expanded(_EitherWay):
    """A stage whose phrases WordNet expands from the lexicon's equivalents (:mod:`ktr.lexicon.expand`):
    its table gives each entry its phrases, the keyword's targets of the field :attr:`fills`."""

    options = (SENSES, EXPANDED)
    needs = ("WordNet",)
    #: the function of :mod:`ktr.lexicon.expand` that builds the table, and the signature's key
    table, key = "", ""

    @classmethod
    def english(cls, table: Any) -> Iterable[str]:
        return [phrase for phrases in table.values() for phrase in phrases]

    @classmethod
    def load(cls, settings: Mapping[str, Any], lexicon: Lexicon, tagset: str) -> Any:
        from ktr.lexicon import expand

        build = getattr(expand, cls.table)
        return build(lexicon, settings["synonym_senses"], settings["expanded_equivalents"])

    @classmethod
    def rules(cls) -> str:
        """What else decides its table, in the signature ("" for nothing)."""
        return ""

    @classmethod
    def fragment(cls, settings: Mapping[str, Any], table: Any = None) -> dict[str, str]:
        from ktr.english.wordnet import fingerprint

        eq = settings["expanded_equivalents"]
        senses = f"wn{fingerprint()}/senses{settings['synonym_senses']}" + (f"/eq{eq}" if eq else "")
        return {cls.key: senses + cls.rules()}


class SynonymStage(_Expanded):
    """A WordNet synonym of an equivalent."""

    name, kind, index = "synonym", 1, "synonyms_by_first"
    strength = 4
    fills, table, key = "synonyms", "synonym_table", "syn"


class IdiomStage(_EitherWay):
    """An English phrase of an idiom unit (a construction unit's are the construction stage's)."""

    name, kind, index = "idiom", 2, "idioms_by_first"
    strength = 3
    joins = 2  # last: the units it returns are by place in the final list
    options = (
        Option("idioms", ("idioms",), "Idiom lexicons (shipped names or paths), used when the idiom stage is on."),
    )

    def wanted(self, targets: Targets) -> bool:
        return not targets.construction

    @classmethod
    def load(cls, settings: Mapping[str, Any], lexicon: Lexicon, tagset: str) -> Any:
        from ktr.lexicon.idioms import IdiomTable

        return IdiomTable.from_files(settings["idioms"])

    @classmethod
    def english(cls, table: Any) -> Iterable[str]:
        return [phrase for idiom in table.idioms for phrase in idiom.english]

    @classmethod
    def join(cls, table: Any, morphemes: Sequence[Morpheme], text: str, keywords: list[Keyword]) -> Joined:
        """An idiom's stretch of the line collapsed into one unit, which matches its English."""
        joined, units = table.apply(text, keywords)
        return joined, {i: Lookup(None, idiom.english, cls.name) for i, idiom in units.items()}

    @classmethod
    def fragment(cls, settings: Mapping[str, Any], table: Any = None) -> dict[str, str]:
        return {"idioms": f"{'+'.join(settings['idioms'])}@{table.digest[:10]}"} if table is not None else {}


class DerivationStage(_Expanded):
    """A word WordNet derives from an equivalent."""

    name, kind, index = "derivation", 3, "derivations_by_first"
    strength = 2
    fills, table, key = "derivations", "derivation_table", "der"

    @classmethod
    def rules(cls) -> str:
        from ktr.english.derivation import RULES

        return f"/drv{RULES}"
