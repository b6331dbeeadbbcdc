"""``-c NAME``: the configs shipped with ktr by name, from any folder (issue 40, item 10); ``-c``
still takes a file, which comes first; a name that is neither says which names there are."""

import json

from ktr.resources import configs_dir
from tests.cli.test_commands import ktr
from tests.conftest import write
from tests.reports.test_formats import LEXICON, OUTPUT, SOURCE


def test_a_shipped_config_by_name_from_another_folder(capsys, tmp_path, monkeypatch):
    lexicon = write(tmp_path / "six.tsv", LEXICON)
    src = write(tmp_path / "src.ko", "\n".join(SOURCE) + "\n")
    hyp = write(tmp_path / "out.en", "\n".join(OUTPUT) + "\n")
    monkeypatch.chdir(tmp_path)  # no configs/ here
    runs = {}
    for option in ([], ["-c", "default"], ["-c", "default.yaml"], ["-c", str(configs_dir() / "default.yaml")]):
        code, out, err = ktr(capsys, "score", "-s", src, "-t", hyp, "-f", "json", *option)
        assert code == 0, err
        runs[" ".join(option)] = json.dumps(json.loads(out)["signature"]["full"], sort_keys=True)
    assert len(set(runs.values())) == 1, runs
    mine = write(tmp_path / "default", f"lexicons: [{lexicon}]\nmatching: [exact]\n")  # a file comes first
    code, out, _ = ktr(capsys, "score", "-s", src, "-t", hyp, "-f", "json", "-c", "default")
    assert code == 0 and "|match:exact|" in json.loads(out)["signature"]["short"] and mine.is_file()


def test_a_name_that_is_no_config_lists_the_shipped_ones(capsys, tmp_path, monkeypatch):
    src = write(tmp_path / "src.ko", "\n".join(SOURCE) + "\n")
    hyp = write(tmp_path / "out.en", "\n".join(OUTPUT) + "\n")
    monkeypatch.chdir(tmp_path)
    code, out, err = ktr(capsys, "score", "-s", src, "-t", hyp, "-c", "papr")
    names = sorted(p.stem for p in configs_dir().glob("*.yaml"))
    assert "paper" in names and (code, out) == (1, "")
    assert err == f"ktr: error: -c papr: no such file, nor a config shipped with ktr ({', '.join(names)})\n"
