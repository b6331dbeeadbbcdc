"""A run's input files, checked once, before anything is scored or even built.

:func:`check_inputs` reads every file once (a path given twice is read once): UTF-8, with the
line of the first bad byte; indexed for a cluster's workers or streamed from here
(:func:`ktr.execution.ranges.check_file`). :class:`Inputs` then holds the checked files and
refuses line counts that differ and a source without text, so that a run fails before its
scorer is built (which takes seconds), never halfway through a corpus.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from ktr.errors import InputError
from ktr.execution.ranges import CheckedFile, check_file
from ktr.textio import check_counts


@dataclass(frozen=True)
class Inputs:
    """The checked files of a run: the source, each system's output (by name) and each reference."""

    source: CheckedFile
    systems: dict[str, CheckedFile]
    references: list[CheckedFile] = field(default_factory=list)

    def __post_init__(self) -> None:
        if not self.systems:
            raise InputError("no hypothesis given")
        check_counts([(f.name, f.lines) for f in self.files])
        if not self.source.has_text:
            raise blank(self.source.name, self.source.lines)

    @property
    def files(self) -> list[CheckedFile]:
        """Every file, the source first, then the systems', then the references."""
        return [self.source, *self.systems.values(), *self.references]


def check_inputs(
    source: str | os.PathLike[str] | CheckedFile,
    systems: Mapping[str, str | os.PathLike[str] | CheckedFile],
    references: Sequence[str | os.PathLike[str] | CheckedFile] = (),
    *,
    distributed: bool = False,
) -> Inputs:
    """Every file checked (those given as paths; a file checked already is taken as it is)."""
    if not systems:
        raise InputError("no hypothesis given")
    seen: dict[str, CheckedFile] = {}

    def checked(f: str | os.PathLike[str] | CheckedFile, allow_empty: bool) -> CheckedFile:
        if not isinstance(f, (str, os.PathLike)):
            return f
        name = str(f)
        if name not in seen:
            seen[name] = check_file(name, distributed=distributed, allow_empty=allow_empty)
        return seen[name]

    src = checked(source, allow_empty=False)
    return Inputs(
        src,
        {name: checked(f, allow_empty=True) for name, f in systems.items()},
        [checked(f, allow_empty=True) for f in references],
    )


def blank(name: str, lines: int) -> InputError:
    """The error for a source whose lines are all blank."""
    return InputError(f"{name} has {lines} line(s) but none with text: nothing to score")
