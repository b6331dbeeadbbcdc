"""Matching keywords against an English output: the cascade of stages, then the assignment.

Each stage of the config's ``matching`` list (:mod:`ktr.matching.stage`, in that order) proposes
*candidates* for every keyword: (keyword, equivalent, token span, how); then
:func:`~ktr.matching.assignment.assign` picks which candidates count, one per keyword and one
keyword per token. The stages:

- ``exact``, ``inflection``, ``synonym``, ``derivation``, ``idiom``: phrases of the keyword's
  (:mod:`ktr.matching.phrases`);
- ``construction``: an English realization of a construction unit, or a grammatical mark that
  carries it (:mod:`ktr.matching.marks`);
- ``number``: a number by value (:mod:`ktr.matching.number_stage`);
- ``transliteration``: a name or loanword by sound (:mod:`ktr.matching.transliteration_stage`);
- ``semantic``: once the assignment is made, a keyword still missed on words nobody took whose
  meaning an embedding model finds close to it (:mod:`ktr.matching.semantic`).

A word the source repeats shares its first occurrence's place (:func:`_set_aside_repeats`).

A line whose keywords reach past ``max_chars`` characters, which the analyzer was handed in pieces,
is matched in pieces too (:func:`match_in_pieces`), so that no matching is handed a problem of
unbounded size either.

Under a time limit on each line's work (:class:`ktr.deadline.Budget`), each line is matched and
assigned within its time left, and the completing stages are given the lines together within the
least time any of them has left, else line by line from where they were: a line that runs out is
left without matches and marked in the budget (``expired``), and its caller reports it failed.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from functools import partial

from ktr.deadline import Budget, TimedOut
from ktr.matching.assignment import assign
from ktr.matching.candidate import Candidate, Matches
from ktr.matching.stage import Cascade, Matching, cascade
from ktr.matching.targets import Targets
from ktr.matching.view import SentenceView

#: an output line to match: its keywords' targets, its tokens, and the words it writes
#: capitalized (:func:`ktr.english.tokens.capitalized_words`; None: the output has no case)
Line = tuple[Sequence[Targets], Sequence[str], "frozenset[str] | None"]


def match_sentence(
    targets: Sequence[Targets],
    tokens: Sequence[str],
    matching: Matching | Sequence[str] = ("exact",),
    inflections: dict[str, tuple[str, ...]] | None = None,
    names: frozenset[str] | None = None,
) -> Matches:
    """Match each keyword's targets against ``tokens``; returns keyword index → candidate (and
    the places the stages refused, :class:`~ktr.matching.candidate.Matches`).

    ``matching`` holds the stages in cascade order and their settings (a list of stage names:
    those stages, with the default settings); ``inflections`` (inflected form → base words,
    :mod:`ktr.english.inflection`) enables inflected matches; ``names`` are the words the output
    writes capitalized (:func:`ktr.english.tokens.capitalized_words`).
    """
    (chosen,) = match_lines([(targets, tokens, names)], matching, inflections)
    return chosen


def match_lines(
    lines: Sequence[Line],
    matching: Matching | Sequence[str] = ("exact",),
    inflections: dict[str, tuple[str, ...]] | None = None,
    budget: Budget | None = None,
) -> list[Matches]:
    """:func:`match_sentence` on several lines at once: each line matched and assigned, then the
    stages that complete the assignment (:meth:`ktr.matching.stage.Stage.complete`) given every
    line together, so that they can look up what they need for all of them in one go. With a
    ``budget``, each line's work within its time left (the module's docstring)."""
    if not isinstance(matching, Matching):
        matching = Matching(tuple(matching))
    steps = cascade(matching)
    views = [SentenceView(tokens, inflections, names) for _, tokens, names in lines]
    if budget is not None:
        return _limited(steps, lines, views, budget)
    found = [_assigned(steps, targets, v) for (targets, _, _), v in zip(lines, views)]
    if steps.completes:
        done = [(chosen, targets, v) for chosen, (targets, _, _), v in zip(found, lines, views)]
        for stage in steps.completes:
            stage.complete(done)
    return [Matches(chosen, v.refused) for chosen, v in zip(found, views)]


def _limited(steps: Cascade, lines: Sequence[Line], views: list[SentenceView], budget: Budget) -> list[Matches]:
    """:func:`match_lines` with each line's work within its time left (the module's docstring)."""
    found: list[dict[int, Candidate]] = []
    for i, ((targets, _, _), v) in enumerate(zip(lines, views)):
        try:
            found.append(budget.spend(i, partial(_assigned, steps, targets, v)))
        except TimedOut:
            found.append({})
    done = [(i, (chosen, targets, v)) for i, (chosen, (targets, _, _), v) in enumerate(zip(found, lines, views))]
    done = [(i, line) for i, line in done if not budget.ran_out(i)]
    if steps.completes and done:
        saved = [(dict(chosen), {k: list(r) for k, r in v.refused.items()}) for _, (chosen, _, v) in done]
        try:
            budget.together([i for i, _ in done], partial(_complete, steps, [line for _, line in done]))
        except TimedOut:  # which line ran out is found one at a time, from where they were
            for (i, line), (kept, refused) in zip(done, saved):
                chosen, _, v = line
                chosen.clear()
                chosen.update(kept)
                v.refused.clear()
                v.refused.update(refused)
                try:
                    budget.spend(i, partial(_complete, steps, [line]))
                except TimedOut:
                    pass  # the line is marked in the budget
    return [Matches({} if budget.ran_out(i) else chosen, v.refused) for i, (chosen, v) in enumerate(zip(found, views))]


def _complete(steps: Cascade, lines: list[tuple[dict[int, Candidate], Sequence[Targets], SentenceView]]) -> None:
    for stage in steps.completes:
        stage.complete(lines)


def _assigned(steps: Cascade, targets: Sequence[Targets], v: SentenceView) -> dict[int, Candidate]:
    """Every stage's candidates, refined, assigned; the marks placed."""
    tokens = v.tokens
    cands: dict[int, list[Candidate]] = {}
    marks: list[dict[int, list[Candidate]]] = [{} for _ in steps.marks]
    for k, t in enumerate(targets):
        found: list[Candidate] = []
        for stage in steps.stages:
            found += stage.propose(k, t, v)
        if t.endings:
            for marker, held in zip(steps.marks, marks):
                if mine := marker.marks(k, t, v):
                    held[k] = mine
        if found:
            cands[k] = found
    for refiner in steps.refines:
        refiner.refine(cands, targets, v)
    repeats = _set_aside_repeats(cands, targets)
    weights: dict[int, int] = {}
    for j, _ in repeats.values():
        weights[j] = weights.get(j, 1) + 1
    chosen = assign(cands, len(targets), len(tokens), weights)
    if repeats:
        _place_repeats(chosen, repeats, len(targets), len(tokens))
    for marker, held in zip(steps.marks, marks):
        marker.place(chosen, held, len(targets), len(tokens))
    return chosen


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


def match_in_pieces(
    line: Line,
    starts: Sequence[int],
    piece: int,
    matching: Matching | Sequence[str] = ("exact",),
    inflections: dict[str, tuple[str, ...]] | None = None,
) -> Matches:
    """:func:`match_sentence` for a line whose keywords reach past ``piece`` characters (``starts``:
    where each keyword starts in the line). The keywords of each stretch of ``piece`` characters,
    in line order, are matched against the output's tokens in the same proportion of the line
    (the keywords' extent, up to the last one's start), widened by a stretch's worth on each side,
    less the tokens an earlier stretch took (offered as ``_``, which no token is and nothing
    matches), so that each matching is about the size of a line of ``piece`` characters. A word
    the line repeats that its stretch left out shares its first occurrence's place, as in
    :func:`_place_repeats`."""
    targets, tokens, names = line
    if not targets:
        return Matches()
    stretches: dict[int, list[int]] = {}
    for k, start in enumerate(starts):
        stretches.setdefault(start // piece, []).append(k)
    per = len(tokens) * piece / max(max(starts) + 1, piece)  # tokens per stretch, in proportion
    taken: set[int] = set()
    chosen = Matches()
    for stretch, keywords in sorted(stretches.items()):
        low = max(0, math.floor((stretch - 1) * per))
        high = min(len(tokens), math.ceil((stretch + 2) * per))
        window = ["_" if i in taken else tokens[i] for i in range(low, high)]
        found = match_sentence([targets[k] for k in keywords], window, matching, inflections, names)
        for j, c in sorted(found.items()):
            k = keywords[j]
            chosen[k] = c._replace(keyword=k, start=c.start + low, end=c.end + low, rank=(*c.rank[:2], c.rank[2] + low))
            taken.update(range(c.start + low, c.end + low))
        for j, refusals in found.refused.items():
            chosen.refused.setdefault(keywords[j], []).extend(
                r._replace(keyword=keywords[j], start=r.start + low, end=r.end + low) for r in refusals
            )
    first: dict[Targets, int] = {}
    for k, t in enumerate(targets):  # a word the line repeats shares its first occurrence's place
        j = first.setdefault(t, k)
        if k not in chosen and j in chosen:
            chosen[k] = chosen[j]._replace(keyword=k)
    return chosen
