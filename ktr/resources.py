"""Files shipped with ktr: tag tables and configs (``configs/``), lexicons (``lexicons/``),
the embedded sample (``ktr/sample/``).

In a source checkout (or an editable install) they are read where they stand; a wheel installs
``configs/`` and ``lexicons/`` as the packages ``ktr.configs`` and ``ktr.lexicons``
(see ``pyproject.toml``).
"""
from __future__ import annotations

from importlib.resources import files
from pathlib import Path

_ROOT = Path(__file__).resolve().parent.parent


def _dir(top_level: str, package: str) -> Path:
    here = _ROOT / top_level
    if here.is_dir() and (_ROOT / "pyproject.toml").is_file():
        return here
    return Path(str(files(package)))


def configs_dir() -> Path:
    return _dir("configs", "ktr.configs")


def lexicons_dir() -> Path:
    return _dir("lexicons", "ktr.lexicons")


def sample_dir() -> Path:
    return Path(__file__).resolve().parent / "sample"
