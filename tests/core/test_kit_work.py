"""The working copy's one event call and its dice: audiences written one way everywhere."""
from __future__ import annotations

import pytest

from pbem.core.dice import FixedDice
from pbem.core.errors import RulesetDefinitionError
from pbem.core.flow import Flow
from pbem.core.ruleset import Seat
from pbem.core.work import EVERYONE, Work

SEATS = (Seat("de-1", "de"), Seat("de-2", "de"), Seat("gb", "gb"))


def _work(values=()):
    return Work(Flow("a"), SEATS, FixedDice(values))


@pytest.mark.parametrize("to, seen", [
    (None, {"de-1", "de-2", "gb"}),
    (EVERYONE, {"de-1", "de-2", "gb"}),
    ("de-2", {"de-2"}),
    ("de", {"de-1", "de-2"}),
    (("gb", "de-1"), {"gb", "de-1"}),
    ({"de", "gb"}, {"de-1", "de-2", "gb"}),
    ((), set()),
])
def test_say_to_every_audience(to, seen):
    w = _work()
    w.say("x", to=to, kind="k", n=1)
    (e,) = w.events
    assert (e.text, e.visible_to, e.kind, dict(e.data)) == ("x", frozenset(seen), "k", {"n": 1})


def test_an_unknown_audience_is_a_bug():
    with pytest.raises(RulesetDefinitionError, match="neither a seat nor a side"):
        _work().say("x", to="fr")


def test_rolls_record_who_may_see_them():
    w = _work([4, 2, 1])
    assert w.roll(6, "hit", seen_by="de") == 4
    assert w.roll(6, "secret", seen_by=()) == 2
    assert w.shuffle(["a", "b"], "deck", seen_by="gb") == ("b", "a")
    assert [(r.why, r.seen_by) for r in w.dice.rolls] == [
        ("hit", frozenset({"de-1", "de-2"})), ("secret", frozenset()), ("deck", frozenset({"gb"}))]


def test_events_keep_their_order_and_side_of_names_the_side():
    w = _work()
    for n in range(3):
        w.say(f"e{n}")
    assert [e.text for e in w.events] == ["e0", "e1", "e2"]
    assert w.side_of("de-2") == "de"
    with pytest.raises(RulesetDefinitionError):
        w.side_of("fr")
