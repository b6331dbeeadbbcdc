"""Each command's --help, the documented surface of the command line: kept as files under
tests/data/help/ (KTR_UPDATE_GOLDEN=1 rewrites them after a deliberate change), and every
option of every command is described in README.md or docs/."""

import argparse
import os
import re

import pytest

from ktr import __version__
from ktr.cli.main import build_parser, main
from tests.conftest import DATA, ROOT

COMMANDS = ["score", "run", "keywords", "lexicon", "meta-eval", "cache"]


def subparser(command: str):
    parser = build_parser()
    return next(a for a in parser._actions if a.choices and command in a.choices).choices[command]


def all_actions(parser):
    """A parser's options and those of its own subcommands (``ktr lexicon``'s actions)."""
    for a in parser._actions:
        if isinstance(a, argparse._SubParsersAction):
            for sub in dict.fromkeys(a.choices.values()):
                yield from all_actions(sub)
        else:
            yield a


def help_text(command: str) -> str:
    return subparser(command).format_help()


@pytest.mark.parametrize("command", COMMANDS)
def test_help_is_the_reviewed_text(command, monkeypatch):
    monkeypatch.setenv("COLUMNS", "100")  # argparse wraps to the terminal's width
    got = help_text(command)
    golden = DATA / "help" / f"{command}.txt"
    if os.environ.get("KTR_UPDATE_GOLDEN"):
        golden.write_text(got, encoding="utf-8")
    assert got == golden.read_text(encoding="utf-8")


def test_the_commands_list_is_the_reviewed_text(monkeypatch):
    # ktr --help: the description and each command's line
    monkeypatch.setenv("COLUMNS", "100")
    got = build_parser().format_help()
    golden = DATA / "help" / "ktr.txt"
    if os.environ.get("KTR_UPDATE_GOLDEN"):
        golden.write_text(got, encoding="utf-8")
    assert got == golden.read_text(encoding="utf-8")


def test_version_and_a_missing_command(capsys):
    with pytest.raises(SystemExit) as raised:
        main(["--version"])
    assert raised.value.code == 0 and capsys.readouterr().out == f"ktr {__version__}\n"
    with pytest.raises(SystemExit) as raised:
        main([])
    assert raised.value.code == 2 and "error: the following arguments are required: command" in capsys.readouterr().err


@pytest.mark.parametrize("command", [c for c in COMMANDS if c != "cache"])  # ktr cache has no option
def test_every_option_is_documented(command):
    """Documented: one of the option's spellings (-s or --src) appears in README.md or docs/."""
    docs = "\n".join(p.read_text(encoding="utf-8") for p in [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))])
    spellings = [a.option_strings for a in all_actions(subparser(command)) if a.option_strings and a.dest != "help"]
    undocumented = [s for s in spellings if not any(re.search(rf"(?<![\w-]){re.escape(o)}(?![\w-])", docs) for o in s)]
    assert spellings and undocumented == []


def test_the_defaults_are_those_the_help_states():
    """An option whose help says "(default N)" has N as its default; of those whose help says
    none, only the switches (False), -f (text) and --top (30, docs/lexicons.md) have one."""
    stated = {}
    for command in COMMANDS:
        for a in all_actions(subparser(command)):
            found = re.search(r"[(;] ?default:? ([^;)]+)\)", a.help or "")
            if a.default is not None and a.dest != "help":
                stated[command, a.dest] = (a.default, found.group(1) if found else None)
    assert {key: (default, said) for key, (default, said) in stated.items() if said is not None} == {
        ("cache", "action"): ("show", "show"),
        ("score", "jobs"): (1, "1"),
        ("score", "engine"): ("local", "local"),
        ("run", "jobs"): (1, "1"),
        ("run", "engine"): ("local", "local"),
        ("keywords", "engine"): ("local", "local"),
        ("meta-eval", "seed"): (1, "1"),
    }
    unstated = {key: default for key, (default, said) in stated.items() if said is None}
    assert unstated == {
        **{
            ("score", d): False
            for d in (
                "sentences",
                "explain",
                "sample",
                "quiet",
                "profile",
                "confidence",
                "paired_bs",
                "paired_ar",
                "full_signature",
                "resume",
                "score_only",
            )
        },
        ("score", "format"): "text",
        ("run", "quiet"): False,
        ("run", "overwrite"): False,
        ("lexicon", "overwrite"): False,
        ("meta-eval", "overwrite"): False,
        ("lexicon", "format"): "text",
        ("lexicon", "top"): 30,  # docs/lexicons.md: --top N, 30 by default
    }
