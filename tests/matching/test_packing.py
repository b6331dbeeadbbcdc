"""Matching time has a bound (docs/input-handling.md, "Matching time"): the assignment finds the
same assignment as the exhaustive search it replaces, for groups of any size, in polynomial time.

The search (ktr/matching/packing.py) is checked against a brute force on many small generated
instances, spans of one token and of several (phrases that cross other keywords' words among
them), with each way of bounding it; the whole assignment (ktr/matching/assignment.py: the
preferences, the groups, the swaps of the same size) against a brute force of its module doc;
and, where scipy is installed, the largest weight against scipy's assignment solver. Large
groups, which the earlier code matched greedily, get the largest assignment too. A line past
``max_chars`` is matched stretch by stretch."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from ktr import Config, Scorer
from ktr.english.tokens import tokenize
from ktr.matching.assignment import MAIN_SENSES, Candidate, assign, strength
from ktr.matching.cascade import match_sentence
from ktr.matching.packing import pack
from ktr.matching.registry import STAGES
from ktr.matching.targets import Targets

SETTINGS = settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])

# ---------------------------------------------------------------------------------------------
# the search: the first packing of largest weight


def first_largest(spans, weights):
    """By brute force: of the packings of largest weight, the first with each keyword's choice
    compared in order (its spans in order, left out last)."""
    best, best_weight = None, -1
    for choice in itertools.product(*(range(len(mine) + 1) for mine in spans)):
        taken: set[int] = set()
        weight = 0
        for mine, o, w in zip(spans, choice, weights):
            if o < len(mine):
                tokens = set(range(*mine[o]))
                if tokens & taken:
                    break
                taken |= tokens
                weight += w
        else:
            if weight > best_weight:
                best, best_weight = choice, weight
    return [o if o < len(mine) else -1 for mine, o in zip(spans, best)]


def is_packing(spans, picks):
    taken: set[int] = set()
    for mine, o in zip(spans, picks):
        if o >= 0:
            tokens = set(range(*mine[o]))
            if tokens & taken:
                return False
            taken |= tokens
    return True


def weight_of(weights, picks):
    return sum(w for w, o in zip(weights, picks) if o >= 0)


span = st.tuples(st.integers(0, 7), st.sampled_from([1, 1, 1, 2, 2, 3])).map(lambda s: (s[0], s[0] + s[1]))
instances = st.integers(1, 6).flatmap(
    lambda n: st.tuples(
        st.lists(st.lists(span, min_size=1, max_size=3), min_size=n, max_size=n),
        st.lists(st.integers(1, 3), min_size=n, max_size=n),
    )
)


@SETTINGS
@given(instances)
# a token freed where two keywords left out, of weights 1 and 3, could take it: the heavier must
@example(
    (
        [[(3, 5), (2, 4)], [(3, 5)], [(3, 4)], [(1, 3)], [(0, 3), (4, 6), (1, 2)], [(0, 2), (3, 5), (0, 2)]],
        [2, 1, 2, 3, 1, 1],
    )
)
# and a lighter one that can take it nearer than a heavier one
@example(
    (
        [
            [(1, 2), (2, 3), (3, 5)],
            [(2, 5), (1, 3)],
            [(0, 2), (2, 4), (5, 6)],
            [(4, 5), (2, 3), (2, 5)],
            [(4, 7), (0, 2), (4, 7)],
            [(0, 3), (2, 3)],
        ],
        [1, 3, 1, 1, 2, 3],
    )
)
def test_the_search_finds_the_first_packing_of_largest_weight(instance):
    spans, weights = instance
    assert pack(spans, weights, budget=10**9) == first_largest(spans, weights)


@SETTINGS
@given(
    st.integers(1, 4).flatmap(
        lambda n: st.tuples(
            st.lists(st.lists(span, min_size=1, max_size=3), min_size=n, max_size=n),
            st.lists(st.integers(1, 3), min_size=n, max_size=n),
        )
    )
)
def test_a_small_group_is_searched_to_the_end_within_the_budget(instance):
    # four keywords of three spans: at most 340 tries a target, 13 targets, within LEAST (5,000)
    spans, weights = instance
    assert pack(spans, weights) == first_largest(spans, weights)


@SETTINGS
@given(instances)
def test_with_phrases_bounded_by_one_token_the_backtracking_search_finds_it_too(instance):
    # no way of using the phrases counted: a phrase across other keywords' words counts as one of
    # its tokens, the bound is too high where phrases compete, and the search backtracks
    spans, weights = instance
    assert pack(spans, weights, ways=0, budget=10**6) == first_largest(spans, weights)


@SETTINGS
@given(instances)
def test_past_the_budget_the_keywords_are_placed_in_turn_on_a_packing(instance):
    spans, weights = instance
    picks = pack(spans, weights, ways=0, budget=0)
    assert is_packing(spans, picks)
    assert weight_of(weights, picks) <= weight_of(weights, first_largest(spans, weights))
    if all(e - s == 1 for mine in spans for s, e in mine):  # the bound is exact: no phrases
        assert picks == first_largest(spans, weights)


def test_phrases_across_other_words_are_placed_where_they_fit():
    # three keywords want "united states" (tokens 2-3) or "US" (tokens 0 and 5); "united" and
    # "states" are words of two other keywords as well, who have other places (6 and 7)
    spans = [
        [(2, 4), (0, 1), (5, 6)],
        [(2, 4), (0, 1), (5, 6)],
        [(2, 4), (0, 1), (5, 6)],
        [(2, 3), (6, 7)],  # unite
        [(3, 4), (7, 8)],  # state
    ]
    assert pack(spans, [1] * 5) == [0, 1, 2, 1, 1]
    assert pack(spans, [1] * 5, ways=0, budget=10**6) == [0, 1, 2, 1, 1]


def test_a_word_two_phrases_share_is_one_constraint():
    # "nuclear weapon" (0-1) and "nuclear arsenal" (4-5) for four keywords, "nuclear" (0, 4, 7)
    # for three others: weapon and arsenal are covered by the phrases alone, so each phrase is
    # bounded by its "nuclear"; two phrases and three nuclears fit, or three nuclears and one phrase
    phrase_keyword = [(0, 2), (4, 6)]
    nuclear = [(0, 1), (4, 5), (7, 8)]
    spans = [phrase_keyword] * 4 + [nuclear] * 3
    picks = pack(spans, [1] * 7)
    assert picks == first_largest(spans, [1] * 7) == [0, 1, -1, -1, 2, -1, -1]


@pytest.mark.parametrize("weights", [[1, 1, 1], [1, 1, 2], [2, 1, 1]])
def test_weights_decide_before_the_order(weights):
    # two keywords want token 0, a third token 0 or 1
    spans = [[(0, 1)], [(0, 1)], [(0, 1), (1, 2)]]
    assert pack(spans, weights) == first_largest(spans, weights)


def test_scipys_assignment_solver_finds_the_same_largest_weight():
    optimize = pytest.importorskip("scipy.optimize")
    np = pytest.importorskip("numpy")

    @SETTINGS
    @given(
        st.integers(1, 8).flatmap(
            lambda n: st.tuples(
                st.lists(st.lists(st.integers(0, 7), min_size=1, max_size=4), min_size=n, max_size=n),
                st.lists(st.integers(1, 4), min_size=n, max_size=n),
            )
        )
    )
    def check(instance):
        tokens, weights = instance
        spans = [[(t, t + 1) for t in mine] for mine in tokens]
        # keywords × (tokens, then a column of its own for each keyword: left out)
        cost = np.zeros((len(spans), 8 + len(spans)))
        for k, mine in enumerate(tokens):
            for t in mine:
                cost[k, t] = -weights[k]
        rows, cols = optimize.linear_sum_assignment(cost)
        assert weight_of(weights, pack(spans, weights)) == -cost[rows, cols].sum()

    check()


# ---------------------------------------------------------------------------------------------
# the assignment: preferences, groups and swaps, as the module doc says


def preference(c, keywords, tokens):
    near = abs((c.keyword + 0.5) / keywords - (c.start + 0.5) / tokens) if keywords and tokens else 0.0
    sense = MAIN_SENSES - 1 if c.how == "number" else min(c.rank[1], MAIN_SENSES)
    return strength(c.how), sense, near, c.rank, c.end, c.equivalent


def reference_assign(cands, keywords=0, tokens=0, weights=None):
    """The module doc by brute force: candidates in order of preference, keywords competing
    for tokens in groups, each group in order of its keywords' best candidates; of the
    assignments of largest weight the first in that order; then, while a keyword left out has a
    candidate whose tokens one keyword holds, no heavier, by a worse match, the first such one
    (in the group's order, then the candidate's) takes its place."""
    weights = weights or {}
    pref = {k: sorted(lst, key=lambda c: preference(c, keywords, tokens)) for k, lst in cands.items()}
    groups: list[set[int]] = []
    for k, lst in pref.items():
        mine = {t for c in lst for t in range(c.start, c.end)}
        joined = [g for g in groups if any(t in mine for j in g for c in pref[j] for t in range(c.start, c.end))]
        for g in joined:
            groups.remove(g)
        groups.append({k}.union(*joined))
    result = {}
    for group in groups:
        order = sorted(group, key=lambda k: (preference(pref[k][0], keywords, tokens), k))
        picks = first_largest([[(c.start, c.end) for c in pref[k]] for k in order], [weights.get(k, 1) for k in order])
        chosen = {k: pref[k][o] for k, o in zip(order, picks) if o >= 0}
        swapped = True
        while swapped:
            swapped = False
            owner = {t: k for k, c in chosen.items() for t in range(c.start, c.end)}
            for u in (u for u in order if u not in chosen):
                for c in pref[u]:
                    holders = {owner[t] for t in range(c.start, c.end) if t in owner}
                    if len(holders) == 1:
                        (k,) = holders
                        if weights.get(u, 1) >= weights.get(k, 1) and preference(c, keywords, tokens) < preference(
                            chosen[k], keywords, tokens
                        ):
                            del chosen[k]
                            chosen[u] = c
                            swapped = True
                            break
                if swapped:
                    break
        result.update(chosen)
    return result


@st.composite
def candidates(draw):
    n = draw(st.integers(1, 6))
    cands = {}
    for k in range(n):
        lst = []
        for _ in range(draw(st.integers(1, 3))):
            start = draw(st.integers(0, 7))
            end = start + draw(st.sampled_from([1, 1, 1, 2]))
            how = draw(st.sampled_from(sorted(n for n in STAGES if strength(n) < 8)))
            order = draw(st.integers(0, 4))
            lst.append(Candidate(k, f"e{order}", start, end, how, (draw(st.integers(0, 7)), order, start)))
        cands[k] = lst
    weights = {k: draw(st.integers(1, 3)) for k in range(n) if draw(st.booleans())}
    positions = draw(st.booleans())
    return cands, (n if positions else 0), (9 if positions else 0), weights


@SETTINGS
@given(candidates())
def test_the_assignment_is_its_module_doc(case):
    cands, keywords, tokens, weights = case
    expected = reference_assign({k: list(v) for k, v in cands.items()}, keywords, tokens, weights)
    assert assign(cands, keywords, tokens, weights) == expected


def test_a_keyword_swapped_out_takes_a_word_from_another_in_turn():
    # the search places A on its inflection (token 2), B on its synonym (3) and D on its idiom (0),
    # C left out: three of four either way. C's exact match takes 3 from B's synonym; B, left out
    # now, takes 2 from A's inflection by its number: the second swap needs the first
    a, b, c, d = 0, 1, 2, 3
    cands = {
        a: [Candidate(a, "x", 2, 4, "number", (0, 4, 2)), Candidate(a, "y", 2, 3, "inflection", (1, 2, 2))],
        b: [Candidate(b, "y", 2, 3, "number", (2, 3, 2)), Candidate(b, "z", 3, 4, "synonym", (0, 3, 3))],
        c: [Candidate(c, "z", 3, 4, "exact", (0, 4, 3))],
        d: [
            Candidate(d, "w", 0, 1, "idiom", (5, 1, 0)),
            Candidate(d, "y", 2, 3, "inflection", (2, 0, 2)),
            Candidate(d, "v", 4, 5, "synonym", (1, 4, 4)),
        ],
    }
    found = assign(cands)
    assert {k: (x.start, x.how) for k, x in found.items()} == {b: (2, "number"), c: (3, "exact"), d: (0, "idiom")}


# ---------------------------------------------------------------------------------------------
# large groups, which the earlier code matched greedily: the largest assignment as well


def fillers(count, shared):
    """Keywords that each have a word of their own and ``shared`` as a later sense: all in one group."""
    return [Targets((own(i), shared)) for i in range(count)]


def own(i):
    return "word" + "abcdefghijklmnop"[i]


def test_in_a_large_group_a_word_said_twice_outweighs_one_said_once():
    # 학생 (student) once and 제자 (pupil, student) twice want the one "student"; twelve more
    # keywords, each with a word of its own and "student" as a second sense, make a group of
    # fourteen. 제자 stands for two keywords: it takes "student", as it does in a small group
    # (test_match.py), and thirteen of the fifteen keywords are transferred, not fourteen
    student, pupil = Targets(("student",)), Targets(("pupil", "student"))
    targets = [student, pupil, pupil, *fillers(12, "student")]
    text = "a student " + " ".join(own(i) for i in range(12))
    chosen = match_sentence(targets, tokenize(text))
    assert {k: (c.equivalent, c.start) for k, c in chosen.items()} == {
        1: ("student", 1),
        2: ("student", 1),
        **{3 + i: (own(i), 2 + i) for i in range(12)},
    }


def test_in_a_large_group_a_word_moves_to_make_room_for_a_phrase():
    # paper (종이) takes its nearest "paper", the first, which "paper bag" (봉투) needs; the second
    # "paper" is free: paper moves there and both are transferred. Twelve more keywords, with
    # "bag" as a second sense, make a group of fourteen
    targets = [Targets(("paper",)), Targets(("paper bag",)), *fillers(12, "bag")]
    text = "paper bag " + " ".join(own(i) for i in range(12)) + " paper"
    chosen = match_sentence(targets, tokenize(text))
    assert {k: (c.equivalent, c.start, c.end) for k, c in chosen.items()} == {
        0: ("paper", 14, 15),
        1: ("paper bag", 0, 2),
        **{2 + i: (own(i), 2 + i, 3 + i) for i in range(12)},
    }


# ---------------------------------------------------------------------------------------------
# a line past max_chars: analysed in pieces, matched in pieces

#: 학생이 왔다 (a student came) at the start, 열쇠를 샀다 (bought a key) 257 characters on
FAR_APART = "학생이 왔다." + " " * 250 + "열쇠를 샀다."


def matched(scorer, source, output):
    (sentence,) = scorer.score([source], [output]).systems[0].sentences
    return [(r.keyword.lemma, r.matched, r.span) for r in sentence.keywords]


def test_a_line_past_max_chars_is_matched_stretch_by_stretch(kiwi):
    # max_chars 100: the keywords of characters 0-99 are matched against the first part of the
    # output (in proportion, widened by a stretch's worth on each side), those of 200-299 against
    # its last part; a translation whose halves come in the other order transfers nothing
    pieces = Scorer(Config(max_chars=100), analyzer=kiwi)
    in_order = "The student came . " + "la " * 15 + "I bought a key ."
    assert matched(pieces, FAR_APART, in_order) == [
        ("학생", "student", (1, 2)),
        ("오다", "come", (2, 3)),
        ("열쇠", "key", (21, 22)),
        ("사다", "buy", (19, 20)),
    ]
    swapped = "I bought a key . " + "la " * 15 + "The student came ."
    assert matched(pieces, FAR_APART, swapped) == [
        ("학생", None, None),
        ("오다", None, None),
        ("열쇠", None, None),
        ("사다", None, None),
    ]
    # under max_chars (2000) the line is one matching
    whole = Scorer(Config(), analyzer=kiwi)
    assert matched(whole, FAR_APART, swapped) == [
        ("학생", "student", (20, 21)),
        ("오다", "come", (21, 22)),
        ("열쇠", "key", (3, 4)),
        ("사다", "buy", (1, 2)),
    ]


def test_a_word_repeated_in_another_stretch_shares_its_first_place(kiwi):
    # 학생 in the first stretch and again in the third, one "student" in the middle of the output:
    # the first takes it, and the second, whose stretch finds it taken, shares it, as a word the
    # source repeats does in one matching
    pieces = Scorer(Config(max_chars=100), analyzer=kiwi)
    source = "학생이 왔다." + " " * 250 + "학생이 갔다."
    output = "la " * 10 + "The student came and went ." + " la" * 10
    assert matched(pieces, source, output) == [
        ("학생", "student", (11, 12)),
        ("오다", "come", (12, 13)),
        ("학생", "student", (11, 12)),
        ("가다", "go", (14, 15)),
    ]


def test_a_word_an_earlier_stretch_took_is_not_offered_again(kiwi, tmp_path):
    # 학생 (student) in the first stretch and 제자 (pupil, student) in the third, one "student" in
    # the middle of the output, in both stretches' windows: 학생 takes it, and 제자, another
    # entry, does not get it a second time
    lexicon = tmp_path / "students.tsv"
    lexicon.write_text(
        "# ktr-lexicon/1\n학생\tnoun\tstudent\n제자\tnoun\tpupil;student\n오다\tverb\tcome\n가다\tverb\tgo\n",
        encoding="utf-8",
    )
    pieces = Scorer(Config(lexicons=(str(lexicon),), max_chars=100), analyzer=kiwi)
    source = "학생이 왔다." + " " * 250 + "제자가 갔다."
    output = "la " * 10 + "The student came and went ." + " la" * 10
    assert matched(pieces, source, output) == [
        ("학생", "student", (11, 12)),
        ("오다", "come", (12, 13)),
        ("제자", None, None),
        ("가다", "go", (14, 15)),
    ]
