"""Files shipped with ktr: tag tables and configs (``configs/``), lexicons (``lexicons/``),
the embedded sample (``ktr/sample/``), the ``evaluate`` metric module (``ktr/hf/``).

In a source checkout (or an editable install) they are read where they stand; a wheel installs
``configs/`` and ``lexicons/`` as the packages ``ktr.configs`` and ``ktr.lexicons``
(see ``pyproject.toml``).
"""

from __future__ import annotations

from pathlib import Path

_PACKAGE = Path(__file__).resolve().parent
_ROOT = _PACKAGE.parent


def _dir(name: str) -> Path:
    """``name`` at the top of a source checkout, else inside the installed package. (A folder
    without ``__init__.py`` is a namespace package, whose ``importlib.resources.files`` is a
    MultiplexedPath that ``str`` does not turn into a path: the wheel's ``ktr/configs`` was not
    found that way.)"""
    here = _ROOT / name
    if here.is_dir() and (_ROOT / "pyproject.toml").is_file():
        return here
    return _PACKAGE / name


def configs_dir() -> Path:
    return _dir("configs")


def lexicons_dir() -> Path:
    return _dir("lexicons")


def sample_dir() -> Path:
    return _PACKAGE / "sample"


def evaluate_metric() -> Path:
    """The Hugging Face ``evaluate`` metric module shipped with ktr, for ``evaluate.load(str(path))``
    (:mod:`ktr.hf.ktr_metric`; needs the ``evaluate`` extra)."""
    return _PACKAGE / "hf" / "ktr_metric.py"
