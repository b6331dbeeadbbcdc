"""The command line, run as a user runs it: a subprocess, real files, real analyzers."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from ktr import Config, Scorer
from ktr.errors import InputWarning
from ktr.sample import paths as sample_paths
from ktr.textio import read_lines
from tests.conftest import DATA, ROOT

# slow: every test runs ktr in a subprocess, as a user does
pytestmark = pytest.mark.slow

GOLDEN = DATA / "sample.golden.json"
GOLDEN_CONFIG = DATA / "golden.yaml"


def ktr(*args, cwd=ROOT):
    return subprocess.run(
        [sys.executable, "-m", "ktr.cli", *map(str, args)],
        cwd=cwd,
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONIOENCODING": "utf-8"},
    )


def assert_clean_error(proc, *fragments):
    assert proc.returncode == 1, proc.stderr
    assert proc.stdout == ""
    assert "Traceback" not in proc.stderr
    line = proc.stderr.strip()
    assert line.startswith("ktr: error: ") and "\n" not in line, line
    for f in fragments:
        assert f in line, line


def stable(doc):
    """The golden comparison leaves out version strings, which change with upgrades."""
    doc = dict(doc)
    sig = doc.pop("signature")
    assert set(sig) == {"short", "full", "brief"}
    assert doc.pop("sacrebleu")["bleu"].startswith("nrefs:1|")
    return doc


def golden_args():
    p = sample_paths()
    return [
        "score",
        "-s",
        p["source"],
        "-t",
        p["fluent"],
        p["wordsalad"],
        "-r",
        p["reference"],
        "-c",
        GOLDEN_CONFIG,
        "-f",
        "json",
        "--sentences",
    ]


def test_golden_json():
    proc = ktr(*golden_args())
    assert proc.returncode == 0, proc.stderr
    got = json.loads(proc.stdout)
    if os.environ.get("KTR_UPDATE_GOLDEN"):
        GOLDEN.write_text(json.dumps(got, ensure_ascii=False, indent=2) + "\n", encoding="utf-8")
    assert stable(got) == stable(json.loads(GOLDEN.read_text(encoding="utf-8")))


#: the fields docs/json.md documents, and no others
SYSTEM_FIELDS = {
    "name",
    "ktr",
    "ktr_macro",
    "ktr_micro",
    "ktr_weighted",
    "sentences",
    "sentences_scored",
    "sentences_without_keywords",
    "sentences_failed",
    "hypotheses_empty",
    "keywords",
    "keywords_counted",
    "transferred",
    "keywords_not_in_lexicon",
    "precision",
    "precision_micro",
    "f",
    "f_beta",
    "content_words",
    "traced",
    "added",
    "bleu",
    "chrf",
    "segments",
}
SEGMENT_FIELDS = {
    "index",
    "score",
    "weighted_score",
    "keywords_counted",
    "transferred",
    "keywords",
    "precision",
    "content_words",
    "traced",
    "added",
    "failed",
}
KEYWORD_FIELDS = {
    "lemma",
    "tag",
    "class",
    "start",
    "end",
    "equivalents",
    "synonyms",
    "in_lexicon",
    "entry",
    "lookup",
    "matched",
    "how",
    "token_span",
    "also_tried",
}
SIGNATURE_FIELDS = {
    "ktr",
    "analyzer",
    "analyzer_version",
    "tagset",
    "lexicons",
    "lexicon_hash",
    "classes",
    "matching",
    "aggregation",
    "no_keywords",
    "missing_in_lexicon",
}


def test_json_has_the_documented_fields():
    doc = json.loads(ktr(*golden_args()).stdout)
    assert set(doc) == {"signature", "sacrebleu", "headline", "systems", "warnings"}
    assert set(doc["sacrebleu"]) == {"bleu", "chrf"}
    for system in doc["systems"]:
        assert set(system) == SYSTEM_FIELDS
        assert [s["index"] for s in system["segments"]] == list(range(20))
        for seg in system["segments"]:
            assert set(seg) == SEGMENT_FIELDS and all(set(k) == KEYWORD_FIELDS for k in seg["keywords"])
    full = doc["signature"]["full"]
    # the documented fields, and the parts of the short form that golden.yaml's stages add
    assert set(full) - SIGNATURE_FIELDS == {"syn", "tl", "f"} and SIGNATURE_FIELDS <= set(full)
    assert doc["signature"]["short"].split("|")[-3:] == [f"syn:{full['syn']}", f"tl:{full['tl']}", "f:b0.5/tr5"]


def test_api_gives_the_cli_numbers():
    p = sample_paths()
    scorer = Scorer(Config.from_yaml(GOLDEN_CONFIG))
    report = scorer.score(
        read_lines(p["source"]),
        {"travel.fluent": read_lines(p["fluent"]), "travel.wordsalad": read_lines(p["wordsalad"])},
        references=[read_lines(p["reference"])],
    )
    assert stable(report.to_dict(sentences=True)) == stable(json.loads(ktr(*golden_args()).stdout))


def test_sample_prints_the_table_the_readme_shows():
    from tests.reports.test_formats import readme_sample_output

    shown = readme_sample_output()
    proc = ktr("score", "--sample")
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout.splitlines()
    assert out[:7] == shown[:7]  # the systems table and the note under it
    assert [line.split(":", 1)[0] for line in out[7:]] == [line.split(":", 1)[0] for line in shown[7:]]


def test_without_references_bleu_is_null(tmp_path):
    p = sample_paths()
    doc = json.loads(ktr("score", "-s", p["source"], "-t", p["literal"], "-f", "json").stdout)
    assert doc["systems"][0]["bleu"] is None and doc["systems"][0]["chrf"] is None
    assert doc["sacrebleu"] is None


def test_keywords_command(tmp_path):
    src = tmp_path / "src.ko"
    src.write_text("제일 유명한 백화점이 어디에요?\n\n", encoding="utf-8")
    proc = ktr("keywords", "-s", src)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == "제일/MAG 유명하다/NNG 백화점/NNG 어디/NP\n\n"  # 유명 + 하(XSA): one keyword


def test_keywords_and_coverage_of_a_file_longer_than_a_stretch(tmp_path):
    """Both read the source a stretch at a time: every line's keywords in order, warnings naming
    lines of later stretches, and a bad line refused before anything is written."""
    lines = (read_lines(sample_paths()["source"]) * 30)[:600]
    lines[529] = "\x01" + lines[529]
    src = tmp_path / "src.ko"
    src.write_text("\n".join(lines) + "\n", encoding="utf-8")
    proc = ktr("keywords", "-s", src)
    assert proc.returncode == 0, proc.stderr
    with pytest.warns(InputWarning, match="source:530: cleaned 1 control"):
        expected = Scorer(Config()).keywords(lines)
    assert proc.stdout.splitlines() == [" ".join(f"{k.lemma}/{k.tag}" for k in kws) for kws in expected]
    assert f"{src}:530:" in proc.stderr and f"{src}:1:" not in proc.stderr
    doc = json.loads(ktr("lexicon", "coverage", "-s", src, "-f", "json").stdout)
    assert doc["keyword_tokens"] == sum(map(len, expected))
    src.write_bytes(src.read_bytes().replace(b"\x01", b"\xff"))
    for args in (("keywords",), ("lexicon", "coverage")):
        assert_clean_error(ktr(*args, "-s", src), f"{src}:530:")


@pytest.fixture
def files(tmp_path):
    src = tmp_path / "src.ko"
    src.write_text("방 열쇠 여기 있습니다.\n삼 층 방은 314호실입니다.\n", encoding="utf-8")
    hyp = tmp_path / "hyp.en"
    hyp.write_text("Here is the room key.\nThe room is 314.\n", encoding="utf-8")
    return src, hyp, tmp_path


def test_line_count_mismatch(files):
    src, hyp, tmp = files
    short = tmp / "short.en"
    short.write_text("one line\n", encoding="utf-8")
    assert_clean_error(
        ktr("score", "-s", src, "-t", hyp, short), "src.ko has 2 lines", "short.en has 1", "nothing was scored"
    )
    assert_clean_error(ktr("score", "-s", src, "-t", hyp, "-r", short), "short.en has 1")


def test_missing_file_and_empty_file(files):
    src, hyp, tmp = files
    assert_clean_error(ktr("score", "-s", tmp / "nope.ko", "-t", hyp), "nope.ko: no such file")
    empty = tmp / "empty.ko"
    empty.write_bytes(b"")
    assert_clean_error(ktr("score", "-s", empty, "-t", hyp), "empty.ko: file is empty")


def test_invalid_utf8(files):
    src, hyp, tmp = files
    bad = tmp / "bad.en"
    bad.write_bytes(b"fine\nbro\xc3ken\n")
    assert_clean_error(ktr("score", "-s", src, "-t", bad), "bad.en:2: invalid UTF-8 at byte 3")


def test_source_from_standard_input_scores_as_the_file(files):
    src, hyp, _ = files
    piped = subprocess.run(
        [sys.executable, "-m", "ktr.cli", "score", "-s", "-", "-t", str(hyp), "-f", "json"],
        cwd=ROOT,
        input=src.read_bytes(),
        capture_output=True,
    )
    assert piped.returncode == 0, piped.stderr
    assert piped.stdout.decode() == ktr("score", "-s", src, "-t", hyp, "-f", "json").stdout


def test_crlf_and_bom_give_the_same_scores(files):
    src, hyp, tmp = files
    crlf = tmp / "crlf.en"
    crlf.write_bytes(b"\xef\xbb\xbf" + hyp.read_bytes().replace(b"\n", b"\r\n"))
    src_crlf = tmp / "crlf.ko"
    src_crlf.write_bytes(b"\xef\xbb\xbf" + src.read_bytes().replace(b"\n", b"\r\n"))
    a = json.loads(ktr("score", "-s", src, "-t", hyp, "-f", "json", "--sentences").stdout)["systems"][0]
    b = json.loads(ktr("score", "-s", src_crlf, "-t", crlf, "-f", "json", "--sentences").stdout)["systems"][0]
    a.pop("name"), b.pop("name")
    assert a == b


def test_empty_lines_have_defined_results(tmp_path):
    src = tmp_path / "s.ko"
    src.write_text("방 열쇠\n\n네.\n", encoding="utf-8")
    hyp = tmp_path / "h.en"
    hyp.write_text("\nanything\nYes.\n", encoding="utf-8")
    doc = json.loads(ktr("score", "-s", src, "-t", hyp, "-f", "json", "--sentences").stdout)
    system = doc["systems"][0]
    assert [s["score"] for s in system["segments"]] == [0.0, None, None]
    assert system["sentences"] == 3 and system["sentences_without_keywords"] == 2
    assert system["ktr"] == 0.0


def test_bad_config(files, tmp_path):
    src, hyp, _ = files
    cfg = tmp_path / "c.yaml"
    cfg.write_text("analyzer: kiwi\nmatch: [exact]\n", encoding="utf-8")
    assert_clean_error(ktr("score", "-s", src, "-t", hyp, "-c", cfg), "unknown key 'match'", "valid keys")


def test_usage_error_exits_2():
    proc = ktr("score", "--format", "xml")
    assert proc.returncode == 2 and "invalid choice" in proc.stderr


def test_api_checks_lengths():
    from ktr.errors import InputError

    scorer = Scorer(Config.from_yaml(GOLDEN_CONFIG))
    with pytest.raises(InputError, match="source has 2 lines, mt has 1"):
        scorer.score(["방", "열쇠"], {"mt": ["room"]})
    with pytest.raises(InputError, match="reference 1 has 3"):
        scorer.score(["방", "열쇠"], ["room", "key"], references=[["a", "b", "c"]])


def test_news_dev_against_itself(shared_data):
    ko, en = shared_data / "news-dev.ko", shared_data / "news-dev.en"
    proc = ktr("score", "-s", ko, "-t", en, "-r", en, "-f", "json")
    assert proc.returncode == 0, proc.stderr
    system = json.loads(proc.stdout)["systems"][0]
    assert system["bleu"] == 100.0
    assert system["sentences"] == 1000 and 0.0 < system["ktr"] <= 1.0


def test_explain_shows_each_keyword(tmp_path):
    src, hyp = tmp_path / "x.ko", tmp_path / "x.en"
    src.write_text("삼 층에 있습니다.\n클린턴 대통령이 왔다.\n", encoding="utf-8")
    hyp.write_text("It is on the third floor.\nThe president came.\n", encoding="utf-8")
    proc = ktr("score", "-s", src, "-t", hyp, "--explain")
    assert proc.returncode == 0, proc.stderr
    blocks = proc.stdout.split("── ")[1:]
    assert len(blocks) == 2
    assert blocks[0].startswith("x · sentence 1 · KTR 1.00 (3 of 3 keywords)")
    row = next(line for line in blocks[0].splitlines() if line.strip().startswith("삼/NR"))
    assert row.split()[-2:] == ["third", "exact"] and "number 3" in row
    row = next(line for line in blocks[1].splitlines() if line.strip().startswith("클린턴/NNP"))
    assert "sound keulrinteon" in row and row.split()[-2:] == ["—", "missed"]
    assert "KTR 0.67 (2 of 3 keywords)" in blocks[1]
    assert any(line.startswith("signature: ktr:") for line in proc.stdout.splitlines()[-8:])


def test_hypotheses_from_standard_input_as_sacrebleu_reads_them(tmp_path):
    p = sample_paths()
    run = lambda *args, stdin=None: subprocess.run(  # noqa: E731
        [sys.executable, "-m", "ktr", *map(str, args)],
        cwd=ROOT,
        input=stdin,
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONIOENCODING": "utf-8"},
    )
    fluent = Path(p["fluent"]).read_text(encoding="utf-8")
    piped = run("score", "-s", p["source"], "-f", "json", stdin=fluent)  # cat out.en | ktr score -s src
    named = json.loads(ktr("score", "-s", p["source"], "-t", p["fluent"], "-f", "json").stdout)
    got = json.loads(piped.stdout)
    assert piped.returncode == 0, piped.stderr
    assert got["systems"][0]["name"] == "stdin" and got["systems"][0]["ktr"] == named["systems"][0]["ktr"]
    dashed = json.loads(run("score", "-s", p["source"], "-t", "-", p["fluent"], "-f", "json", stdin=fluent).stdout)
    assert [s["name"] for s in dashed["systems"]] == ["stdin", "travel.fluent"]
    assert_clean_error(
        run("score", "-s", "-", "-t", "-", stdin=fluent), "standard input (-) can stand for one file only"
    )
    version = run("--version")
    assert version.returncode == 0 and version.stdout.startswith("ktr ")  # python -m ktr


def test_the_package_says_it_is_typed():
    from importlib.resources import files

    assert files("ktr").joinpath("py.typed").is_file()
