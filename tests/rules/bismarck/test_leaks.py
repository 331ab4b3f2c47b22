"""No leaks: two states that differ only in what a seat may not see give identical views, forms,
order checks and pictures for that seat."""
import json
from dataclasses import replace

from pbem.core.orders import OrderLine
from pbem.rules.bismarck import RULESET

from .conftest import at, fresh


def same_for(seat, a, b, lines=("MOVE KG1 J28", "SEARCH ALL", "ENGAGE C1")):
    va, vb = RULESET.view(a, seat), RULESET.view(b, seat)
    assert json.dumps(va, sort_keys=True) == json.dumps(vb, sort_keys=True)
    assert RULESET.order_form(va, seat) == RULESET.order_form(vb, seat)
    ol = [OrderLine(i + 1, t) for i, t in enumerate(lines)]
    assert RULESET.check_orders(va, seat, ol).problems == RULESET.check_orders(vb, seat, ol).problems
    assert RULESET.picture(va) == RULESET.picture(vb)


def _move(state, sid, h, **kw):
    return replace(state, ships=tuple(replace(x, hex=h, **kw) if x.id == sid else x for x in state.ships))


def test_allied_cannot_see_unreported_german_positions_fuel_or_convoy_vp():
    a = at(fresh(), step="orders")
    b = _move(a, "lothringen", "S10")
    b = _move(b, "bismarck", "J28", fuel=3)
    b = replace(b, convoy_vp=((5, True),), merchants=2, vp_bag=b.vp_bag[1:])
    same_for("allied", a, b)


def test_german_cannot_see_allied_positions_or_standing_orders():
    a = at(fresh(), step="orders")
    b = _move(a, "norfolk", "E18", fuel=2)
    b = at(b, standing={"allied": ("SHADOW OFF",)})
    same_for("german", a, b)


def test_contact_names_never_reach_the_holder():
    s = fresh("last-dash")
    v = RULESET.view(s, "allied")
    text = json.dumps(v["contacts"])
    assert "bismarck" not in text and v["contacts"][0]["classes"] == {"BB": 1}
    # the same contact on another German unit of the same class looks the same
    other = replace(s, contacts=tuple(replace(c, unit="tirpitz") for c in s.contacts))
    assert RULESET.view(other, "allied")["contacts"] == v["contacts"]


def test_secret_vp_only_in_the_german_view():
    s = replace(fresh(), convoy_vp=((3, False),))
    assert RULESET.view(s, "german")["secret_vp"]["convoy_markers"] == [{"value": 3, "halved": False}]
    assert "secret_vp" not in RULESET.view(s, "allied")


def test_german_cannot_see_allied_shadow_orders_restricted_ships_or_releases():
    a = at(fresh(), step="orders")
    b = at(a, standing={"allied": ("SHADOW J29 WITH norfolk", "ON_DIVERSION BOTH FAST=suffolk")})
    b = _move(b, "london", "AB15", status="sea", markers=())
    b = _move(b, "rodney", "N23", status="sea", markers=())
    same_for("german", a, b, lines=("MOVE KG1 J28", "SHADOW J29 OFF", "ENGAGE C1 IF PREVIOUS WON"))


def test_allied_cannot_see_whether_german_destroyers_must_return():
    a = at(fresh(), step="orders")
    a = _move(a, "z-5", "J24")
    b = _move(a, "bismarck", "J29", ee=(-3,), markers=("rtb",))  # the secret RTB exception is on in b
    same_for("allied", a, b, lines=("SEARCH ALL", "ENGAGE C1 IF hood SUNK"))
