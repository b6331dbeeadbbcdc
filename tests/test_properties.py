"""Case 12: properties of the score, checked on generated input with the real Kiwi and lexicon."""

import random

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from ktr import Scorer
from ktr.english.tokens import phrase, tokenize
from ktr.lexicon.constructions import GOVERNING
from ktr.matching.marks import ARTICLES
from ktr.sample import paths
from ktr.textio import read_lines

pytestmark = pytest.mark.filterwarnings("ignore::ktr.errors.InputWarning")
SETTINGS = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])

SENTENCES = read_lines(paths()["source"])
NOISE = ["", " ", "\x00", "\x1b[1m", "😀", "👨\u200d👩\u200d👧", "ㅋㅋ", "\u2028", "\ud800", "Seoul", "123", "韓國"]
ENGLISH = [
    "the",
    "a",
    "room",
    "key",
    "here",
    "is",
    "store",
    "department",
    "famous",
    "where",
    "floor",
    "thank",
    "you",
    "water",
    "station",
    "bought",
    "buy",
    "clothes",
    "gift",
    "tomorrow",
    "😀",
    "\x00",
]

sources = st.builds(
    lambda base, noise, where: base[: where % (len(base) + 1)] + noise + base[where % (len(base) + 1) :],
    st.sampled_from(SENTENCES + [""]),
    st.sampled_from(NOISE),
    st.integers(0, 200),
)
hypotheses = st.lists(st.sampled_from(ENGLISH), max_size=15).map(" ".join)


def one(scorer: Scorer, source: str, hypothesis: str):
    return scorer.score([source], [hypothesis]).systems[0].sentences[0]


@SETTINGS
@given(st.lists(st.tuples(sources, hypotheses), min_size=1, max_size=6))
def test_scores_are_in_range_and_one_result_per_line(scorer, pairs):
    src, hyp = [s for s, _ in pairs], [h for _, h in pairs]
    assume(any(s.strip() for s in src))
    system = scorer.score(src, {"mt": hyp}).systems[0]
    assert [s.index for s in system.sentences] == list(range(len(pairs)))
    for s in system.sentences:
        assert s.score is None or 0.0 <= s.score <= 1.0
        assert s.score is None or s.counted > 0
    assert system.ktr is None or 0.0 <= system.ktr <= 1.0


@SETTINGS
@given(st.lists(st.tuples(sources, hypotheses), min_size=2, max_size=5), st.data())
def test_a_line_scores_the_same_alone_and_among_other_lines(scorer, pairs, data):
    """Lines are independent: nothing of one line (its analysis, its output's words) reaches another."""
    i = data.draw(st.integers(0, len(pairs) - 1))
    assume(pairs[i][0].strip())
    among = scorer.score([s for s, _ in pairs], [h for _, h in pairs]).to_dict(sentences=True)
    alone = scorer.score([pairs[i][0]], [pairs[i][1]]).to_dict(sentences=True)
    segment = among["systems"][0]["segments"][i]
    assert segment["index"] == i and {**segment, "index": 0} == alone["systems"][0]["segments"][0]


@SETTINGS
@given(st.sampled_from(SENTENCES), st.data())
def test_invariant_to_word_order(scorer, source, data):
    """For single-word targets: with a multiword target (``department store``) order matters, so
    orders in which any multiword target occurs as a phrase are left out; so does the place of an
    article (그 "the" counts before its noun) and of a preposition that governs the noun of 에 대해,
    which are left out of the words drawn."""
    prepared = scorer.prepare([source])
    placed = ARTICLES.union(*GOVERNING.values())
    own = [w for t in prepared.targets[0] for e in t.equivalents if len(phrase(e)) == 1 for w in phrase(e)]
    drawn = [w for w in own + ENGLISH if w not in placed]
    words = data.draw(st.lists(st.sampled_from(drawn), max_size=15))
    shuffled = data.draw(st.permutations(words))
    multiword = [
        phrase(p) for t in prepared.targets[0] for p in (*t.equivalents, *t.synonyms, *t.idioms) if len(phrase(p)) > 1
    ]
    for order in (words, shuffled):
        tokens = tokenize(" ".join(order))
        assume(not any(tuple(tokens[i : i + len(m)]) == m for m in multiword for i in range(len(tokens))))
    a, b = one(scorer, source, " ".join(words)), one(scorer, source, " ".join(shuffled))
    assert (a.score, a.transferred) == (b.score, b.transferred)


@SETTINGS
@given(st.sampled_from(SENTENCES), hypotheses, st.randoms(use_true_random=False))
def test_adding_an_equivalent_of_a_missed_keyword_never_lowers_the_score(
    scorer, source, hypothesis, rnd: random.Random
):
    # an article is no such equivalent: it counts only before its noun (그 "the")
    before = one(scorer, source, hypothesis)
    missed = [k for k in before.keywords if not k.transferred and set(k.equivalents) - ARTICLES]
    assume(missed)
    keyword = rnd.choice(missed)
    after = one(scorer, source, f"{hypothesis} {rnd.choice([e for e in keyword.equivalents if e not in ARTICLES])}")
    assert after.score >= before.score
    assert after.transferred >= before.transferred + 1  # the new words are free for it
