"""The embedded travel-domain sample: Korean source, a reference and three MT outputs.

Written for ktr (not taken from any corpus); see ``README.md`` in this folder.
"""

from __future__ import annotations

from pathlib import Path

from ktr.resources import sample_dir

SYSTEMS = ("fluent", "literal", "wordsalad")


def paths() -> dict[str, Path]:
    """Files of the sample: ``source``, ``reference`` and one per system."""
    d = sample_dir()
    out = {"source": d / "travel.ko", "reference": d / "travel.ref.en"}
    for name in SYSTEMS:
        out[name] = d / f"travel.{name}.en"
    return out
