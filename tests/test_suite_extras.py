"""With the ``test`` extra alone (no mecab-ko, no Dask), the quick lane's tests that need them
skip with a reason instead of failing (issue 40, item 7): run in a pytest of their own with
those packages made unimportable (tests/without_extras.py)."""

import subprocess
import sys

import pytest

from tests.conftest import ROOT

NEEDS_AN_EXTRA = [
    "tests/cli/test_commands.py::test_analyzer_option_overrides_the_config",  # -a mecab
    "tests/cli/test_commands.py::test_the_engine_options_make_the_engine_and_its_json_field",  # --engine dask
    "tests/cli/test_commands.py::test_run_exit_codes_and_output_folder",  # --engine dask's exit code
    "tests/test_input_handling.py::test_5_mecab_no_longer_stops_at_a_nul",
    "tests/lexicon/test_constructions.py::test_a_place_is_no_grammar",  # mecab among its analyzers
]


@pytest.mark.slow  # a pytest in a subprocess
def test_tests_that_need_mecab_or_dask_skip_without_them():
    proc = subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "tests.without_extras", "-p", "no:cacheprovider", "-q", "-rs"]
        + NEEDS_AN_EXTRA,
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=600,
    )
    summary = proc.stdout.strip().splitlines()[-1]
    assert proc.returncode == 0 and " failed" not in summary and " error" not in summary, proc.stdout[-3000:]
    assert "needs mecab-ko" in proc.stdout and "needs Dask distributed" in proc.stdout
    assert "needs the mecab analyzer" in proc.stdout
