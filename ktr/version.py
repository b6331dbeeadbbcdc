"""The version of ktr: the only place it is written (pyproject.toml and the package root read it)."""

__version__ = "0.1.0"
