"""The scripted player's decisions, one per test, on the opening view of Rheinübung changed just enough."""
from __future__ import annotations

from pbem.core.dice import FixedDice
from pbem.rules.bismarck import RULESET, bot
from tests.rules.bismarck.conftest import fresh


def _view(seat: str) -> dict:
    return RULESET.view(fresh(), seat)


def _orders(view: dict, seat: str) -> list[str]:
    return bot.orders(view, seat, FixedDice([])).splitlines()


def _ships(view: dict, ids: set[str], **changes) -> dict:
    return dict(view, ships=[dict(x, **changes) if x["id"] in ids else x for x in view["ships"]])


def _unit(view: dict, uid: str, **changes) -> dict:
    return dict(view, units=[dict(u, **changes) if u["id"] == uid else u for u in view["units"]])


def _contact(view: dict, classes: list[str]) -> dict:
    return dict(view, contacts=[{"id": "C1", "hex": "J29", "classes": classes, "turn": view["game_turn"],
                                 "status": "sighted"}])


def test_the_opening_turn_sets_standing_orders_then_moves_and_searches():
    out = _orders(_view("german"), "german")
    assert out[:2] == ["ON_SHADOW KG1 EVADE", "AUTO_ENGAGE OFF"]
    assert "MOVE KG1 I28" in out and out[-1] == "SEARCH ALL"


def test_short_of_fuel_in_an_own_port_the_group_fills_up_instead_of_moving():
    view = _ships(_unit(_view("german"), "KG1", hex="U26"), {"bismarck", "prinz-eugen"}, hex="U26")
    view = _ships(view, {"bismarck"}, fuel=10)
    out = _orders(view, "german")
    assert "PORT bismarck" in out and "PORT prinz-eugen" not in out
    assert not any(line.startswith("MOVE KG1") for line in out)


def test_a_group_that_cannot_move_repairs_its_rudder():
    view = _ships(_unit(_view("german"), "KG1", limit=0), {"bismarck"}, rudder=True)
    out = _orders(view, "german")
    assert "REPAIR bismarck" in out and not any(line.startswith("MOVE KG1") for line in out)


def test_the_german_engages_a_cruiser_in_his_hex_but_never_a_battleship():
    view = _view("german")
    assert "ENGAGE C1" in _orders(_contact(view, ["CA"]), "german")
    assert "ENGAGE C1" not in _orders(_contact(view, ["BB", "CA"]), "german")


def test_the_answers_to_a_convoy_and_a_doctrine_question():
    view = _view("allied")
    assert bot.orders(dict(view, step="convoy"), "allied", FixedDice([])) == "ATTACK\n"
    assert bot.orders(dict(view, step="doctrine"), "allied", FixedDice([])) == "DOCTRINE ALL CLOSE TORPEDOES ON BREAK 2\n"


def test_when_shadowed_only_the_groups_that_must_move_move():
    view = dict(_view("german"), step="shadowed-german", must_move=["KG1"])
    assert _orders(view, "german") == ["MOVE KG1 I28"]
