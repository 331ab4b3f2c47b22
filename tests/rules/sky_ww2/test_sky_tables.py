"""Cases derived from every data table: roster values, every attack card, every cancel pair,
every manoeuvre effect [2.2, 2.6, 6.3, 6.9]."""
import pytest

from pbem.rules.sky_ww2 import combat, tables
from skyhelp import doc, position, step

ROSTER = [(side, n) for side in tables.SIDES for n in sorted(tables.roster()[side])]
ATTACKS = sorted(c.id for c in tables.cards().values() if c.kind == "attack")
CANCELS = sorted((c.id, t) for c in tables.cards().values() if c.reacts and not c.remove for t in c.cancels)
MANOEUVRES = sorted(c.id for c in tables.cards().values() if c.manoeuvres)
PASSIVE = "REACT NONE\nREACT_DEFAULT PASS"


@pytest.mark.parametrize("side,number", ROSTER)
def test_roster_row(side, number):
    t = tables.roster()[side][number]
    assert t.value == tables.values()[t.category]                      # [L333-336]
    assert t.damaged.structure <= t.intact.structure and t.damaged.ttx <= t.intact.ttx
    assert 1 <= t.intact.power <= t.intact.ttx


@pytest.mark.parametrize("cid", ATTACKS)
def test_every_attack_card_deals_its_damage_from_the_rear(cid):
    c = tables.card(cid)
    # Fw 190A, firing 3: from the rear 5 points, enough for every card; structure 6 intact
    s = position({"c1": {"number": 1, "alt": "medium", "cell": (2, 2), "facing": "E",
                         "hand": [cid, "dive", "dive", "dive", "dive"]},
                  "x1": {"number": 1, "alt": "medium", "cell": (3, 2), "facing": "E", "hand": ["snap-shot"] * 3}})
    s, ev = step(s, {"coalition-1": f"STAY\nATTACK {cid} TARGET x1\nEND", "axis-1": PASSIVE})
    x1 = doc(s)["aircraft"]["x1"]
    burn = c.burn if c.burn else 0          # a persistent card burns again when x1's own turn starts
    assert x1["markers"] == c.damage + burn
    assert doc(s)["aircraft"]["c1"]["hand"].count("dive") == 4 - c.extra_discard


@pytest.mark.parametrize("rid,target", CANCELS)
def test_every_cancel_pair(rid, target):
    ex = {"attacker": "c1", "target": "x1", "closed": False, "nodes": [
        {"n": 1, "card": target, "party": "att", "ac": "c1", "target": None, "removed": False, "source": "hand",
         "crit": None}]}
    if tables.card(target).kind in ("attack", "manoeuvre", "countermove"):
        assert combat.play_problem(ex, rid, "def", 1, True) == ""
        after = combat.play(ex, rid, "def", "x1", 1, "hand")
        assert not combat.live(after)
    # as an answer to a reaction of the other side
    ex["nodes"][0]["card"] = "banked-turn"
    ex["nodes"].append({"n": 2, "card": target, "party": "def", "ac": "x1", "target": 1, "removed": False,
                        "source": "hand", "crit": None})
    if tables.card(target).reacts:
        assert combat.play_problem(ex, rid, "att", 2, True) == ""


@pytest.mark.parametrize("cid", MANOEUVRES)
def test_every_manoeuvre_resolves(cid):
    c = tables.card(cid)
    a_face = "N" if c.effect == "flank_swap" else "E"
    s = position({"c1": {"number": 1, "alt": "medium", "cell": (2, 2), "facing": a_face,
                         "hand": [cid, "dive", "dive", "dive", "dive"]},
                  "x1": {"number": 1, "alt": "medium", "cell": (3, 2), "facing": "N"}})
    before = doc(s)["aircraft"]
    s, ev = step(s, {"coalition-1": f"STAY\nMANOEUVRE {cid} TARGET x1\nEND", "axis-1": PASSIVE})
    assert any(f"{c.name} succeeds" in e for e in ev)
    after = doc(s)["aircraft"]
    moved = [k for k in ("c1", "x1") if (after[k]["alt"], after[k]["facing"]) != (before[k]["alt"], before[k]["facing"])]
    assert moved, f"{cid} changed nothing"
