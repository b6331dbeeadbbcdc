"""The one-to-one assignment's preferences (ktr/matching/assignment.py's docstring), each on a
case where it alone decides: a strong match over a near one, a near place over the leftmost,
the equivalent listed first over the alphabetically first, and augmenting chains in groups of
more than twelve keywords (matched greedily before the search became polynomial)."""

import pytest

from ktr import Config, Scorer
from ktr.english.tokens import tokenize
from ktr.matching.assignment import Candidate, assign
from ktr.matching.cascade import match_sentence
from ktr.matching.targets import Targets

#: more keywords in a group than the exhaustive search took (those were matched greedily)
EXACT_LIMIT = 12


def chosen(targets, text, stages=("exact",)):
    found = match_sentence(targets, tokenize(text), stages)
    return {k: (c.equivalent, c.start, c.how) for k, c in found.items()}


def test_a_strong_match_wins_over_a_nearer_weak_one():
    # "bear" is the last word: nearer to the second keyword (wear, by a WordNet synonym) than to
    # the first (bear, as written); strength decides before nearness
    targets = [Targets(("bear",)), Targets(("wear",), synonyms=("bear",))]
    assert chosen(targets, "that is a bear", ("exact", "synonym")) == {0: ("bear", 3, "exact")}


def test_a_near_place_wins_over_the_leftmost():
    # the second of two keywords: of two "buy", the one at the end of the output is nearer
    assert chosen([Targets(("come",)), Targets(("buy",))], "buy it and come and buy") == {
        0: ("come", 3, "exact"),
        1: ("buy", 5, "exact"),
    }


def test_equally_near_the_equivalent_listed_first_wins():
    # purchase (listed first) and buy are equally far from the middle: the lexicon's order decides
    assert chosen([Targets(("purchase", "buy"))], "buy purchase") == {0: ("purchase", 1, "exact")}


def candidate(keyword, token, how="exact", order=0):
    return Candidate(keyword, f"w{token}", token, token + 1, how, (0, order, token))


def test_without_positions_the_strength_then_the_rank_decides():
    # keywords and tokens not given (0): no nearness, and nothing divides by them
    cands = {0: [candidate(0, 2, "synonym"), candidate(0, 1, "inflection"), candidate(0, 0, "inflection", order=1)]}
    assert assign(cands)[0].start == 1
    cands = {0: [candidate(0, 1), candidate(0, 0)], 1: [candidate(1, 1)]}
    assert {k: c.start for k, c in assign(cands, keywords=2).items()} == {0: 0, 1: 1}


@pytest.mark.parametrize(
    "weaker, stronger",
    [
        ("transliteration", "synonym"),
        ("synonym", "idiom"),
        ("idiom", "derivation"),
        ("construction", "derivation"),
        ("derivation", "inflection"),
        ("inflection", "exact"),
        ("inflection", "number"),
    ],
)
def test_the_strength_order_of_the_stages(weaker, stronger):
    cands = {0: [candidate(0, 0, weaker), candidate(0, 1, stronger, order=1)]}
    assert assign(cands)[0].how == stronger


def test_a_group_over_the_exact_limit_is_matched_by_augmenting_chains():
    # keyword i (i < n - 1) may take token i or i + 1; the last keyword only token 0. Placed in
    # preference order, each keyword first takes token i and has to be moved on to i + 1
    n = EXACT_LIMIT + 1
    cands = {i: [candidate(i, i), candidate(i, i + 1)] for i in range(n - 1)}
    cands[n - 1] = [candidate(n - 1, 0)]
    found = assign(cands)
    assert {k: c.start for k, c in found.items()} == {n - 1: 0, **{i: i + 1 for i in range(n - 1)}}


def test_a_greedy_group_leaves_out_only_what_cannot_match():
    # two keywords want only token 0: one of them stays unmatched, every other keyword keeps its own
    n = EXACT_LIMIT + 2
    cands = {i: [candidate(i, 0), candidate(i, i)] for i in range(1, n)}
    cands[0] = [candidate(0, 0)]
    cands = dict(sorted(cands.items()))
    found = assign(cands)
    assert {k: c.start for k, c in found.items()} == {0: 0, **{i: i for i in range(1, n)}}
    cands[n] = [candidate(n, 0)]
    found = assign(cands)
    assert len(found) == n and sorted(c.start for c in found.values()) == list(range(n))


def test_a_large_group_follows_an_augmenting_chain_two_keywords_deep():
    # o sits on token 0 and p on token 1; k can take only token 0 or token 50, which z needs: to
    # place all, o moves to token 1, which moves p to token 2. Eleven more keywords, each with a
    # token of its own and token 50, make the group larger than EXACT_LIMIT. (Without z, o keeps
    # its first token and k takes 50: placing all keywords either way, the first keyword keeps
    # its first choice)
    o, p, k, z = 0, 1, 2, 3
    cands = {
        o: [candidate(o, 0), candidate(o, 1)],
        p: [candidate(p, 1), candidate(p, 2)],
        k: [candidate(k, 0, order=1), candidate(k, 50, order=1)],  # placed after o and p
        z: [candidate(z, 50, order=2)],
    }
    fillers = range(4, 4 + EXACT_LIMIT - 1)
    cands.update({f: [candidate(f, 10 + f), candidate(f, 50)] for f in fillers})
    found = assign(cands)
    assert {n: c.start for n, c in found.items()} == {o: 1, p: 2, k: 0, z: 50, **{f: 10 + f for f in fillers}}
    del cands[z]
    found = assign(cands)
    assert {n: c.start for n, c in found.items()} == {o: 0, p: 1, k: 50, **{f: 10 + f for f in fillers}}


def test_the_search_gives_up_a_first_choice_that_blocks_another_keyword(kiwi, tmp_path):
    # 가방 (bag; case) takes "bag" first, as listed first, which leaves 봉투 (bag) nothing; only the
    # search over the whole group finds the assignment of all three: 가방 "case", 봉투 "bag",
    # 상자 (box; case) "box". A bound on what the keywords still to place can add that is too low
    # stops the search at the first assignment found (two of three)
    lexicon = tmp_path / "bags.tsv"
    lexicon.write_text(
        "# ktr-lexicon/1\n가방\tnoun\tbag;case\n봉투\tnoun\tbag\n상자\tnoun\tbox;case\n", encoding="utf-8"
    )
    scorer = Scorer(Config(lexicons=(str(lexicon),), matching=("exact",)), analyzer=kiwi)
    report = scorer.score(["가방과 봉투와 상자."], {"out": ["the bag and the case and the box"]})
    (sentence,) = report.systems[0].sentences
    assert [(r.keyword.lemma, r.matched) for r in sentence.keywords] == [
        ("가방", "case"),
        ("봉투", "bag"),
        ("상자", "box"),
    ]
    assert sentence.score == 1.0


def test_a_repeated_word_placed_first_keeps_its_place_against_weaker_matches():
    # the first keyword, said twice (weight 2), matches "paper bag" as written; the second and
    # third only by WordNet synonyms, one word each. Both choices transfer two keywords; the
    # strong match is placed first and kept (the module doc). The search must undo the weight of
    # two it added, or the weaker pair looks larger and wins
    targets = [
        Targets(("paper bag",)),
        Targets(("sheet",), synonyms=("paper",)),
        Targets(("sack",), synonyms=("bag",)),
        Targets(("paper bag",)),
    ]
    assert chosen(targets, "a paper bag", ("exact", "synonym")) == {
        0: ("paper bag", 1, "exact"),
        3: ("paper bag", 1, "exact"),
    }


def test_of_two_assignments_of_one_size_a_first_sense_takes_the_word_from_a_later_one():
    # 금융 (finance; ...; loan and fund as later senses) and 자금 (fund) both want "fund"; 대출
    # (loan) wants "loans", inflected. Two keywords transfer either way. Placed in order of
    # preference (the strongest first: 자금 and 금융 by "fund" as written, then 대출), 자금 takes
    # "fund" and 금융 its later sense "loans", which leaves 대출 out. A swap of the same size gives
    # "loans" to the keyword whose first sense it is: the explanation names 대출, not 금융
    targets = [
        Targets(("finance", "financial", "bank", "banking", "loan", "fund")),
        Targets(("fund",)),
        Targets(("loan",)),
    ]
    found = match_sentence(targets, tokenize("a fund and loans"), ("exact", "inflection"), {"loans": ("loan",)})
    assert {k: (c.equivalent, c.start, c.how) for k, c in found.items()} == {
        1: ("fund", 1, "exact"),
        2: ("loan", 3, "inflection"),
    }


def test_the_first_sense_swap_on_the_real_sentence(kiwi):
    scorer = Scorer(Config(), analyzer=kiwi)
    report = scorer.score(
        ["구제금융 자금과 긴급대출을 받을 수 있다."], ["It can get a bailout fund and emergency loans."]
    )
    found = {r.keyword.lemma: r.matched for r in report.systems[0].sentences[0].keywords}
    assert (found["금융"], found["자금"], found["대출"]) == (None, "fund", "loan")
