"""report.html in a real browser: headless Chromium (Debian's package) loads the page offline,
with no console message, and shows the systems table and a sentence with its keywords marked;
driven by keyboard at desktop and phone widths, it filters sentences, explains each marked
keyword, and renders Korean with a font that has Hangul (Debian's fonts-noto-cjk in CI).
Screenshots go to $KTR_SCREENSHOTS when it names a folder (CI: dist/screenshots)."""

import json
import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from tests.browser import KEYS, Browser, chromium_env

# slow: a headless Chromium on the report of ktr run
pytestmark = pytest.mark.slow

MARK = re.compile(r'<mark class="(\w+)" title="([^"]*)"[^>]*>([^<]*)</mark>')


@pytest.fixture(scope="module")
def chromium():
    path = shutil.which("chromium") or shutil.which("chromium-browser")
    if path is None:
        if os.environ.get("CI"):
            pytest.fail("Chromium is not installed: .ci/run installs Debian's chromium package")
        pytest.skip("needs Chromium: not installed (Debian: apt-get install chromium; .ci/run installs it as root)")
    return path


def render(chromium, url, tmp_path):
    """The DOM after the page's scripts ran, and every console line Chromium logged."""
    proc = subprocess.run(
        [
            chromium,
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--no-first-run",
            "--disable-extensions",
            f"--user-data-dir={tmp_path / 'profile' / 'data'}",
            "--enable-logging=stderr",
            "--v=0",
            "--host-resolver-rules=MAP * ~NOTFOUND",  # any request off the machine fails, and is logged
            "--dump-dom",
            url,
        ],
        capture_output=True,
        text=True,
        timeout=180,
        env=chromium_env(tmp_path / "profile"),  # nothing written in the home folder
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    return proc.stdout, [line for line in proc.stderr.splitlines() if ":CONSOLE" in line]


def test_the_console_check_catches_errors(chromium, tmp_path):
    page = tmp_path / "bad.html"
    page.write_text("<!DOCTYPE html><p>x</p><script>missing();</script>", encoding="utf-8")
    _, console = render(chromium, page.as_uri(), tmp_path)
    assert any("missing is not defined" in line for line in console)


def test_report_loads_with_table_and_highlighted_sentence(chromium, demo_run, tmp_path):
    page = demo_run[0] / "report.html"
    raw = page.read_text(encoding="utf-8")
    assert not re.search(r'(src|href)="(https?:)?//', raw)  # self-contained
    dom, console = render(chromium, page.as_uri() + "#line=6", tmp_path)
    assert console == []
    assert 'data-ready="true"' in dom and "data-js-errors" not in dom
    table = dom[dom.index('<table class="systems">') :]
    table = table[: table.index("</table>")]
    fluent = json.loads((demo_run[0] / "results.json").read_text(encoding="utf-8"))["variants"][0]["systems"][0]
    low, high = fluent["ktr_ci"]
    cells = f'<td>fluent (baseline)</td><td>{fluent["ktr"]:.4f}</td><td class="ci">[{low:.4f}, {high:.4f}]</td>'
    assert cells in table
    assert table.count("<tr>") == 4
    assert "<svg" in dom and "transfer rate by keyword class" in dom

    detail = dom[dom.index('<div id="detail">') :]
    assert "Line 6 · variant base" in detail
    block = detail[detail.index('data-system="fluent"') : detail.index('data-system="literal"')]
    source_html, output_html = block.split('class="text output"')
    expected_source, expected_output = expected_marks(5)
    assert [(kind, text) for kind, _, text in MARK.findall(source_html)] == expected_source
    assert [(kind, text) for kind, _, text in MARK.findall(output_html)] == expected_output
    assert {"hit", "miss"} <= {kind for kind, _ in expected_source}  # the line shows both
    assert {"match", "added"} <= {kind for kind, _ in expected_output}


def expected_marks(line):
    """What the page must mark on a line for the fluent system, from the scorer itself: each
    keyword's source text as hit or miss, and the output words that matched."""
    from ktr import Config, Scorer
    from ktr.sample import paths
    from ktr.textio import read_lines

    p = paths()
    source, output = read_lines(p["source"])[line], read_lines(p["fluent"])[line]
    (result,) = Scorer(Config()).score([source], {"fluent": [output]}).systems
    words = re.findall(r"\w+", output)
    hits = [
        ("hit" if k.transferred else "miss", source[k.keyword.start : k.keyword.end])
        for k in result.sentences[0].keywords
    ]
    marks = [
        (k.span[0], "match", " ".join(words[k.span[0] : k.span[1]])) for k in result.sentences[0].keywords if k.span
    ]
    marks += [(i, "added", words[i]) for i, _ in result.sentences[0].added]  # traced to no keyword
    return hits, [(kind, text) for _, kind, text in sorted(marks)]


#: every Hangul syllable on the page drawn with the page's font next to two code points no font
#: has (which draw alike: the missing-glyph box, "tofu"); a syllable drawn like them, or like
#: another syllable, is tofu too
GLYPHS = r"""(() => {
  const font = getComputedStyle(document.querySelector("#detail .text.source")).fontFamily;
  const canvas = document.createElement("canvas");
  canvas.width = canvas.height = 48;
  const g = canvas.getContext("2d");
  g.font = `32px ${font}`;
  const draw = (c) => { g.clearRect(0, 0, 48, 48); g.fillText(c, 4, 36); return g.getImageData(0, 0, 48, 48).data.join(""); };
  const chars = [...new Set(Array.from(document.body.innerText).filter((c) => /[\uAC00-\uD7A3]/.test(c)))];
  const box = draw("\u{10FFFD}");
  return { missingAlike: box === draw("\u{10FFFC}"), syllables: chars.length,
           tofu: chars.filter((c) => draw(c) === box), distinct: new Set(chars.map(draw)).size };
})()"""


def shoot(browser, tmp_path, name):
    path = browser.screenshot(tmp_path / f"{name}.png")
    assert path.stat().st_size > 10_000  # a picture, not an empty page
    if os.environ.get("KTR_SCREENSHOTS"):
        folder = Path(os.environ["KTR_SCREENSHOTS"])
        folder.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(path, folder / path.name)


def tab_to(browser, test, limit=80):
    """Press Tab until ``test`` (a script) holds for the focused element; fails if it never does."""
    for _ in range(limit):
        browser.press("Tab", KEYS["Tab"])
        if browser.evaluate(f"(e => {test})(document.activeElement)"):
            return
    raise AssertionError(f"{limit} presses of Tab never reached {test}")


@pytest.mark.parametrize("width,height,mobile", [(1280, 900, False), (390, 844, True)], ids=["desktop", "phone"])
def test_report_by_keyboard_as_a_person_sees_it(chromium, demo_run, tmp_path, width, height, mobile):
    page = demo_run[0] / "report.html"
    html = page.read_text(encoding="utf-8")
    data = json.loads(html[html.index('id="ktr-data">') + len('id="ktr-data">') : html.index("</script>")])
    name = "phone" if mobile else "desktop"
    with Browser(chromium, tmp_path / "profile", width, height, mobile) as b:
        b.open(page.as_uri())
        assert b.evaluate("document.documentElement.scrollWidth") <= width  # no sideways page
        assert b.evaluate("(e => e.scrollWidth <= e.clientWidth)(document.getElementById('browser'))")
        glyphs = b.evaluate(GLYPHS)
        assert glyphs["missingAlike"] and glyphs["syllables"] > 100
        assert glyphs["tofu"] == [] and glyphs["distinct"] == glyphs["syllables"], (
            f"Korean renders as tofu, install a Korean font (Debian: fonts-noto-cjk): {glyphs}"
        )
        shoot(b, tmp_path, f"report-{name}-top")

        # the sentence browser filters: typed into "find", the lines whose texts hold it, in order
        tab_to(b, "e.id === 'find'")
        b.type("방")
        texts = [
            [data["sources"][i]] + [data["outputs"][s][i] for s in data["systems"]] for i in range(len(data["sources"]))
        ]
        expected = [i for i, t in enumerate(texts) if any("방" in x for x in t)]
        assert 1 < len(expected) < len(texts)
        assert (
            b.evaluate("Array.from(document.querySelectorAll('#list li')).map(li => Number(li.dataset.index))")
            == expected
        )

        # by keyboard: Tab into the list, arrows choose a line, Tab walks its marked keywords
        tab_to(b, "e.tagName === 'LI'")
        assert b.evaluate("Number(document.activeElement.dataset.index)") == expected[0]
        b.press("ArrowDown", KEYS["ArrowDown"])
        assert b.evaluate("Number(document.activeElement.dataset.index)") == expected[1]
        assert b.evaluate("document.querySelector('#detail h3').textContent").startswith(f"Line {expected[1] + 1} ")
        b.press("Home", KEYS["Home"])
        b.press("Enter", KEYS["Enter"])
        line = expected[0]
        assert b.evaluate("document.querySelector('#detail h3').textContent").startswith(f"Line {line + 1} ")
        marks = b.evaluate("Array.from(document.querySelectorAll('#detail mark')).map(m => m.title)")
        assert marks and all(marks)
        for title in marks:
            tab_to(b, "e.tagName === 'MARK'", limit=1)  # the next Tab is the next mark
            assert b.evaluate("document.activeElement.title") == title
            assert b.evaluate("document.getElementById('mark-note').textContent") == title
            assert b.evaluate("getComputedStyle(document.activeElement).outlineStyle") != "none"
        b.evaluate("document.getElementById('browser').scrollIntoView()")
        shoot(b, tmp_path, f"report-{name}-sentences")
        assert b.console == []
