"""Text from the input in scores and on screen (docs/input-handling.md, "Terminal escapes and
markup from the input"): terminal escape sequences are no words on either side, and every text
ktr prints or writes for people shows control characters escaped and markup as text.

Real Kiwi, real files, the command run as a user runs it (in this process through
``ktr.cli.main``, or as a subprocess where the terminal's view matters).
"""

import json
import time
import warnings

import pytest

from ktr import KTR, Config, Scorer
from ktr.english.tokens import token_spans, tokenize
from ktr.errors import InputWarning
from ktr.korean.normalize import normalize_source
from ktr.reports.html import html
from ktr.reports.markdown import markdown
from tests.cli.test_commands import ktr, write
from tests.cli.test_main import ktr as ktr_process
from tests.reports.test_files import OTHER, experiment_run
from tests.reports.test_formats import OUTPUT, SOURCE

ESC = "\x1b"
RED, RESET, CLEAR, TITLE = "\x1b[31m", "\x1b[0m", "\x1b[2J", "\x1b]0;pwned\x07"
APPLE_KO = "나는 사과를 먹었다."
APPLE_EN = "I ate an apple."
COLOURED = f"I ate {RED}an apple{RESET}."


def cleaned(n, what, before="analysis"):
    return f"cleaned {n} control or surrogate character(s) before {before} ({what})"


# 3. escape sequences are no words ----------------------------------------------------------


@pytest.mark.parametrize(
    "given, expected",
    [
        (f"삼 층{RED}314{RESET}호실", "삼 층314호실"),  # CSI (colour)
        ("\x1b[1;31;4m방\x1b[m 열쇠", "방 열쇠"),  # CSI with several parameters, and none
        (f"{TITLE}방 열쇠", "방 열쇠"),  # OSC ended by BEL (a terminal's title)
        ("\x1b]2;title\x1b\\방 열쇠", "방 열쇠"),  # OSC ended by ESC \ (ST)
        ("\x1bP1$r0m\x1b\\방 열쇠", "방 열쇠"),  # DCS, a control string
        ("방 \x1b]8;;http://x\x07열쇠\x1b]8;;\x07", "방 열쇠"),  # OSC 8 hyperlink around a word
        ("\x9b31m방\x9b0m 열쇠", "방 열쇠"),  # 8-bit CSI (U+009B)
        ("\x9d0;title\x9c방 열쇠", "방 열쇠"),  # 8-bit OSC (U+009D) ended by ST (U+009C)
        ("\x1bc방 열쇠", "방 열쇠"),  # ESC c: a terminal reset
        ("\x1b(B방 열쇠\x1b7", "방 열쇠"),  # ESC ( B: a character set; ESC 7: save the cursor
        ("방 열쇠\x1b]0;no end", "방 열쇠"),  # a control string without its end: to the end of the line
        ("방\x1b]0;no end\x1b[1m 열쇠", "방 열쇠"),  # ...or to the next escape
    ],
)
def test_3_escape_sequences_are_removed_whole_from_a_source_line(given, expected):
    assert normalize_source(given).text == expected


@pytest.mark.parametrize(
    "given, n, what",
    [
        (f"{TITLE}방 열쇠", 1, "U+001B ESC"),  # a sequence counts once, as its introducer
        (f"{RED}방{RESET} 열쇠{CLEAR}", 3, "U+001B ESC ×3"),
        ("\x9b31m방 \x9d0;x\x07열쇠", 2, "U+009B, U+009D"),
        ("방\x00열쇠\x1b[1m\x07", 3, "U+0000 NUL, U+0007, U+001B ESC"),  # bare controls count one by one
    ],
)
def test_3_a_cleaned_source_line_reports_each_sequence_once(given, n, what):
    assert normalize_source(given).warning() == cleaned(n, what)


def test_3_bare_control_characters_still_become_spaces():
    # U+000B and U+001C separate words (docs/input-handling.md, 2); an ESC before a character
    # that ends no sequence (Hangul, a space) is a bare ESC
    assert normalize_source("방\x0b열쇠\x1c여기\x1b가\x1b 끝").text == "방 열쇠 여기 가  끝"


def test_3_keyword_offsets_skip_a_removed_sequence():
    line = f"{TITLE}방 {RED}열쇠{RESET}"
    n = normalize_source(line)
    assert n.text == "방 열쇠"
    a, b = n.original_span(2, 4)
    assert line[a:b] == "열쇠"


@pytest.mark.parametrize(
    "given",
    [
        COLOURED,
        f"{TITLE}{APPLE_EN}{CLEAR}",
        "I ate \x9b1man apple\x9b0m.",
        "I ate \x1b]8;;http://x\x07an apple\x1b]8;;\x07.",
        "I ate an\x00apple.",
        "I ate an\x1b apple.",  # a stray ESC before a space: the next word stays whole
    ],
)
def test_3_escape_sequences_are_removed_whole_from_an_output_line(given):
    assert tokenize(given) == ("i", "ate", "an", "apple")


def test_3_token_spans_point_into_the_line_as_given():
    spans = token_spans(COLOURED)
    assert [COLOURED[a:b] for a, b in spans] == ["I", "ate", "an", "apple"]


def test_3_cleaning_takes_linear_time_on_hostile_lines():
    # about 100,000 characters each, well under a second (a pattern that searched each control
    # string's end from every start again would take minutes on the second)
    hostile = [
        "\x1b[" + "1;" * 50_000,  # a CSI that never ends
        "\x1b]" * 50_000,  # control strings that never end
        "\x1b[1" * 33_000,
        ("가\x1b]0;" + "x" * 50) * 2_000,
    ]
    for line in hostile:
        started = time.perf_counter()
        normalize_source(line)
        tokenize(line)
        assert time.perf_counter() - started < 10, repr(line[:20])


@pytest.fixture
def apples(tmp_path):
    src = write(tmp_path / "src.ko", f"{APPLE_KO}\n{TITLE}{APPLE_KO}\n")
    clean_src = write(tmp_path / "clean.ko", f"{APPLE_KO}\n{APPLE_KO}\n")
    coloured = write(tmp_path / "coloured.en", f"{COLOURED}\n{APPLE_EN}{CLEAR}\n")
    plain = write(tmp_path / "plain.en", f"{APPLE_EN}\n{APPLE_EN}\n")
    return src, clean_src, coloured, plain


def _sentences(out):
    doc = json.loads(out)
    return doc, [
        [{k: v for k, v in seg.items() if k != "keywords"} for seg in system["segments"]] for system in doc["systems"]
    ]


def test_3_colour_codes_and_a_title_change_no_score(capsys, apples):
    src, clean_src, coloured, plain = apples
    code, out, err = ktr(capsys, "score", "-s", src, "-t", coloured, plain, "-f", "json", "--sentences")
    assert code == 0
    doc, (with_codes, without) = _sentences(out)
    assert with_codes == without
    assert with_codes[0]["precision"] == 1.0 and with_codes[0]["added"] == []
    lemmas = [[k["lemma"] for k in seg["keywords"]] for seg in doc["systems"][0]["segments"]]
    assert lemmas == [["나", "사과", "먹다"], ["나", "사과", "먹다"]]  # no 0/SN from the title
    _, clean_out, _ = ktr(capsys, "score", "-s", clean_src, "-t", plain, "-f", "json", "--sentences")
    clean = json.loads(clean_out)["systems"][0]["segments"]
    # the same as from a clean source, but the keywords' offsets, which count in the line as given
    starts = [[(k["start"], k["end"]) for k in seg["keywords"]] for seg in doc["systems"][1]["segments"]]
    assert starts == [[(0, 1), (3, 5), (7, 8)], [(10, 11), (13, 15), (17, 18)]]
    for seg in [*doc["systems"][1]["segments"], *clean]:
        for k in seg["keywords"]:
            del k["start"], k["end"]
    assert doc["systems"][1]["segments"] == clean
    assert [s["ktr"] for s in doc["systems"]] == [1.0, 1.0]


def test_3_each_cleaned_line_warns_naming_its_file_and_line(capsys, apples):
    src, _, coloured, plain = apples
    code, out, err = ktr(capsys, "score", "-s", src, "-t", coloured, plain, "-f", "json")
    expected = [
        f"{coloured}:1: {cleaned(2, 'U+001B ESC ×2', 'matching')}",
        f"{src}:2: {cleaned(1, 'U+001B ESC')}",
        f"{coloured}:2: {cleaned(1, 'U+001B ESC', 'matching')}",
    ]
    assert code == 0
    assert err == "".join(f"ktr: warning: {w}\n" for w in expected)
    assert json.loads(out)["warnings"] == expected


@pytest.mark.slow  # worker processes
def test_3_output_warnings_through_worker_processes_are_the_same(capsys, tmp_path):
    # 40 lines: three stretches, two of them scored by a worker process
    src = write(tmp_path / "s.ko", f"{APPLE_KO}\n" * 40)
    hyp = write(tmp_path / "h.en", "".join(f"{COLOURED if n % 7 == 0 else APPLE_EN}\n" for n in range(1, 41)))
    results = [
        ktr(capsys, "score", "-s", src, "-t", hyp, "-f", "json", "--jobs", jobs, "--sentences") for jobs in (1, 2)
    ]
    expected = "".join(f"ktr: warning: {hyp}:{n}: {cleaned(2, 'U+001B ESC ×2', 'matching')}\n" for n in range(7, 41, 7))
    assert [(code, err) for code, _, err in results] == [(0, expected), (0, expected)]
    segments = [json.loads(out)["systems"][0]["segments"] for _, out, _ in results]
    assert segments[0] == segments[1] and {s["score"] for s in segments[0]} == {1.0}


@pytest.mark.slow  # a Dask cluster, from ktr in a subprocess
def test_3_output_warnings_on_a_dask_cluster_are_the_same(tmp_path):
    pytest.importorskip("distributed")
    src = write(tmp_path / "s.ko", f"{APPLE_KO}\n" * 40)
    hyp = write(tmp_path / "h.en", "".join(f"{COLOURED if n % 7 == 0 else APPLE_EN}\n" for n in range(1, 41)))
    other = write(tmp_path / "o.en", "".join(f"{APPLE_EN}{CLEAR if n == 39 else ''}\n" for n in range(1, 41)))
    expected = [f"ktr: warning: {hyp}:{n}: {cleaned(2, 'U+001B ESC ×2', 'matching')}" for n in range(7, 36, 7)]
    expected.append(f"ktr: warning: {other}:39: {cleaned(1, 'U+001B ESC', 'matching')}")
    cluster = ["--engine", "dask", "--workers", "1"]
    proc = ktr_process("score", "-s", src, "-t", hyp, other, "-f", "json", *cluster)
    assert proc.returncode == 0, proc.stderr
    assert [line for line in proc.stderr.splitlines() if "warning" in line] == expected
    assert [s["ktr"] for s in json.loads(proc.stdout)["systems"]] == [1.0, 1.0]
    config = write(
        tmp_path / "exp.yaml", "data: {source: s.ko, systems: {mt: h.en, other: o.en}}\ncompare: {resamples: 0}\n"
    )
    for engine in ([], cluster):
        proc = ktr_process("run", config, "-q", "-o", tmp_path / f"run{len(engine)}", *engine)
        assert proc.returncode == 0, proc.stderr
        assert [line for line in proc.stderr.splitlines() if "warning" in line] == expected


def test_3_output_warnings_from_the_python_api(kiwi):
    scorer = Scorer(Config(), analyzer=kiwi)
    with pytest.warns(InputWarning) as caught:
        report = scorer.score([APPLE_KO] * 2, {"mt": [APPLE_EN, COLOURED]})
    expected = [f"mt:2: {cleaned(2, 'U+001B ESC ×2', 'matching')}"]
    assert [str(w.message) for w in caught] == expected and report.warnings == expected
    assert [s.score for s in report.systems[0].sentences] == [1.0, 1.0]
    metric = KTR(Config(), analyzer=kiwi)
    with pytest.warns(InputWarning) as caught:
        result = metric.sentence_score(APPLE_KO, COLOURED)
    assert [str(w.message) for w in caught] == [f"hypothesis:1: {cleaned(2, 'U+001B ESC ×2', 'matching')}"]
    assert (result.score, result.precision) == (1.0, 1.0)


def test_3_ktr_run_warns_naming_the_output_file(tmp_path, kiwi):
    coloured = [OUTPUT[0], f"He drank {RED}water{RESET}.", *OUTPUT[2:]]
    with pytest.warns(InputWarning) as caught:
        run = experiment_run(tmp_path, kiwi, {"out": OUTPUT, "other": coloured}, "compare: {resamples: 0}\n")
    assert [str(w.message) for w in caught] == [f"{tmp_path / 'other.en'}:2: {cleaned(2, 'U+001B ESC ×2', 'matching')}"]
    out, other = run.variants[0].systems
    assert [s.score for s in out.sentences] == [s.score for s in other.sentences]


# 2. what reaches a terminal or a report ----------------------------------------------------


def test_2_explain_shows_control_characters_escaped(capsys, apples):
    src, _, coloured, _ = apples
    code, out, _ = ktr(capsys, "score", "-s", src, "-t", coloured, "--explain")
    assert code == 0 and ESC not in out and "\x07" not in out
    lines = out.splitlines()
    assert lines[1:3] == [f"source  {APPLE_KO}", "output  I ate \\x1b[31man apple\\x1b[0m."]
    second = lines.index(
        "── coloured · sentence 2 · KTR 1.00 (3 of 3 keywords) · precision 1.00 (2 of 2 content words traced)"
    )
    assert lines[second + 1 : second + 3] == [
        f"source  \\x1b]0;pwned\\x07{APPLE_KO}",
        f"output  {APPLE_EN}\\x1b[2J",
    ]


@pytest.fixture
def named(tmp_path):
    """A source and an output whose file name holds a terminal-title sequence and a screen clear."""
    src = write(tmp_path / "src.ko", f"{APPLE_KO}\n")
    hyp = write(tmp_path / f"mt{TITLE}{CLEAR}.en", f"{APPLE_EN}\n")
    return src, hyp


def test_2_the_text_table_and_the_tsv_show_a_system_name_escaped(capsys, named):
    src, hyp = named
    shown = "mt\\x1b]0;pwned\\x07\\x1b[2J"
    code, out, _ = ktr(capsys, "score", "-s", src, "-t", hyp)
    assert code == 0 and ESC not in out and "\x07" not in out
    row = out.splitlines()[2]
    assert row.startswith(f"{shown}  1.0000  ")
    assert out.splitlines()[0].startswith("system" + " " * (len(shown) - len("system")) + "     KTR")
    code, out, _ = ktr(capsys, "score", "-s", src, "-t", hyp, "-f", "tsv")
    assert code == 0 and ESC not in out
    assert out.splitlines()[1].split("\t")[:3] == ["0", shown, "1.0000"]
    code, out, _ = ktr(capsys, "score", "-s", src, "-t", hyp, "--explain")
    assert code == 0 and ESC not in out and out.startswith(f"── {shown} · sentence 1 · KTR 1.00")
    code, out, _ = ktr(capsys, "score", "-s", src, "-t", hyp, "-f", "json")
    assert json.loads(out)["systems"][0]["name"] == f"mt{TITLE}{CLEAR}"  # JSON keeps it (escaped by JSON)


@pytest.mark.slow  # ktr in a subprocess
def test_2_warnings_and_errors_show_control_characters_escaped(tmp_path, named):
    src, hyp = named
    noisy = write(tmp_path / f"src{CLEAR}.ko", f"{APPLE_KO}\x00\n")
    proc = ktr_process("score", "-s", noisy, "-t", hyp)
    assert proc.returncode == 0
    assert proc.stderr == f"ktr: warning: {tmp_path}/src\\x1b[2J.ko:1: {cleaned(1, 'U+0000 NUL')}\n"
    missing = tmp_path / f"no{TITLE}such.ko"
    proc = ktr_process("score", "-s", missing, "-t", hyp)
    assert (proc.returncode, proc.stdout) == (1, "")
    assert proc.stderr == f"ktr: error: {tmp_path}/no\\x1b]0;pwned\\x07such.ko: no such file\n"
    # a line break in a message stays on its line: one line per error
    proc = ktr_process("score", "-s", tmp_path / "two\nlines.ko", "-t", hyp)
    assert proc.stderr == f"ktr: error: {tmp_path}/two\\x0alines.ko: no such file\n"


def test_2_a_usage_error_shows_control_characters_escaped(capsys):
    code, out, err = ktr(capsys, "score", "--sample", f"--x{CLEAR}")
    assert (code, out) == (2, "")
    assert err.splitlines()[-1] == "ktr: error: unrecognized arguments: --x\\x1b[2J"


@pytest.fixture(scope="module")
def hostile_run(tmp_path_factory, kiwi):
    """``ktr run`` of the hand-worked case where line 2 (the one that differs most between the
    two systems) carries markup, a mid-line carriage return and escape sequences."""
    source = [SOURCE[0], f"물을 마셨다. <script>alert(x)</script>\r{RED}R&D <b>{RESET}", *SOURCE[2:]]
    out = [OUTPUT[0], "He drank water. <img src=x onerror=alert(x)>", *OUTPUT[2:]]
    other = [OTHER[0], f"He drank.\r| {TITLE}", *OTHER[2:]]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", InputWarning)
        return experiment_run(
            tmp_path_factory.mktemp("hostile"),
            kiwi,
            {"out": out, "other": other},
            "compare: {resamples: 0, differences: 1}\n",
            source=source,
        )


def test_2_report_md_escapes_markup_and_control_characters(hostile_run):
    text = markdown(hostile_run)
    assert ESC not in text and "\r" not in text and "<" not in text.split("## Where systems differ most")[1]
    rows = [line for line in text.splitlines() if line.startswith("| 2 |")]
    assert rows == [
        "| 2 | 1.0000 | 0.5000 | -0.5000 "
        "| 물을 마셨다. &lt;script&gt;alert(x)&lt;/script&gt;\\\\x0d\\\\x1b[31mR&amp;D &lt;b&gt;\\\\x1b[0m "
        "| He drank water. &lt;img src=x onerror=alert(x)&gt; "
        "| He drank.\\\\x0d\\| \\\\x1b]0;pwned\\\\x07 | - | 물 |"
    ]


def _differences_item(page):
    section = page.split('<section id="differences">')[1].split("</section>")[0]
    (item,) = [li for li in section.split("<li>")[1:] if ">line 2</a>" in li]
    return item


def test_12_report_html_escapes_the_source_line_of_the_differences(hostile_run):
    item = _differences_item(html(hostile_run))
    assert item.startswith('<a href="#" data-goto="1" data-variant="base">line 2</a> out 1.0000 → other 0.5000 ')
    assert "(-0.5000): 물을 마셨다. &lt;script&gt;alert(x)&lt;/script&gt;" in item
    assert "R&amp;D &lt;b&gt;" in item and item.endswith('<span class="loss">− 물</span></li></ol></details>')
    page = html(hostile_run)
    assert "<script>alert" not in page and "R&D <b>" not in page and "<img src" not in page


def test_2_report_html_shows_control_characters_escaped(hostile_run):
    page = html(hostile_run)
    assert ESC not in page.split('<script type="application/json"')[0]
    assert _differences_item(page) == (
        '<a href="#" data-goto="1" data-variant="base">line 2</a> out 1.0000 → other 0.5000 '
        "(-0.5000): 물을 마셨다. &lt;script&gt;alert(x)&lt;/script&gt;\\x0d\\x1b[31mR&amp;D &lt;b&gt;\\x1b[0m"
        ' <span class="loss">− 물</span></li></ol></details>'
    )
