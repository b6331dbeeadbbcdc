"""Configs, caches, the files ktr writes, exit codes and hints (docs/input-handling.md, "Configs,
the cache and the files ktr writes").

Everything runs as a user runs it: ``ktr`` as a subprocess (as tests/cli/test_main.py) or in this
process (as tests/cli/test_commands.py), on real files, with Kiwi. Two conditions are made real for
one subprocess:

- a full disk: a file-size limit (``RLIMIT_FSIZE``) past which the kernel refuses every write
  (``EFBIG``, "File too large"), as it refuses one on a full disk (``ENOSPC``);
- a read-only folder: a read-only bind mount in a mount namespace of the subprocess's own (as
  root, who may write anywhere else), or a folder without write permission (as anyone else).

A package that is not installed is hidden from one subprocess as tests/scoring/test_dataframes.py hides
pandas: ``sys.modules[name] = None`` before ktr starts, so that importing it fails.
"""

from __future__ import annotations

import errno
import json
import os
import resource
import shutil
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from ktr import Config, Scorer
from ktr.errors import ConfigError, InputError, LexiconError
from ktr.lexicon.importers import import_file, write_tsv
from ktr.textio import read_lines
from tests.cli.test_commands import ktr as ktr_in  # in this process
from tests.conftest import ROOT, write
from tests.reports.test_formats import LEXICON, OUTPUT, SOURCE

OTHER = ["The student read a book.", "He drank.", "Chulsoo came.", ""]


@pytest.fixture
def case(tmp_path):
    """The hand-worked case of tests/reports/test_formats.py (exact and inflection matching, a lexicon of
    six entries) as files: (source, output, scoring config)."""
    lexicon = write(tmp_path / "six.tsv", LEXICON)
    src = write(tmp_path / "src.ko", "\n".join(SOURCE) + "\n")
    hyp = write(tmp_path / "out.en", "\n".join(OUTPUT) + "\n")
    cfg = write(tmp_path / "c.yaml", f"lexicons: [{lexicon}]\nmatching: [exact, inflection]\n")
    return src, hyp, cfg


def experiment(folder: Path, body: str = "", name: str = "exp") -> Path:
    """An experiment on the hand-worked case (system ``out``, and ``other`` when ``body`` names it)."""
    write(folder / "six.tsv", LEXICON)
    write(folder / "src.ko", "\n".join(SOURCE) + "\n")
    write(folder / "out.en", "\n".join(OUTPUT) + "\n")
    write(folder / "other.en", "\n".join(OTHER) + "\n")
    head = "data: {source: src.ko, systems: {out: out.en}}\npipeline: {lexicons: [six.tsv], matching: [exact, inflection]}\n"
    return write(folder / f"{name}.yaml", body or head + "compare: {resamples: 0}\n")


def ktr(*args, env=None, fsize=None, hide=(), prefix=(), cwd=ROOT):
    """``ktr ARGS`` as a subprocess. ``env``: variables added; ``fsize``: the largest file it may
    write, in bytes (a full disk); ``hide``: packages it finds not installed; ``prefix``: a command
    it runs under (a mount namespace)."""
    if hide:
        code = f"import sys\nfor m in {tuple(hide)!r}:\n    sys.modules[m] = None\n"
        code += "from ktr.cli.main import main\nsys.exit(main(sys.argv[1:]))\n"
        command = [sys.executable, "-c", code, *map(str, args)]
    else:
        command = [sys.executable, "-m", "ktr.cli", *map(str, args)]

    def limit() -> None:
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # a refused write fails, it does not kill
        resource.setrlimit(resource.RLIMIT_FSIZE, (fsize, fsize))

    return subprocess.run(
        [*prefix, *command],
        cwd=cwd,
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONIOENCODING": "utf-8", "PYTHONDONTWRITEBYTECODE": "1", **(env or {})},
        preexec_fn=limit if fsize is not None else None,
        stdin=subprocess.DEVNULL,
    )


def error_line(proc, message, code=1):
    """The process failed with exactly ``ktr: error: MESSAGE`` on one line, status ``code``."""
    assert (proc.returncode, proc.stdout, proc.stderr) == (code, "", f"ktr: error: {message}\n")


def files_in(folder: Path) -> list[str]:
    return sorted(str(p.relative_to(folder)) for p in folder.rglob("*"))


# 4. configs: no aliases, no key twice, finite numbers, bounded messages ------------------------


def bomb(levels: int) -> str:
    """A YAML "billion laughs": anchors, each a list of nine of the one before (six levels: 531,441
    strings, a message of 2.6 MB when printed; nine levels ran to a MemoryError)."""
    lists = [f"&{chr(97 + i)} [{', '.join(['x' if i == 0 else f'*{chr(96 + i)}'] * 9)}]" for i in range(levels)]
    return f"[{', '.join(lists)}]"


@pytest.mark.slow  # ktr in a subprocess
def test_an_alias_in_a_scoring_config_is_refused_naming_file_and_line(case, tmp_path):
    src, hyp, _ = case
    bombed = write(tmp_path / "bomb.yaml", f"analyzer: {bomb(6)}\n")  # printed whole as "got [...]"
    refused = "YAML anchors and aliases are not allowed in a config (&a): write each value out"
    error_line(ktr("score", "-s", src, "-t", hyp, "-c", bombed), f"{bombed}:1: {refused}")
    alias = write(tmp_path / "alias.yaml", "matching: [exact]\nclasses: [noun]\nf_beta: 1\nheadline: *h\n")
    error_line(
        ktr("score", "-s", src, "-t", hyp, "-c", alias),
        f"{alias}:4: YAML anchors and aliases are not allowed in a config (*h): write each value out",
    )
    with pytest.raises(ConfigError) as raised:
        Config.from_yaml(alias)
    assert (
        str(raised.value)
        == f"{alias}:4: YAML anchors and aliases are not allowed in a config (*h): write each value out"
    )


@pytest.mark.slow  # ktr in a subprocess
def test_an_alias_in_an_experiment_is_refused_naming_file_and_line(tmp_path):
    folder = tmp_path / "exp"
    folder.mkdir()
    head = "data: {source: src.ko, systems: {out: out.en}}\n"
    cfg = experiment(folder, head + "pipeline: &p {matching: [exact]}\nvariants: {base: *p}\n")
    error_line(
        ktr("run", cfg, "-q", "-o", tmp_path / "out"),
        f"{cfg}:2: YAML anchors and aliases are not allowed in a config (&p): write each value out",
    )
    assert not (tmp_path / "out").exists()


def test_an_error_message_prints_a_bounded_part_of_a_huge_value():
    level: list = ["x"] * 9
    for _ in range(5):
        level = [level] * 9  # six levels, one list each: 531,441 strings when written out
    with pytest.raises(ConfigError) as raised:
        Config.from_dict({"analyzer": level})
    # two levels of four items: "[[[...], [...], [...], [...], ...], ... (four of them), ...]"
    shown = "[" + "[[...], [...], [...], [...], ...], " * 4 + "...]"
    assert str(raised.value) == f"config: analyzer must be a str, got {shown}"
    with pytest.raises(ConfigError) as raised:
        Config.from_dict({"headline": "f" * 10_000})
    assert str(raised.value) == f"config: headline: '{'f' * 27}...{'f' * 28}' is not valid; choose one of: ktr, f"


@pytest.mark.parametrize(
    "text, line, key",
    [
        ("analyzer: kiwi\nf_beta: 1\nanalyzer: mecab\n", 3, "analyzer"),
        ("matching: [exact]\nclass_weights: {noun: 1,\n  verb: 0.5, noun: 2}\n", 3, "noun"),
    ],
)
@pytest.mark.slow  # ktr in a subprocess
def test_a_key_given_twice_in_a_scoring_config_is_refused(case, tmp_path, text, line, key):
    src, hyp, _ = case
    cfg = write(tmp_path / "twice.yaml", text)
    error_line(ktr("score", "-s", src, "-t", hyp, "-c", cfg), f"{cfg}:{line}: invalid YAML: key {key!r} given twice")


@pytest.mark.parametrize(
    "option, message",
    [
        ("f_beta: .inf", "f_beta: must be a finite number, got inf"),
        ("f_beta: .nan", "f_beta: must be a finite number, got nan"),
        ("class_weights: {noun: .inf}", "class_weights: noun: must be a finite number, got inf"),
        ("class_weights: {verb: .NaN}", "class_weights: verb: must be a finite number, got nan"),
        ("timeout: .inf", "timeout: must be a finite number, got inf"),
        ("timeout: .nan", "timeout: must be a finite number, got nan"),
        ("transliteration_threshold: .nan", "transliteration_threshold: must be a finite number, got nan"),
    ],
)
def test_a_number_that_is_not_finite_is_refused(capsys, case, tmp_path, option, message):
    src, hyp, _ = case
    cfg = write(tmp_path / "n.yaml", f"matching: [exact]\n{option}\n")
    code, out, err = ktr_in(capsys, "score", "-s", src, "-t", hyp, "-c", cfg)
    assert (code, out, err) == (1, "", f"ktr: error: {cfg}: {message}\n")


def test_a_number_that_is_not_finite_is_refused_in_an_experiment(capsys, tmp_path):
    head = "data: {source: src.ko, systems: {out: out.en}}\npipeline: {lexicons: [six.tsv], matching: [exact]}\n"
    cfg = experiment(tmp_path, head + "variants: {base: {}, wide: {f_beta: -.inf}}\n")
    code, out, err = ktr_in(capsys, "run", cfg, "-q", "-o", tmp_path / "out")
    assert (code, out, err) == (1, "", f"ktr: error: {cfg}: variants.wide: f_beta: must be a finite number, got -inf\n")


# 8. one line where one line is promised --------------------------------------------------------


@pytest.mark.slow  # ktr in a subprocess
def test_a_config_that_is_not_utf8_is_one_line_naming_file_line_and_encoding(case, tmp_path):
    src, hyp, _ = case
    cfg = write(tmp_path / "cp.yaml", b"matching: [exact]\n# " + "방 열쇠".encode("cp949") + b"\n")
    hint = f"it looks like CP949 (EUC-KR) Korean: convert it with iconv -f CP949 -t UTF-8 {cfg} > {cfg}.utf8"
    error_line(
        ktr("score", "-s", src, "-t", hyp, "-c", cfg),
        f"{cfg}:2: invalid UTF-8 at byte 2 of the line (byte 0xb9); {hint}",
    )
    folder = tmp_path / "exp"
    folder.mkdir()
    exp = experiment(folder)
    write(exp, exp.read_text(encoding="utf-8").encode("utf-16"))  # saved as "Unicode" by a Windows editor
    error_line(
        ktr("run", exp, "-q", "-o", tmp_path / "out"),
        f"{exp}:1: invalid UTF-8 at byte 0 of the line (byte 0xff); it looks like UTF-16 "
        f"(a UTF-16 byte-order mark): convert it with iconv -f UTF-16 -t UTF-8 {exp} > {exp}.utf8",
    )


def test_a_negative_seed_is_one_line(capsys, case):
    src, hyp, _ = case
    for option in ("--confidence", "--paired-bs"):
        code, out, err = ktr_in(capsys, "score", "-s", src, "-t", hyp, hyp, option, "--seed", "-1")
        assert (code, out, err) == (1, "", "ktr: error: --seed must be at least 0, got -1\n")


@pytest.mark.slow  # ktr in a subprocess
def test_a_truncated_cache_entry_is_a_miss_and_is_written_again(case, tmp_path):
    src, hyp, cfg = case
    cache = tmp_path / "cache"
    first = ktr("score", "-s", src, "-t", hyp, "-c", cfg, env={"KTR_CACHE_DIR": str(cache)})
    assert first.returncode == 0 and first.stderr == ""
    entries = {p: p.read_bytes() for p in cache.iterdir()}
    assert sorted(p.name.split("-")[0] for p in entries) == ["inflection", "lexicon"]
    for path, data in entries.items():
        path.write_bytes(data[: len(data) // 2])  # a run cut short while the file was written
    for _ in range(2):  # the run that finds them, and every run after it
        again = ktr("score", "-s", src, "-t", hyp, "-c", cfg, env={"KTR_CACHE_DIR": str(cache)})
        assert (again.returncode, again.stdout, again.stderr) == (0, first.stdout, "")
        assert {p: p.read_bytes() for p in cache.iterdir()} == entries  # written again, whole


def read_only(folder: Path) -> tuple[list[str], int]:
    """(a command prefix under which ``folder`` cannot be written, the errno of a write there)."""
    if os.geteuid() != 0:
        folder.chmod(0o555)
        return [], errno.EACCES
    if shutil.which("unshare") is None:
        pytest.skip("needs unshare -m to make a folder read-only for root")
    script = 'mount --bind "$1" "$1" && mount -o remount,ro,bind "$1" "$1" && shift && exec "$@"'
    return ["unshare", "-m", "sh", "-c", script, "sh", str(folder)], errno.EROFS


def cache_warning(folder: Path, code: int) -> str:
    return (
        f"ktr: warning: cannot write the cache in {folder} ({os.strerror(code)}): going on without it, "
        "so what it holds is built again on every run (KTR_CACHE_DIR names another folder)\n"
    )


@pytest.mark.slow  # ktr in a subprocess
def test_a_read_only_cache_folder_still_scores_saying_so_once(case, tmp_path):
    src, hyp, cfg = case
    usual = ktr("score", "-s", src, "-t", hyp, "-c", cfg, env={"KTR_CACHE_DIR": str(tmp_path / "usual")})
    cache = tmp_path / "cache"
    cache.mkdir()
    prefix, code = read_only(cache)
    proc = ktr("score", "-s", src, "-t", hyp, "-c", cfg, env={"KTR_CACHE_DIR": str(cache)}, prefix=prefix)
    cache.chmod(0o755)
    assert (proc.returncode, proc.stdout, proc.stderr) == (0, usual.stdout, cache_warning(cache, code))
    assert files_in(cache) == []


@pytest.mark.slow  # ktr in a subprocess
def test_a_full_cache_folder_still_scores_and_leaves_no_temporary_file(case, tmp_path):
    src, hyp, cfg = case
    usual = ktr("score", "-s", src, "-t", hyp, "-c", cfg, env={"KTR_CACHE_DIR": str(tmp_path / "usual")})
    cache = tmp_path / "cache"
    proc = ktr("score", "-s", src, "-t", hyp, "-c", cfg, env={"KTR_CACHE_DIR": str(cache)}, fsize=0)
    assert (proc.returncode, proc.stdout, proc.stderr) == (0, usual.stdout, cache_warning(cache, errno.EFBIG))
    assert files_in(cache) == []  # no tmp*.tmp left behind


@pytest.mark.slow  # ktr in a subprocess
def test_a_full_analysis_cache_folder_still_runs_and_leaves_no_temporary_file(tmp_path):
    # ktr run's analyses have a cache of their own (cache_dir()/analyses), under the same rule
    folder = tmp_path / "exp"
    folder.mkdir()
    exp = experiment(folder)
    cache = tmp_path / "cache"
    assert ktr("run", exp, "-q", "-o", tmp_path / "first", env={"KTR_CACHE_DIR": str(cache)}).returncode == 0
    shutil.rmtree(cache / "analyses")  # the tables are there, the analyses not
    out = tmp_path / "out"
    run = ktr("run", exp, "-q", "-o", out, env={"KTR_CACHE_DIR": str(cache)}, fsize=0)
    assert (run.returncode, run.stdout) == (1, "")
    assert run.stderr == (
        cache_warning(cache / "analyses", errno.EFBIG) + f"ktr: error: {out}: cannot write the report: File too large\n"
    )
    assert files_in(cache / "analyses") == [] and not out.exists()


DASK = ("distributed", "dask", "fsspec", "pyarrow", "bokeh")


@pytest.mark.parametrize(
    "command",
    [
        ["score", "-s", "{src}", "-t", "{hyp}", "--engine", "dask"],
        ["keywords", "-s", "{src}", "--engine", "dask"],
        ["run", "{exp}", "-q", "-o", "{out}", "--engine", "dask"],
    ],
    ids=["score", "keywords", "run"],
)
@pytest.mark.slow  # ktr in a subprocess
def test_the_dask_engine_without_the_dask_extra_is_one_line(case, tmp_path, command):
    src, hyp, _ = case
    folder = tmp_path / "exp"
    folder.mkdir()
    names = {"src": src, "hyp": hyp, "exp": experiment(folder), "out": tmp_path / "out"}
    args = [a.format(**names) for a in command]
    error_line(ktr(*args, hide=DASK), 'the dask engine needs Dask and fsspec: pip install "ktr[dask]"')
    error_line(ktr(*args, hide=["fsspec"]), 'the dask engine needs fsspec: pip install "ktr[dask]"')


# 9. no silent overwrites; no temporary file left ------------------------------------------------

MUSE = "방 room\n사과 apple;apology\n"


@pytest.mark.slow  # ktr in a subprocess
def test_lexicon_import_replaces_only_a_lexicon_it_wrote(tmp_path):
    muse = write(tmp_path / "pairs.txt", MUSE)
    notes = write(tmp_path / "notes.tsv", "my notes\n")
    refused = (
        f"{notes}: exists and was not written by ktr lexicon import (or was changed since); "
        "use --overwrite to replace it, or -o to choose another file"
    )
    error_line(ktr("lexicon", "import", "muse", muse, "-o", notes), refused)
    assert notes.read_text(encoding="utf-8") == "my notes\n"
    mine = write(tmp_path / "mine.tsv", "# ktr-lexicon/1\n방\tnoun\tchamber\n")  # written by hand, in ktr's format
    error_line(ktr("lexicon", "import", "muse", muse, "-o", mine), refused.replace(str(notes), str(mine)))
    assert mine.read_text(encoding="utf-8") == "# ktr-lexicon/1\n방\tnoun\tchamber\n"
    out = tmp_path / "out.tsv"
    for target in (out, out):  # absent, then written by ktr: replaced
        proc = ktr("lexicon", "import", "muse", muse, "-o", target)
        assert (proc.returncode, proc.stdout) == (0, "")
        assert proc.stderr == f"2 entries written to {target}; skipped records: none\n"
    written = out.read_text(encoding="utf-8").splitlines()
    assert written[0] == "# ktr-lexicon/1" and written[2:] == ["방\tnoun\troom", "사과\tnoun\tapple;apology"]
    assert written[1].startswith("# written by ktr lexicon import (sha256 ")
    write(out, out.read_text(encoding="utf-8") + "물\tnoun\twater\n")  # edited since
    error_line(ktr("lexicon", "import", "muse", muse, "-o", out), refused.replace(str(notes), str(out)))
    empty = write(tmp_path / "empty.tsv", "")
    for target in (notes, empty):
        proc = ktr("lexicon", "import", "muse", muse, "-o", target, *(["--overwrite"] if target == notes else []))
        assert proc.returncode == 0 and target.read_text(encoding="utf-8").splitlines()[2:] == written[2:]


@pytest.mark.slow  # ktr in a subprocess
def test_an_import_that_reads_nothing_is_an_error_and_writes_nothing(tmp_path):
    data = write(tmp_path / "lexicon.json", '{"방": ["room"]}\n')
    out = tmp_path / "out.tsv"
    error_line(
        ktr("lexicon", "import", "tsv", data, "-o", out),
        f"{data}: nothing could be imported as tsv (skipped records: wrong number of columns: 1)",
    )
    assert not out.exists()
    with pytest.raises(LexiconError) as raised:
        import_file("muse", write(tmp_path / "blank.txt", "\n\n"))
    assert str(raised.value) == f"{tmp_path / 'blank.txt'}: nothing could be imported as muse (no records)"


def test_meta_eval_refuses_a_folder_that_holds_something_unless_overwrite(capsys, tmp_path):
    src = write(tmp_path / "s.ko", "방 열쇠가 여기 있습니다.\n물을 마셨다.\n")
    ref = write(tmp_path / "r.en", "Here is the room key.\nI drank water.\n")
    folder = tmp_path / "report"
    folder.mkdir()
    write(folder / "meta-eval.md", "my notes\n")
    refused = (
        f"ktr: error: {folder}: output folder exists and is not empty; "
        "use --overwrite to replace its report files, or -o to choose another folder\n"
    )
    code, out, err = ktr_in(capsys, "meta-eval", "-s", src, "-r", ref, "-o", folder)
    assert (code, out, err) == (1, "", refused)
    assert (
        files_in(folder) == ["meta-eval.md"] and (folder / "meta-eval.md").read_text(encoding="utf-8") == "my notes\n"
    )
    gold = write(tmp_path / "gold.tsv", "line\tlemma\tclass\tjudgement\n1\t방\tnoun\tpresent\n")
    code, out, err = ktr_in(capsys, "meta-eval", "-s", src, "-r", ref, "--gold", gold, "-o", folder)
    assert (code, out, err) == (1, "", refused)
    code, _, err = ktr_in(capsys, "meta-eval", "-s", src, "-r", ref, "-o", folder, "--overwrite")
    assert code == 0 and files_in(folder) == ["meta-eval.json", "meta-eval.md", "meta-eval.svg"]
    assert (folder / "meta-eval.md").read_text(encoding="utf-8").startswith("# ")


@pytest.mark.slow  # ktr in a subprocess
def test_a_full_disk_during_ktr_run_leaves_no_temporary_file(tmp_path):
    folder = tmp_path / "exp"
    folder.mkdir()
    cfg = experiment(folder)
    env = {"KTR_CACHE_DIR": str(tmp_path / "cache")}
    first = ktr("run", cfg, "-q", "-o", tmp_path / "first", env=env)
    assert first.returncode == 0, first.stderr
    sizes = {p.name: p.stat().st_size for p in (tmp_path / "first").iterdir()}
    assert max(sizes, key=sizes.__getitem__) == "report.html"  # the largest: written last, refused alone
    limit = max(size for name, size in sizes.items() if name != "report.html")
    out = tmp_path / "out"
    error_line(
        ktr("run", cfg, "-q", "-o", out, env=env, fsize=limit), f"{out}: cannot write the report: File too large"
    )
    assert not out.exists()  # made for the run, and removed with what was written into it
    # a folder that held the reports of a run keeps them, whole, and gets no temporary file
    proc = ktr("run", cfg, "-q", "-o", tmp_path / "first", "--overwrite", env=env, fsize=limit)
    error_line(proc, f"{tmp_path / 'first'}: cannot write the report: File too large")
    assert {p.name: p.stat().st_size for p in (tmp_path / "first").iterdir()} == sizes


@pytest.mark.slow  # ktr in a subprocess
def test_a_full_disk_during_meta_eval_and_lexicon_import_loses_nothing(tmp_path):
    src = write(tmp_path / "s.ko", "방 열쇠가 여기 있습니다.\n물을 마셨다.\n")
    ref = write(tmp_path / "r.en", "Here is the room key.\nI drank water.\n")
    cfg = write(tmp_path / "c.yaml", f"lexicons: [{write(tmp_path / 'six.tsv', LEXICON)}]\nmatching: [exact]\n")
    env = {"KTR_CACHE_DIR": str(tmp_path / "cache")}
    assert ktr("meta-eval", "-s", src, "-r", ref, "-c", cfg, env=env).returncode == 0  # the tables cached
    out = tmp_path / "meta"
    # 100 bytes: what Python's tempfile writes to find a temporary folder (sacreBLEU asks for one), not a report
    proc = ktr("meta-eval", "-s", src, "-r", ref, "-c", cfg, "-o", out, env=env, fsize=100)
    error_line(proc, f"{out}/meta-eval.json: cannot write: File too large")  # the first of three
    assert not out.exists()
    lexicon = tmp_path / "lexicon.tsv"
    assert ktr("lexicon", "import", "muse", write(tmp_path / "pairs.txt", MUSE), "-o", lexicon).returncode == 0
    before = lexicon.read_bytes()
    bigger = write(tmp_path / "more.txt", MUSE + "".join(f"물{'물' * n} water\n" for n in range(200)))
    proc = ktr("lexicon", "import", "muse", bigger, "-o", lexicon, fsize=len(before) + 10)
    error_line(proc, f"{lexicon}: cannot write lexicon: File too large")
    assert lexicon.read_bytes() == before  # not cut short
    assert [p for p in files_in(tmp_path) if p.endswith(".tmp")] == []


def test_write_tsv_refuses_to_replace_a_file_it_did_not_write(tmp_path):
    entries = import_file("muse", write(tmp_path / "pairs.txt", MUSE)).entries
    notes = write(tmp_path / "notes.tsv", "my notes\n")
    with pytest.raises(LexiconError) as raised:
        write_tsv(entries, notes)
    assert str(raised.value).startswith(f"{notes}: exists and was not written by ktr lexicon import")
    assert write_tsv(entries, notes, overwrite=True) == 2
    assert write_tsv(entries, notes) == 2  # now it was


# 11. exit codes and hints ----------------------------------------------------------------------


@pytest.mark.parametrize(
    "args, message",
    [
        (["score"], "ktr score needs -s SOURCE and -t HYPOTHESIS (or --sample)"),
        (["score", "-t", "{hyp}"], "ktr score needs -s SOURCE and -t HYPOTHESIS (or --sample)"),
        (
            ["score", "-s", "{src}", "--system-column", "mt"],
            "a table needs -s TABLE, --source-column and --system-column",
        ),
        (
            ["lexicon", "import", "muse", "{hyp}"],
            "usage: ktr lexicon import FORMAT FILE -o OUT.tsv (FORMAT: kengdic, krdict, muse, tsv)",
        ),
        (
            ["lexicon", "import", "-o", "{tmp}/x.tsv"],
            "usage: ktr lexicon import FORMAT FILE -o OUT.tsv (FORMAT: kengdic, krdict, muse, tsv)",
        ),
        (["lexicon", "lookup"], "ktr lexicon lookup needs one or more Korean lemmas"),
        (["lexicon", "coverage"], "ktr lexicon coverage needs -s SOURCE"),
    ],
)
@pytest.mark.slow  # ktr in a subprocess
def test_a_missing_argument_is_a_usage_error_on_one_line(case, tmp_path, args, message):
    src, hyp, _ = case
    proc = ktr(*(a.format(src=src, hyp=hyp, tmp=tmp_path) for a in args))
    error_line(proc, message, code=2)


@pytest.mark.slow  # ktr in a subprocess
def test_utf16_and_cp949_files_name_their_encoding_and_the_conversion(case, tmp_path):
    src, hyp, _ = case
    text = "방 열쇠가 여기 있습니다.\n물을 마셨다.\n"
    utf16 = write(tmp_path / "utf16.ko", text.encode("utf-16"))
    big = write(tmp_path / "utf16be.ko", b"\xfe\xff" + text.encode("utf-16-be"))
    cp949 = write(tmp_path / "cp949.ko", text.encode("cp949"))
    euckr = write(tmp_path / "euc-kr.en", "Here is the key.\n물을 마셨다.\n".encode("euc-kr"))

    def hint(path, looks, code):
        return f"it looks like {looks}: convert it with iconv -f {code} -t UTF-8 {path} > {path}.utf8"

    bom = "UTF-16 (a UTF-16 byte-order mark)"
    error_line(
        ktr("score", "-s", utf16, "-t", hyp),
        f"{utf16}:1: invalid UTF-8 at byte 0 of the line (byte 0xff); {hint(utf16, bom, 'UTF-16')}",
    )
    error_line(
        ktr("score", "-s", big, "-t", hyp),
        f"{big}:1: invalid UTF-8 at byte 0 of the line (byte 0xfe); {hint(big, bom, 'UTF-16')}",
    )
    korean = "CP949 (EUC-KR) Korean"
    error_line(
        ktr("score", "-s", cp949, "-t", hyp),
        f"{cp949}:1: invalid UTF-8 at byte 0 of the line (byte 0xb9); {hint(cp949, korean, 'CP949')}",
    )
    two = write(tmp_path / "two.ko", "방 열쇠\n물\n")
    error_line(
        ktr("score", "-s", two, "-t", euckr),
        f"{euckr}:2: invalid UTF-8 at byte 0 of the line (byte 0xb9); {hint(euckr, korean, 'CP949')}",
    )
    with pytest.raises(InputError) as raised:
        read_lines(cp949)
    assert (
        str(raised.value)
        == f"{cp949}:1: invalid UTF-8 at byte 0 of the line (byte 0xb9); {hint(cp949, korean, 'CP949')}"
    )
    pairs = write(tmp_path / "pairs.txt", "방 room\n".encode("cp949"))
    with pytest.raises(LexiconError) as raised:
        import_file("muse", pairs)
    assert (
        str(raised.value)
        == f"{pairs}:1: invalid UTF-8 at byte 0 of the line (byte 0xb9); {hint(pairs, korean, 'CP949')}"
    )
    latin = write(tmp_path / "latin.en", "caf\xe9\n".encode("latin-1"))  # no encoding it looks like: no hint
    with pytest.raises(InputError) as raised:
        read_lines(latin)
    assert str(raised.value) == f"{latin}:1: invalid UTF-8 at byte 3 of the line (byte 0xe9)"


@pytest.mark.slow  # ktr in a subprocess
def test_a_source_without_hangul_and_a_korean_output_are_warned_of_once(capsys, case, tmp_path):
    src, hyp, cfg = case
    english = write(tmp_path / "en.ko", "The student reads.\nHe drank water.\n철수가 왔다.\n42\n")
    korean = write(tmp_path / "ko.en", "학생이 책을 읽었다.\n물을 마셨다 w.\nHe came home.\n네.\n")
    code, out, err = ktr_in(capsys, "score", "-s", english, "-t", korean, hyp, "-c", cfg)
    # both at once: the source and an output swapped, an error after the two warnings (a script
    # reads the exit code)
    assert (code, out) == (1, "")
    assert err.startswith(
        f"ktr: warning: {english}: 2 of 3 lines with letters have no Hangul: is this the Korean source? "
        "KTR finds its keywords in Korean\n"
        f"ktr: warning: {korean}: 3 of 4 lines with letters are mostly Hangul: is this the English output? "
        "KTR matches English words\n"
        "ktr: error: the source and an output look swapped"
    )
    # on a cluster the same, from the lines the check kept (the files are not read again)
    dask = ktr("score", "-s", english, "-t", korean, hyp, "-c", cfg, "--engine", "dask", "--workers", "1", "-f", "json")
    assert dask.returncode == 1 and dask.stderr == err
    code, out, err = ktr_in(capsys, "score", "-s", english, "-t", hyp, "-c", cfg)  # one warning: scored
    assert code == 0 and out and err.count("ktr: warning:") == 1
    code, out, err = ktr_in(capsys, "score", "-s", src, "-t", hyp, "-c", cfg)  # the right way round: nothing
    assert (code, err) == (0, "")
    folder = tmp_path / "exp"
    folder.mkdir()
    exp = experiment(folder)
    write(folder / "out.en", "\n".join(SOURCE) + "\n")
    code, out, err = ktr_in(capsys, "run", exp, "-q", "-o", tmp_path / "out")
    assert code == 0
    assert err == (
        f"ktr: warning: {(folder / 'out.en').resolve()}: 4 of 4 lines with letters are mostly Hangul: is this the English "
        "output? KTR matches English words\n"
    )


# 12. behaviours pinned ---------------------------------------------------------------------------


def test_vs_baseline_variant_p_value_is_the_paired_bootstrap_of_the_two_variants(capsys, tmp_path, kiwi):
    # the embedded sample, two systems, the default pipeline and exact matching alone
    from ktr.sample import paths
    from ktr.scoring.significance import bootstrap, paired_p_value, system_statistics

    sample = paths()
    source = read_lines(sample["source"])
    outputs = {name: read_lines(sample[name]) for name in ("fluent", "wordsalad")}
    found = {
        name: Scorer(config, analyzer=kiwi).score(source, outputs).systems
        for name, config in (("base", Config()), ("exact", Config(matching=("exact",))))
    }
    head = (
        "data: {source: sample:travel.ko, systems: {fluent: sample:travel.fluent.en, "
        "wordsalad: sample:travel.wordsalad.en}}\nvariants: {base: {}, exact: {matching: [exact]}}\n"
    )
    for resamples in (300, 0):
        cfg = write(
            tmp_path / "exp.yaml", head + f"compare: {{resamples: {resamples}, seed: 7}}\noutput: {{formats: [json]}}\n"
        )
        code, _, _ = ktr_in(capsys, "run", cfg, "-q", "-o", tmp_path / "out", "--overwrite")
        assert code == 0
        doc = json.loads((tmp_path / "out" / "results.json").read_text(encoding="utf-8"))
        base, exact = doc["variants"]
        assert [s["vs_baseline_variant"] for s in base["systems"]] == [None, None]
        expected = []
        for before, after in zip(found["base"], found["exact"]):
            p = None
            if resamples:  # each system's KTR resampled under both variants, on the run's resamples
                a, b = bootstrap([system_statistics(s, ("ktr",))["ktr"] for s in (before, after)], len(source), 300, 7)
                p = paired_p_value(a, b, after.ktr - before.ktr)
            expected.append({"delta": after.ktr - before.ktr, "p_value": p})
        assert [s["vs_baseline_variant"] for s in exact["systems"]] == expected
        assert all(e["delta"] < 0 for e in expected)  # exact matching alone transfers less
        if resamples:  # each system its own p-value (0.0033 and 0.043)
            assert 0 < expected[0]["p_value"] < 0.01 < expected[1]["p_value"] < 1


@pytest.mark.parametrize(
    "source, output, transferred",
    [
        ("그는 25일에 왔다.", "He came on Friday.", True),  # the 25th: English names its weekday
        ("그는 31일에 왔다.", "He came on Monday.", True),
        ("그는 100일 동안 일했다.", "He worked on Friday.", False),  # 100 days: no day of a month
        ("그는 32일 동안 일했다.", "He worked on Friday.", False),
        ("그는 100일 동안 일했다.", "He worked for 100 days.", True),
    ],
)
def test_only_a_day_of_the_month_matches_a_weekday(kiwi, source, output, transferred):
    from ktr import KTR

    metric = KTR(Config(matching=("exact", "number")), analyzer=kiwi)
    days = [k for k in metric.sentence_score(source, output).keywords if k.keyword.lemma.endswith("일")]
    assert [(k.keyword.cls, k.transferred) for k in days] == [("digits", transferred)]


def test_class_weights_from_a_yaml_config_change_the_weighted_score(capsys, case, tmp_path):
    # 학생 책 읽다 | 물 마시다 | 철수 오다 (철수: no entry) with verbs 0.25 and proper nouns 2:
    # (1 + 0.25) / 2.25, 1.25 / 1.25, 0.25 / 2.25: 5/9, 1, 1/9, mean 5/9 (all weights 1: 13/18)
    src, hyp, cfg = case
    weighted = write(
        tmp_path / "w.yaml",
        cfg.read_text(encoding="utf-8") + "aggregation: weighted\nclass_weights: {verb: 0.25, proper_noun: 2}\n",
    )
    code, out, _ = ktr_in(capsys, "score", "-s", src, "-t", hyp, "-c", weighted, "-f", "json", "--sentences")
    system = json.loads(out)["systems"][0]
    assert code == 0 and system["ktr"] == system["ktr_weighted"] == pytest.approx(5 / 9)
    assert [s["weighted_score"] for s in system["segments"]] == pytest.approx([5 / 9, 1, 1 / 9, None])
    assert system["ktr_macro"] == pytest.approx(13 / 18)
    code, out, _ = ktr_in(capsys, "score", "-s", src, "-t", hyp, "-c", cfg, "-f", "json")
    assert json.loads(out)["systems"][0]["ktr_weighted"] == pytest.approx(13 / 18)
