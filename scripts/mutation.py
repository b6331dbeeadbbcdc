"""Mutation testing of chosen modules with mutmut, in bounded time (not part of CI).

    python scripts/mutation.py                       # every group below, 15 minutes each at most
    python scripts/mutation.py scoring cli --minutes 10 --jobs 2
    python scripts/mutation.py --list                # the groups: modules and the tests run on them
    python scripts/mutation.py cli --again --minutes 30  # continue cli's last run, its survivors first

mutmut changes one small thing at a time in a module (a ``<`` into ``<=``, a string into
another, a ``return x`` into ``return None``) and runs the tests that reach the changed
function; a mutant is *killed* when a test fails, *survives* when they all pass, and has *no
tests* when no test of the group calls the function in the pytest process (tests that run
``ktr`` in a subprocess do reach it, but mutmut cannot see that, so they are not run for it).

Each group is run in a fresh copy of the checkout under ``.mutation/<group>/`` (gitignored),
with mutmut's settings written into that copy's pyproject.toml, so the checkout is never
changed; the copy stays afterwards to read the survivors (``docs/testing.md``)::

    cd .mutation/scoring && mutmut show ktr.scoring.results.x_macro__mutmut_3

Needs ``pip install 'mutmut>=3.8,<4'`` (not a dependency of ktr). Prints per group and in
total: killed / mutants, the score, and the survivors' names (also in survivors.txt).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import signal
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path
from typing import TextIO

ROOT = Path(__file__).resolve().parent.parent
WORK = ROOT / ".mutation"
COPIED = ("ktr", "tests", "configs", "lexicons", "scripts", "docs", "README.md", "pyproject.toml")

#: group -> (modules mutated, the fast tests run on them)
GROUPS: dict[str, tuple[list[str], list[str]]] = {
    "scoring": (
        ["ktr/scoring/results.py"],
        ["tests/scoring/test_scorer.py", "tests/matching/test_tracing.py", "tests/reports/test_formats.py"],
    ),
    "matching": (
        [
            "ktr/matching/assignment.py",
            "ktr/matching/cascade.py",
            "ktr/matching/stage.py",
            "ktr/matching/phrases.py",
            "ktr/matching/marks.py",
            "ktr/matching/number_stage.py",
            "ktr/matching/transliteration_stage.py",
        ],
        [
            "tests/matching/test_cascade.py",
            "tests/matching/test_assignment.py",
            "tests/matching/test_numbers.py",
            "tests/matching/test_transliteration.py",
            "tests/lexicon/test_constructions.py",
            "tests/lexicon/test_idioms.py",
            "tests/english/test_inflection.py",
        ],
    ),
    "reports": (
        ["ktr/reports/formats.py", "ktr/reports/explain.py", "ktr/reports/files.py"],
        ["tests/matching/test_tracing.py", "tests/reports/test_formats.py", "tests/reports/test_files.py"],
    ),
    "cli": (
        ["ktr/cli/score.py", "ktr/cli/keywords.py", "ktr/cli/run.py", "ktr/cli/common.py", "ktr/cli/main.py"],
        ["tests/cli/test_commands.py", "tests/cli/test_help.py"],
    ),
}


def settings(modules: list[str], tests: list[str]) -> str:
    quoted = lambda items: "[" + ", ".join(json.dumps(i) for i in items) + "]"  # noqa: E731
    return (
        "\n[tool.mutmut]\n"
        'source_paths = ["ktr"]\n'
        f"only_mutate = {quoted(modules)}\n"
        'also_copy = ["configs", "lexicons", "scripts", "docs", "README.md", "mutation_order.py"]\n'
        f"pytest_add_cli_args_test_selection = {quoted(tests)}\n"
        # not the KoNLPy tests: once mutmut's parent process has started Java, the processes it
        # forks for the mutants exit or hang as soon as a test builds a scorer (killed or timeout
        # whatever the mutant); their tag tables are checked by the whole suite
        'pytest_add_cli_args = ["-q", "-x", "-p", "no:cacheprovider", "-p", "mutation_order", '
        '"-W", "ignore::DeprecationWarning", "-m", "not jvm"]\n'
    )


#: a pytest plugin for the mutant runs: the fastest tests first (by the times mutmut measured), so
#: a mutant a quick test kills is not first run through the slow ones
ORDER_PLUGIN = """\
import json
from pathlib import Path
from typing import TextIO


def pytest_collection_modifyitems(session, config, items):
    stats = Path("mutmut-stats.json")
    if stats.is_file():
        durations = json.loads(stats.read_text(encoding="utf-8")).get("duration_by_test", {})
        items.sort(key=lambda item: durations.get(item.nodeid, 0.0))
"""


def prepare(group: str) -> Path:
    """A fresh copy of the checkout for ``group``, with mutmut's settings in its pyproject.toml."""
    modules, tests = GROUPS[group]
    where = WORK / group
    shutil.rmtree(where, ignore_errors=True)
    where.mkdir(parents=True)
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc")
    for name in COPIED:
        source = ROOT / name
        if source.is_dir():
            shutil.copytree(source, where / name, ignore=ignore)
        else:
            shutil.copy2(source, where / name)
    (where / "mutation_order.py").write_text(ORDER_PLUGIN, encoding="utf-8")
    present = [t for t in tests if (ROOT / t).is_file()]
    with open(where / "pyproject.toml", "a", encoding="utf-8") as fh:
        fh.write(settings(modules, present))
    return where


def refresh(group: str) -> tuple[Path, list[str]]:
    """The group's copy from an earlier run, with the checkout's tests copied into it afresh, and
    the mutants that run left alive (survived or no tests), to be tested again."""
    where = WORK / group
    if not (where / "mutants").is_dir():
        sys.exit(f"mutation.py: --again: {where} holds no earlier run of {group}")
    for folder in (where / "tests", where / "mutants" / "tests"):
        shutil.copytree(ROOT / "tests", folder, dirs_exist_ok=True, ignore=shutil.ignore_patterns("__pycache__"))
    (where / "mutants" / "mutmut-stats.json").unlink(missing_ok=True)  # which tests reach what: measured again
    alive = (where / "survivors.txt").read_text(encoding="utf-8").split()
    return where, [name.rstrip(":") for name in alive if name.startswith("ktr.")]


def mutmut(where: Path, env: dict, names: list[str], jobs: int, deadline: float, log: TextIO) -> bool:
    """``mutmut run`` (on ``names`` only, if given) until it ends (True) or the deadline (False)."""
    proc = subprocess.Popen(
        ["mutmut", "run", "--max-children", str(jobs), *names],
        cwd=where,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    try:
        proc.wait(timeout=max(deadline - time.monotonic(), 0))
        return True
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGTERM)
        proc.wait()
        time.sleep(5)  # the mutants mutmut forked outlive it when they do not stop on SIGTERM
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        return False


def run_group(group: str, minutes: float, jobs: int, again: bool = False) -> dict:
    where, alive = refresh(group) if again else (prepare(group), [])
    # mutants never write the user's cache, and every mutant's tests share one (tests/conftest.py)
    env = {**os.environ, "KTR_CACHE_DIR": str(WORK / "cache"), "KTR_TEST_CACHE_DIR": str(WORK / "cache")}
    started = time.monotonic()
    deadline = started + minutes * 60
    with open(where / "mutmut.log", "a" if again else "w", encoding="utf-8") as log:
        # again: first the survivors of the last run with the new tests, then the mutants not run yet
        finished = mutmut(where, env, alive, jobs, deadline, log) if alive else True
        if finished:
            finished = mutmut(where, env, [], jobs, deadline, log)
    subprocess.run(["mutmut", "export-cicd-stats"], cwd=where, env=env, capture_output=True)
    stats_file = where / "mutants" / "mutmut-cicd-stats.json"
    stats = json.loads(stats_file.read_text()) if stats_file.is_file() else {}
    results = subprocess.run(
        ["mutmut", "results", "--all", "true"], cwd=where, env=env, capture_output=True, text=True
    ).stdout
    survivors = [
        line.split(":")[0].strip()
        for line in results.splitlines()
        if line.rstrip().endswith((": survived", ": no tests"))
    ]
    (where / "survivors.txt").write_text(
        "".join(
            f"{line.strip()}\n" for line in results.splitlines() if line.rstrip().endswith((": survived", ": no tests"))
        ),
        encoding="utf-8",
    )
    return {
        "group": group,
        "finished": finished,
        "seconds": time.monotonic() - started,
        "survivors": survivors,
        **stats,
    }


def readable(mutant: str) -> str:
    """The function a mutant changed, from mutmut's name of it: ktr.scoring.results.xǁReportǁto_dict__mutmut_3
    -> ktr.scoring.results.Report.to_dict."""
    module, _, function = mutant.split("__mutmut_")[0].rpartition(".")
    function = function[2:] if function.startswith("x_") else function[1:].strip("ǁ").replace("ǁ", ".")
    return f"{module}.{function}"


def line(found: dict) -> str:
    total = found.get("total", 0)
    caught = found.get("killed", 0) + found.get("timeout", 0)
    score = f"{100 * caught / total:.1f}%" if total else "-"
    # mutants with no verdict: the time limit stopped the run, or mutmut stopped early because
    # no test of the group reached any mutated function
    not_run = total - caught - found.get("survived", 0) - found.get("no_tests", 0) - found.get("suspicious", 0)
    note = "" if found.get("finished", True) else "  (stopped at the time limit)"
    return (
        f"{found['group']:<10} killed {caught} / {total} mutants = {score}; survived {found.get('survived', 0)}, "
        f"no tests {found.get('no_tests', 0)}, not run {not_run}, timeout {found.get('timeout', 0)}"
        f"  [{found.get('seconds', 0):.0f} s]{note}"
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("groups", nargs="*", help=f"groups to run (default all: {', '.join(GROUPS)})")
    parser.add_argument("--minutes", type=float, default=15, help="time limit of each group (default 15)")
    parser.add_argument("--jobs", type=int, default=2, help="mutants tested at once (default 2)")
    parser.add_argument(
        "--again",
        action="store_true",
        help="continue the groups' last run in .mutation/: its verdicts stand, the tests are copied "
        "afresh, its survivors are tested again, then the mutants it did not reach",
    )
    parser.add_argument("--list", action="store_true", help="print the groups and exit")
    args = parser.parse_args()
    if args.list:
        for name, (modules, tests) in GROUPS.items():
            print(f"{name}: {' '.join(modules)}\n    tests: {' '.join(tests)}")
        return 0
    unknown = [g for g in args.groups if g not in GROUPS]
    if unknown:
        parser.error(f"unknown group(s) {', '.join(unknown)}; choose from {', '.join(GROUPS)}")
    if shutil.which("mutmut") is None:
        print("mutation.py: mutmut is not installed: pip install 'mutmut>=3.8,<4'", file=sys.stderr)
        return 1
    found = []
    for group in args.groups or list(GROUPS):
        found.append(run_group(group, args.minutes, args.jobs, args.again))
        print(line(found[-1]), flush=True)
        for function, n in Counter(readable(name) for name in found[-1]["survivors"]).items():
            print(f"    {n:>3} alive in {function}")
    total = {
        "group": "total",
        "finished": all(f["finished"] for f in found),
        "seconds": sum(f["seconds"] for f in found),
    }
    for key in ("killed", "timeout", "survived", "no_tests", "suspicious", "total"):
        total[key] = sum(f.get(key, 0) for f in found)
    print(line(total))
    return 0


if __name__ == "__main__":
    sys.exit(main())
