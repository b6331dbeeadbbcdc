"""The matching stages by name: one line a stage (name → ``module:Class``), imported only when a
config names the stage or asks for the options of every stage
(:func:`ktr.matching.stage.stage_class`, :func:`~ktr.matching.stage.stage_options`).

Everything else about a stage is in its class (:class:`ktr.matching.stage.Stage`): its options
and their checks, its strength in the assignment, what it needs installed, its signature
fragment. The config, the pipeline, the metric, the assignment and the preflight loop over this
table and name no stage. A stage of one's own is registered by adding a line here, or, from
outside the package, an entry to :data:`STAGES` (``STAGES["mine"] = "my_package.stage:MyStage"``).

The table's order is the order of the signature's fragments; :data:`DEFAULT_CASCADE` is the
order the stages run in when a config does not say.
"""

from __future__ import annotations

#: name → ``module:Class``
STAGES: dict[str, str] = {
    "exact": "ktr.matching.phrases:ExactStage",
    "inflection": "ktr.matching.phrases:InflectionStage",
    "synonym": "ktr.matching.phrases:SynonymStage",
    "derivation": "ktr.matching.phrases:DerivationStage",
    "construction": "ktr.matching.marks:ConstructionStage",
    "idiom": "ktr.matching.phrases:IdiomStage",
    "number": "ktr.matching.number_stage:NumberStage",
    "transliteration": "ktr.matching.transliteration_stage:TransliterationStage",
    "periphrasis": "ktr.matching.periphrasis:PeriphrasisStage",
    "semantic": "ktr.matching.semantic:SemanticStage",
    "pronoun": "ktr.matching.pronoun:PronounStage",
}

#: the stages a config runs when it does not name them, in cascade order
DEFAULT_CASCADE = (
    "exact",
    "inflection",
    "derivation",
    "synonym",
    "idiom",
    "construction",
    "number",
    "transliteration",
    "periphrasis",
    "semantic",
    "pronoun",
)
