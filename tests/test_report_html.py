"""report.html in a real browser: headless Chromium (Debian's package) loads the page offline,
with no console message, and shows the systems table and a sentence with its keywords marked."""
import json
import os
import re
import shutil
import subprocess

import pytest

MARK = re.compile(r'<mark class="(\w+)" title="([^"]*)">([^<]*)</mark>')


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
        [chromium, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-extensions",
         f"--user-data-dir={tmp_path / 'profile'}", "--enable-logging=stderr", "--v=0",
         "--host-resolver-rules=MAP * ~NOTFOUND",        # any request off the machine fails, and is logged
         "--dump-dom", url],
        capture_output=True, text=True, timeout=180)
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
    assert not re.search(r'(src|href)="(https?:)?//', raw)          # self-contained
    dom, console = render(chromium, page.as_uri() + "#line=9", tmp_path)
    assert console == []
    assert 'data-ready="true"' in dom and "data-js-errors" not in dom
    table = dom[dom.index('<table class="systems">'):]
    table = table[:table.index("</table>")]
    fluent = json.loads((demo_run[0] / "results.json").read_text(encoding="utf-8"))["variants"][0]["systems"][0]
    low, high = fluent["ktr_ci"]
    assert f"<td>fluent (baseline)</td><td>{fluent['ktr']:.4f}</td><td>[{low:.4f}, {high:.4f}]</td>" in table
    assert table.count("<tr>") == 4
    assert "<svg" in dom and "transfer rate by keyword class" in dom

    detail = dom[dom.index('<div id="detail">'):]
    assert "Line 9 · variant base" in detail
    block = detail[detail.index('data-system="fluent"'):detail.index('data-system="literal"')]
    source_html, output_html = block.split('class="text output"')
    expected_source, expected_output = expected_marks(8)
    assert [(kind, text) for kind, _, text in MARK.findall(source_html)] == expected_source
    assert [(kind, text) for kind, _, text in MARK.findall(output_html)] == expected_output
    assert {"hit", "miss"} <= {kind for kind, _ in expected_source}     # the line shows both
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
    hits = [("hit" if k.transferred else "miss", source[k.keyword.start:k.keyword.end])
            for k in result.sentences[0].keywords]
    marks = [(k.span[0], "match", " ".join(words[k.span[0]:k.span[1]])) for k in result.sentences[0].keywords if k.span]
    marks += [(i, "added", words[i]) for i, _ in result.sentences[0].added]     # traced to no keyword
    return hits, [(kind, text) for _, kind, text in sorted(marks)]
