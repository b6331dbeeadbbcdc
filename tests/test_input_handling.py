"""The input cases of docs/input-handling.md, one or more tests each, with the real analyzers.

Cases 1, 3 and 4 are also covered in cli/test_main.py and test_textio.py; case 10 is in
scoring/test_preflight.py, case 11 in execution/test_concurrency.py, case 12 in test_properties.py.
"""

import json
import threading
import unicodedata
import warnings

import pytest

from ktr import Config, Scorer
from ktr.errors import InputError, InputWarning
from ktr.korean.guard import analyze_lines
from ktr.korean.normalize import normalize_source
from ktr.reports.formats import as_text
from tests.cli.test_main import assert_clean_error, ktr
from tests.conftest import analyzer, requires_java, write
from tests.korean.test_analyzers import params

SOURCE = ["방 열쇠 여기 있습니다.", "삼 층 방은 314호실입니다.", "제일 유명한 백화점이 어디에요?"]
OUTPUT = ["Here is the room key.", "The room is on the third floor.", "Where is the most famous department store?"]


def segments(scorer, sources, outputs=None, **kw):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", InputWarning)
        report = scorer.score(sources, outputs or [""] * len(sources), **kw)
    return report.to_dict(sentences=True)["systems"][0]["segments"], report


def lemmas(segment):
    return [k["lemma"] for k in segment["keywords"]]


# 1. line-count mismatch ----------------------------------------------------------------------


def test_1_mismatch_in_the_api_names_both_counts(scorer):
    with pytest.raises(InputError, match="source has 3 lines, b has 2; nothing was scored"):
        scorer.score(SOURCE, {"a": OUTPUT, "b": OUTPUT[:2]})


def test_1_mismatch_in_the_cli_scores_nothing(tmp_path):
    src, hyp = write(tmp_path / "s.ko", "\n".join(SOURCE) + "\n"), write(tmp_path / "h.en", "one\ntwo\n")
    assert_clean_error(ktr("score", "-s", src, "-t", hyp), "s.ko has 3 lines", "h.en has 2")


# 2. only \n ends a line ----------------------------------------------------------------------

SEPARATORS = ["\u2028", "\u2029", "\x0b", "\x0c", "\x1c", "\x1d", "\x1e", "\x85"]


@pytest.mark.parametrize("name", ["kiwi", "mecab", pytest.param("hannanum", marks=requires_java)])
def test_2_other_separators_stay_inside_the_line_and_both_sides_are_analysed(tmp_path, name):
    # Hannanum 0.8.4 drops "방" from "방\u2028열쇠" and everything after \x0b when given them raw
    lines = [f"방{sep}열쇠" for sep in SEPARATORS]
    src = write(tmp_path / "s.ko", "\n".join(lines) + "\n")
    hyp = write(tmp_path / "h.en", "room key\n" * len(lines))
    proc = ktr("score", "-s", src, "-t", hyp, "-a", name, "-f", "json", "--sentences")
    assert proc.returncode == 0, proc.stderr
    segs = json.loads(proc.stdout)["systems"][0]["segments"]
    assert len(segs) == len(lines) == src.read_bytes().count(b"\n")  # as wc -l counts
    assert all(lemmas(s) == ["방", "열쇠"] and s["score"] == 1.0 for s in segs)


# 3. CRLF and byte-order marks ----------------------------------------------------------------


def test_3_crlf_bom_and_a_bom_inside_a_line_score_like_the_clean_file(tmp_path):
    clean_src, clean_hyp = (
        write(tmp_path / "s.ko", "\n".join(SOURCE) + "\n"),
        write(tmp_path / "h.en", "\n".join(OUTPUT) + "\n"),
    )
    # a BOM inside a line is what concatenating BOM files gives; Komoran reads "\ufeff방" as a name
    dirty_src = write(tmp_path / "d.ko", "\ufeff" + "\r\n".join("\ufeff" + s for s in SOURCE) + "\r\n")
    dirty_hyp = write(tmp_path / "d.en", "\ufeff" + "\r\n".join(OUTPUT) + "\r\n")
    a = json.loads(ktr("score", "-s", clean_src, "-t", clean_hyp, "-f", "json", "--sentences").stdout)["systems"][0]
    b = json.loads(ktr("score", "-s", dirty_src, "-t", dirty_hyp, "-f", "json", "--sentences").stdout)["systems"][0]
    for seg in b["segments"]:  # offsets refer to the given line, one BOM further on
        for k in seg["keywords"]:
            k["start"] -= 1
            k["end"] -= 1
    a.pop("name"), b.pop("name")
    assert a == b


# 4. invalid UTF-8 ----------------------------------------------------------------------------


@pytest.mark.parametrize("role", ["-s", "-r"])
def test_4_invalid_utf8_in_source_or_reference(tmp_path, role):
    good_src, hyp = write(tmp_path / "s.ko", "방\n열쇠\n"), write(tmp_path / "h.en", "room\nkey\n")
    bad = tmp_path / "bad.txt"
    bad.write_bytes(b"\xed\x95\x9c\n\xea\xb8\x80\xff\n")  # line 2: a valid syllable, then 0xff
    args = ["-s", bad, "-t", hyp] if role == "-s" else ["-s", good_src, "-t", hyp, "-r", bad]
    assert_clean_error(ktr("score", *args), "bad.txt:2: invalid UTF-8 at byte 3", "0xff")


# 5. NUL and other control characters ---------------------------------------------------------


def test_5_mecab_no_longer_stops_at_a_nul(scorer):
    # mecab-ko 1.0.3 returns only 방, 열쇠 for "방 열쇠\x00 여기 있습니다" (it stops at the NUL)
    mecab = Scorer(Config(analyzer="mecab"), analyzer=analyzer("mecab"))  # skipped without mecab-ko
    segs, report = segments(mecab, ["방 열쇠\x00 여기 있습니다"])
    assert lemmas(segs[0]) == ["방", "열쇠", "여기", "있다"]
    assert report.warnings == ["source:1: cleaned 1 control or surrogate character(s) before analysis (U+0000 NUL)"]


def test_5_a_run_keeps_its_first_warnings_and_counts_the_rest(scorer, monkeypatch):
    # a run keeps KEPT_WARNINGS warnings, so that its memory stays flat however many lines warn;
    # the others are counted in the report, the JSON and one last warning
    monkeypatch.setattr("ktr.scoring.scorer.KEPT_WARNINGS", 2)
    sources = [f"방 열쇠\x00 {n}개 여기 있습니다" for n in range(5)]
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", InputWarning)
        report = scorer.score(sources, ["Here is the room key."] * 5, source_name="s.ko")
    cleaned = "cleaned 1 control or surrogate character(s) before analysis (U+0000 NUL)"
    assert report.warnings == [f"s.ko:1: {cleaned}", f"s.ko:2: {cleaned}"]
    assert report.warnings_not_kept == 3
    doc = report.to_dict()
    assert (doc["warnings"], doc["warnings_not_kept"]) == (report.warnings, 3)
    assert [str(w.message) for w in caught] == [
        *report.warnings,
        "3 more input warnings not kept (a run keeps its first 2; a line not scored also says why in its "
        "sentence's 'failed')",
    ]
    # every line is scored all the same, and a run under the limit has no count in its JSON
    assert len(report.systems[0].sentences) == 5 and all(s.score is not None for s in report.systems[0].sentences)
    assert "warnings_not_kept" not in segments(scorer, sources[:2])[1].to_dict()


def test_5_controls_warn_with_file_and_line_and_do_not_change_scores(tmp_path):
    src = write(tmp_path / "s.ko", "\n".join([SOURCE[0], "삼 층\x1b[0m 방은\x01 314호실입니다.\x7f", SOURCE[2]]) + "\n")
    clean = write(tmp_path / "c.ko", "\n".join(SOURCE) + "\n")
    hyp = write(tmp_path / "h.en", "\n".join(OUTPUT) + "\n")
    proc = ktr("score", "-s", src, "-t", hyp, "-f", "json")
    assert proc.returncode == 0
    assert proc.stderr == (
        f"ktr: warning: {src}:2: cleaned 3 control or surrogate character(s) "
        "before analysis (U+0001, U+001B ESC, U+007F DEL)\n"
    )
    doc = json.loads(proc.stdout)
    assert doc["warnings"] == [proc.stderr[len("ktr: warning: ") :].strip()]
    clean_doc = json.loads(ktr("score", "-s", clean, "-t", hyp, "-f", "json").stdout)
    assert doc["systems"][0]["ktr"] == clean_doc["systems"][0]["ktr"]


@requires_java
def test_5_hannanum_does_not_hang_on_control_only_lines(hannanum):
    # Hannanum 0.8.4 never returns from analysing "\x01" or "\x00" (nor " ", which ktr skips)
    scorer = Scorer(Config(analyzer="hannanum"), analyzer=hannanum)
    done = []
    worker = threading.Thread(
        target=lambda: done.append(segments(scorer, ["\x01", "\x00\x00", "방 열쇠\x00"])[0]), daemon=True
    )
    worker.start()
    worker.join(60)
    assert done, "Hannanum did not return within 60 s"
    assert [lemmas(s) for s in done[0]] == [[], [], ["방", "열쇠"]]


def test_5_many_warnings_are_shown_up_to_a_limit(tmp_path):
    src = write(tmp_path / "s.ko", "방\x00\n" * 25)
    hyp = write(tmp_path / "h.en", "room\n" * 25)
    proc = ktr("score", "-s", src, "-t", hyp)
    lines = proc.stderr.splitlines()
    assert proc.returncode == 0 and len(lines) == 21
    assert lines[-1].startswith("ktr: warning: 5 more warnings not shown")


# 6. empty lines, no content word, empty outputs, empty corpus ---------------------------------


def test_6_empty_lines_and_outputs_have_defined_results_and_counts(scorer):
    sources = ["방 열쇠", "", "   ", "네.", "방 열쇠"]
    outputs = ["room key", "anything", "", "Yes.", "  "]
    segs, report = segments(scorer, sources, outputs)
    assert [s["score"] for s in segs] == [1.0, None, None, None, 0.0]
    summary = report.systems[0].summary()
    assert (
        summary["sentences"],
        summary["sentences_without_keywords"],
        summary["hypotheses_empty"],
        summary["sentences_failed"],
    ) == (5, 3, 2, 0)
    assert summary["ktr"] == 0.5


def test_6_a_corpus_without_text_is_an_error(scorer, tmp_path):
    with pytest.raises(InputError, match="source has 3 line.* but none with text"):
        scorer.score(["", " ", "\t"], ["a", "b", "c"])
    src = write(tmp_path / "blank.ko", "\n \n")
    assert_clean_error(ktr("score", "-s", src, "-t", src), "blank.ko has 2 line(s) but none with text")


# 7. long lines, repeated syllables, jamo runs; analyzer failures -----------------------------

#: a run of ㅋ that Kkma raises java.lang.StackOverflowError on, however warm its JVM
KKMA_OVERFLOW = 100_000


def test_7_a_long_line_is_analysed_in_pieces_with_offsets_into_the_line(kiwi):
    line = " ".join(SOURCE * 250)  # over 10,000 characters
    whole = analyze_lines(kiwi, [line], max_chars=100_000)[0].morphemes
    pieces = analyze_lines(kiwi, [line], max_chars=2000)[0].morphemes
    assert len(line) > 5 * 2000
    assert all(line[m.start : m.end] == m.form for m in pieces if m.tag.startswith("NN"))
    nouns = [(m.form, m.start) for m in whole if m.tag.startswith("NN")]
    assert [(m.form, m.start) for m in pieces if m.tag.startswith("NN")] == nouns


def test_7_repeated_syllables_and_jamo_runs_are_scored(scorer):
    segs, _ = segments(scorer, ["가" * 10_000, "ㅋ" * 10_000, "하" * 3000 + " 방 열쇠"], ["", "", "room key"])
    assert [s["failed"] for s in segs] == [None, None, None]
    assert segs[2]["score"] is not None and {"방", "열쇠"} <= set(lemmas(segs[2]))


@requires_java
def test_7_a_line_the_analyzer_raises_on_fails_alone():
    # Kkma 2.0 recurses deeper the longer a run of ㅋ is; where java.lang.StackOverflowError comes
    # depends on the JIT and the thread: in the main thread from about 1,700 ㅋ in a fresh JVM and
    # 3,700 once Kkma's code is compiled, 32,000 in an 8 MB thread. 2,000 could fail in the batch
    # call and pass when tried alone; 100,000 (one piece: max_chars) overflow every time.
    scorer = Scorer(Config(analyzer="kkma", max_chars=KKMA_OVERFLOW), analyzer=analyzer("kkma"))
    segs, report = segments(scorer, ["방 열쇠", "ㅋ" * KKMA_OVERFLOW, "방 열쇠"], ["room key"] * 3)
    assert [s["score"] for s in segs] == [1.0, None, 1.0]
    assert segs[1]["failed"] == "kkma raised java.lang.StackOverflowError"
    summary = report.systems[0].summary()
    assert summary["sentences_failed"] == 1 and summary["sentences_without_keywords"] == 0
    assert summary["ktr"] == 1.0  # failed lines are left out, not scored 0
    # nor is the failed line's output traced: no keywords to trace it to, no added words
    assert (segs[1]["precision"], segs[1]["content_words"], segs[1]["added"]) == (None, 0, [])
    assert summary["precision"] == 1.0 and summary["added"] == 0
    assert report.warnings == ["source:2: not scored, the analysis failed: kkma raised java.lang.StackOverflowError"]
    assert "NOT SCORED: 1 sentence(s) on which the analyzer failed or the time limit ran out" in as_text(report)


@pytest.mark.slow  # waits on time limits
@requires_java
def test_7_a_line_that_takes_too_long_fails_and_the_run_goes_on(tmp_path):
    # Okt 2.1.0 takes about 2 minutes on 2,000 repeated 가 (6 s on 400)
    src = write(tmp_path / "s.ko", f"방 열쇠\n{'가' * 2000}\n방 열쇠\n")
    hyp = write(tmp_path / "h.en", "room key\n" * 3)
    config = write(tmp_path / "okt.yaml", "analyzer: okt\ntimeout: 10\n")
    proc = ktr("score", "-s", src, "-t", hyp, "-c", config, "-f", "json", "--sentences")
    assert proc.returncode == 3, proc.stderr
    assert (
        proc.stderr
        == f"ktr: warning: {src}:2: not scored, the analysis failed: okt gave no result within timeout=10s\n"
    )
    system = json.loads(proc.stdout)["systems"][0]
    assert [s["score"] for s in system["segments"]] == [1.0, None, 1.0]
    assert system["sentences_failed"] == 1


# 8. compatibility vs conjoining jamo, NFD vs NFC ---------------------------------------------


def jamo_spelling(text: str) -> str:
    """Each syllable written as compatibility jamo, as jamo-splitting tools produce."""
    from ktr.korean.normalize import _CHO, _JONG, _JUNG

    out = []
    for ch in text:
        code = ord(ch) - 0xAC00
        if 0 <= code < 11172:
            out.append(_CHO[code // 588] + _JUNG[code % 588 // 28] + (_JONG[code % 28 - 1] if code % 28 else ""))
        else:
            out.append(ch)
    return "".join(out)


@pytest.mark.parametrize("name", params())
def test_8_nfd_and_jamo_spellings_give_the_same_scores(name):
    # raw, Kiwi tags every NFD word NNP, mecab UNKNOWN, Kkma splits it into SW jamo
    scorer = Scorer(Config(analyzer=name), analyzer=analyzer(name))
    base, _ = segments(scorer, SOURCE, OUTPUT)
    for spelling in (lambda s: unicodedata.normalize("NFD", s), jamo_spelling):
        given = [spelling(s) for s in SOURCE]
        segs, _ = segments(scorer, given, OUTPUT)
        assert [(s["score"], lemmas(s)) for s in segs] == [(s["score"], lemmas(s)) for s in base]
        for line, plain_line, seg, plain in zip(given, SOURCE, segs, base):  # offsets into the given text
            assert [normalize_source(line[k["start"] : k["end"]]).text for k in seg["keywords"]] == [
                plain_line[k["start"] : k["end"]] for k in plain["keywords"]
            ]


# 9. emoji, mixed scripts, lone surrogates ----------------------------------------------------


@pytest.mark.parametrize("name", params())
def test_9_emoji_symbols_and_other_scripts_never_crash_or_become_keywords(name):
    # Komoran and Kkma raise UnicodeDecodeError on any character outside the BMP, and Hannanum
    # tags emoji, ★ and 𠀀 as common nouns, when given them raw
    scorer = Scorer(Config(analyzer=name), analyzer=analyzer(name))
    lines = [
        "방 열쇠 😀 여기 있습니다",
        "가족 👨\u200d👩\u200d👧 여행 ❤\ufe0f",
        "😀",
        "★ 방 𠀀 열쇠 🇰🇷",
        "韓國 Seoul에 갔다 123",
        "ㅋㅋㅋ 방 ㅠㅠ",
    ]
    segs, report = segments(scorer, lines)
    assert [s["failed"] for s in segs] == [None] * len(lines)
    found = {k for s in segs for k in lemmas(s)}
    assert {"방", "열쇠", "가족", "여행"} <= found
    assert not found & {"😀", "★", "𠀀", "ㅋㅋㅋ", "ㅠㅠ", "❤"}
    assert report.warnings == []


def test_9_lone_surrogates_from_the_api_are_replaced_with_a_warning(scorer):
    text = b"\xeb\xb0\xa9 \xec\x97\xb4\xec\x87\xa0 \xff\xec\x97\xac\xea\xb8\xb0".decode("utf-8", "surrogateescape")
    with warnings.catch_warnings(record=True) as caught:  # both sides warn: none left for the run's summary
        warnings.simplefilter("always")
        report = scorer.score([text], ["room key \ud800 here"])
    assert [(w.category, str(w.message).split(": ")[0]) for w in caught] == [
        (InputWarning, "source:1"),
        (InputWarning, "system:1"),
    ]
    assert [str(w.message).split(": ", 1)[1] for w in caught] == [
        "cleaned 1 control or surrogate character(s) before analysis (surrogate)",
        "cleaned 1 control or surrogate character(s) before matching (surrogate)",
    ]
    seg = report.systems[0].sentences[0]
    assert [k.keyword.lemma for k in seg.keywords] == ["방", "열쇠", "여기"] and seg.score == 1.0


def test_9_control_characters_and_emoji_in_outputs_are_harmless(scorer):
    segs, _ = segments(scorer, SOURCE[:1], ["Here\x00 is 😀 the\x1b room\u200d key\ud800."])
    assert segs[0]["score"] == 1.0
