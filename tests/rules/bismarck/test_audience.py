"""One rule decides every event's audience (issue 16, fog that holds): the game records events only
through ``Work.say``, which refuses an audience the rule does not allow; both golden playthroughs (bot
games of each scenario) obey it event by event."""
import re
from pathlib import Path

import pytest

from pbem.rules.bismarck import work as W
from pbem.rules.bismarck.work import Work

from .conftest import fresh

GOLDEN = Path(__file__).parents[2] / "golden" / "bismarck"
RULES = Path(W.__file__).parent


@pytest.mark.parametrize("kind, to", [("report", None), ("sunk", "allied"), ("air-attack", ()), ("gossip", None)])
def test_an_audience_the_rule_does_not_allow_is_refused(kind, to):
    with pytest.raises(ValueError):
        Work(fresh()).say("text", kind, to=to)


def test_no_module_records_an_event_past_the_rule():
    direct = [p.name for p in RULES.glob("*.py") if p.name != "work.py" and "kit.say(" in p.read_text()]
    assert not direct


@pytest.mark.parametrize("scenario", ["last-dash", "rheinubung"])
def test_every_event_of_a_bot_game_obeys_the_rule(scenario):
    text = (GOLDEN / scenario / "umpire.txt").read_text()
    events = re.findall(r"^  \[([a-z-]+)\] .*\n(?:(?!  \[|==).*\n)*?    \(to ([a-z, ]+)\)$", text, re.M)
    assert len(events) > 20
    for kind, to in events:
        assert W.audience_problem(kind, frozenset(to.split(", "))) is None, (kind, to)
