"""Fog of war's edge cases (option visibility=fog): a glimpse the mover takes on its way is told to its
side; an enemy met where a passenger would get off stops the unload; grazing fire that cannot reach a
unit is told only to those who see it; two seats' sealed set-ups never overfill a hex together."""
from __future__ import annotations

from pbem.core.dice import FixedDice, SeededDice
from pbem.core.orders import OrderLine
from pbem.core.ruleset import visible_events
from pbem.rules.aa_miniatures import RULESET
from pbem.rules.aa_miniatures.board import parse_hex
from pbem.rules.aa_miniatures.orders import Place

SEED = b"aa miniatures fog edge cases seed"
FOG = {"visibility": "fog"}


def _state(scenario: str, options: dict, step: str, **edits):
    state = RULESET.setup(scenario, RULESET.info.resolve_options(options), SeededDice(SEED, "s"))
    data = RULESET.dump(state)
    data["flow"]["step"] = step
    for uid, where in edits.items():
        next(u for u in data["units"] if u["id"] == uid)["hex"] = list(parse_hex(where))
    return RULESET.load(data)


def _orders(state, seat, text):
    checked = RULESET.check_orders(RULESET.view(state, seat), seat,
                                   [OrderLine(i + 1, t) for i, t in enumerate(text.splitlines())])
    assert not checked.problems, checked.problems
    return checked.orders


def _told(result, seat):
    return [e.text for e in visible_events(result.events, seat)]


# ------------------------------------------------------------------------ a glimpse on the way
def test_an_enemy_the_mover_glimpses_on_its_way_is_told_to_its_side_only():
    """The garand walks A4 -> A3 -> A2 on the farm: from A3 it sees the MG 42 in G5 past the town, from
    A4 and A2 nobody sees it.  The Allies are told where they saw it (their view keeps it as last
    seen there); the Axis are told nothing of it."""
    state = _state("skirmish", FOG, "move-first", garand="A4")
    result = RULESET.resolve(state, {"allies": _orders(state, "allies", "MOVE garand A3 A2")}, FixedDice([]))
    told = _told(result, "allies")
    assert "allies garand on its way catches sight of axis mg42 in G5 facing S, then loses it" in told
    view = RULESET.view(result.state, "allies")
    assert "mg42" not in {u["id"] for u in view["units"]}
    assert ("mg42", "G5") in [(g["id"], g["hex"]) for g in view["last_known"]]
    # the Panzer (J4), in sight from A4 as the move began, was in the view already: not told again
    assert "panzer" in {u["id"] for u in RULESET.view(state, "allies")["units"]}
    assert not any("catches sight of axis panzer" in t for t in told)
    assert not any("catches sight" in t or "mg42" in t for t in _told(result, "axis"))


def test_an_enemy_still_in_sight_at_the_end_or_seen_before_is_not_told_again():
    """Walking back A2 -> A3 -> A4 the garand sees the MG 42 from A3 only, so it is told; the PaK 40
    (H7), in the Allies' sight all along, never is; the open game tells no glimpses at all."""
    for options, expected in ((FOG, 1), ({}, 0)):
        state = _state("skirmish", options, "move-first", garand="A2")
        result = RULESET.resolve(state, {"allies": _orders(state, "allies", "MOVE garand A3 A4")}, FixedDice([]))
        glimpses = [t for t in _told(result, "allies") if "catches sight" in t]
        assert len(glimpses) == expected and not any("pak40" in t for t in glimpses), options


# ------------------------------------------------------------------------ unloading next to an enemy
def _crowded_half_track(options):
    """The meeting in the fast cadence: the half-track in G12 carries garand_2, and G12 is full of
    Allies, so it may only get off next door; the Axis grenadier in G10 may step into G11 first."""
    state = RULESET.setup("meeting", RULESET.info.resolve_options(options), SeededDice(SEED, "s"))
    data = RULESET.dump(state)
    data["flow"]["step"] = "move-both"
    data["first"] = "axis"
    rider = next(u for u in data["units"] if u["id"] == "garand_2")
    data["units"] = [u for u in data["units"] if u["id"] != "garand_2"]
    data["cargo"] = [dict(rider, hex=[0, 0], aboard="halftrack")]
    for uid in ("sherman_1", "garand_1", "captain"):
        next(u for u in data["units"] if u["id"] == uid)["hex"] = list(parse_hex("G12"))
    next(u for u in data["units"] if u["id"] == "grenadier_1")["hex"] = list(parse_hex("G10"))
    return RULESET.load(data)


def test_an_enemy_that_came_into_the_hex_next_door_stops_the_unload():
    """L9: a passenger gets off next door only into a hex free of enemies.  The grenadier moves into
    G11 before the UNLOAD is reached: the passenger stays aboard, its side is told who is there; the
    Axis are not told that anybody tried (a passenger is unseen in fog)."""
    for options in ({"cadence": "fast", **FOG}, {"cadence": "fast"}):
        state = _crowded_half_track(options)
        orders = {"allies": _orders(state, "allies", "UNLOAD garand_2 AT G11"),
                  "axis": _orders(state, "axis", "MOVE grenadier_1 G11")}
        result = RULESET.resolve(state, orders, SeededDice(SEED, "r"))
        assert result.state.unit("grenadier_1").hex == parse_hex("G11")
        assert [c["id"] for c in RULESET.view(result.state, "allies")["cargo"]] == ["garand_2"]
        assert any("garand_2 cannot get off at G11: axis grenadier_1 is there" in t and "(L9)" in t
                   for t in _told(result, "allies"))
        assert not any("garand_2" in t or "get off" in t for t in _told(result, "axis"))


# ------------------------------------------------------------------------ grazing fire
def test_grazing_fire_that_cannot_reach_a_unit_is_told_only_to_those_who_see_it():
    """The MG 42 in H7 grazes the garand in D7; the line touches E7, where the bazooka stands out of
    the MG 42's sight.  Open: everyone is told it does not reach; fog: only the Allies (who see both)."""
    edits = {"garand": "D7", "mg42": "H7", "bazooka": "E7"}
    for options, axis_told in (({}, True), (FOG, False)):
        state = _state("skirmish", options, "attack", **edits)
        orders = {"axis": _orders(state, "axis", "ATTACK mg42 garand GRAZE")}
        result = RULESET.resolve(state, orders, SeededDice(SEED, "r"))
        said = "axis mg42's grazing fire does not reach allies bazooka: mg42 no longer sees bazooka"
        assert said in _told(result, "allies")
        assert (said in _told(result, "axis")) is axis_told
        if not axis_told:
            assert not any("bazooka" in t or "second attack" in t for t in _told(result, "axis"))


# ------------------------------------------------------------------------ two seats' sealed set-up
TWO_FOG = {"players_per_side": 2, "visibility": "fog"}


def test_a_seats_set_up_counts_the_partners_units_where_the_scenario_puts_them():
    """The Allies' second seat's Sherman stands in C11, in the first seat's columns: the first seat may
    put its garand beside it (full), not its own Sherman (one vehicle a full hex, L1)."""
    state = _state("skirmish", TWO_FOG, "deploy")
    view = RULESET.view(state, "allies-1")
    ok = RULESET.check_orders(view, "allies-1", [OrderLine(1, "PLACE garand AT C11")])
    assert not ok.problems
    refused = RULESET.check_orders(view, "allies-1", [OrderLine(1, "PLACE sherman_a AT C11")])
    assert "C11 would be over full" in str(refused.problems[0]) and "L1" in str(refused.problems[0])


def test_placements_of_both_seats_that_overfill_a_hex_together_are_undone_for_the_later_seat():
    """Each seat's mail is checked alone; should the partners' placements still overfill a hex (here
    handed straight to resolution), the later seat's placement is undone, its unit stays where the
    scenario put it, and that seat is told why; the enemy is told nothing."""
    state = _state("skirmish", TWO_FOG, "deploy")
    orders = {"allies-1": (Place("garand", "C11", "N"),), "allies-2": (Place("bazooka", "C11", "N"),)}
    result = RULESET.resolve(state, orders, SeededDice(SEED, "r"))
    assert result.state.unit("garand").hex == parse_hex("C11")
    assert result.state.unit("bazooka").hex == parse_hex("E11")
    said = [t for t in _told(result, "allies-2") if "bazooka cannot be set up at C11" in t]
    assert said and "over full (Stacking, L1)" in said[0] and "stays at E11" in said[0]
    assert not any("C11" in t for t in _told(result, "allies-1") if "cannot be set up" in t)
    assert not any("C11" in t or "bazooka" in t for t in _told(result, "axis-1"))
