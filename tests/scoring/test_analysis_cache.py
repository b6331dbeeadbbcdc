"""The analysis cache's key: a stored analysis is reused only for the same text by the same
analyzer, named by its name, its version and the code that converts its output, under the same
ktr version and storage format (ktr/scoring/analysis_cache.py)."""

import hashlib
import inspect
import json
from pathlib import Path

import pytest

import ktr.scoring.analysis_cache as analysis_cache
from ktr.korean.analyzers import base
from ktr.korean.analyzers import kiwi as kiwi_module
from ktr.scoring.analysis_cache import CachedAnalyzer

LINES = ["방 열쇠 여기 있습니다.", "물을 마셨다."]


class Renamed:
    """The real Kiwi under another name or version (what another backend or an upgrade looks like)."""

    def __init__(self, inner, name=None, version=None):
        self.inner, self.tagset = inner, inner.tagset
        self.name, self.version = name or inner.name, version or inner.version

    def analyze(self, text):
        return self.inner.analyze(text)

    def analyze_many(self, texts):
        return self.inner.analyze_many(texts)


def reused(analyzer, directory) -> int:
    """How many of LINES a fresh cache over ``analyzer`` read from ``directory``."""
    cached = CachedAnalyzer(analyzer, directory=directory)
    found = cached.analyze_many(LINES, label="corpus")
    assert found == [analyzer.analyze(line) for line in LINES]  # read back or analysed: the same
    assert cached.loaded + cached.analysed == len(LINES)
    return cached.loaded


def test_the_key_names_format_ktr_version_analyzer_version_and_code(kiwi):
    cached = CachedAnalyzer(kiwi, directory="unused")
    digest = hashlib.sha256()
    for module in sorted((kiwi_module, base), key=lambda m: m.__name__):  # the backend's code, then base's
        digest.update(Path(inspect.getsourcefile(module)).read_bytes())
    assert cached.key == (
        f"{analysis_cache.FORMAT}|{analysis_cache.__version__}|kiwi|{kiwi.version}|{digest.hexdigest()[:16]}"
    )


def test_a_stored_analysis_is_reused_only_under_the_same_key(kiwi, tmp_path, monkeypatch):
    assert reused(kiwi, tmp_path) == 0
    assert reused(kiwi, tmp_path) == len(LINES)  # the same key: read back
    assert reused(Renamed(kiwi, version="kiwipiepy-9.9"), tmp_path) == 0  # another analyzer version
    assert reused(Renamed(kiwi, name="mykiwi"), tmp_path) == 0  # another analyzer (and its code)
    with monkeypatch.context() as m:
        m.setattr(analysis_cache, "__version__", "0.0.0-other")
        assert reused(kiwi, tmp_path) == 0  # another ktr
    with monkeypatch.context() as m:
        m.setattr(analysis_cache, "FORMAT", analysis_cache.FORMAT + 1)
        assert reused(kiwi, tmp_path) == 0  # another storage format
    assert reused(kiwi, tmp_path) == len(LINES)  # and the first is still there


def test_a_file_under_a_label_with_another_key_is_not_read(kiwi, tmp_path):
    """A file whose recorded key differs (an old ktr wrote it) is analysed again and rewritten."""
    first = CachedAnalyzer(kiwi, directory=tmp_path)
    first.analyze_many(LINES, label="corpus")
    (path,) = tmp_path.iterdir()
    path.write_text(path.read_text(encoding="utf-8").replace(first.key, "0|old"), encoding="utf-8")
    again = CachedAnalyzer(kiwi, directory=tmp_path)
    again.analyze_many(LINES, label="corpus")
    assert (again.loaded, again.analysed) == (0, len(LINES))
    assert first.key in path.read_text(encoding="utf-8")


@pytest.mark.parametrize("label", [None, "corpus"])
def test_changed_lines_alone_are_analysed_again(kiwi, tmp_path, label):
    CachedAnalyzer(kiwi, directory=tmp_path).analyze_many(LINES, label=label)
    again = CachedAnalyzer(kiwi, directory=tmp_path)
    again.analyze_many([LINES[0], "책을 읽었다."], label=label)
    # under a label the corpus is the same file, so the unchanged line is read back; without
    # one, a corpus is named by its content: another corpus, analysed whole
    assert (again.loaded, again.analysed) == ((1, 1) if label else (0, 2))


def test_an_analysis_is_read_back_as_stored_in_either_form(kiwi):
    """One string per sentence, or JSON rows when a morpheme holds a tab or a newline."""
    plain = kiwi.analyze(LINES[0])
    odd = [plain[0]._replace(form="열\t쇠", lemma="열\n쇠"), *plain[1:]]
    for morphemes, form in ((plain, str), (odd, list)):
        stored = json.loads(json.dumps(analysis_cache._encode(morphemes)))  # as it goes to disk and back
        assert isinstance(stored, form)
        assert analysis_cache._decode(stored) == morphemes
