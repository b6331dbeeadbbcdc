"""The ``transliteration`` stage: names and loanwords by sound (:mod:`ktr.matching.transliteration`
gives both sides' sound keys): 클린턴 ↔ Clinton, 살모넬라 ↔ salmonella."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ktr.matching import transliteration as transliterate
from ktr.matching.candidate import Candidate, Refusal
from ktr.matching.stage import Option, Stage, in_unit_interval
from ktr.matching.targets import Targets
from ktr.matching.view import SentenceView

#: the rule that a word the lexicon gives another, closer-sounding name is not this one's
#: (:meth:`TransliterationStage._own`), in the signature
OTHER_NAMES = "on1"


class TransliterationStage(Stage):
    """Names and loanwords by sound; the closer first."""

    name = "transliteration"
    strength = 5
    reads = frozenset({"sounds"})
    options = (
        Option(
            "transliteration_threshold",
            transliterate.DEFAULT_THRESHOLD,
            "Minimum sound-key similarity (0-1] for a transliteration match (ktr/matching/transliteration.py).",
            in_unit_interval,
        ),
    )

    @classmethod
    def fragment(cls, settings: Mapping[str, Any], table: Any = None) -> dict[str, str]:
        return {"tl": f"{settings['transliteration_threshold']:g}/k{transliterate.KEYS}/{OTHER_NAMES}"}

    def propose(self, k: int, targets: Targets, v: SentenceView) -> list[Candidate]:
        """Names and loanwords by sound: 클린턴 ↔ Clinton (:mod:`ktr.matching.transliteration`); closer first.
        A proper noun matches only words the output writes capitalized (unless it has no capitals), or,
        without a lexicon entry, one lower-case word of the same sound when it is long. A name too short
        for a sound key matches only its Revised Romanization, letter for letter (유미 Yumi, Yu-mi), or a
        word said as the name is, with its vowels (야후 Yahoo, 조지 George, 루이 Louis)."""
        if targets.spelled:  # as Revised Romanization spells it, or a name said as it sounds
            if not targets.name and v.names is None:
                return []  # a common noun used as a name (나리, Typhoon Nari) only where it is capitalized
            said = transliterate.spoken_korean(targets.word) if targets.word and targets.name else ""
            spans = sorted({*v.spellings.get(targets.spelled, ()), *(v.spoken.get(said, ()) if said else ())})
            return [self.candidate(k, " ".join(v.tokens[s:e]), (s, e)) for s, e in spans]
        if not targets.sound:
            return []
        found: list[tuple[int, Candidate]] = []
        sound = targets.sound
        low = transliterate.required_length(sound)
        # a name matches words the output writes capitalized; and, when none sounds like it and it has
        # no lexicon entry, one word written in lower case of the same sound if the name is long
        # (살모넬라 ↔ salmonella, 툰드라 ↔ tundra: Kiwi tags them NNP), never several ("clean ton" for
        # 클린턴) and never a word for a name the lexicon knows (폴란드 is Poland, not "plants")
        threshold = self.setting("transliteration_threshold")
        passes = [(v.name_sounds_by_length if targets.name else v.sounds_by_length, threshold, False)]
        if targets.name and low >= 4 and not targets.equivalents:
            passes.append((v.sounds_by_length, 1.0, True))
        for groups, threshold, one_word in passes:
            if one_word and found:
                break  # a capitalized word sounds like it: the lower-case ones are not needed
            for size, (keys, where) in groups.items():  # size: a key's length, optional symbols included
                if low - size > (1 - threshold) * low + 1e-9:
                    continue  # too short to reach the threshold even with every symbol
                for key in keys:
                    similarity = transliterate.similarity_reaching(sound, key, threshold)
                    if similarity < threshold:
                        continue
                    rank = round((1 - similarity) * 1000)
                    found += [
                        (
                            i,
                            self.candidate(k, " ".join(v.tokens[start:end]), (start, end), rank),
                        )
                        for i, start, end in where[key]
                        if (not one_word or end - start == 1)
                        and self._own(k, targets, v, (key, similarity), (start, end))
                    ]
        return [c for _, c in sorted(found, key=lambda f: f[0])]  # in the order of the sounds

    def _own(self, k: int, targets: Targets, v: SentenceView, sound: tuple[str, float], span: tuple[int, int]) -> bool:
        """Whether the words of ``span`` (``sound``: their sound key and how close it is to the
        keyword's) may be the keyword's: not where the lexicon gives them as the English of another
        name whose Korean sounds closer to them, or as close where the keyword's own entry gives
        other English (오스트리아, Austria, and "Australia", 오스트레일리아's: shown refused). A name
        without an entry spelled alike in Hangul (the same sound) is not refused."""
        if not targets.others:
            return True
        (key, similarity), (start, end) = sound, span
        words = " ".join(v.tokens[start:end])
        theirs = targets.others.get(words, ())
        if (
            not theirs
            or (targets.lemma or targets.word) in theirs
            or words in {e.casefold() for e in targets.equivalents}
        ):
            return True
        # closer, or as close where the keyword has an entry of its own that does not list them
        entry = bool(targets.equivalents)
        closer = [
            lemma
            for lemma in theirs
            if transliterate.is_hangul(lemma)
            and (other := transliterate.similarity(transliterate.korean_key(lemma), key)) >= similarity
            and (other > similarity or entry)
        ]
        if closer:
            v.refuse(Refusal(k, words, start, end, self.name, f"the English of {', '.join(closer)}"))
        return not closer
