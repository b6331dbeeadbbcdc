"""english.token_spans: where each token of tokenize() stands in the original text."""

from hypothesis import given, settings
from hypothesis import strategies as st

from ktr.english.tokens import token_spans, tokenize


def test_spans_by_hand():
    text = "The U.S. team won 1,000 dollars at the café — ﬁne!"
    spans = token_spans(text)
    assert [text[a:b] for a, b in spans] == [
        "The",
        "U.S.",
        "team",
        "won",
        "1,000",
        "dollars",
        "at",
        "the",
        "café",
        "ﬁne",
    ]
    assert len(spans) == len(tokenize(text))


def test_currency_and_percent_signs_are_their_words():
    text = "It costs $5, up 3%."
    assert tokenize(text) == ("it", "costs", "dollar", "5", "up", "3", "percent")
    assert [text[a:b] for a, b in token_spans(text)] == ["It", "costs", "$", "5", "up", "3", "%"]


def test_combining_marks_stay_with_their_letter():
    text = "cafe\u0301 noir"
    assert [text[a:b] for a, b in token_spans(text)] == ["cafe\u0301", "noir"]


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=st.sampled_from(list("abcXYZ .,-'’123éü\u0301ﬁß U.S.\t$%€")), max_size=40))
def test_spans_cover_exactly_the_tokens(text):
    spans = token_spans(text)
    if spans is None:  # allowed only where per-character normalisation differs
        return
    assert len(spans) == len(tokenize(text))
    assert all(0 <= a < b <= len(text) for a, b in spans)
    assert all(b1 <= a2 for (_, b1), (a2, _) in zip(spans, spans[1:]))
    for (a, b), token in zip(spans, tokenize(text)):
        assert tokenize(text[a:b]) == (token,)


@settings(max_examples=200, deadline=None)
@given(
    st.lists(
        st.sampled_from(
            ["hotel", "Room", "key", "U.S.", "1,000", "12.5", "don't", "well-known", "naïve", "$300", "5%", "₩1,000"]
        ),
        max_size=12,
    )
)
def test_ordinary_text_always_gets_spans(words):
    text = " ".join(words) + "."
    assert token_spans(text) is not None
