"""An output sentence as the matching stages see it: tokens, positions, base words, numbers, sounds."""

from __future__ import annotations

from collections.abc import Sequence
from functools import cached_property

from ktr.english import number_expressions
from ktr.english.tokens import FUNCTION_WORDS
from ktr.matching import transliteration as transliterate
from ktr.matching.candidate import Refusal

#: output tokens never compared by sound: function words and the pieces of contractions
_NOT_NAMES = FUNCTION_WORDS | {"s", "t", "d", "ll", "m", "re", "ve"}

#: sound keys by length: the different keys of that length, and where each occurs (its position
#: in the list of sounds, its token span)
SoundGroups = dict[int, tuple[list[str], dict[str, list[tuple[int, int, int]]]]]


class SentenceView:
    """An output sentence as the stages see it: its tokens, where each word occurs as written or
    as the base word of an inflected token, and (when a stage first asks) its numbers and sounds."""

    def __init__(
        self,
        tokens: Sequence[str],
        inflections: dict[str, tuple[str, ...]] | None = None,
        names: frozenset[str] | None = None,
    ):
        self.tokens = tokens
        #: the places stages refused, per keyword (:class:`~ktr.matching.candidate.Refusal`)
        self.refused: dict[int, list[Refusal]] = {}
        self.names = names  # words written capitalized; None: the output has no case
        self.inflections = inflections or {}
        positions: dict[str, list[int]] = {}  # word -> where it occurs as written
        for i, token in enumerate(tokens):
            positions.setdefault(token, []).append(i)
        self.positions = positions
        self.words = words = frozenset(positions)
        based: dict[str, list[str]] = {}  # base word -> the tokens that inflect it
        for word in positions:
            for base in self.inflections.get(word, ()):
                based.setdefault(base, []).append(word)
        self.inflected_forms = based
        #: every token and every base word of a token: where a phrase can start
        self.present = words.union(based) if based else words

    def refuse(self, refusal: Refusal) -> None:
        """Record that a stage refused a place to a keyword (once per place, stage and reason)."""
        held = self.refused.setdefault(refusal.keyword, [])
        if refusal not in held:
            held.append(refusal)

    def base_positions(self, word: str) -> list[int]:
        """Where a token that inflects ``word`` occurs."""
        forms = self.inflected_forms.get(word)
        if not forms:
            return []
        if len(forms) == 1:
            return self.positions[forms[0]]
        return sorted(i for form in forms for i in self.positions[form])

    def bases(self, i: int) -> tuple[str, ...]:
        """The base words token ``i`` inflects (may be none)."""
        return self.inflections.get(self.tokens[i], ())

    @cached_property
    def number_spans(self) -> list[number_expressions.Span]:
        """Number expressions of the output (computed when the number stage first asks)."""
        return number_expressions.english_spans(self.tokens) if number_expressions.may_hold_numbers(self.words) else []

    def _name_spans(self, names: frozenset[str] | None) -> list[tuple[int, int]]:
        """Spans of alphabetic tokens other than function words (only those in ``names`` unless it
        is None), and of adjacent pairs of them (뉴욕 = "new york", 유미 = "yu-mi")."""
        tokens = self.tokens
        ok = [t.isalpha() and t not in _NOT_NAMES and (names is None or t in names) for t in tokens]
        out = [(i, i + 1) for i in range(len(tokens)) if ok[i]]
        out += [(i, i + 2) for i in range(len(tokens) - 1) if ok[i] and ok[i + 1]]
        if names is not None:  # a Korean name of three syllables, given name hyphenated: Jeon Young-soo
            out += [(i, i + 3) for i in range(len(tokens) - 2) if ok[i] and ok[i + 1] and ok[i + 2]]
        return out

    def _sounds(self, names: frozenset[str] | None) -> list[tuple[int, int, str]]:
        """Sound keys of the spans :meth:`_name_spans` gives."""
        key = transliterate.english_key
        return [(start, end, key("".join(self.tokens[start:end]))) for start, end in self._name_spans(names)]

    @cached_property
    def spellings(self) -> dict[str, list[tuple[int, int]]]:
        """Where each word written capitalized (any word when the output has no case), or pair
        of them joined, occurs: a name spelled out letter for letter may be there."""
        out: dict[str, list[tuple[int, int]]] = {}
        for start, end in self._name_spans(self.names):
            out.setdefault("".join(self.tokens[start:end]), []).append((start, end))
        return out

    @cached_property
    def spoken(self) -> dict[str, list[tuple[int, int]]]:
        """:attr:`spellings` by their rough spelling said with vowels
        (:func:`~ktr.matching.transliteration.spoken_english`), with a final s and without: a
        short name may be there (야후 Yahoo, 루이 Louis)."""
        out: dict[str, list[tuple[int, int]]] = {}
        for text, where in self.spellings.items():
            said = transliterate.spoken_english(text)
            for key in {said, said.removesuffix("s")} if len(said) > 2 else {said}:
                out.setdefault(key, []).extend(where)
        return out

    @staticmethod
    def _by_length(sounds: list[tuple[int, int, str]]) -> SoundGroups:
        out: SoundGroups = {}
        for i, (start, end, key) in enumerate(sounds):
            keys, where = out.setdefault(len(key), ([], {}))
            if key not in where:
                keys.append(key)
                where[key] = []
            where[key].append((i, start, end))
        return out

    @cached_property
    def sounds_by_length(self) -> SoundGroups:
        """The sound keys of the output's words and pairs of words, by length (:data:`SoundGroups`)."""
        return self._by_length(self._sounds(None))

    @cached_property
    def name_sounds_by_length(self) -> SoundGroups:
        """The same of the words written capitalized only: all a proper noun may match (and all
        words when the output has no case)."""
        return self._by_length(self._sounds(self.names)) if self.names is not None else self.sounds_by_length
