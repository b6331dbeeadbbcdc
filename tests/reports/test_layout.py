"""report.html's layout in a real browser (issue 40, item 5), at a desktop's 1,280 px and a
phone's 390 px: the systems table whole within the page on the desktop and scrolling in its own
box on the phone, the confidence-interval plot's points inside a phone's width, and a note when
no font can draw Hangul (fontconfig limited to DejaVu, which has none). And Chromium, as the
tests start it, writes nothing into the home folder (issue 40, item 7)."""

import os
from pathlib import Path

import pytest

from tests.browser import Browser
from tests.reports.test_html import chromium, render  # noqa: F401 (a fixture)

# slow: a headless Chromium on the report of ktr run
pytestmark = pytest.mark.slow

DEJAVU = Path("/usr/share/fonts/truetype/dejavu")

LAYOUT = """(() => {
  const box = (e) => e.getBoundingClientRect();
  const table = document.querySelector('table.systems');
  const scroller = table.parentElement;
  return {
    page: [document.documentElement.scrollWidth, document.documentElement.clientWidth],
    table: [Math.round(box(table).width), Math.round(box(scroller).width)],
    scrolls: getComputedStyle(scroller).overflowX,
    scrollerRight: Math.round(box(scroller).right),
    points: [...document.querySelectorAll('#plots svg circle')].map((c) => [box(c).left, box(c).right]),
    fontNote: !document.getElementById('font-note').hidden,
  };
})()"""


def layout(chromium, page, profile, width, fonts=None):  # noqa: F811
    with Browser(chromium, profile, width, 1200, width < 500, fonts=fonts) as b:
        b.open(page.as_uri())
        found = b.evaluate(LAYOUT)
        if os.environ.get("KTR_SCREENSHOTS"):
            b.screenshot(Path(os.environ["KTR_SCREENSHOTS"]) / f"layout-{width}{'-no-hangul' if fonts else ''}.png")
        return found


def test_on_a_desktop_the_systems_table_fits_the_page(chromium, demo_run, tmp_path):  # noqa: F811
    found = layout(chromium, demo_run[0] / "report.html", tmp_path / "profile", 1280)
    page, client = found["page"]
    table, scroller = found["table"]
    assert page <= client and table <= scroller, found  # every column shown, chrF's last too
    assert found["points"] and all(right <= 1280 for _, right in found["points"])
    assert found["fontNote"] is False


def test_on_a_phone_the_table_scrolls_in_its_box_and_the_plot_fits(chromium, demo_run, tmp_path):  # noqa: F811
    found = layout(chromium, demo_run[0] / "report.html", tmp_path / "profile", 390)
    page, client = found["page"]
    assert page <= client and found["scrollerRight"] <= 390, found  # the page itself never scrolls sideways
    table, scroller = found["table"]
    assert table > scroller and found["scrolls"] == "auto", found
    assert len(found["points"]) == 3 and all(0 <= left and right <= 390 for left, right in found["points"]), found


def test_without_a_font_for_hangul_the_page_says_so(chromium, demo_run, tmp_path):  # noqa: F811
    if not DEJAVU.is_dir():
        pytest.skip(f"needs the DejaVu fonts (Debian: fonts-dejavu-core) at {DEJAVU}")
    conf = tmp_path / "fonts.conf"
    conf.write_text(
        f'<?xml version="1.0"?><!DOCTYPE fontconfig SYSTEM "fonts.dtd"><fontconfig><dir>{DEJAVU}</dir>'
        f"<cachedir>{tmp_path / 'fontcache'}</cachedir></fontconfig>",
        encoding="utf-8",
    )
    found = layout(chromium, demo_run[0] / "report.html", tmp_path / "profile", 1280, fonts=str(conf))
    assert found["fontNote"] is True


def test_chromium_writes_nothing_in_the_home_folder(chromium, demo_run, tmp_path, monkeypatch):  # noqa: F811
    home = tmp_path / "home"
    home.mkdir()
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.delenv("XDG_CONFIG_HOME", raising=False)
    monkeypatch.delenv("XDG_CACHE_HOME", raising=False)
    layout(chromium, demo_run[0] / "report.html", tmp_path / "profile", 800)
    render(chromium, (demo_run[0] / "report.html").as_uri(), tmp_path)
    assert sorted(p.relative_to(home).as_posix() for p in home.rglob("*")) == []
