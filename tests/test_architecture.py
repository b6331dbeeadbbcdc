"""The package's shape (docs/architecture.md): wings import only lower wings, no module
imports itself back through others, modules stay short enough to read in one sitting and no
function takes more than six parameters. Imports are read from the source: every ``import`` and
``from ... import``, also inside functions and under ``if TYPE_CHECKING:`` (an import for type
checkers only still ties the two modules' ideas together)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import ktr

PACKAGE = Path(ktr.__file__).resolve().parent  # the package imported: the source, or an installed wheel

#: each wing's rank: a module may import its own wing and wings of a lower rank, never a wing of
#: the same rank (korean and english know nothing of each other) or a higher one; the shared
#: modules at the top of the package (rank 0) form one floor
RANKS = {
    "version": 0,
    "errors": 0,
    "resources": 0,
    "cache": 0,
    "textio": 0,
    "controls": 0,
    "deadline": 0,
    "progress": 0,
    "sample": 0,
    "korean": 1,
    "english": 1,
    "embeddings": 1,
    "lexicon": 2,
    "matching": 3,
    "config": 4,  # above the matching stages, which declare their options
    "execution": 5,
    "scoring": 6,
    "experiments": 7,
    "reports": 8,
    "cli": 9,
    "hf": 9,  # the evaluate metric module: the metric, as the command line uses it
    "__main__": 10,  # python -m ktr: the command, on top of everything
}


def _module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _imports(path: Path, modules: set[str]) -> set[str]:
    """The ktr modules ``path`` imports (a ``from package import name`` naming a module counts as
    that module)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(a.name for a in node.names if a.name.split(".")[0] == "ktr")
        elif isinstance(node, ast.ImportFrom) and node.module and node.module.split(".")[0] == "ktr":
            for alias in node.names:
                full = f"{node.module}.{alias.name}"
                found.add(full if full in modules else node.module)
    return found


def _graph() -> dict[str, set[str]]:
    paths = {_module_name(p): p for p in PACKAGE.rglob("*.py")}
    return {name: _imports(path, set(paths)) - {name} for name, path in paths.items()}


def _wing(module: str) -> str | None:
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else None


GRAPH = _graph()


def test_every_wing_has_a_rank():
    assert {w for w in map(_wing, GRAPH) if w} <= set(RANKS)


@pytest.mark.parametrize("module", sorted(m for m in GRAPH if _wing(m)))
def test_wings_import_only_lower_wings(module):
    wing = _wing(module)
    wrong = sorted(
        m for m in GRAPH[module] if _wing(m) and _wing(m) != wing and RANKS[_wing(m)] >= RANKS[wing] and RANKS[wing] > 0
    )  # rank 0: one floor
    assert not wrong, f"{module} (rank {RANKS[wing]}) imports {wrong}"


def test_no_import_cycles():
    """Depth-first search for a module reached again from itself, the package root included (it
    re-exports; nothing imports it back: the version is a module of its own)."""
    graph = {m: {d for d in deps if d in GRAPH} for m, deps in GRAPH.items()}
    state: dict[str, int] = {}  # 1: on the current path, 2: done
    path: list[str] = []

    def visit(m: str) -> list[str] | None:
        state[m] = 1
        path.append(m)
        for d in sorted(graph.get(m, ())):
            if state.get(d) == 1:
                return path[path.index(d) :] + [d]
            if d not in state and (cycle := visit(d)):
                return cycle
        state[m] = 2
        path.pop()
        return None

    for m in sorted(graph):
        if m not in state:
            cycle = visit(m)
            assert cycle is None, " -> ".join(cycle)


#: a module this long has outgrown one sitting: a sign that it holds more than one idea. Modules
#: are split by idea, never to fit this number; it only flags one that grew past it.
ONE_SITTING = 500


def test_modules_are_small_enough_to_read_in_one_sitting():
    long = {
        str(p.relative_to(PACKAGE.parent)): n
        for p in PACKAGE.rglob("*.py")
        if (n := len(p.read_text(encoding="utf-8").splitlines())) > ONE_SITTING
    }
    assert not long, long


#: the most parameters a function takes (``self`` and ``cls`` not counted): options that travel
#: together travel as one object (Config, Matching, RunOptions, Execution...), never one by one
MOST_PARAMETERS = 6


def test_no_function_takes_more_than_six_parameters():
    many = []
    for path in PACKAGE.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                args = node.args
                names = [
                    a.arg for a in (*args.posonlyargs, *args.args, *args.kwonlyargs) if a.arg not in ("self", "cls")
                ]
                if len(names) > MOST_PARAMETERS:
                    many.append(f"{path.relative_to(PACKAGE.parent)}:{node.lineno} {node.name}: {len(names)}")
    assert not many, many
