"""Checks made before a run: is everything the configuration needs installed?

A missing backend package, Java runtime or WordNet would otherwise show up late (after the
lexicon is loaded, or at the first sentence) as a traceback from a third-party library.
:func:`check` looks for each of them without loading any and raises one
:class:`~ktr.errors.BackendUnavailable` naming every problem, the backend and the fix.
"""
from __future__ import annotations

import importlib.util

from ktr.korean.analyzers.base import NEEDS_JAVA, PACKAGES, available_analyzers, install_hint
from ktr.config import Config
from ktr.errors import BackendUnavailable, ConfigError

#: matching stages that read WordNet (the inflection table is keyed by WordNet's version)
WORDNET_STAGES = ("inflection", "synonym")


def _importable(package: str) -> bool:
    spec = importlib.util.find_spec(package)
    return spec is not None and spec.origin is not None  # an empty folder is no package


def java_problem() -> str | None:
    """Why no JVM can be started, or None (JPype looks in JAVA_HOME, then java on PATH, then
    the usual install folders, exactly as when it starts the JVM)."""
    import jpype

    if jpype.isJVMStarted():
        return None
    try:
        jpype.getDefaultJVMPath()
    except (jpype.JVMNotFoundException, jpype.JVMNotSupportedException) as exc:
        return (f"no usable Java runtime was found ({exc}); install one "
                "(e.g. apt-get install default-jre-headless) or set JAVA_HOME to it")
    return None


def analyzer_problem(name: str) -> str | None:
    """What stops backend ``name`` from starting, with the fix, or None."""
    if name not in PACKAGES:
        raise ConfigError(f"unknown analyzer {name!r}; choose one of: {', '.join(available_analyzers())}")
    missing = [p for p in PACKAGES[name] if not _importable(p)]
    if missing:
        return (f"analyzer {name!r} needs the Python package(s) {', '.join(missing)}, which cannot be "
                f"imported; install with: {install_hint(name)}")
    if name in NEEDS_JAVA:
        java = java_problem()
        if java:
            return f"analyzer {name!r} runs on Java: {java}"
    return None


def wordnet_problem(config: Config) -> str | None:
    stages = [s for s in config.matching if s in WORDNET_STAGES]
    if not stages:
        return None
    from ktr.english.wordnet import wordnet_dir

    try:
        wordnet_dir()
    except BackendUnavailable as exc:
        return f"matching stage(s) {', '.join(stages)} need WordNet: {exc}"
    return None


def check(config: Config, analyzer: bool = True) -> None:
    """Raise BackendUnavailable naming everything ``config`` needs that is missing."""
    found = [p for p in (analyzer_problem(config.analyzer) if analyzer else None, wordnet_problem(config)) if p]
    if found:
        raise BackendUnavailable("; ".join(found))
