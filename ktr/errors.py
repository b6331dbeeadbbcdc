"""Exceptions raised by ktr's library code.

Library code raises these; only the command line turns them into messages and exit codes.
"""

from __future__ import annotations

import reprlib
from typing import Any


class KtrError(Exception):
    """Base class of every error ktr reports to a user."""


class InputError(KtrError, ValueError):
    """A user's file or argument is unusable (unreadable, bad encoding, wrong length...)."""


class UsageError(KtrError):
    """The command line lacks an argument it needs (what argparse refuses for a required one):
    the command line reports it on one line and exits with status 2."""


class ConfigError(KtrError, ValueError):
    """A configuration key or value is invalid."""


class LexiconError(KtrError, ValueError):
    """A lexicon file does not follow the documented format."""


class BackendUnavailable(KtrError, RuntimeError):
    """An analyzer backend (or a resource it needs) is not installed."""


class InputWarning(UserWarning):
    """A source line was changed before analysis, or could not be analysed and was not scored."""


class CacheWarning(UserWarning):
    """The on-disk cache could not be written: ktr goes on without it (it only costs time)."""


_SHOWN = reprlib.Repr()
_SHOWN.maxlevel, _SHOWN.maxlist, _SHOWN.maxtuple, _SHOWN.maxdict, _SHOWN.maxset = 2, 4, 4, 4, 4
_SHOWN.maxstring, _SHOWN.maxother, _SHOWN.maxlong = 60, 60, 40


def brief(value: Any) -> str:
    """``repr(value)`` as an error message prints it: at most two levels of four items, 60
    characters of a string, so that no value, however large, makes a message large."""
    return _SHOWN.repr(value)
