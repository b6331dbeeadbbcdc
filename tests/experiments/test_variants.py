"""The variant builders of the meta-evaluation, on small inputs, with the real WordNet."""

import random
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ktr.errors import InputError
from ktr.experiments import variants as V

GIFT = "He bought clothes and gave them to me as a gift."  # content: bought clothes gave gift


@pytest.fixture(scope="module")
def vocab():
    return V.Vocabulary()


def stems(text, vocab):
    return [w.stem for w in vocab.content_words(text)]


def test_words_keep_punctuation_out_and_possessives_apart():
    ws = V.words("The nation's five-minute walk, don't (stop).")
    assert [w.text for w in ws] == ["The", "nation's", "five-minute", "walk", "don't", "stop"]
    assert [w.stem for w in ws] == ["The", "nation", "five-minute", "walk", "don't", "stop"]


def test_content_words_follow_the_documented_rule(vocab):
    assert stems(GIFT, vocab) == ["bought", "clothes", "gave", "gift"]
    # function words, contractions, single letters and words WordNet lacks are not content
    assert stems("Here is the one I don't want, x.", vocab) == ["want"]
    assert stems("The Xqzt's well-known five-minute walk", vocab) == ["well-known", "five-minute", "walk"]


@pytest.mark.parametrize(
    "percent, n, dropped",
    [(25, 1, 0), (50, 1, 1), (75, 1, 1), (25, 2, 1), (50, 3, 2), (50, 4, 2), (75, 4, 3), (25, 10, 3)],
)
def test_drop_count_rounds_half_up(percent, n, dropped):
    assert V.drop_count(percent, n) == dropped


def test_drop50_removes_half_the_content_words_and_nothing_else(vocab):
    out = V.drop(GIFT, 50, random.Random(3), vocab)
    kept = stems(out, vocab)
    assert len(kept) == 2 and set(kept) < {"bought", "clothes", "gave", "gift"}
    function = [w.text for w in V.words(GIFT) if w.stem not in {"bought", "clothes", "gave", "gift"}]
    assert [w.text for w in V.words(out) if w.stem not in kept] == function
    assert out.endswith(".") and "  " not in out and not out.startswith(" ")


def test_drop_levels_are_nested(vocab):
    text = "The old farmer sold three brown cows and bought a new red tractor yesterday."
    levels = {p: set(stems(V.drop(text, p, V.line_rng(7, "drop", 0), vocab), vocab)) for p in (25, 50, 75)}
    assert levels[75] < levels[50] < levels[25] < set(stems(text, vocab))


def test_removing_the_first_word_removes_the_space_after_it():
    assert V._remove("Thank you.", 0, 5) == "you."
    assert V._remove("as a gift.", 5, 9) == "as a."


@pytest.mark.parametrize("n", range(2, 40))
def test_derangement_has_no_fixed_point(n):
    order = V.derangement(n, random.Random(n))
    assert sorted(order) == list(range(n))
    assert all(i != j for i, j in enumerate(order))


def test_mismatch_never_pairs_a_line_with_its_own_translation():
    lines = [f"sentence {i}" for i in range(25)]
    out = V.mismatch(lines, seed=1)
    assert sorted(out) == sorted(lines)
    assert all(a != b for a, b in zip(out, lines))
    assert V.mismatch(lines, seed=1) == out and V.mismatch(lines, seed=2) != out
    assert V.mismatch(["a", "b"], seed=5) == ["b", "a"]


def test_mismatch_of_one_line_is_a_clear_error():
    with pytest.raises(InputError, match="at least 2 lines"):
        V.mismatch(["only one"], seed=1)


@settings(max_examples=60, deadline=None)
@given(
    st.lists(st.sampled_from(["the", "cat", "sat", "on", "mat.", "a", "Cat,"]), min_size=1, max_size=12),
    st.integers(0, 1000),
)
def test_shuffle_keeps_the_tokens_and_changes_their_order(tokens, seed):
    text = " ".join(tokens)
    out = V.shuffle(text, random.Random(seed))
    assert sorted(out.split()) == sorted(tokens)
    assert (out != text) == (len(set(tokens)) > 1)


def test_numbers_changes_every_digit_sequence():
    text = "Room 314 on floor 3 cost 1,000 won in 1992 (07:05)."
    out = V.numbers(text, random.Random(0))
    before, after = re.findall(r"[0-9]+", text), re.findall(r"[0-9]+", out)
    assert [len(a) for a in after] == [len(b) for b in before]
    assert all(a != b for a, b in zip(after, before))
    assert re.sub(r"[0-9]", "#", out) == re.sub(r"[0-9]", "#", text)
    assert all(a[0] != "0" for a, b in zip(after, before) if b[0] != "0" and len(b) > 1)
    assert V.numbers("No digits here.", random.Random(0)) == "No digits here."


def test_synonym_replaces_a_word_by_a_wordnet_synonym(vocab):
    out = V.synonyms("I bought it.", vocab)
    assert out.startswith("I ") and out.endswith(" it.")
    new = out[2:-4]
    assert new.lower() != "bought"
    assert set(vocab.wn.synsets("bought")) & set(vocab.wn.synsets(new.replace(" ", "_")))


def test_synonym_keeps_names_possessives_and_words_without_synonyms(vocab):
    assert V.synonyms("Gordon", vocab) == "Gordon"
    out = V.synonyms("the nation's museum.", vocab)
    assert out.startswith("the ") and "'s museum." in out and "nation's" not in out
    assert vocab.synonym("museum") is None  # WordNet's only sense of museum has no other lemma
    assert vocab.synonym("seven") is None  # its lemmas are 7 and the Roman numeral vii
    assert vocab.synonym("children") not in ("child", "children")  # not an inflection of itself


def test_build_gives_every_variant_line_by_line_and_is_reproducible(vocab):
    refs = [GIFT, "The room on the third floor is room 314.", "Thank you for waiting."]
    glosses = [["gift"], ["room", "third", "floor"], []]
    out = V.build(refs, 1, vocab, glosses)
    assert list(out) == list(V.VARIANTS)
    assert out["true"] == refs and all(len(lines) == 3 for lines in out.values())
    assert V.build(refs, 1, vocab, glosses) == out
    assert out["salad"] == ["gift", "room third floor", ""]
    # each line followed by the line the mismatch variant put in its place
    assert out["addition"] == [f"{a} {b}" for a, b in zip(refs, out["mismatch"])]
    assert all(a.startswith(r) and a != r for a, r in zip(out["addition"], refs))
    with pytest.raises(InputError, match="2 lines of glosses for 3 references"):
        V.build(refs, 1, vocab, glosses[:2])
    assert out["numbers"][:1] + out["numbers"][2:] == [refs[0], refs[2]] and out["numbers"][1] != refs[1]
