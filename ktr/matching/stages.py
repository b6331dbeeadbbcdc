"""Matching keywords against an English output: the cascade of stages.

Each stage proposes *candidates*: (keyword, equivalent, token span, how); then
:func:`~ktr.matching.assignment.assign` picks which candidates count. The stages:

- ``exact``: a lexicon equivalent as written (after tokenization and case folding);
- ``inflection``: an equivalent inflected (waiting → wait, went → go, rooms → room);
- ``synonym``: a WordNet synonym of an equivalent, either way (:mod:`ktr.lexicon.expand`);
- ``derivation``: a word WordNet derives from an equivalent, either way (criticism → criticized);
- ``idiom``: an English phrase of an idiom unit, either way (:mod:`ktr.lexicon.idioms`);
- ``construction``: an English realization of a construction unit (:mod:`ktr.lexicon.constructions`),
  or a grammatical mark that carries it (:mod:`ktr.matching.marks`);
- ``number``: a number by value (:func:`number_stage`);
- ``transliteration``: a name or loanword by sound (:func:`transliteration_stage`).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

from ktr.english.numbers import WEEKDAYS
from ktr.matching import transliteration as transliterate
from ktr.matching.assignment import Candidate, assign
from ktr.matching.marks import ending_stage, place_marks
from ktr.matching.targets import Index, Targets
from ktr.matching.view import SentenceView

#: adverbial particles of phrasal verbs, which English may put after the verb's object ("turn
#: the light off", "put the keys in"); an equivalent "turn off" then matches with at most
#: ``PARTICLE_GAP`` words between (prepositional verbs, "look for", never split), with the
#: inflection stage on
PARTICLES = frozenset({"up", "out", "off", "down", "in", "on", "back", "over", "away", "around", "aside", "together"})
PARTICLE_GAP = 3


def _phrases(
    k: int,
    index: Index,
    hits: frozenset[str],
    v: SentenceView,
    out: list[Candidate],
    exact: tuple[int, str] | None,
    inflected: tuple[int, str] | None,
) -> None:
    """Append to ``out`` where the phrases of ``index`` starting with a word of ``hits`` occur:
    as written, credited to stage ``exact`` (its order and name; None: not wanted), and inflected
    (at least one token an inflected form of its word: ``rooms`` for ``room``, ``went`` for
    ``go``), credited to stage ``inflected``. One pass serves the exact and inflection stages
    together, and the synonym or the idiom stage (both ways credited to it)."""
    tokens, n, positions, forms = v.tokens, len(v.tokens), v.positions, v.inflected_forms
    for first in hits:
        here = positions.get(first, ())
        based = v.base_positions(first) if inflected and first in forms else ()
        for e_rank, equivalent, size_words in index[first]:
            size = len(size_words)
            if size == 1:  # most phrases: a token is the word itself or one of its forms
                if exact and here:
                    order, how = exact
                    out += [Candidate(k, equivalent, s, s + 1, how, (order, e_rank, s)) for s in here]
                if based and inflected:  # ``based`` is empty unless ``inflected``
                    order, how = inflected
                    out += [
                        Candidate(k, equivalent, s, s + 1, how, (order, e_rank, s)) for s in based if tokens[s] != first
                    ]
                continue
            for start in here if not based else set(here).union(based):
                end = start + size
                if end > n:
                    continue
                if inflected and size == 2 and size_words[1] in PARTICLES and tokens[start + 1] != size_words[1]:
                    # a phrasal verb with its object between (put the keys in): the verb carries it,
                    # where matching reads English grammar (the inflection stage; not the paper's)
                    stage = exact if tokens[start] == first else inflected
                    if stage and size_words[1] in tokens[start + 2 : end + PARTICLE_GAP]:
                        out.append(Candidate(k, equivalent, start, start + 1, stage[1], (stage[0], e_rank, start)))
                    continue
                if tokens[start] == first and tuple(tokens[start:end]) == size_words:
                    if exact:
                        order, how = exact
                        out.append(Candidate(k, equivalent, start, end, how, (order, e_rank, start)))
                elif inflected and all(
                    tokens[start + j] == w or w in v.bases(start + j) for j, w in enumerate(size_words)
                ):
                    order, how = inflected
                    out.append(Candidate(k, equivalent, start, end, how, (order, e_rank, start)))


def number_stage(k: int, targets: Targets, v: SentenceView, order: int) -> list[Candidate]:
    """Numbers by value: 삼 ↔ three / third / 3rd / 3, 3억 5천만 ↔ 350 million (:mod:`ktr.matching.numbers`);
    a day of the month also by any weekday (25일 ↔ Friday)."""
    if not targets.numbers:
        return []
    wanted = set(targets.numbers)
    found = [
        Candidate(k, " ".join(v.tokens[s.start : s.end]), s.start, s.end, "number", (order, 0, s.start))
        for s in v.number_spans
        if not wanted.isdisjoint(s.keys)
    ]
    if any(key.startswith("d:") for key in wanted):  # which weekday the date was, nothing says
        found += [Candidate(k, t, i, i + 1, "number", (order, 1, i)) for i, t in enumerate(v.tokens) if t in WEEKDAYS]
    return found


def transliteration_stage(k: int, targets: Targets, v: SentenceView, order: int) -> list[Candidate]:
    """Names and loanwords by sound: 클린턴 ↔ Clinton (:mod:`ktr.matching.transliteration`); closer first.
    A proper noun matches only words the output writes capitalized (unless it has no capitals), or,
    without a lexicon entry, one lower-case word of the same sound when it is long. A name too short
    for a sound key matches only its Revised Romanization, letter for letter (유미 Yumi, Yu-mi)."""
    if targets.spelled:
        spans = v.spellings.get(targets.spelled, ())
        return [Candidate(k, " ".join(v.tokens[s:e]), s, e, "transliteration", (order, 0, s)) for s, e in spans]
    if not targets.sound:
        return []
    found: list[tuple[int, Candidate]] = []
    sound = targets.sound
    low = transliterate.required_length(sound)
    # a name matches words the output writes capitalized; and, when none sounds like it and it has
    # no lexicon entry, one word written in lower case of the same sound if the name is long
    # (살모넬라 ↔ salmonella, 툰드라 ↔ tundra: Kiwi tags them NNP), never several ("clean ton" for
    # 클린턴) and never a word for a name the lexicon knows (폴란드 is Poland, not "plants")
    passes = [(v.name_sounds_by_length if targets.name else v.sounds_by_length, v.threshold, False)]
    if targets.name and low >= 4 and not targets.equivalents:
        passes.append((v.sounds_by_length, 1.0, True))
    for groups, threshold, one_word in passes:
        if one_word and found:
            break  # a capitalized word sounds like it: the lower-case ones are not needed
        for size, (keys, where) in groups.items():  # size: a key's length, optional symbols included
            if low - size > (1 - threshold) * low + 1e-9:
                continue  # too short to reach the threshold even with every symbol
            for key in keys:
                similarity = transliterate.similarity(sound, key)
                if similarity < threshold:
                    continue
                rank = round((1 - similarity) * 1000)
                found += [
                    (
                        i,
                        Candidate(
                            k, " ".join(v.tokens[start:end]), start, end, "transliteration", (order, rank, start)
                        ),
                    )
                    for i, start, end in where[key]
                    if not one_word or end - start == 1
                ]
    return [c for _, c in sorted(found, key=lambda f: f[0])]  # in the order of the sounds


@lru_cache(maxsize=64)
def _stages(stages: tuple[str, ...]) -> tuple[tuple[int, str] | None, ...]:
    """(order, name) of the exact, inflection, synonym, idiom, number, transliteration,
    derivation and construction stages (None for a stage not used)."""
    kinds = {name: (order, name) for order, name in enumerate(stages)}
    return tuple(
        kinds.get(name)
        for name in (
            "exact",
            "inflection",
            "synonym",
            "idiom",
            "number",
            "transliteration",
            "derivation",
            "construction",
        )
    )


def match_sentence(
    targets: Sequence[Targets],
    tokens: Sequence[str],
    stages: Sequence[str] = ("exact",),
    inflections: dict[str, tuple[str, ...]] | None = None,
    threshold: float = transliterate.DEFAULT_THRESHOLD,
    names: frozenset[str] | None = None,
) -> dict[int, Candidate]:
    """Match each keyword's targets against ``tokens``; returns keyword index → candidate.

    ``inflections`` (inflected form → base words, :mod:`ktr.english.inflection`) enables inflected
    matches; ``threshold`` is the transliteration stage's minimum sound-key similarity and
    ``names`` the words the output writes capitalized (:func:`ktr.english.tokens.capitalized_words`).
    """
    exact, inflected, synonym, idiom, number, sound, derivation, construction = _stages(tuple(stages))
    v = SentenceView(tokens, inflections, threshold, names)
    present = v.present
    lexical = present if inflected else v.words  # where an equivalent can start
    cands: dict[int, list[Candidate]] = {}
    endings: dict[int, list[Candidate]] = {}
    for k, t in enumerate(targets):
        lst: list[Candidate] = []
        if not t.firsts.isdisjoint(present):
            own, synonyms, idioms, derived = t.own_firsts
            if exact or inflected:
                hits = own & lexical
                if hits:
                    _phrases(k, t.by_first, hits, v, lst, exact, inflected)
            unit = construction if t.construction else idiom  # both match phrases either way
            for stage, firsts, index in (
                (synonym, synonyms, t.synonyms_by_first),
                (unit, idioms, t.idioms_by_first),
                (derivation, derived, t.derivations_by_first),
            ):
                hits = firsts & present if stage else frozenset()
                if hits:  # as written or inflected, both credited to the stage
                    _phrases(k, index, hits, v, lst, stage, stage)
        if t.endings and construction:
            endings[k] = ending_stage(k, t, v, construction[0])
        if t.numbers and number:
            lst += number_stage(k, t, v, number[0])
        if (t.sound or t.spelled) and sound:
            lst += transliteration_stage(k, t, v, sound[0])
        if lst:
            cands[k] = lst
    if construction:  # grammar-aware, as the units are: the paper's exact matching counts any "the"
        _articles_before_their_noun(cands)
    if number:
        _one_as_article(cands, targets, v.tokens, number[0])
    repeats = _set_aside_repeats(cands, targets)
    weights: dict[int, int] = {}
    for j, _ in repeats.values():
        weights[j] = weights.get(j, 1) + 1
    chosen = assign(cands, len(targets), len(tokens), weights)
    if repeats:
        _place_repeats(chosen, repeats, len(targets), len(tokens))
    place_marks(chosen, endings, len(targets), len(tokens))
    return chosen


#: equivalents that are articles (그 "the", 한 "a"): every English sentence has them
ARTICLES = frozenset({"the", "a", "an"})


def _articles_before_their_noun(cands: dict[int, list[Candidate]]) -> None:
    """An article carries a determiner only before the word it determines: 그 회사 is "the
    company" when 회사 may match the word after "the" (or the word after that: "the new
    company"), not any "the" of the output, which has one in nearly every sentence."""
    for k in [k for k, lst in cands.items() if any(c.equivalent in ARTICLES for c in lst)]:
        after = {c.start for c in cands.get(k + 1, ())}
        kept = [c for c in cands[k] if c.equivalent not in ARTICLES or not after.isdisjoint((c.end, c.end + 1))]
        if kept:
            cands[k] = kept
        else:
            del cands[k]


def _one_as_article(
    cands: dict[int, list[Candidate]], targets: Sequence[Targets], tokens: Sequence[str], order: int
) -> None:
    """One of something counted (고양이 한 마리, 학생 한 명) is "a" or "an" right before the match of
    its noun, or one word before ("a little dog"), where the output does not write the number
    itself; its noun is the keyword before it, as Korean counts (the keyword after it is as often
    another noun: 고양이 한 마리가 지붕에 "a cat … the roof")."""
    for k, t in enumerate(targets):
        if not t.one or any(c.how == "number" or c.equivalent == "1" for c in cands.get(k, ())):
            continue
        nouns = {c.start for c in cands.get(k - 1, ())}
        found = [
            Candidate(k, token, i, i + 1, "number", (order, 1, i))
            for i, token in enumerate(tokens)
            if token in ("a", "an") and not nouns.isdisjoint((i + 1, i + 2))
        ]
        if found:
            cands.setdefault(k, []).extend(found)


def _set_aside_repeats(
    cands: dict[int, list[Candidate]], targets: Sequence[Targets]
) -> dict[int, tuple[int, list[Candidate]]]:
    """Take out of ``cands`` each keyword whose targets equal an earlier keyword's (a word the
    source repeats: the same entry), so that the assignment places the word once, weighing it as
    many keywords as it stands for, and its repeats take no token another keyword needs; returns
    them: index → (first occurrence, candidates)."""
    first: dict[Targets, int] = {}
    repeats: dict[int, tuple[int, list[Candidate]]] = {}
    for k in list(cands):
        j = first.setdefault(targets[k], k)
        if j != k:
            repeats[k] = (j, cands.pop(k))
    return repeats


def _place_repeats(
    chosen: dict[int, Candidate], repeats: dict[int, tuple[int, list[Candidate]]], keywords: int, tokens: int
) -> None:
    """A keyword the source repeats shares its first occurrence's place: 학생 said twice, once
    as "students", is transferred twice (the English does not repeat a word Korean repeats).
    Repeats first take tokens nobody took (where the output says the word again), then share."""
    used = {t for c in chosen.values() for t in range(c.start, c.end)}
    free = {
        k: kept
        for k, (_, lst) in repeats.items()
        if (kept := [c for c in lst if used.isdisjoint(range(c.start, c.end))])
    }
    chosen.update(assign(free, keywords, tokens) if free else {})
    for k, (j, lst) in repeats.items():
        if k not in chosen and j in chosen:
            place = chosen[j]
            here = [c for c in lst if (c.start, c.end) == (place.start, place.end)]
            if here:  # the first occurrence's own match, as its targets are the same
                chosen[k] = min(here, key=lambda c: (c.equivalent != place.equivalent or c.how != place.how, c.rank))
