"""What a backend needs that may be missing: its Python packages, and Java for KoNLPy's.

Each check looks without loading anything and returns the problem with its fix, or None
(:func:`ktr.scoring.preflight.check` gathers them before a run).
"""

from __future__ import annotations

import importlib.util

from ktr.errors import ConfigError
from ktr.korean.analyzers.base import NEEDS_JAVA, PACKAGES, available_analyzers, install_hint


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
        return (
            f"no usable Java runtime was found ({exc}); install one "
            "(e.g. apt-get install default-jre-headless) or set JAVA_HOME to it"
        )
    return None


def analyzer_problem(name: str) -> str | None:
    """What stops backend ``name`` from starting, with the fix, or None."""
    if name not in PACKAGES:
        raise ConfigError(f"unknown analyzer {name!r}; choose one of: {', '.join(available_analyzers())}")
    missing = [p for p in PACKAGES[name] if not _importable(p)]
    if missing:
        return (
            f"analyzer {name!r} needs the Python package(s) {', '.join(missing)}, which cannot be "
            f"imported; install with: {install_hint(name)}"
        )
    if name in NEEDS_JAVA:
        java = java_problem()
        if java:
            return f"analyzer {name!r} runs on Java: {java}"
    return None
