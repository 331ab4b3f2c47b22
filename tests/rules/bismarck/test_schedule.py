"""Reinforcements and RESTRICTED markers [3, 11.3, 12] from data/schedule.toml."""
from dataclasses import replace

import pytest

from pbem.core.data import walk_provenance
from pbem.core.orders import OrderLine
from pbem.rules.bismarck import RULESET
from pbem.rules.bismarck.admin import administration, release
from pbem.rules.bismarck import tables as T
from pbem.rules.bismarck.board import board
from pbem.rules.bismarck.work import Work

from .conftest import at, fresh

ESCORT_ROWS = [(c["name"], s) for c in T.tables()["convoys"] for s in c["escort"]]


@pytest.mark.parametrize("scenario", ["rheinubung", "last-dash"])
@pytest.mark.parametrize("convoy, ship", ESCORT_ROWS)
def test_every_named_escort_starts_restricted_with_its_convoy(scenario, convoy, ship):
    s = fresh(scenario)
    x = next(x for x in s.ships if x.id == ship)
    if ship in T.scenarios()[scenario]["ships"]:  # the scenario put her on the map (Rodney in last-dash)
        assert x.status == "sea" and "restricted" not in x.markers
    else:
        assert x.status == "escort" and x.markers == ("restricted",) and x.hex is None


def test_schedule_data_names_real_ships_and_sea_hexes_with_provenance():
    data = T.schedule()
    for scen, body in data.items():
        if not isinstance(body, dict):
            continue
        assert scen in T.scenarios()
        for kind in ("reinforcements", "restricted"):
            for sid, v in body.get(kind, {}).items():
                if not isinstance(v, dict):
                    continue
                assert sid in T.units()["ships"]
                if "hex" in v:
                    assert v["hex"] in board().sea, (scen, sid)
                for key in ("turn", "release_from", "lift_turn"):
                    if key in v:
                        T.turn_index(v[key])
                if kind == "restricted":
                    assert "hex" in v or not ({"release_from", "lift_turn", "lift_on"} & set(v))
    prov = {where: p for where, _, p in walk_provenance(data)}
    assert prov["rheinubung.restricted.rodney.release_from"] == "rulebook"
    assert prov["rheinubung.reinforcements.dorsetshire.hex"] == "rulebook"
    assert prov["rheinubung.restricted.ramillies.release_from"] == "placeholder"


def _at(turn_spec, **kw):
    s = fresh(**kw)
    return at(s, turn=T.turn_index(turn_spec), step="orders")


def _check(state, *texts):
    view = RULESET.view(state, "allied")
    return RULESET.check_orders(view, "allied", [OrderLine(i + 1, t) for i, t in enumerate(texts)])


def test_release_before_its_turn_is_refused_with_rule_12():
    # within a date the night turn comes first: on the morning of 24 May only Rodney may go
    c = _check(_at("24-morning"), "RELEASE ramillies")
    assert c.problems and c.problems[0].rule == "12" and c.problems[0].line_no == 1
    assert "releasable: rodney)" in c.problems[0].message


def test_release_ramillies_from_24_may_leaves_hx127_with_dd1_only():
    s = _at("24-day")
    c = _check(s, "RELEASE ramillies")
    assert not c.problems
    w = Work(s)
    release(w, [o.ship for o in c.orders])
    assert w.ships["ramillies"].status == "sea" and w.ships["ramillies"].hex == "M20"
    assert "restricted" not in w.ships["ramillies"].markers
    from pbem.rules.bismarck.events import escort
    hx127 = next(c for c in T.tables()["convoys"] if c["name"] == "HX 127")
    assert escort(w, hx127) == ["dd1"]


def test_restricted_lifted_once_bismarck_is_located():
    w = Work(_at("24-day"))
    administration(w)
    assert w.ships["london"].status == "escort" and w.ships["arethusa"].status == "restricted"
    w = Work(_at("24-day"))
    w.mark("allied", "KG1", "sighted", "search")  # KG1 holds Bismarck
    administration(w)
    assert w.ships["london"].hex == "AB15" and w.ships["arethusa"].hex == "AF24"
    assert w.ships["arethusa"].status == "sea" and not w.ships["arethusa"].markers
    assert any("arethusa: RESTRICTED marker removed (Bismarck has been located); placed in AF24" in e.text
               for e in w.events)


def test_a_lift_turn_removes_the_marker_in_the_administration_before_it():
    s = _at("24-day")
    s = replace(s, lifts=(("cairo", T.turn_index("24-evening"), "", "AB15"),))
    w = Work(s)
    administration(w)  # before the afternoon turn: not yet
    assert w.ships["cairo"].status == "escort"
    w = Work(replace(s, turn=T.turn_index("24-afternoon")))
    administration(w)
    assert w.ships["cairo"].status == "sea" and w.ships["cairo"].hex == "AB15"


def test_dorsetshire_is_a_reinforcement_not_restricted():
    s = fresh()
    x = next(x for x in s.ships if x.id == "dorsetshire")
    assert x.status == "pending" and ("dorsetshire", T.turn_index("25-day"), "AH13") in s.reinforcements


def test_allied_view_lists_restricted_ships_and_how_they_come_off_german_sees_none():
    s = _at("24-day")
    v = RULESET.view(s, "allied")
    by = {r["id"]: r for r in v["restricted"]}
    assert set(by) == {"rodney", "nelson", "london", "ramillies", "dd1", "revenge", "dd2", "cairo", "exeter",
                       "arethusa"}
    assert "RELEASE rodney from the night turn, 24 May (placed in N23)" in by["rodney"]["how"]
    assert "once Bismarck is located" in by["arethusa"]["how"]
    assert v["releasable"] == ["dd1", "ramillies", "rodney"]
    form = RULESET.order_form(v, "allied")
    assert "#   RESTRICTED rodney:" in form
    assert RULESET.view(s, "german")["restricted"] == []
