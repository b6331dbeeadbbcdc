"""Experiment configs: what ``ktr run`` compares, as a strict YAML schema.

An experiment names its data (a Korean source, systems as name → output file, optional
references), the pipeline settings (the keys of :class:`ktr.config.Config`, validated there),
named variants of those settings, the metrics, the comparison and the output. Paths are relative
to the config file; ``sample:NAME`` names a file of the embedded sample (``ktr/sample/``).
Every error names the file and the key path, and lists the valid keys or choices.
See ``configs/README.md`` for the schema and ``configs/demo.yaml`` for an example.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ktr.config import Config, read_yaml, valid_keys
from ktr.errors import ConfigError, brief
from ktr.scoring.resampling import DEFAULT_RESAMPLES, DEFAULT_SEED, MAX_RESAMPLES

METRICS = ("ktr", "bleu", "chrf", "meteor")
FORMATS = ("json", "tsv", "md", "html")
#: the file each output format is written to
FILES = {"json": "results.json", "tsv": "segments.tsv", "md": "report.md", "html": "report.html"}
SAMPLE_PREFIX = "sample:"
BASE_VARIANT = "base"
_NAME = re.compile(r"^[\w][\w.+-]*$")
_PATH_OPTIONS = ("lexicons", "idioms")  # pipeline options whose values may be file paths


@dataclass(frozen=True)
class Data:
    source: Path
    systems: dict[str, Path]  # in config order
    references: tuple[Path, ...] = ()


@dataclass(frozen=True)
class Comparison:
    baseline: str  # system the others are tested against
    baseline_variant: str  # variant the others are compared with
    resamples: int = DEFAULT_RESAMPLES
    seed: int = DEFAULT_SEED
    differences: int = 10  # sentences listed where a system differs most from the baseline


@dataclass(frozen=True)
class Output:
    dir: Path | None  # None: runs/<config name> in the current folder
    formats: tuple[str, ...] = FORMATS


@dataclass(frozen=True)
class Experiment:
    name: str
    path: Path
    data: Data
    variants: dict[str, Config]  # in config order; one named "base" when none are given
    metrics: tuple[str, ...]
    compare: Comparison
    output: Output

    def output_dir(self) -> Path:
        return self.output.dir if self.output.dir is not None else Path("runs") / self.name

    def to_dict(self) -> dict[str, Any]:
        """The experiment as run (paths resolved), for ``results.json``."""
        return {
            "name": self.name,
            "config": str(self.path),
            "data": {
                "source": str(self.data.source),
                "systems": {k: str(v) for k, v in self.data.systems.items()},
                "references": [str(r) for r in self.data.references],
            },
            "variants": {k: _config_dict(c) for k, c in self.variants.items()},
            "metrics": list(self.metrics),
            "compare": {
                "baseline": self.compare.baseline,
                "baseline_variant": self.compare.baseline_variant,
                "resamples": self.compare.resamples,
                "seed": self.compare.seed,
                "differences": self.compare.differences,
            },
            "output": {"formats": list(self.output.formats)},
        }


def _config_dict(config: Config) -> dict[str, Any]:
    return {k: list(v) if isinstance(v, tuple) else v for k, v in config.to_dict().items()}


class _Reader:
    """Walks the YAML document, checking types and keys; errors carry ``file: key.path``."""

    def __init__(self, path: Path):
        self.path = path
        self.folder = path.parent

    def fail(self, where: str, message: str) -> ConfigError:
        return ConfigError(f"{self.path}: {where}: {message}" if where else f"{self.path}: {message}")

    def mapping(self, value: Any, where: str, keys: dict[str, bool]) -> dict[str, Any]:
        """A mapping whose keys are among ``keys`` (name → required)."""
        if not isinstance(value, dict):
            raise self.fail(where, f"expected a mapping with keys {', '.join(keys)}, got {_kind(value)}")
        for key in value:
            if key not in keys:
                raise self.fail(where, f"unknown key {brief(key)}; valid keys: {', '.join(keys)}")
        for key, required in keys.items():
            if required and key not in value:
                raise self.fail(where, f"missing key {key!r}")
        return value

    def string(self, value: Any, where: str) -> str:
        if not isinstance(value, str) or not value.strip():
            raise self.fail(where, f"expected a non-empty string, got {_kind(value)}")
        return value

    def integer(self, value: Any, where: str, minimum: int, maximum: int | None = None) -> int:
        if isinstance(value, bool) or not isinstance(value, int):
            raise self.fail(where, f"expected a whole number, got {_kind(value)}")
        if value < minimum:
            raise self.fail(where, f"must be at least {minimum}, got {value}")
        if maximum is not None and value > maximum:
            raise self.fail(where, f"must be at most {maximum}, got {value}")
        return value

    def choices(self, value: Any, where: str, valid: tuple[str, ...]) -> tuple[str, ...]:
        items = self.strings(value, where)
        for i, item in enumerate(items):
            if item not in valid:
                raise self.fail(f"{where}[{i}]", f"{brief(item)} is not valid; choose one of: {', '.join(valid)}")
        if len(set(items)) != len(items):
            raise self.fail(where, "lists an item twice")
        return items

    def strings(self, value: Any, where: str) -> tuple[str, ...]:
        if isinstance(value, str):
            value = [value]
        if not isinstance(value, list) or not value:
            raise self.fail(where, f"expected a non-empty list of strings, got {_kind(value)}")
        return tuple(self.string(v, f"{where}[{i}]") for i, v in enumerate(value))

    def name(self, value: Any, where: str) -> str:
        if not isinstance(value, str) or not _NAME.match(value):
            raise self.fail(where, f"{brief(value)} is not a usable name (letters, digits, and . + - _ inside)")
        return value

    def file(self, value: Any, where: str) -> Path:
        spec = self.string(value, where)
        if spec.startswith(SAMPLE_PREFIX):
            from ktr.resources import sample_dir

            path = sample_dir() / spec[len(SAMPLE_PREFIX) :]
        else:
            path = (self.folder / Path(spec).expanduser()).resolve()
        if not path.is_file():
            raise self.fail(where, f"no such file: {path}")
        return path

    def pipeline(self, raw: dict[str, Any], where: str) -> Config:
        """Option validation is :meth:`Config.from_dict`'s; only file paths are resolved here."""
        raw = dict(raw)
        for key in _PATH_OPTIONS:
            if isinstance(raw.get(key), (list, str)):
                items = [raw[key]] if isinstance(raw[key], str) else raw[key]
                raw[key] = [self._option_path(v) for v in items]
        return Config.from_dict(raw, where=f"{self.path}: {where}")

    def _option_path(self, spec: Any) -> Any:
        from ktr.lexicon.format import looks_like_path

        if isinstance(spec, str) and looks_like_path(spec):
            return str((self.folder / spec).resolve())
        return spec


def _kind(value: Any) -> str:
    return "nothing" if value is None else f"{type(value).__name__} {brief(value)}"


TOP_KEYS = {
    "name": False,
    "data": True,
    "pipeline": False,
    "variants": False,
    "metrics": False,
    "compare": False,
    "output": False,
}


def load_experiment(path: str | Path) -> Experiment:
    """Read and check an experiment config (see the module docstring)."""
    p = Path(path)
    doc = read_yaml(p)  # strict: no key twice, no anchors or aliases
    r = _Reader(p)
    keys = set(valid_keys())
    misplaced = [k for k in (doc if isinstance(doc, dict) else ()) if k not in TOP_KEYS and k in keys]
    if misplaced:
        raise r.fail(
            "",
            f"unknown key {misplaced[0]!r}: scoring options go under 'pipeline:' "
            "(is this a scoring config for ktr score -c?)",
        )
    doc = r.mapping(doc, "", TOP_KEYS)
    data = _data(r, doc["data"])
    variants = _variants(r, _optional(doc, "pipeline"), doc.get("variants"))
    metrics = _metrics(r, doc, bool(data.references))
    compare = _comparison(r, _optional(doc, "compare"), data, variants)
    out = r.mapping(_optional(doc, "output"), "output", {"dir": False, "formats": False})
    out_dir = (p.parent / r.string(out["dir"], "output.dir")).resolve() if "dir" in out else None
    output = Output(out_dir, r.choices(out.get("formats", list(FORMATS)), "output.formats", FORMATS))
    return Experiment(r.name(doc.get("name", p.stem), "name"), p, data, variants, metrics, compare, output)


def _optional(doc: dict[str, Any], key: str) -> Any:
    """A section that may be left out (or left empty): an empty mapping then."""
    return {} if doc.get(key) is None else doc[key]


def _data(r: _Reader, raw: Any) -> Data:
    data = r.mapping(raw, "data", {"source": True, "systems": True, "references": False})
    systems_raw = data["systems"]
    if not isinstance(systems_raw, dict) or not systems_raw:
        raise r.fail("data.systems", f"expected a mapping of system name: output file, got {_kind(systems_raw)}")
    systems = {r.name(k, f"data.systems.{k}"): r.file(v, f"data.systems.{k}") for k, v in systems_raw.items()}
    refs_raw = data.get("references", [])
    refs_raw = [refs_raw] if isinstance(refs_raw, str) else refs_raw
    if not isinstance(refs_raw, list):
        raise r.fail("data.references", f"expected a list of files, got {_kind(refs_raw)}")
    references = tuple(r.file(v, f"data.references[{i}]") for i, v in enumerate(refs_raw))
    return Data(r.file(data["source"], "data.source"), systems, references)


def _variants(r: _Reader, pipeline: Any, raw: Any) -> dict[str, Config]:
    """Each variant is the pipeline with its overrides, checked as one scoring config."""
    if not isinstance(pipeline, dict):
        raise r.fail("pipeline", f"expected a mapping of ktr options, got {_kind(pipeline)}")
    base = r.pipeline(pipeline, "pipeline")
    if raw is None:
        return {BASE_VARIANT: base}
    if not isinstance(raw, dict) or not raw:
        raise r.fail("variants", f"expected a mapping of variant name: option overrides, got {_kind(raw)}")
    variants = {}
    for name, overrides in raw.items():
        where = f"variants.{name}"
        r.name(name, where)
        overrides = {} if overrides is None else overrides
        if not isinstance(overrides, dict):
            raise r.fail(where, f"expected a mapping of ktr options to override, got {_kind(overrides)}")
        variants[name] = r.pipeline({**pipeline, **overrides}, where)
    return variants


def _metrics(r: _Reader, doc: dict[str, Any], references: bool) -> tuple[str, ...]:
    metrics = r.choices(doc.get("metrics", ["ktr", "bleu", "chrf"] if references else ["ktr"]), "metrics", METRICS)
    if "ktr" not in metrics:
        raise r.fail("metrics", "must include ktr (the report is built around it)")
    for i, m in enumerate(metrics):
        if m != "ktr" and not references:
            raise r.fail(f"metrics[{i}]", f"{m} needs references (data.references)")
    return metrics


def _comparison(r: _Reader, raw: Any, data: Data, variants: dict[str, Config]) -> Comparison:
    cmp = r.mapping(
        raw,
        "compare",
        {"baseline": False, "baseline_variant": False, "resamples": False, "seed": False, "differences": False},
    )
    baseline = cmp.get("baseline", next(iter(data.systems)))
    if baseline not in data.systems:
        raise r.fail("compare.baseline", f"{brief(baseline)} is not a system; choose one of: {', '.join(data.systems)}")
    baseline_variant = cmp.get("baseline_variant", next(iter(variants)))
    if baseline_variant not in variants:
        raise r.fail(
            "compare.baseline_variant",
            f"{brief(baseline_variant)} is not a variant; choose one of: {', '.join(variants)}",
        )
    return Comparison(
        baseline,
        baseline_variant,
        resamples=r.integer(cmp.get("resamples", DEFAULT_RESAMPLES), "compare.resamples", 0, MAX_RESAMPLES),
        seed=r.integer(cmp.get("seed", DEFAULT_SEED), "compare.seed", 0),
        differences=r.integer(cmp.get("differences", 10), "compare.differences", 0),
    )
