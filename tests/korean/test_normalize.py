"""Source normalization: one spelling for the analyzers, offsets back into the user's text."""

import unicodedata

import pytest

from ktr.korean.normalize import normalize_source

SENTENCE = "그 사람이 옷을 사서 저한테 선물로 줬어요."


@pytest.mark.parametrize(
    "given, expected",
    [
        (SENTENCE, SENTENCE),  # plain: untouched
        (unicodedata.normalize("NFD", SENTENCE), SENTENCE),  # NFD Hangul composed
        ("ㅂㅏㅇ ㅇㅕㄹㅅㅚ", "방 열쇠"),  # compatibility jamo spelling
        ("ㄷㅏㄺ ㄱㅏㅄ", "닭 값"),  # compound finals
        ("ㅋㅋㅋ ㅠㅠ ㅇㅋ", "ㅋㅋㅋ ㅠㅠ ㅇㅋ"),  # jamo that spell no syllable stay
        ("\u110f\u110f\u110f", "ㅋㅋㅋ"),  # leftover conjoining jamo -> compatibility
        ("가\u11a8", "각"),  # syllable + conjoining final
        ("방\t열쇠", "방 열쇠"),  # tab is whitespace
        ("방\u2028열쇠\u00a0여기\u3000끝", "방 열쇠 여기 끝"),  # other whitespace
        ("백화\u00ad점\u200b에\ufeff", "백화점에"),  # invisible format characters
        ("가족 👨\u200d👩\u200d👧 ❤\ufe0f 1\ufe0f\u20e3", "가족" + " " * 8 + "1" + " " * 2),  # emoji (ZWJ removed)
        ("ＫＴＸ １２３", "KTX 123"),  # full-width ASCII
        ("韓國 Seoul", "韓國 Seoul"),  # other scripts kept
        ("\x1b[1;31m314\x1b[0m호실", "314호실"),  # terminal colour codes removed
    ],
)
def test_one_spelling(given, expected):
    assert normalize_source(given).text == expected


@pytest.mark.parametrize(
    "given, reported",
    [
        ("방\x00열쇠", "U+0000 NUL"),
        ("a\x1b가", "U+001B ESC"),  # an ESC that starts no sequence (ESC b would be one: removed whole)
        ("a\x0bb\x0cc\x1cd\x85e", "U+000B, U+000C, U+001C, U+0085"),
        ("a\ud800b\udc80", "surrogate ×2"),
    ],
)
def test_controls_and_surrogates_become_spaces_and_are_reported(given, reported):
    n = normalize_source(given)
    assert len(n.text) == len(given) and not any(unicodedata.category(c) in ("Cc", "Cs") for c in n.text)
    assert reported in n.warning()


def test_a_terminal_colour_code_is_reported_once_as_its_escape():
    assert normalize_source("\x1b[1;31m314\x1b[0m").warning().endswith("(U+001B ESC ×2)")


def test_nothing_is_reported_for_ordinary_text():
    for text in (SENTENCE, "방\t열쇠", unicodedata.normalize("NFD", SENTENCE), "ㅂㅏㅇ 😀"):
        assert normalize_source(text).warning() is None


@pytest.mark.parametrize(
    "given, start, end, expected",
    [
        (unicodedata.normalize("NFD", "그 사람이"), 2, 4, unicodedata.normalize("NFD", "사람")),
        ("ㅂㅏㅇ ㅇㅕㄹㅅㅚ", 2, 4, "ㅇㅕㄹㅅㅚ"),
        ("백화\u00ad점\u200b에", 0, 3, "백화\u00ad점"),
        ("\ufeff\ufeff방 열쇠", 2, 4, "열쇠"),
    ],
)
def test_offsets_map_back_to_the_given_text(given, start, end, expected):
    n = normalize_source(given)
    a, b = n.original_span(start, end)
    assert given[a:b] == expected


def test_offsets_of_an_unchanged_line_are_the_same():
    n = normalize_source(SENTENCE)
    assert n.original_span(2, 5) == (2, 5) and n.spans == ()
