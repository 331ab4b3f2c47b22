"""Procedures of the sequence of play [5]-[12] driven through the ruleset with FixedDice."""
from dataclasses import replace

from pbem.core.dice import FixedDice, SeededDice
from pbem.core.orders import OrderLine
from pbem.core.ruleset import Window
from pbem.rules.bismarck import RULESET, battle, events, game, naval
from pbem.rules.bismarck import tables as T
from pbem.rules.bismarck.verbs import Move, Port, Release
from pbem.rules.bismarck.victory import victory
from pbem.rules.bismarck.work import Work

from .conftest import at, set_standing, fresh


def face(*rs):
    """The dice faces (1..10) that read as the d10 results ``rs`` (0..9): a 0 is face 10 [2.8]."""
    return [r or 10 for r in rs]


def _sighted_kg1(vis=5, german_std=(), allied_std=("SHADOW ON", "ON_DIVERSION SLOW")):
    """KG1 (Bismarck, Prinz Eugen) Sighted by the Allied player in J29 where Norfolk also is."""
    s = at(fresh(), turn=fresh().start + 1, weather=5, vis=vis,
                standing=(("allied", tuple(allied_std)), ("german", tuple(german_std))))
    w = Work(s)
    w.set("norfolk", hex="J29")
    w.mark("allied", "KG1", "sighted", "search")
    return w


def test_shadow_success_makes_the_unit_shadowed_and_the_shadower_not_search():
    w = _sighted_kg1(vis=5)
    # weather roll 4 (no change at box 2? box 2 DRM +1 -> 5 -> 0), then shadow roll 0
    game.visibility_phase(w, FixedDice(face(4, 0)))
    c = w.contact_on("KG1")
    assert c is not None and c.status == "shadowed"
    assert "norfolk" in w.s.shadowers
    assert game.next_after_weather(w) == "shadowed-german"


def test_evasion_maneuver_costs_2_fp_each_adds_2_and_limits_to_one_hex():
    w = _sighted_kg1(vis=5, german_std=("ON_SHADOW KG1 EVADE",))
    fuel = w.ships["bismarck"].fuel
    # ER diff norfolk 31 - PE... slowest shadowed is bismarck 30: +1 -> -2; radar I -1; vis 5 +1; evasion +2 = 0
    game.visibility_phase(w, FixedDice(face(4, 5)))
    assert w.ships["bismarck"].fuel == fuel - 2 and "evasion" in w.ships["bismarck"].markers
    assert w.contact_on("KG1") is None  # roll 5 + 0 fails: the Sighted marker is removed at step 2B
    from pbem.rules.bismarck import movement as M
    from pbem.rules.bismarck.model import to_json
    assert M.ship_limit(to_json(w.ships["bismarck"]))[0] == 1


def test_diversion_splits_the_tf_and_the_allied_follows_the_slow_part():
    w = _sighted_kg1(vis=5, german_std=("ON_SHADOW KG1 DIVERT prinz-eugen",))
    game.visibility_phase(w, FixedDice(face(4, 0)))
    assert w.ships["bismarck"].tf is None and w.ships["prinz-eugen"].tf is None
    shadowed = [c.unit for c in w.contacts if c.status == "shadowed"]
    assert shadowed == ["bismarck"]


def test_fog_and_visibility_x_remove_markers():
    w = _sighted_kg1()
    from pbem.rules.bismarck.board import board
    fog_hex = sorted(board().fog)[0]
    w.set("bismarck", hex=fog_hex)
    w.set("prinz-eugen", hex=fog_hex)
    w.mark("allied", "KG1", "shadowed", "search")
    w.s = replace(w.s, weather=6)
    game.visibility_phase(w, FixedDice(face(4)))  # weather 6 (+0) -> fog
    assert w.s.fog and w.contact_on("KG1") is None


def test_heavy_weather_fuel_roll():
    w = Work(replace(fresh(), turn=fresh().start + 1, weather=9))
    fuel = w.ships["bismarck"].fuel
    game.visibility_phase(w, FixedDice(face(5, 3)))  # weather stays 9 (5 - 3 = 2 -> -1? ) then fuel roll 3
    if w.s.weather == 9:
        assert w.ships["bismarck"].fuel == fuel - 1


def test_tanker_caught_by_an_allied_ship_is_sunk():
    w = Work(at(fresh(), step="orders"))
    w.set("norfolk", hex="R10")
    w.mark("allied", "lothringen", "sighted", "search")
    naval.naval_phase(w, {"allied": [], "german": []}, FixedDice([]))
    assert w.ships["lothringen"].status == "sunk"
    assert victory(w.freeze())["ships"] == -1


def test_convoy_interrupt_asks_the_german_and_defaults_to_ignore():
    s = at(fresh(), step="orders", vis=5,
                standing=(("german", ("HUNT AUTO", "ON_CONVOY ASK")), ("allied", ())))
    w = Work(s)
    from pbem.rules.bismarck.board import board
    b = board()
    h = next(x for x in sorted(b.convoy) if x not in b.sector and b.convoy[x] == "e")
    w.set("bismarck", hex=h)
    w.set("prinz-eugen", hex=h)
    # hunting roll 0 (TF -1), identification roll 3 -> HX 126, unescorted
    events.convoy_hunt(w, {"german": [], "allied": []}, FixedDice(face(0, 3)))
    assert w.kit.suspended
    st = replace(w.freeze(), flow=w.kit._end("orders"))  # the Flow the table would close the resolution with
    assert st.step == "convoy" and dict(st.flow.pending.data) == {"unit": "KG1", "convoy": "HX 126"}
    ph = RULESET.phase(st)
    assert ph.window == Window.INTERRUPT and ph.awaiting == {"german"}
    assert RULESET.view(st, "german")["pending"] == [events.CONVOY_QUESTION]
    assert RULESET.view(st, "allied").get("pending") is None
    silent = RULESET.resolve(st, {"german": RULESET.default_orders(st, "german")}, FixedDice([1]))
    assert "convoy HX 126 left alone" in [e.text for e in silent.events] and not silent.state.convoy_vp
    chk = RULESET.check_orders(RULESET.view(st, "german"), "german", [OrderLine(1, "ATTACK")])
    assert not chk.problems
    res = RULESET.resolve(st, {"german": chk.orders}, FixedDice([1]))
    assert res.state.step == "admin" and len(res.state.convoy_vp) == 1
    assert "HX 126" in res.state.located
    allied = RULESET.view(res.state, "allied")
    assert allied["contacts"] and allied["contacts"][0]["status"] == "sighted"
    assert all(x["no_mvt"] == 2 for x in RULESET.view(res.state, "german")["ships"] if x["unit"] == "KG1")


def test_rodney_release_from_night_24_may():
    s = at(fresh(), step="orders", turn=T.turn_index("24-night"))
    v = RULESET.view(s, "allied")
    assert v["releasable"] == ["rodney"]
    early = replace(s, turn=T.turn_index("23-evening"))
    bad = RULESET.check_orders(RULESET.view(early, "allied"), "allied", [OrderLine(1, "RELEASE rodney")])
    assert bad.problems and bad.problems[0].rule == "12"
    res = RULESET.resolve(s, {"allied": (Release("rodney"),),
                              "german": ()}, SeededDice(b"r", "x"))
    assert [x for x in res.state.ships if x.id == "rodney"][0].hex == "N23"


def test_bismarck_out_of_emergency_fuel_ends_the_game_minus_15():
    s = at(fresh(), step="admin")
    s = replace(s, ships=tuple(replace(x, emergency=s.turn + 1) if x.id == "bismarck" else x for x in s.ships))
    res = RULESET.resolve(s, {}, FixedDice([]))
    assert res.state.ended == "emergency-fuel"
    assert victory(res.state)["end"] == -15
    assert RULESET.outcome(res.state).winner == "allied"


def test_bismarck_entering_brest_ends_the_game_at_once():
    s = at(fresh(), step="orders")
    s = replace(s, ships=tuple(replace(x, hex="T26", tf=None) if x.id in ("bismarck", "prinz-eugen") else x
                               for x in s.ships))
    res = RULESET.resolve(s, {"german": (Move("bismarck", ("U26",)),), "allied": ()}, FixedDice([]))
    assert res.state.ended == "port-france" and RULESET.phase(res.state) is None
    assert victory(res.state)["end"] == -5


def test_a_naval_battle_runs_to_an_end_and_puts_cards_in_play():
    w = Work(replace(fresh(), vis=9))
    w.set("norfolk", hex="J29")
    log = battle.fight(w, SeededDice(b"battle", "1"), "german", ["prinz-eugen"], ["norfolk"], "J29")
    assert log[0].startswith("naval combat in J29")
    assert w.ships["prinz-eugen"].in_play and w.ships["norfolk"].in_play
    assert w.ships["prinz-eugen"].torps <= 12


def test_port_refuels_and_replenishes_torpedoes():
    s = at(fresh(), step="orders")
    s = replace(s, ships=tuple(replace(x, fuel=3, torps=1, hex="K27") if x.id == "norfolk" else x for x in s.ships))
    res = RULESET.resolve(s, {"allied": (Port("norfolk"),),
                              "german": ()}, SeededDice(b"p", "x"))
    n = [x for x in res.state.ships if x.id == "norfolk"][0]
    assert n.fuel == 7 and n.torps == 4 and "port" in n.markers


def test_standing_orders_canonical_round_trip():
    s = at(fresh(), step="orders")
    v = RULESET.view(s, "german")
    raw = ["on_shadow kg1 divert Prinz-Eugen", "doctrine all standoff torpedoes off break 3", "strike_classes bb ca"]
    first = RULESET.check_orders(v, "german", [OrderLine(i + 1, t) for i, t in enumerate(raw)]).orders
    first = [o.text() for o in first]
    again = RULESET.check_orders(v, "german", [OrderLine(i + 1, t) for i, t in enumerate(first)]).orders
    again = [o.text() for o in again]
    assert first == again == ["ON_SHADOW KG1 DIVERT prinz-eugen", "DOCTRINE ALL STANDOFF TORPEDOES OFF BREAK 3",
                              "STRIKE_CLASSES BB CA"]


def test_dump_load_round_trip():
    s = fresh("last-dash")
    assert RULESET.load(RULESET.dump(s)) == s


def test_doctrine_interrupt_when_a_battle_comes_and_no_doctrine_was_declared():
    s = at(fresh(battle_doctrine="ask"), step="orders", vis=5, fog=False)
    s = replace(s, ships=tuple(replace(x, hex="J29") if x.id == "norfolk" else x for x in s.ships))
    w = Work(s)
    w.mark("allied", "KG1", "shadowed", "search")
    s = w.freeze()
    empty = ()
    res = RULESET.resolve(s, {"german": empty, "allied": empty}, SeededDice(b"d", "1"))
    st = res.state
    assert st.step == "doctrine"
    ph = RULESET.phase(st)
    assert ph.window == Window.INTERRUPT and ph.awaiting == {"german", "allied"}
    bad = RULESET.check_orders(RULESET.view(st, "german"), "german", [OrderLine(1, "MOVE KG1 J28")])
    assert bad.problems and bad.problems[0].rule == "10"
    ok = RULESET.check_orders(RULESET.view(st, "german"), "german", [OrderLine(1, "DOCTRINE ALL EVADE")])
    assert not ok.problems
    res2 = RULESET.resolve(st, {"german": ok.orders, "allied": RULESET.default_orders(st, "allied")},
                           SeededDice(b"d", "2"))
    assert res2.state.step in ("admin", "convoy", "over")
    assert any(e.kind == "battle" for e in res2.events)
    assert "DOCTRINE ALL CLOSE" in res2.state.flow.standing.listing("allied")
    assert "DOCTRINE ALL EVADE" in res2.state.flow.standing.listing("german")


def test_crew_exhaustion_option_adds_one_after_two_engagements_yesterday():
    base = fresh(crew_exhaustion=True)
    day = T.turn_index("25-day")
    s = replace(base, turn=day)
    s = replace(s, ships=tuple(replace(x, engaged=(day - 5, day - 4, day)) if x.id == "bismarck" else x
                               for x in s.ships))
    assert battle._exhausted(Work(s), "bismarck")
    off = replace(s, options=tuple((k, False if k == "crew_exhaustion" else v) for k, v in s.options))
    assert not battle._exhausted(Work(off), "bismarck")
    once = replace(s, ships=tuple(replace(x, engaged=(day - 5, day)) if x.id == "bismarck" else x for x in s.ships))
    assert not battle._exhausted(Work(once), "bismarck")


def test_radar_two_star_is_lost_after_the_first_combat_round():
    w = Work(replace(fresh(), vis=9))
    w.set("hood", hex="J29")
    assert w.ships["bismarck"].radar == 3 and not w.ships["bismarck"].radar_lost
    battle.fight(w, SeededDice(b"radar", "1"), "german", ["bismarck"], ["hood"], "J29")
    if w.ships["bismarck"].afloat:
        assert w.ships["bismarck"].radar_lost


def test_optional_units_cost_vp_and_reveal_by_secret_roll():
    s = fresh(tirpitz=True, us_dd1=True)
    assert s.optional_vp == -9 + 1
    t = [x for x in s.ships if x.id == "tirpitz"][0]
    assert t.hex == "O33"
    allied = RULESET.view(s, "allied")
    assert set(allied["revealed_optional"]) <= {"tirpitz", "us-dd1"}


def _edge_battle(pe_moved):
    w = Work(fresh())
    w.set("norfolk", hex="J29")
    set_standing(w, (("allied", ("DOCTRINE ALL EVADE",)), ("german", ("DOCTRINE ALL CLOSE",))))
    b = battle.Battle("german", "J29")
    b.pos = {"prinz-eugen": battle.Pos("german", 0, "closing", moved=pe_moved),
             "norfolk": battle.Pos("allied", 17, "breaking")}
    battle._move(w, b, "norfolk", 1)  # breaks off 4 MZ past its own edge: the window shifts by 4
    return w, b


def test_edge_rule_pushes_an_unmoved_ship_back_and_cuts_its_movement():
    """[10] edge rule: an unmoved ship pushed off the far edge stays at the edge with 4 MZ less to move."""
    w, b = _edge_battle(pe_moved=False)
    assert b.lo == 4 and b.pos["norfolk"].mz == 21
    assert b.pos["prinz-eugen"].mz == 4 and b.pos["prinz-eugen"].reduce == 4
    battle._move(w, b, "prinz-eugen", 1)  # limit 4 - 4 = 0: it stays in the battle, Closing, unmoved
    assert b.pos["prinz-eugen"].mz == 4 and b.pos["prinz-eugen"].facing == "closing"


def test_edge_rule_a_ship_that_already_moved_leaves_the_battle():
    _, b = _edge_battle(pe_moved=True)
    assert "prinz-eugen" not in b.pos and "prinz-eugen" in b.left
