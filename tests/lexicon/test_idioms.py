"""Idiom units: parsing, matching on the source surface, scoring as one unit."""

import pytest

from ktr import Config, Scorer
from ktr.errors import LexiconError
from ktr.korean.keywords import Keyword
from ktr.lexicon import idioms as idioms_module
from ktr.lexicon.idioms import IdiomTable
from ktr.resources import lexicons_dir


def table(tmp_path, text):
    p = tmp_path / "idioms.tsv"
    p.write_text(text, encoding="utf-8")
    return IdiomTable.from_files((str(p),))


def test_shipped_idioms_lint():
    idioms = IdiomTable.from_files(("idioms",))
    assert len(idioms) >= 50
    lines = [
        line
        for line in (lexicons_dir() / "idioms.tsv").read_text(encoding="utf-8").splitlines()
        if not line.startswith("#")
    ]
    assert lines == sorted(lines)


@pytest.mark.parametrize(
    "line, message",
    [
        ("예 손님", "expected 2 tab-separated columns"),
        ("예  손님\tyes sir", "NFC Hangul words separated by single spaces"),
        ("예 손님\tyes sir;", "empty or badly spaced"),
        ("yes\tyes", "NFC Hangul"),
    ],
)
def test_bad_lines_name_file_and_line(tmp_path, line, message):
    with pytest.raises(LexiconError, match=rf"idioms\.tsv:2: .*{message}"):
        table(tmp_path, "# ktr-idioms/1\n" + line + "\n")


def test_duplicate_idiom(tmp_path):
    with pytest.raises(LexiconError, match="duplicate idiom"):
        table(tmp_path, "예 손님\tyes sir\n예손님\tyes madam\n")


@pytest.mark.parametrize("searched", [0, 1000])  # pairs listed / openings searched for first
def test_apply_collapses_covered_keywords_longest_first(tmp_path, monkeypatch, searched):
    monkeypatch.setattr(idioms_module, "_SEARCHED_OPENINGS", searched)
    t = table(tmp_path, "감사\tthanks\n감사합니다\tthank you\n예 손님\tyes sir\n")
    text = "예, 손님. 감사합니다. 방"
    kws = [
        Keyword("손님", "NNG", "noun", 3, 5),
        Keyword("감사", "NNG", "noun", 7, 9),
        Keyword("방", "NNG", "noun", 14, 15),
    ]
    out, units = t.apply(text, kws)
    assert [(k.lemma, k.cls, k.start, k.end) for k in out] == [
        ("예 손님", "idiom", 0, 5),
        ("감사합니다", "idiom", 7, 12),
        ("방", "noun", 14, 15),
    ]
    assert units[1].english == ("thank you",)


def test_openings_searched_or_listed_find_the_same(monkeypatch):
    from ktr.sample import paths
    from ktr.textio import read_lines

    searched = IdiomTable.from_files(("idioms",))
    monkeypatch.setattr(idioms_module, "_SEARCHED_OPENINGS", 0)
    listed = IdiomTable.from_files(("idioms",))
    assert searched._any_opening is not None and listed._any_opening is None
    texts = read_lines(paths()["source"]) + [f"그는 '{i.korean}'라고 말했다." for i in searched.idioms]
    found = [searched.apply(text, [])[0] for text in texts]
    assert found == [listed.apply(text, [])[0] for text in texts]
    assert all(any(k.lemma == i.korean for k in f) for f, i in zip(found[-len(searched) :], searched.idioms))


def test_idiom_scored_as_one_unit(kiwi):
    scorer = Scorer(Config(matching=("exact", "idiom")), analyzer=kiwi)
    with_idioms = scorer.score(["예, 손님."], ["Yes, sir."]).systems[0].sentences[0]
    assert [(k.keyword.lemma, k.matched, k.how) for k in with_idioms.keywords] == [("예 손님", "yes sir", "idiom")]
    src, hyp = ["그 일은 식은 죽 먹기였다."], ["That job was a piece of cake."]
    plain = Scorer(Config(matching=("exact",)), analyzer=kiwi).score(src, hyp).systems[0].sentences[0]
    idiom = scorer.score(src, hyp).systems[0].sentences[0]
    # word by word (cooled, porridge, eating) nothing of the idiom transfers; as a unit it does
    assert {k.keyword.lemma for k in plain.keywords if not k.transferred} >= {"식다", "죽"}
    assert [(k.keyword.lemma, k.matched) for k in idiom.keywords if k.keyword.cls == "idiom"] == [
        ("식은 죽 먹기", "piece of cake")
    ]
    assert idiom.score > plain.score
    assert "idioms:idioms@" in scorer.signature.short()


@pytest.mark.parametrize(
    "source, output, unit, matched",
    [
        # a narrative "one day", however it is spaced, and the time of that day it names
        ("어느날, 그는 곰을 만났다.", "One day, he met a bear.", "어느 날", "one day"),
        ("어느 날 밤에 그는 떠났다.", "One night he left.", "어느 날 밤", "one night"),
        ("그것은 그 어느 때보다 중요하다.", "It is more important than ever.", "그 어느 때보다", "than ever"),
        # 꿈을 꾸다 is to dream, one meaning: 꿈 does not miss for want of a second "dream"
        ("그들 모두가 꿈을 꾸었다.", "They all were dreaming.", "꿈을 꾸", "dream"),
        # a noun and a verb that means nothing of its own there: neither 화 (anger) nor 나다
        # (come out) is in "got angry", 배 (belly) is not in "hungry"
        ("그는 화가 나서 문을 세게 닫았다.", "He got angry and slammed the door.", "화가 나", "angry"),
        ("배가 고파서 라면을 끓였다.", "I was hungry, so I cooked ramen.", "배가 고파", "hungry"),
        ("이 책은 한국어 공부에 큰 도움이 됐다.", "This book helped me a lot in studying Korean.", "도움이 됐", "help"),
        ("그는 잠을 잤다.", "He slept.", "잠을 잤", "sleep"),
        ("그 선수는 결승에서 고배를 마셨다.", "The player lost in the final.", "고배를 마셨", "lose"),
        # connectives and time phrases said by one English expression
        ("그럼에도 불구하고 그는 웃었다.", "Nevertheless, he smiled.", "그럼에도 불구하고", "nevertheless"),
        ("이에 따라 회의가 연기됐다.", "Accordingly, the meeting was postponed.", "이에 따라", "accordingly"),
        ("시간이 지나면서 둘은 친해졌다.", "Over time, the two became close.", "시간이 지나", "over time"),
        # a four-character idiom and a proverb, whole
        ("설상가상으로 눈까지 왔다.", "To make matters worse, it snowed.", "설상가상", "to make matters worse"),
        (
            "낮말은 새가 듣고 밤말은 쥐가 듣는다.",
            "Walls have ears.",
            "낮말은 새가 듣고 밤말은 쥐가 듣",
            "walls have ears",
        ),
    ],
)
def test_set_phrases_are_one_unit(kiwi, source, output, unit, matched):
    scorer = Scorer(Config(matching=("exact", "inflection", "idiom")), analyzer=kiwi)
    seg = scorer.score([source], [output]).systems[0].sentences[0]
    assert (unit, matched, "idiom") in [(k.keyword.lemma, k.matched, k.how) for k in seg.keywords], seg.keywords


def test_an_idiom_never_cuts_a_word(kiwi):
    scorer = Scorer(Config(matching=("exact", "idiom")), analyzer=kiwi)
    # 어느 날씨 "which weather" holds the letters of 어느 날 "one day", not the idiom
    (keywords,) = scorer.keywords(["어느 날씨가 더 좋니?"])
    assert [k.lemma for k in keywords][:2] == ["어느", "날씨"]
    # a predicate's endings are no word of their own: 마음에 드 stands in 마음에 드는; but a
    # longer stem is another word: 화가 나타났다 is "a painter appeared", not 화가 나 "get angry"
    (keywords,) = scorer.keywords(["그 모습이 마음에 드는 것 같다."])
    assert "마음에 드" in [k.lemma for k in keywords]
    (keywords,) = scorer.keywords(["유명한 화가 나타났다."])
    assert "나타나다" in [k.lemma for k in keywords] and not any(k.cls == "idiom" for k in keywords)


@pytest.mark.parametrize("kind", ["idioms", "periphrases"])
def test_a_table_that_is_not_utf8_or_not_a_file_is_one_error_naming_it(tmp_path, kind):
    # both tables were read with Path.read_text: bytes that are not UTF-8 were a traceback
    # (UnicodeDecodeError); they are read now as the lexicon is (ktr.lexicon.format.numbered_lines)
    from ktr.lexicon.periphrases import PeriphrasisTable

    reader = {"idioms": IdiomTable, "periphrases": PeriphrasisTable}[kind]
    bad = tmp_path / f"{kind}.tsv"
    bad.write_bytes(b"# ok\n\xff\xfe\tbad\n")
    with pytest.raises(LexiconError, match=rf"^{bad}:2: invalid UTF-8 at byte 0$"):
        reader.from_files((str(bad),))
    big = tmp_path / f"big-{kind}.tsv"
    with open(big, "wb") as fh:
        fh.truncate(300 * 2**20)  # past the bound on files read whole (sparse: no disk used)
    with pytest.raises(LexiconError, match=rf"^{big}: cannot read {kind}: larger than"):
        reader.from_files((str(big),))
