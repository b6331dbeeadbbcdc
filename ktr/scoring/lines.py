"""The lines a caller passes, checked once for the metric and the scorer: each a list of strings
(a source, a system's output, a reference stream), all of one length.

sacreBLEU's shapes are taken: hypotheses as one list of lines, references as a list of streams
(``[refs]``, or ``[refs_a, refs_b]``); anything else is one :class:`~ktr.errors.InputError` that
says what was expected and where (sacreBLEU's Python API truncates mismatched inputs silently).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ktr.errors import InputError, brief
from ktr.textio import check_counts


def lines_of(value: Any, name: str) -> list[str]:
    """``value`` as a list of lines: a list (or tuple) of strings; an error naming ``name`` and
    the first item that is not a string (a list of lists is the references' shape: said so)."""
    if isinstance(value, str):
        raise InputError(f"{name}: expected a list of lines, not one string")
    if not isinstance(value, Sequence):
        raise InputError(f"{name}: expected a list of lines, got {type(value).__name__}")
    for i, line in enumerate(value):
        if not isinstance(line, str):
            if isinstance(line, Sequence):
                raise InputError(
                    f"{name}: expected a list of lines, got a list of lists at item {i}: pass one system's "
                    "lines (a list of lists is how references are passed: one list per reference stream)"
                )
            raise InputError(f"{name}: line {i + 1} is {brief(line)}, not a string")
    return list(value)


def checked(
    sources: Any, systems: Mapping[str, Any], references: Any = None, source_name: str = "source"
) -> tuple[list[str], dict[str, list[str]], list[list[str]]]:
    """The source, each system's lines and the reference streams, checked: lists of strings, at
    least one system, every one as long as the source."""
    source = lines_of(sources, source_name)
    if not systems:
        raise InputError("no hypothesis given")
    outputs = {name: lines_of(lines, name) for name, lines in systems.items()}
    if references is None:
        refs: list[list[str]] = []
    elif isinstance(references, str) or not isinstance(references, Sequence):
        raise InputError("references: expected a list of reference streams, each a list of lines")
    elif references and all(isinstance(r, str) for r in references):
        raise InputError(
            "references: expected a list of reference streams, each a list of lines: wrap one stream in a list "
            "([refs]), as sacreBLEU takes them"
        )
    else:
        refs = [lines_of(r, f"reference {i + 1}") for i, r in enumerate(references)]
    check_counts(
        [
            (source_name, len(source)),
            *((name, len(lines)) for name, lines in outputs.items()),
            *((f"reference {i + 1}", len(r)) for i, r in enumerate(refs)),
        ]
    )
    return source, outputs, refs
