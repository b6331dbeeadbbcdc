"""Every output format's content, against a case worked out by hand.

Four lines scored with a lexicon of six entries written here, exact and inflection matching:

    학생이 책을 읽었다.  The student reads a letter.  학생 student, 읽다 reads (read); 책 missed;
                                                     content words student, reads, letter: letter added
    물을 마셨다.         He drank water.              물 water, 마시다 drank (drink): 2 of 2;
                                                     content words drank, water (he is a function word)
    철수가 왔다.         He came.                     오다 came (come); 철수 has no entry: 1 of 2;
                                                     came is a light verb, counted because 오다 matched it
    네.                  (empty)                      no keywords; an empty output

so, by hand: sentence KTR 2/3, 1, 1/2, none; macro (2/3 + 1 + 1/2) / 3 = 13/18, micro 5/7;
precision 2/3, 1, 1, none (mean 8/9), pooled 5/6; F (β 0.5) 2/3, 1, 1.25·0.5/(0.25 + 0.5) = 5/6.
"""

import csv
import hashlib
import io
import json
from importlib.metadata import version

import pytest

from ktr import Config, Scorer, __version__
from ktr.config import DEFAULT_CLASSES
from ktr.controls import columns
from ktr.reports.explain import as_explain
from ktr.reports.formats import as_json, as_text, as_tsv, sentences_text, wrapped_fields
from ktr.scoring.formula import Aggregation
from ktr.scoring.scorer import RunOptions

LEXICON = (
    "# ktr-lexicon/1\n학생\tnoun\tstudent;pupil\n책\tnoun\tbook\n읽다\tverb\tread\n물\tnoun\twater\n"
    "마시다\tverb\tdrink\n오다\tverb\tcome\n"
)
SOURCE = ["학생이 책을 읽었다.", "물을 마셨다.", "철수가 왔다.", "네."]
OUTPUT = ["The student reads a letter.", "He drank water.", "He came.", ""]
MACRO, MICRO = (2 / 3 + 1 + 1 / 2) / 3, 5 / 7
F_THIRD = 1.25 * 1 * 0.5 / (0.25 * 1 + 0.5)  # KTR 1/2, precision 1


@pytest.fixture(scope="module")
def lexicon(tmp_path_factory):
    path = tmp_path_factory.mktemp("lex") / "six.tsv"
    path.write_text(LEXICON, encoding="utf-8")
    return path


def config(lexicon, **options) -> Config:
    return Config(lexicons=(str(lexicon),), matching=("exact", "inflection"), **options)


@pytest.fixture(scope="module")
def report(lexicon, kiwi):
    return Scorer(config(lexicon), analyzer=kiwi).score(SOURCE, {"out": OUTPUT})


def keyword(lemma, tag, cls, start, end, equivalents, matched=None, how=None, span=None, in_lexicon=True):
    return {
        "lemma": lemma,
        "tag": tag,
        "class": cls,
        "start": start,
        "end": end,
        "equivalents": equivalents,
        "synonyms": [],
        "in_lexicon": in_lexicon,
        "entry": f"{lemma}/{cls}" if in_lexicon else None,
        "lookup": "entry" if in_lexicon else None,
        "matched": matched,
        "how": how,
        "token_span": span,
        "also_tried": [],
    }


SEGMENTS = [
    {
        "index": 0,
        "score": pytest.approx(2 / 3),
        "weighted_score": pytest.approx(2 / 3),
        "keywords_counted": 3,
        "transferred": 2,
        "keywords": [
            keyword("학생", "NNG", "noun", 0, 2, ["student", "pupil"], "student", "exact", [1, 2]),
            keyword("책", "NNG", "noun", 4, 5, ["book"]),
            keyword("읽다", "VV", "verb", 7, 8, ["read"], "read", "inflection", [2, 3]),
        ],
        "precision": pytest.approx(2 / 3),
        "content_words": 3,
        "traced": 2,
        "added": [{"word": "letter", "token": 4}],
        "failed": None,
    },
    {
        "index": 1,
        "score": 1.0,
        "weighted_score": 1.0,
        "keywords_counted": 2,
        "transferred": 2,
        "keywords": [
            keyword("물", "NNG", "noun", 0, 1, ["water"], "water", "exact", [2, 3]),
            keyword("마시다", "VV", "verb", 3, 5, ["drink"], "drink", "inflection", [1, 2]),
        ],
        "precision": 1.0,
        "content_words": 2,
        "traced": 2,
        "added": [],
        "failed": None,
    },  # 마셨: 시 fused into 셨
    {
        "index": 2,
        "score": 0.5,
        "weighted_score": 0.5,
        "keywords_counted": 2,
        "transferred": 1,
        "keywords": [
            keyword("철수", "NNP", "proper_noun", 0, 2, [], in_lexicon=False),
            keyword("오다", "VV", "verb", 4, 5, ["come"], "come", "inflection", [1, 2]),
        ],
        "precision": 1.0,
        "content_words": 1,
        "traced": 1,
        "added": [],
        "failed": None,
    },
    {
        "index": 3,
        "score": None,
        "weighted_score": None,
        "keywords_counted": 0,
        "transferred": 0,
        "keywords": [],
        "precision": None,
        "content_words": 0,
        "traced": 0,
        "added": [],
        "failed": None,
    },
]


def test_every_json_field_of_the_hand_worked_case(report, lexicon):
    doc = json.loads(as_json(report, sentences=True))
    assert set(doc) == {"signature", "sacrebleu", "headline", "systems", "warnings"}
    assert (doc["sacrebleu"], doc["headline"], doc["warnings"]) == (None, "ktr", [])
    (system,) = doc["systems"]
    assert system == {
        "name": "out",
        "ktr": pytest.approx(MACRO),
        "ktr_macro": pytest.approx(MACRO),
        "ktr_micro": pytest.approx(MICRO),
        "ktr_weighted": pytest.approx(MACRO),  # every class weighs 1
        "sentences": 4,
        "sentences_scored": 3,
        "sentences_without_keywords": 1,
        "sentences_failed": 0,
        "hypotheses_empty": 1,
        "keywords": 7,
        "keywords_counted": 7,
        "transferred": 5,
        "keywords_not_in_lexicon": 1,
        "precision": pytest.approx(8 / 9),
        "precision_micro": pytest.approx(5 / 6),
        "f": pytest.approx((2 / 3 + 1 + F_THIRD) / 3),
        "f_beta": 0.5,
        "content_words": 6,
        "traced": 5,
        "added": 1,
        "bleu": None,
        "chrf": None,
        "segments": SEGMENTS,
    }


def test_every_signature_field(report, lexicon):
    full = report.to_dict()["signature"]["full"]
    analyzer_version = f"kiwipiepy-{version('kiwipiepy')}-nodefaultdict-nomultidict"
    entries = sorted(line.split("\t") for line in LEXICON.splitlines()[1:])
    content = hashlib.sha256("".join(f"{lemma}\t{cls}\t{eqs}\n" for lemma, cls, eqs in entries).encode()).hexdigest()
    assert full == {
        "ktr": __version__,
        "analyzer": "kiwi",
        "analyzer_version": analyzer_version,
        "tagset": "sejong",
        "lexicons": [str(lexicon)],
        "lexicon_hash": content,
        "classes": list(DEFAULT_CLASSES),
        "matching": ["exact", "inflection"],
        "aggregation": "macro",
        "no_keywords": "exclude",
        "missing_in_lexicon": "miss",
        "f": "b0.5/tr5",  # F's beta and the tracing rules' version
    }
    assert report.signature.short() == (
        f"ktr:{__version__}|ana:kiwi@{analyzer_version}|lex:{lexicon}@{content[:10]}|cls:{','.join(DEFAULT_CLASSES)}"
        "|match:exact,inflection|avg:macro|nokw:exclude|oov:miss|f:b0.5/tr5"
    )


def test_the_lexicon_hash_follows_the_content_not_the_file(tmp_path, lexicon, kiwi):
    same = tmp_path / "same.tsv"  # the same entries in another order, under another name
    same.write_text("# ktr-lexicon/1\n" + "\n".join(reversed(LEXICON.splitlines()[1:])) + "\n", encoding="utf-8")
    changed = tmp_path / "changed.tsv"
    changed.write_text(LEXICON.replace("water", "waters"), encoding="utf-8")
    digest = {
        p: Scorer(Config(lexicons=(str(p),), matching=("exact",)), analyzer=kiwi).signature.lexicon_hash
        for p in (lexicon, same, changed)
    }
    assert digest[same] == digest[lexicon] != digest[changed]


def test_every_tsv_column_by_hand_and_against_the_json(report):
    rows = list(csv.DictReader(io.StringIO(as_tsv(report)), delimiter="\t"))
    assert list(rows[0]) == [
        "index",
        "system",
        "score",
        "keywords",
        "transferred",
        "not_in_lexicon",
        "missed",
        "precision",
        "content_words",
        "traced",
        "f",
        "added",
    ]
    assert [list(r.values()) for r in rows] == [
        ["0", "out", "0.6667", "3", "2", "0", "책/NNG", "0.6667", "3", "2", "0.6667", "letter"],
        ["1", "out", "1.0000", "2", "2", "0", "", "1.0000", "2", "2", "1.0000", ""],
        ["2", "out", "0.5000", "2", "1", "1", "철수/NNP", "1.0000", "1", "1", f"{F_THIRD:.4f}", ""],
        ["3", "out", "-", "0", "0", "0", "", "-", "0", "0", "-", ""],
    ]
    segments = report.to_dict(sentences=True)["systems"][0]["segments"]
    for row, seg in zip(rows, segments, strict=True):
        assert int(row["index"]) == seg["index"]
        assert row["score"] == ("-" if seg["score"] is None else f"{seg['score']:.4f}")
        assert (int(row["keywords"]), int(row["transferred"])) == (seg["keywords_counted"], seg["transferred"])
        assert int(row["not_in_lexicon"]) == sum(not k["in_lexicon"] for k in seg["keywords"])
        assert row["missed"].split() == [f"{k['lemma']}/{k['tag']}" for k in seg["keywords"] if not k["matched"]]
        assert row["precision"] == ("-" if seg["precision"] is None else f"{seg['precision']:.4f}")
        assert (int(row["content_words"]), int(row["traced"])) == (seg["content_words"], seg["traced"])
        assert row["added"].split() == [a["word"] for a in seg["added"]]


def test_text_table_of_the_hand_worked_case(report):
    # the scores, then the counts: two tables, each within a terminal of 100 columns
    lines = as_text(report).splitlines()
    assert lines[0].split() == ["system", "KTR", "F", "micro", "weighted", "prec", "BLEU", "chrF"]
    assert lines[2].split() == [
        "out",
        f"{MACRO:.4f}",
        f"{(2 / 3 + 1 + F_THIRD) / 3:.4f}",
        f"{MICRO:.4f}",
        f"{MACRO:.4f}",
        f"{8 / 9:.4f}",
        "-",
        "-",
    ]
    assert lines[3] == ""
    assert lines[4].split() == ["system", "keywords", "transferred", "added", "no-entry", "no-kw", "sents"]
    assert lines[6].split() == ["out", "7", "5", "1", "1", "1"]
    assert lines[7:9] == [
        "",
        "KTR = mean of sentence scores (macro); prec = content words of the output traced to the source",
    ]
    assert lines[9] == "F = F-beta of KTR and prec (beta 0.5); 4 sentences"
    assert lines[10:] == wrapped_fields(f"signature: {report.signature.short()}")
    assert as_text(report, full_signature=True).splitlines()[10:] == [f"signature: {report.signature.short()}"]
    with_rows = as_text(report, sentences=True)
    assert with_rows.endswith("\n\n" + "\n".join(sentences_text(report)) + "\n")  # a blank line, then the rows


def test_the_brief_signature_names_the_short_form_by_its_digest(report):
    import dataclasses

    signature = report.signature
    digest = hashlib.sha256(signature.short().encode()).hexdigest()[:10]
    assert (
        signature.brief()
        == f"ktr:{signature.ktr_version}|ana:kiwi|lex:{signature.lexicon_hash[:10]}|avg:macro|sig:{digest}"
    )
    # any part of the short form changes it: here the stages, which the brief form does not show
    other = dataclasses.replace(signature, matching=("exact",))
    assert other.brief() != signature.brief() and other.brief().split("|")[:4] == signature.brief().split("|")[:4]
    assert report.to_dict()["signature"]["brief"] == signature.brief()


def test_explain_rows_in_full(report):
    text = as_explain(report, SOURCE, {"out": OUTPUT})
    assert (
        text
        == f"""\
── out · sentence 1 · KTR 0.67 (2 of 3 keywords) · precision 0.67 (2 of 3 content words traced)
source  학생이 책을 읽었다.
output  The student reads a letter.
  keyword   class  equivalents tried  matched       how
  학생/NNG  noun   student; pupil     student       exact
  책/NNG    noun   book               —             missed
  읽다/VV   verb   read               reads (read)  inflection
  added (traced to no keyword): letter

── out · sentence 2 · KTR 1.00 (2 of 2 keywords) · precision 1.00 (2 of 2 content words traced)
source  물을 마셨다.
output  He drank water.
  keyword    class  equivalents tried  matched        how
  물/NNG     noun   water              water          exact
  마시다/VV  verb   drink              drank (drink)  inflection

── out · sentence 3 · KTR 0.50 (1 of 2 keywords) · precision 1.00 (1 of 1 content words traced)
source  철수가 왔다.
output  He came.
  keyword   class        equivalents tried     matched      how
  철수/NNP  proper_noun  (not in the lexicon)  —            no entry
  오다/VV   verb         come                  came (come)  inflection

── out · sentence 4 · KTR - (0 of 0 keywords) · precision - (0 of 0 content words traced)
source  네.
output  {""}
  (no keywords)

signature: {report.signature.short()}
"""
    )


@pytest.mark.parametrize(
    "policy, expected",
    [("exclude", MACRO), ("zero", (2 / 3 + 1 + 1 / 2 + 0) / 4), ("one", (2 / 3 + 1 + 1 / 2 + 1) / 4)],
)
def test_no_keywords_policy_through_the_scorer(lexicon, kiwi, policy, expected):
    system = Scorer(config(lexicon, no_keywords=policy), analyzer=kiwi).score(SOURCE, {"out": OUTPUT}).systems[0]
    assert system.ktr == pytest.approx(expected)
    assert system.ktr_weighted == pytest.approx(expected)  # all weights 1: the same
    assert system.ktr_micro == pytest.approx(MICRO)  # pools keywords: no sentence to count
    assert system.summary()["sentences_without_keywords"] == 1


@pytest.mark.parametrize(
    "policy, counted, ktr", [("miss", 7, MACRO), ("exclude", 6, (2 / 3 + 1 + 1) / 3)]
)  # 철수: no entry, not found
def test_missing_in_lexicon_policy_through_the_scorer(lexicon, kiwi, policy, counted, ktr):
    report = Scorer(config(lexicon, missing_in_lexicon=policy), analyzer=kiwi).score(SOURCE, {"out": OUTPUT})
    summary = report.systems[0].summary()
    assert (summary["keywords"], summary["keywords_counted"], summary["transferred"]) == (7, counted, 5)
    assert summary["keywords_not_in_lexicon"] == 1 and summary["ktr"] == pytest.approx(ktr)
    assert report.signature.short().endswith(f"|oov:{policy}|f:b0.5/tr5")


@pytest.mark.parametrize(
    "aggregation, ktr, precision, f",
    [
        ("macro", MACRO, 8 / 9, (2 / 3 + 1 + F_THIRD) / 3),
        ("micro", MICRO, 5 / 6, 1.25 * (5 / 6) * (5 / 7) / (0.25 * 5 / 6 + 5 / 7)),
        ("weighted", MACRO, 8 / 9, (2 / 3 + 1 + F_THIRD) / 3),
    ],
)
def test_aggregation_picks_the_headline(lexicon, kiwi, aggregation, ktr, precision, f):
    report = Scorer(config(lexicon, aggregation=aggregation), analyzer=kiwi).score(SOURCE, {"out": OUTPUT})
    system = report.systems[0]
    assert (system.ktr, system.precision, system.f) == (pytest.approx(ktr), pytest.approx(precision), pytest.approx(f))
    assert f"|avg:{aggregation}|" in report.signature.short()
    names = {
        "macro": "mean of sentence scores",
        "micro": "transferred / keywords",
        "weighted": "mean of class-weighted sentence scores",
    }
    assert f"KTR = {names[aggregation]} ({aggregation})" in as_text(report)


def test_f_beta_weighs_precision_or_recall(lexicon, kiwi):
    # sentence 3: KTR 1/2, precision 1; beta 2 weighs the recall (KTR) more
    report = Scorer(config(lexicon, f_beta=2.0), analyzer=kiwi).score(SOURCE, {"out": OUTPUT})
    system = report.systems[0]
    assert system.sentences[2].figures(system.averaging).f == pytest.approx(5 * 1 * 0.5 / (4 * 1 + 0.5))
    assert system.summary()["f_beta"] == 2.0 and report.signature.short().endswith("|f:b2/tr5")


def test_headline_f_leads_the_table(lexicon, kiwi):
    report = Scorer(config(lexicon, headline="f"), analyzer=kiwi).score(SOURCE, {"out": OUTPUT})
    header, _, row = as_text(report).splitlines()[:3]
    assert header.split()[:3] == ["system", "F", "KTR"]
    assert row.split()[1:3] == [f"{(2 / 3 + 1 + F_THIRD) / 3:.4f}", f"{MACRO:.4f}"]
    assert report.to_dict()["headline"] == "f"


def test_classes_leave_out_the_others(lexicon, kiwi):
    # nouns only: 학생 책 | 물 | (철수 is a proper noun) | -
    system = Scorer(config(lexicon, classes=("noun",)), analyzer=kiwi).score(SOURCE, {"out": OUTPUT}).systems[0]
    assert [s.score for s in system.sentences] == [0.5, 1.0, None, None]
    assert system.ktr == 0.75 and system.summary()["sentences_without_keywords"] == 2


def test_bleu_and_chrf_with_a_reference(lexicon, kiwi):
    from sacrebleu.metrics import BLEU, CHRF

    refs = ["The student read a book.", "He drank water.", "Chulsoo came.", "Yes."]
    report = Scorer(config(lexicon), analyzer=kiwi).score(SOURCE, {"out": OUTPUT}, references=[refs])
    system = report.to_dict()["systems"][0]
    assert system["bleu"] == pytest.approx(BLEU().corpus_score(OUTPUT, [refs]).score, abs=1e-4)
    assert system["chrf"] == pytest.approx(CHRF().corpus_score(OUTPUT, [refs]).score, abs=1e-4)
    assert report.to_dict()["sacrebleu"]["bleu"].startswith("nrefs:1|case:mixed|eff:no|tok:13a|smooth:exp|")
    row = as_text(report).splitlines()[2].split()
    assert row[-2:] == [f"{system['bleu']:.2f}", f"{system['chrf']:.2f}"]  # two decimals, as sacreBLEU


def test_the_json_signature_has_its_short_and_full_forms(report):
    doc = report.to_dict()
    assert doc["signature"] == {
        "short": report.signature.short(),
        "full": report.signature.full(),
        "brief": report.signature.brief(),
    }
    assert "segments" not in doc["systems"][0]  # per-sentence detail only when asked


def test_stacked_lexicons_are_named_in_order(tmp_path, lexicon, kiwi):
    other = tmp_path / "more.tsv"
    other.write_text("# ktr-lexicon/1\n편지\tnoun\tletter\n", encoding="utf-8")
    signature = Scorer(Config(lexicons=(str(lexicon), str(other)), matching=("exact",)), analyzer=kiwi).signature
    assert f"|lex:{lexicon}+{other}@{signature.lexicon_hash[:10]}|" in signature.short()


def test_counts_without_keyword_details_give_the_same_summary(lexicon, kiwi, report):
    lean = Scorer(config(lexicon), analyzer=kiwi).score(SOURCE, {"out": OUTPUT}, options=RunOptions(details=False))
    assert lean.to_dict() == report.to_dict()
    assert [(s.keyword_count, s.missing, s.added) for s in lean.systems[0].sentences] == [
        (3, 0, ()),
        (2, 0, ()),
        (2, 1, ()),
        (0, 0, ()),
    ]  # counts kept, words not


def test_weighted_f_uses_the_class_weighted_ktr(kiwi):
    # 세 (determiner, 0.25) missed, 사과 (noun, 1) transferred; "an apple": precision 1
    sentence = Scorer(Config(matching=("exact",)), analyzer=kiwi).score(["세 사과"], ["an apple"]).systems[0]
    weighted = (
        Scorer(Config(matching=("exact",), aggregation="weighted"), analyzer=kiwi)
        .score(["세 사과"], ["an apple"])
        .systems[0]
    )
    seg = sentence.sentences[0]
    assert (seg.score, seg.weighted_score, seg.precision) == (0.5, pytest.approx(1 / 1.25), 1.0)
    assert seg.figures(Aggregation()).f == pytest.approx(1.25 * 0.5 / (0.25 + 0.5))  # KTR's F unless asked
    assert seg.figures(Aggregation("weighted")).f == pytest.approx(1.25 * 0.8 / (0.25 + 0.8))
    assert (sentence.f, weighted.f) == (pytest.approx(1.25 * 0.5 / 0.75), pytest.approx(1.25 * 0.8 / 1.05))


def test_a_keyword_counted_because_it_transferred_weighs_in_too(kiwi):
    # missing_in_lexicon: exclude; 클린턴 has no entry but is found by its sound, so it counts:
    # 클린턴 (proper noun, 1) and 오다 (verb, 1) transferred, 대통령 (noun, 1) missed
    system = (
        Scorer(Config(missing_in_lexicon="exclude", aggregation="weighted"), analyzer=kiwi)
        .score(["클린턴 대통령이 왔다."], ["Clinton came."])
        .systems[0]
    )
    seg = system.sentences[0]
    assert (seg.counted, seg.transferred, seg.weight, seg.weight_transferred) == (3, 2, 3.0, 2.0)
    assert system.ktr == pytest.approx(2 / 3)


def test_a_matched_keyword_keeps_what_else_it_tried(kiwi):
    # 삼 (three) is matched as written ("third" is an equivalent); its number value was tried too
    seg = (
        Scorer(Config(), analyzer=kiwi)
        .score(["삼 층에 있습니다."], ["It is on the third floor."])
        .systems[0]
        .sentences[0]
    )
    three = seg.keywords[0]
    assert (three.keyword.lemma, three.matched, three.how) == ("삼", "third", "exact")
    assert "number 3" in three.tried and "number 3" in three.to_dict()["also_tried"]


def test_a_line_the_analyzer_failed_on_in_every_field(kiwi):
    # Kiwi with a time limit runs in a child process; a 600,000-character line takes it longer
    long_line = "학생이 책을 읽었다 " * 60_000
    scorer = Scorer(Config(timeout=1, max_chars=1_000_000, matching=("exact",)))
    with pytest.warns(
        Warning, match="source:2: not scored, the analysis failed: kiwi gave no result within timeout=1s"
    ):
        report = scorer.score(["방 열쇠", long_line], ["the room key", "the student"])
    system = report.systems[0]
    failed = system.sentences[1].to_dict()
    assert failed == {
        "index": 1,
        "score": None,
        "weighted_score": None,
        "keywords_counted": 0,
        "transferred": 0,
        "keywords": [],
        "precision": None,
        "content_words": 0,
        "traced": 0,
        "added": [],
        "failed": "kiwi gave no result within timeout=1s",
    }
    summary = system.summary()
    assert (summary["sentences_failed"], summary["sentences_scored"], summary["sentences_without_keywords"]) == (
        1,
        1,
        0,
    )
    assert (summary["ktr"], summary["precision"], summary["f"]) == (1.0, 1.0, 1.0)  # left out, not scored 0
    assert (
        "NOT SCORED: 1 sentence(s) on which the analyzer failed or the time limit ran out (see the warnings)"
        in as_text(report)
    )


def test_bootstrap_estimates_join_each_system_s_fields(lexicon, kiwi):
    from ktr.scoring.significance import bootstrap_report

    report = Scorer(config(lexicon), analyzer=kiwi).score(SOURCE, {"out": OUTPUT}, options=RunOptions(statistics=True))
    report.estimates = bootstrap_report(report, 50, 3, paired=False)
    doc = report.to_dict()
    assert doc["signature"]["short"].endswith("|bs:50|seed:3")
    system = doc["systems"][0]
    for metric in ("ktr", "precision", "f"):
        low, high = system[f"{metric}_ci"]
        assert low <= system[metric] <= high and system[f"{metric}_p"] is None


def test_the_bootstrap_table_of_the_text_report(lexicon, kiwi):
    from ktr.scoring.significance import bootstrap_report

    report = Scorer(config(lexicon), analyzer=kiwi).score(
        SOURCE, {"out": OUTPUT, "same": OUTPUT}, options=RunOptions(statistics=True)
    )
    report.estimates = bootstrap_report(report, 50, 3, paired=True)
    lines = as_text(report).splitlines()
    start = lines.index(
        "95% confidence intervals from 50 bootstrap resamples (seed 3); p: paired bootstrap test "
        "against out, * where p < 0.05"
    )
    assert lines[0].startswith("system ") and lines[start - 1] == ""  # after the systems table and a blank
    assert lines[start + 1].split().count("p") == 3  # a p column for KTR, precision and F
    assert lines[start + 1].split()[:4] == ["system", "KTR", "95%", "CI"]
    out, same = lines[start + 3].split(), lines[start + 4].split()
    assert out[:3] == ["out", "(baseline)", f"{MACRO:.4f}"] and out[5] == "-"  # no p for the baseline
    assert same[0] == "same" and same[1:4] == out[2:5] and same[4] == "1.0000"  # the same output: p 1


def test_explain_names_every_kind_of_target(tmp_path, kiwi):
    # 여기 is a pronoun here, the lexicon has it as an adverb (other-class); 책 has seven
    # equivalents, five shown; 공부 is found through 공부하다 (derived); 클린턴 has no entry, only
    # its sound. Synonym and derivation counts come from WordNet, so they are read off the result.
    lexicon = tmp_path / "l.tsv"
    lexicon.write_text(
        "# ktr-lexicon/1\n책\tnoun\tbook;volume;tome;text;work;publication;novel\n"
        "공부하다\tverb\tstudy\n여기\tadverb\there\n백화점\tnoun\tdepartment store\n"
        "사과\tnoun\tapple;apology;excuse;regret;sorry\n",
        encoding="utf-8",
    )
    source = ["여기 책과 공부.", "클린턴이 왔다.", "백화점.", "사과 2024년."]
    output = [
        "Here is a book to study.",
        "The president and the people came.",
        "The Department Store.",
        "An apple in 2024.",
    ]
    scorer = Scorer(
        Config(lexicons=(str(lexicon),), matching=("exact", "synonym", "derivation", "transliteration")), analyzer=kiwi
    )
    report = scorer.score(source, {"o": output})
    here, book, study = report.systems[0].sentences[0].keywords
    clinton = report.systems[0].sentences[1].keywords[0]
    assert (here.lookup, book.lookup, study.lookup, clinton.lookup) == ("other-class", "entry", "derived", None)
    derived = lambda k: sum(t.startswith("derived ") for t in k.tried)  # noqa: E731

    def wordnet(k):
        """The synonym and derivation counts, as the row gives them when there are any."""
        return "".join(f"; +{n} {what}" for n, what in ((len(k.synonyms), "synonyms"), (derived(k), "derived")) if n)

    rows = [line.split("  ") for line in as_explain(report, source, {"o": output}).splitlines()]
    cells = [[c.strip() for c in row if c.strip()] for row in rows if row[0] == "" and len(row) > 3]
    assert cells[1:4] == [
        ["여기/NP", "pronoun", f"here{wordnet(here)} [other-class: 여기/adverb]", "here", "exact"],
        ["책/NNG", "noun", f"book; volume; tome; text; work; +2 more{wordnet(book)}", "book", "exact"],
        ["공부/NNG", "noun", f"study{wordnet(study)} [derived: 공부하다/verb]", "study", "exact"],
    ]
    assert book.synonyms and derived(book) and study.synonyms  # so the counts above are shown
    assert cells[5] == ["클린턴/NNP", "proper_noun", "; ".join(clinton.tried), "—", "missed"]
    store = report.systems[0].sentences[2].keywords[0]  # a phrase: the words as the output writes them
    assert cells[8] == ["백화점/NNG", "noun", f"department store{wordnet(store)}", "department store", "exact"]
    assert "  added (traced to no keyword): president, people" in as_explain(report, source, {"o": output})
    apple, year = report.systems[0].sentences[3].keywords[:2]  # five equivalents: all shown, no "+0 more"
    assert cells[10:12] == [
        ["사과/NNG", "noun", f"apple; apology; excuse; regret; sorry{wordnet(apple)}", "apple", "exact"],
        ["2024/SN", "digits", "2024", "2024", "exact"],
    ]  # digits: their own equivalent, no note
    assert year.lookup == "digits"
    assert clinton.tried[0].startswith("sound ")


def test_json_text_is_indented_utf_8(report):
    text = as_json(report, sentences=True)
    assert text.startswith('{\n  "signature": {\n    "short": ') and '"lemma": "학생"' in text  # Hangul as written
    assert json.loads(text) == report.to_dict(sentences=True)
    assert "segments" not in as_json(report)


def test_tsv_lists_every_missed_keyword_and_added_word(lexicon, kiwi):
    report = Scorer(config(lexicon), analyzer=kiwi).score(SOURCE[:1], {"pets": ["A cat and a dog."]})
    row = as_tsv(report).splitlines()[1].split("\t")
    assert row == [
        "0",
        "pets",
        "0.0000",
        "3",
        "0",
        "0",
        "학생/NNG 책/NNG 읽다/VV",
        "0.0000",
        "2",
        "0",
        "0.0000",
        "cat dog",
    ]


def test_the_bootstrap_table_without_paired_tests(lexicon, kiwi):
    from ktr.scoring.significance import bootstrap_report

    report = Scorer(config(lexicon), analyzer=kiwi).score(
        SOURCE, {"out": OUTPUT, "same": OUTPUT}, options=RunOptions(statistics=True)
    )
    report.estimates = bootstrap_report(report, 50, 3, paired=False)
    lines = as_text(report).splitlines()
    start = lines.index("95% confidence intervals from 50 bootstrap resamples (seed 3)")
    assert "p" not in lines[start + 1].split() and "(baseline)" not in "\n".join(lines[start:])
    assert lines[start + 3].split()[0] == "out"


def readme_sample_output() -> list[str]:
    """The lines README.md shows as the output of ``ktr score --sample``."""
    from tests.conftest import ROOT

    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    return readme.split("Output of the first (default settings):\n\n```\n", 1)[1].split("```", 1)[0].splitlines()


def test_the_sample_table_is_the_one_the_readme_shows(kiwi):
    """The README's table for ``ktr score --sample``, laid out as printed (first column left, the
    rest right, two spaces apart, a rule under the header, a blank line before the note)."""
    from ktr import sample
    from ktr.textio import read_lines

    shown = readme_sample_output()
    files = sample.paths()
    report = Scorer(Config(), analyzer=kiwi).score(
        read_lines(files["source"]),
        {f"travel.{n}": read_lines(files[n]) for n in sample.SYSTEMS},
        references=[read_lines(files["reference"])],
    )
    lines = as_text(report).splitlines()
    table = next(i for i, line in enumerate(lines) if line.startswith("signature: "))
    assert table == 14 and lines[:table] == shown[:table]
    for printed in (lines, shown):  # the signature wrapped at its fields, then sacreBLEU's
        heads = [line.split(":", 1)[0] for line in printed[table:] if not line.startswith("  ")]
        assert heads == ["signature", "sacrebleu bleu", "sacrebleu chrf"]
    # issue 40: the table was 125 columns and the signature 547 characters; all fits in 100 now
    assert max(columns(line) for line in lines) <= 100 and max(columns(line) for line in shown) <= 100


@pytest.mark.parametrize("width", [60, 80, 100])
def test_a_wrapped_signature_is_the_signature_again(report, width):
    line = f"signature: {report.signature.short()}"
    wrapped = wrapped_fields(line, width)
    assert "".join(w.removeprefix("  ") for w in wrapped) == line
    assert len(wrapped) > 1 and all(len(w) <= width or "|" not in w.strip()[:-1] for w in wrapped)
