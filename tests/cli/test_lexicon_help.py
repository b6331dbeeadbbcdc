"""``ktr lexicon ACTION --help`` shows that action's options only (issue 40, item 10), and an
option of another action is a usage error instead of being ignored."""

import re

import pytest

from ktr.cli.lexicon import ACTIONS
from ktr.cli.main import main

#: each action's options (besides -h)
OPTIONS = {
    "lookup": {"-l", "-c"},
    "stats": {"-l", "-c", "-f"},
    "coverage": {"-s", "-l", "-c", "-a", "-f", "--top"},
    "dump": {"-l", "-c", "-f"},
    "import": {"-o", "--overwrite"},
}


def help_of(capsys, *args):
    with pytest.raises(SystemExit) as raised:
        main([*args, "--help"])
    assert raised.value.code == 0
    return capsys.readouterr().out


@pytest.mark.parametrize("action", list(ACTIONS))
def test_each_action_shows_its_own_options(capsys, monkeypatch, action):
    monkeypatch.setenv("COLUMNS", "100")
    text = help_of(capsys, "lexicon", action)
    usage = text.split("\n\n")[0]
    shown = set(re.findall(r"\[(-[-\w]+)", usage)) - {"-h"}
    assert text.startswith(f"usage: ktr lexicon {action} ") and shown == OPTIONS[action], usage


def test_the_command_lists_its_actions(capsys, monkeypatch):
    monkeypatch.setenv("COLUMNS", "100")
    text = help_of(capsys, "lexicon")
    assert "ktr lexicon ACTION --help" in text
    for action, line in ACTIONS.items():
        assert re.search(rf"^    {action} +{re.escape(line[:30])}", text, re.M), action


def test_another_actions_option_is_a_usage_error(capsys):
    with pytest.raises(SystemExit) as raised:
        main(["lexicon", "lookup", "방", "--top", "3"])
    assert raised.value.code == 2 and "unrecognized arguments: --top 3" in capsys.readouterr().err
