"""The command line: ``ktr score``, ``run``, ``keywords``, ``lexicon`` and ``meta-eval``, a module each."""

from ktr.cli.main import main

__all__ = ["main"]
