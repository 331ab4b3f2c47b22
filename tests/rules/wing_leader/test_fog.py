"""Fog of war (option visibility=fog): sighting, radar plots, memory, views and order checks, the one audience
rule for events and rolls, and leak probes that fail when the game is played open."""
from __future__ import annotations

import dataclasses

import pytest

from pbem.core.dice import FixedDice, SeededDice
from pbem.core.picture import Line, Polygon, Text
from pbem.core.play import play
from pbem.core.ruleset import visible_events, visible_rolls
from pbem.core.work import EVERYONE, Work
from pbem.testing.conformance import check_ruleset
from pbem.testing.known import check_body
from pbem.testing.leaks import Pair, leaks
from pbem.rules.wing_leader import RULESET, fog
from pbem.rules.wing_leader.air import Air
from pbem.rules.wing_leader.game import seats
from pbem.rules.wing_leader.model import State
from pbem.rules.wing_leader.sky import Sky, parse

from .helpers import sq, state

SEED = b"wing leader fog tests seed, 32 by"
FOG = {"visibility": "fog"}
SCENARIOS = [s.name for s in RULESET.info.scenarios]


def _start(scenario: str = "sweep", options: dict | None = None, step: str | None = None,
           **where: str) -> State:
    """A scenario's opening, its squadrons moved to the squares given (``K="J10"``), at ``step``."""
    opts = RULESET.info.resolve_options(FOG if options is None else options)
    data = RULESET.dump(RULESET.setup(scenario, opts, SeededDice(SEED, "setup")))
    if step is not None:
        data["flow"]["step"] = step
    for sid, square in where.items():
        next(q for q in data["squadrons"] if q["id"] == sid)["at"] = list(parse(square))
    return RULESET.load(data)


def _fogged(*squadrons, **kw) -> State:
    return dataclasses.replace(state(*squadrons, **kw), options=(("visibility", "fog"),))


# ---------------------------------------------------------------------------------------- sighting (pure)
def test_a_side_sees_within_the_tally_range_and_not_beyond():
    me, near, far = sq("A", "allies", "spitfire9", "sweep", "C15"), sq("K", "axis", "fw190a4", "intercept", "L15"), \
        sq("L", "axis", "fw190a4", "intercept", "M15")
    s = _fogged(me, near, far)
    assert fog.sees(s, "allies", near) and not fog.sees(s, "allies", far)   # 9 squares, then 10
    assert fog.sees(s, "allies", me) and fog.sees(s, "axis", near)          # own squadrons always
    assert fog.seen(s, "allies") == {"K"} and fog.seen(s, "axis") == {"A"}


def test_a_dense_cloud_between_hides_and_haze_and_the_sun_shorten_the_sighting():
    me, them = sq("A", "allies", "spitfire9", "sweep", "C10"), sq("K", "axis", "fw190a4", "intercept", "H10")
    clear = Sky()
    assert fog.spots(clear, me, them)
    assert not fog.spots(Sky(clouds=(((5, 10), "dense"),)), me, them)          # 4.6.1
    assert fog.sighting_range(Sky(haze=12), me, them) == 8                     # haze 1 on the line [4.7]
    high = sq("L", "axis", "fw190a4", "intercept", "J17")                      # up and to the right: NE
    sunny = Sky(sun="right_high")
    assert fog.sighting_range(sunny, me, high) == 7                            # up-sun -2 (placeholder)
    in_sun = sq("M", "axis", "fw190a4", "cap", "K18")                          # 8 squares up-sun
    assert fog.spots(sunny, me, high) and not fog.spots(sunny, me, in_sun)
    assert fog.spots(sunny, in_sun, me)                                        # looking down-sun it sees 9: one-way


def test_sharing_a_square_or_a_tally_shows_the_enemy():
    me = sq("A", "allies", "spitfire9", "sweep", "C10")
    tallier = sq("K", "axis", "fw190a4", "intercept", "P10", tally="A")       # 13 squares away
    s = _fogged(me, tallier)
    assert fog.sees(s, "allies", tallier)                                      # its Tally marker sits on A (7.2.1)
    gone = sq("K", "axis", "fw190a4", "intercept", "P10", status="escaped")
    assert not fog.sees(_fogged(me, gone), "allies", gone)


def test_an_open_game_shows_every_squadron():
    s = state(sq("A", "allies", "spitfire9", "sweep", "C10"), sq("K", "axis", "fw190a4", "intercept", "Z1"))
    assert [q.id for q in fog.visible(s, "allies")] == ["A", "K"] and fog.plots(s, "axis") == []


# ---------------------------------------------------------------------------------------- views, forms, radar
def test_fog_views_show_own_squadrons_and_the_enemies_in_sight_only():
    open_view, fog_view = RULESET.view(_start(options={}), "allies"), RULESET.view(_start(), "allies")
    assert {q["id"] for q in open_view["squadrons"]} == {"A", "B", "K", "L"} and "fog" not in open_view
    assert {q["id"] for q in fog_view["squadrons"]} == {"A", "B"} and fog_view["fog"] is True
    assert {q["id"] for q in fog_view["wing_display"]} == {"A", "B"}
    assert fog_view["victory_points"] == {} and open_view["victory_points"] == {"allies": 0, "axis": 0}
    near = RULESET.view(_start(K="K15"), "allies")                            # 8 squares from C15
    assert {q["id"] for q in near["squadrons"]} == {"A", "B", "K"}
    assert next(q for q in near["squadrons"] if q["id"] == "K")["vector"] is None   # its GCI's business


def test_ground_control_gives_the_defender_radar_plots_of_raids_out_of_sight():
    """The sweep's Spitfires (C15, B14) are 20 squares from the Fw 190s: one plot, two squadrons, high."""
    v = RULESET.view(_start(), "axis")
    assert [(p["columns"], p["band"], p["count"]) for p in v["radar"]] == [("A-E", "high", 2)]
    assert "# radar plot: 2 squadrons in columns A-E, high (altitudes 13-19)" in RULESET.order_form(v, "axis")
    shapes = RULESET.picture(v).shapes
    assert any(isinstance(s, Text) and s.text == "radar: 2" for s in shapes)
    assert any(isinstance(s, Polygon) and s.outline == "#2e8b57" for s in shapes)
    assert RULESET.view(_start(), "allies")["radar"] == []                    # the Raider has no ground control
    assert RULESET.view(_start("dogfight"), "axis")["radar"] == []            # a scenario without GCI


def test_an_unseen_enemy_is_refused_exactly_like_one_that_does_not_exist():
    s = _start(step="raider_tally", K="K15")                                  # K in sight, L not
    unseen = check_body(RULESET, s, "allies", "TALLY A L")[1]
    missing = check_body(RULESET, s, "allies", "TALLY A Q")[1]
    assert len(unseen) == 1 and unseen[0].replace("A L", "A Q").replace("squadron L", "squadron Q") == missing[0]
    assert check_body(RULESET, s, "allies", "TALLY A K")[1] == []
    hits_unseen, hits_missing = (check_body(RULESET, s, "allies", f"HITS K {x}")[1] for x in ("L", "Q"))
    assert len(hits_unseen) == 1 and hits_unseen[0].replace("L", "Q") == hits_missing[0].replace("L", "Q")
    assert hits_unseen[0] != hits_missing[0]                                  # each names the squadron written
    assert set(RULESET.view(s, "allies")["tally_targets"]["A"]) == {"K"}
    assert RULESET.bot_orders(RULESET.view(s, "allies"), "allies", SeededDice(SEED, "bot")) == "TALLY A K\nTALLY B K\n"


def test_an_enemy_gone_out_of_sight_is_remembered_grey_where_last_seen():
    """K is in sight at K15 when the phase opens, then flies east out of sight: the Allies keep its glimpse."""
    s = _start(step="movement", K="K15")
    after = RULESET.resolve(s, {}, SeededDice(SEED, "r")).state
    data = RULESET.dump(after)
    next(q for q in data["squadrons"] if q["id"] == "K")["at"] = list(parse("Z19"))
    later = RULESET.load(data)
    v = RULESET.view(later, "allies")
    glimpse = [g for g in v["last_known"] if g["id"] == "K"]
    k = after.squadron("K")
    assert glimpse and glimpse[0]["at"] == list(k.at) and glimpse[0]["turn"] == s.turn == 1
    assert "K" not in {q["id"] for q in v["squadrons"]}
    assert any(line.startswith("# last seen: axis K (Fw 190A-4) in ") for line in RULESET.order_form(v, "allies").splitlines())
    from pbem.rules.wing_leader.picture import LEGEND_TOP
    greys = [s for s in RULESET.picture(v).shapes if isinstance(s, Line) and s.color == "#9a9a9a"
             and all(y < LEGEND_TOP for _, y in s.points)]  # on the map, not the legend's key
    assert len(greys) == len(v["last_known"]) >= 1


def test_the_seats_of_a_side_share_what_the_side_sees():
    """Raid, two seats a side: whatever one Allied wing sees, the other Allied seat is shown too."""
    s = _start("raid", {"visibility": "fog", "seats_per_side": 2}, step="movement", K="K14")
    one, two = RULESET.view(s, "allies-1"), RULESET.view(s, "allies-2")
    assert "K" in {q["id"] for q in one["squadrons"]}
    assert one["squadrons"] == two["squadrons"] and one["last_known"] == two["last_known"]


# ---------------------------------------------------------------------------------------- one audience rule
def _work(s: State) -> Work:
    w = Work(s.flow, seats(s), FixedDice([]))
    w.data = Air(s, w)
    return w


def test_an_event_goes_to_the_sides_that_see_who_acts_and_names_the_rest_unseen():
    s = _start(K="K15")                                                       # the Allies see K, not L
    w = _work(s)
    fog.tell(w, "K orders L onto A", ["K", "L", "A"], kind="tally", detail=["K", "L"])
    fog.tell(w, "L drops its tally", ["L"], kind="tally")
    said = {(e.text, tuple(sorted(e.visible_to)), bool(e.data)) for e in w.events}
    assert said == {("K orders an unseen formation onto A", ("allies",), False),
                    ("K orders L onto A", ("axis",), True), ("L drops its tally", ("axis",), False)}
    assert fog.dice_seen_by(w, ["K", "A"]) == ("allies", "axis") and fog.dice_seen_by(w, ["L"]) == ("axis",)
    assert fog.redact("L+LL attack L1; L", {"L"}) == "an unseen formation+LL attack L1; an unseen formation"


def test_a_move_into_or_out_of_sight_tells_neither_where_it_came_from_nor_where_it_went():
    w = _work(_start(K="K15"))                                                # the Allies see K where it ends
    fog.tell_move(w, "K", {"axis"}, "K (mission) X15 -> K15", "K flies out of sight from X15", "K comes into sight in K15")
    fog.tell_move(w, "L", {"allies", "axis"}, "L (mission) J15 -> X7", "L flies out of sight from J15", "L into sight")
    said = {(e.text, tuple(sorted(e.visible_to))) for e in w.events}
    assert said == {("K (mission) X15 -> K15", ("axis",)), ("K comes into sight in K15", ("allies",)),
                    ("L (mission) J15 -> X7", ("axis",)), ("L flies out of sight from J15", ("allies",))}
    steps = play(RULESET, "raid", SEED, options=FOG, max_phases=9)
    came = [e for st in steps for e in st.events if "comes into sight" in e.text]
    assert came and all(len(e.visible_to) == 1 for e in came)


def test_the_open_game_tells_everyone():
    w = _work(_start(options={}))
    fog.tell(w, "L drops its tally", ["L"], kind="tally")
    fog.tell_move(w, "L", set(), "L (mission) X7 -> W7", "L out", "L in")
    everyone = frozenset({"allies", "axis"})
    assert [(e.text, e.visible_to) for e in w.events] == [("L drops its tally", everyone), ("L (mission) X7 -> W7", everyone)]
    assert fog.dice_seen_by(w, ["L"]) == EVERYONE and fog.own(w, "axis") == EVERYONE


def test_a_tally_tried_from_out_of_sight_goes_unnoticed_by_its_target():
    """Up-sun works one way: A high to the right of K sees it at 8 squares, K does not see A (7 up-sun).
    A's failed try (behind -2: it needs 11) is told to the Allies only, and its die too."""
    s = _start(step="raider_tally", A="Q16", B="A19", K="I8", L="Z1")
    assert fog.seen(s, "allies") == {"K"} and fog.seen(s, "axis") == set()
    body = check_body(RULESET, s, "allies", "TALLY A K")
    assert body[1] == []
    result = RULESET.resolve(s, {"allies": body[0].orders}, SeededDice(SEED, "r"))
    assert any("A tally on K" in e.text for e in visible_events(result.events, "allies"))
    assert not any("tally" in e.text for e in visible_events(result.events, "axis"))


def test_a_fog_game_tells_moves_and_rolls_only_to_the_sides_that_see_them():
    """A bot raid under fog: the Allies' early moves far from the Axis are told to the Allies alone, and
    the initiative rolls of squadrons arriving out of the Allies' sight are shown to the Axis alone."""
    steps = play(RULESET, "raid", SEED, options=FOG, max_phases=12)
    moves = [e for st in steps for e in st.events if e.kind == "move"]
    assert any(e.visible_to == frozenset({"allies"}) for e in moves)
    assert any(e.visible_to == frozenset({"allies", "axis"}) for e in moves)
    first = steps[2]                                                          # turn 1's movement: nobody in sight
    assert first.phase.key == "1/movement"
    told = {side: [e.text for e in visible_events(first.events, side) if e.kind == "move"] for side in ("allies", "axis")}
    assert told["axis"] and all(t.split()[0] in "KL" for t in told["axis"])
    assert told["allies"] and all(t.split()[0] not in "KL" for t in told["allies"])
    turn4 = next(st for st in steps if st.phase.key == "4/movement")   # the Axis arrivals N, O, P tie in initiative
    rolled = {side: [r.why for r in visible_rolls(turn4.rolls, side)] for side in ("allies", "axis")}
    assert rolled["axis"] == ["initiative of N", "initiative of O", "initiative of P"] and rolled["allies"] == []


# ---------------------------------------------------------------------------------------- leak probes
def _pair(name: str, seat: str, scenario: str, step: str, one: dict, two: dict, *, options: dict | None = None,
          probe: str = "", orders: dict | None = None) -> tuple[Pair, Pair]:
    """The same pair of positions under fog and played open."""
    def make(opts: dict) -> Pair:
        return Pair(name, seat, _start(scenario, opts, step, **one), _start(scenario, opts, step, **two),
                    probe=probe, orders=orders or {})
    extra = options or {}
    return make({**FOG, **extra}), make(extra)


PAIRS = {
    # the Axis intercepts far to the east: where L flies (same altitude, so the same movement order)
    "where an unseen enemy flies, and its move": (
        _pair("unseen L", "allies", "sweep", "movement", {"L": "X7"}, {"L": "Z7"},
              probe="MOVE A F15\nPURSUE B\nDOGFIGHT SEEK")),
    # A, high in the sun to K's right, tries a hopeless tally (behind): K's side must not hear of it
    "a tally tried from out of sight": (
        _pair("A's try", "axis", "sweep", "raider_tally", {"A": "Q16", "B": "A19", "K": "I8", "L": "Z1"},
              {"A": "R17", "B": "A19", "K": "I8", "L": "Z1"}, probe="TALLY K A\nDOGFIGHT SEEK",
              orders={"allies": "TALLY A K"})),
    # two seats a side: the second Allied seat, its side blind to the Axis interceptors
    "an unseen enemy, another seat of the side": (
        _pair("unseen K", "allies-2", "raid", "movement", {"K": "Y10"}, {"K": "Z10"},
              options={"seats_per_side": 2}, probe="DOGFIGHT ASK")),
}


@pytest.mark.parametrize("name", sorted(PAIRS))
def test_a_seat_gets_nothing_that_depends_on_what_its_side_does_not_see(name):
    fogged, _ = PAIRS[name]
    assert leaks(RULESET, fogged) == []


@pytest.mark.parametrize("name", sorted(PAIRS))
def test_each_probe_catches_its_leak_when_the_game_is_played_open(name):
    _, played_open = PAIRS[name]
    found = leaks(RULESET, played_open)
    assert any("'s view differs" in x for x in found), found
    assert any("events and rolls differ" in x for x in found), found


def test_the_fog_perturber_builds_twins_the_probe_finds_identical():
    """tests/trust/perturb.py's fog twins (where an unseen enemy flies, enemy vectors, the other side's memory,
    enemy arrivals), checked here with the leak probe on a few positions of a bot raid under fog."""
    import random

    from tests.trust.perturb import perturb_wing_leader

    rnd, built = random.Random(7), 0
    for step in play(RULESET, "raid", SEED, options={**FOG, "seats_per_side": 2}, max_phases=9)[::2]:
        for seat in ("allies-1", "axis-2"):
            for what, twin in perturb_wing_leader(RULESET, step.state, seat, rnd):
                built += 1
                assert leaks(RULESET, Pair(what, seat, step.state, twin, probe="DOGFIGHT SEEK", orders=None)) == [], what
    assert built >= 20


# ---------------------------------------------------------------------------------------- conformance
@pytest.mark.parametrize("cadence", ["standard", "fast", "single"])
@pytest.mark.parametrize("scenario", SCENARIOS)
def test_the_ruleset_passes_the_kit_conformance_checks_under_fog(scenario, cadence):
    assert check_ruleset(RULESET, scenario, SEED, options={"cadence": cadence, "visibility": "fog"},
                         max_phases=40) > 6


@pytest.mark.parametrize("scenario", SCENARIOS)
def test_the_conformance_checks_hold_under_fog_with_three_seats_a_side(scenario):
    assert check_ruleset(RULESET, scenario, SEED, options={"cadence": "fast", "visibility": "fog", "seats_per_side": 3},
                         max_phases=30) > 6


def test_an_enemy_seen_destroyed_stays_on_the_wing_display_and_is_not_greyed():
    """K, destroyed in sight, is remembered lost: still listed (destroyed) once out of sight, never 'last seen'."""
    data = RULESET.dump(_start(step="movement", K="K15"))
    next(q for q in data["squadrons"] if q["id"] == "K")["status"] = "destroyed"
    after = RULESET.resolve(RULESET.load(data), {}, SeededDice(SEED, "r")).state
    assert [(g.id, g.lost) for g in after.last_known if g.side == "allies"] == [("K", True)]
    far = RULESET.dump(after)
    for q in far["squadrons"]:
        if q["side"] == "allies":
            q["at"] = list(parse("A0" if q["id"] == "A" else "B0"))
    v = RULESET.view(RULESET.load(far), "allies")
    assert [(s["id"], s["square"]) for s in v["wing_display"] if s["side"] == "axis"] == [("K", "destroyed")]
    assert v["last_known"] == []
    hidden = RULESET.dump(_start(step="movement", K="Z19"))                  # destroyed out of sight: not known
    next(q for q in hidden["squadrons"] if q["id"] == "K")["status"] = "destroyed"
    unseen = RULESET.resolve(RULESET.load(hidden), {}, SeededDice(SEED, "r")).state
    assert "K" not in {s["id"] for s in RULESET.view(unseen, "allies")["wing_display"]}


def test_the_sitrep_under_fog_plots_radar_and_holds_the_victory_points_back():
    from pbem.render import render_sitrep

    from .test_sitrep import _context

    step = play(RULESET, "raid", SEED, options=FOG, max_phases=3)[2]
    seat = RULESET.seats(step.state)[1]
    assert seat.name == "axis"
    text, page = render_sitrep("wing_leader", _context(step, seat))
    assert "Victory points: counted at the end (fog of war)" in text and "counted at the end (fog of war)" in page
    plot = RULESET.view(step.state, "axis")["radar"][0]
    line = f"radar plot: {plot['count']} squadron(s) in columns {plot['columns']}, {plot['band']}"
    assert f"- {line}" in text and f"<li>{line}" in page
    assert {e.text for e in step.events if "axis" not in e.visible_to} and \
        not any(e.text in text for e in step.events if "axis" not in e.visible_to)
