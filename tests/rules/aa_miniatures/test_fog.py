"""Fog of war (option visibility=fog, issue #17): sighting, memory, sealed deployment, the audience of events."""
from __future__ import annotations

from pbem.core.dice import FixedDice, SeededDice
from pbem.core.orders import OrderLine
from pbem.core.picture import Circle
from pbem.core.ruleset import visible_events
from pbem.rules.aa_miniatures import RULESET
from pbem.core.work import EVERYONE, Work
from pbem.rules.aa_miniatures import fog
from pbem.rules.aa_miniatures.fog import dice_seen_by, remember, seen_enemies, sees, tell
from pbem.rules.aa_miniatures.game import SEATS
from pbem.rules.aa_miniatures.model import Glimpse
from pbem.rules.aa_miniatures.working import Battle

from .helpers import open_board, unit

SETUP_SEED = b"aa miniatures fog setup seed"
FOG = {"visibility": "fog"}


def _state(options=FOG, step: str | None = None, **edits):
    state = RULESET.setup("skirmish", RULESET.info.resolve_options(options), SeededDice(SETUP_SEED, "s"))
    data = RULESET.dump(state)
    if step is not None:
        data["flow"]["step"] = step
    for uid, where in edits.items():
        next(u for u in data["units"] if u["id"] == uid)["hex"] = list(where)
    return RULESET.load(data)


def _check(state, seat, text):
    lines = [OrderLine(i + 1, t) for i, t in enumerate(text.splitlines())]
    return RULESET.check_orders(RULESET.view(state, seat), seat, lines)


# ---------------------------------------------------------------------------------------- sighting (pure)
def test_a_side_sees_what_any_of_its_units_has_line_of_sight_to():
    """A town hex between blocks the one watcher; a second watcher off to the side sees past it."""
    m = open_board({(0, -1): "town"})
    watcher, hidden = unit("w", "garand", (0, 0)), unit("h", "grenadier", (0, -2), side="axis")
    assert not sees(m, [watcher, hidden], "allies", hidden)
    flank = unit("f", "garand", (2, -2))
    assert sees(m, [watcher, flank, hidden], "allies", hidden)
    assert sees(m, [watcher], "allies", watcher)  # own units always
    plane = unit("p", "fw190", (5, 0), side="axis")
    assert sees(m, [watcher], "allies", plane)  # an aircraft over the map is seen by everyone (a reading)


def test_memory_keeps_the_last_glimpse_with_its_turn():
    m = open_board({(0, -1): "town"})
    watcher = unit("w", "garand", (0, 0))
    seen_at = unit("h", "grenadier", (1, -2), side="axis")
    memory = remember((), m, [watcher, seen_at], 2)
    assert memory == (Glimpse("allies", "h", "grenadier", (1, -2), seen_at.facing, 2),
                      Glimpse("axis", "w", "garand", (0, 0), watcher.facing, 2))
    gone = seen_at.but(hex=(0, -2))  # behind the town now
    assert seen_enemies(m, [watcher, gone], "allies") == []
    assert remember(memory, m, [watcher, gone], 3)[0] == memory[0]  # still where it was seen on turn 2


# ---------------------------------------------------------------------------------------- views and orders
def test_the_open_game_shows_everything_and_fog_only_what_is_in_sight():
    open_view = RULESET.view(_state({}, "attack"), "allies")
    fog_view = RULESET.view(_state(FOG, "attack"), "allies")
    assert {u["id"] for u in open_view["units"]} >= {"panzer", "mg42", "grenadier", "pak40"}
    assert [u["id"] for u in fog_view["units"] if u["side"] == "axis"] == ["pak40"]
    assert "fog" not in open_view and fog_view["fog"] is True


def test_a_glimpse_is_drawn_grey_and_listed_in_the_form():
    state = _state(FOG, "move-first", panzer=(9, 0))  # J5, in the Allies' sight
    data = RULESET.dump(state)
    data["first"] = "axis"
    state = RULESET.load(data)
    after = RULESET.resolve(state, {"axis": _check(state, "axis", "MOVE panzer I5").orders}, FixedDice([])).state
    view = RULESET.view(after, "allies")
    assert [(g["id"], g["hex"], g["turn"]) for g in view["last_known"]] == [("panzer", "J5", 1)]
    assert "# last seen: axis panzer (Panzer IV) in J5 facing SW on turn 1" in RULESET.order_form(view, "allies")
    from pbem.rules.aa_miniatures.picture import _size
    greys = [s for s in RULESET.picture(view).shapes if isinstance(s, Circle) and s.fill == "#d0d0d0"
             and s.center[1] < _size(view["map"])[1]]  # the legend's grey ring lies below the map
    assert len(greys) == 1


# ---------------------------------------------------------------------------------------- sealed deployment
def test_fog_opens_a_sealed_deployment_of_the_scenarios_forces():
    state = _state()
    assert RULESET.phase(state).name == "deploy" and RULESET.phase(state).awaiting == {"allies", "axis"}
    assert [u["side"] for u in RULESET.view(state, "allies")["units"]] == ["allies"] * 4  # no enemy before set-up
    refused = [str(p) for p in _check(state, "allies", "PLACE sherman_a AT C2\nPLACE garand AT D9\n"
                                                       "PLACE garand AT D10\nPLACE panzer AT C9").problems]
    assert any("C2 is not in your set-up zone" in p for p in refused)
    assert any("garand is placed twice" in p for p in refused)
    assert any("panzer is not one of your units" in p for p in refused)
    crowd = [str(p) for p in _check(state, "allies", "PLACE sherman_a AT D10\nPLACE sherman_b AT D10").problems]
    assert any("D10 would be over full" in p for p in crowd)
    allies = _check(state, "allies", "PLACE sherman_a AT C9 FACE N").orders
    axis = _check(state, "axis", "PLACE panzer AT I4").orders  # out of the Allies' sight
    result = RULESET.resolve(state, {"allies": allies, "axis": axis}, FixedDice([]))
    told = [e.text for e in visible_events(result.events, "allies")]
    assert told == ["allies sets up: sherman_a AT C9 FACE N"]
    assert RULESET.phase(result.state).name == "move-first"
    assert "panzer" not in {u["id"] for u in RULESET.view(result.state, "allies")["units"]}
    assert result.state.unit("panzer").hex == (8, -1)


def test_the_open_game_keeps_its_set_up():
    assert RULESET.phase(_state({})).name == "move-first"


# ---------------------------------------------------------------------------------------- one audience rule
def _work(state):
    w = Work(state.flow, SEATS, FixedDice([]))
    w.data = Battle(state, w)
    return w


def test_an_event_names_only_the_units_a_side_sees():
    """The Allies see the PaK 40 but not the grenadier behind the town; the Axis see both units named."""
    state = _state(FOG, "attack")
    w = _work(state)
    pak, grenadier, garand = (w.data.unit(u) for u in ("pak40", "grenadier", "garand"))
    tell(w, [pak, grenadier], "{0} and {1}", "note")
    tell(w, [grenadier], "{0} alone", "note")
    said = {(e.text, tuple(sorted(e.visible_to))) for e in w.events}
    assert said == {("axis pak40 and an unseen unit", ("allies",)), ("axis pak40 and axis grenadier", ("axis",)),
                    ("axis grenadier alone", ("axis",))}
    assert dice_seen_by(w, [garand, pak]) == ("allies", "axis")
    assert dice_seen_by(w, [pak, grenadier]) == ("axis",)


def test_the_open_game_tells_everyone():
    w = _work(_state({}, "attack"))
    grenadier = w.data.unit("grenadier")
    tell(w, [grenadier], "{0} alone", "note")
    assert [(e.text, e.visible_to) for e in w.events] == [("axis grenadier alone", frozenset({"allies", "axis"}))]
    assert dice_seen_by(w, [grenadier]) == EVERYONE


def test_a_condition_on_an_enemy_gone_out_of_sight_reads_only_what_the_author_may_know():
    """The doomed Panzer (a face-down black) is in sight when the Allies write their list, then drives
    behind the town before their entry is reached: in fog the Allies' DOOMED test cannot see its marker."""
    def run(options):
        data = RULESET.dump(_state(options, "attack", panzer=(9, 0)))
        data["first"] = "axis"
        next(u for u in data["units"] if u["id"] == "panzer")["pending"] = ["black"]
        state = RULESET.load(data)
        orders = {"axis": _check(state, "axis", "MOVE panzer I5").orders,
                  "allies": _check(state, "allies", "IF DOOMED panzer THEN FACE sherman_a N ELSE FACE garand NE").orders}
        result = RULESET.resolve(state, orders, SeededDice(SETUP_SEED, "r"))
        return [e.text for e in visible_events(result.events, "allies")], RULESET.view(result.state, "allies")

    told, view = run({})
    assert "allies sherman_a turns to face N" in told and "axis panzer is destroyed" in told
    told, view = run(FOG)
    assert "allies garand turns to face NE" in told and not any("destroyed" in t for t in told)
    # destroyed out of sight: the Allies still think it is where they last saw it, and do not count it lost
    assert [(g["id"], g["hex"]) for g in view["last_known"]] == [("panzer", "J5")]
    assert all(u["side"] == "allies" for u in view["lost"])


def test_an_enemy_seen_destroyed_is_counted_lost_and_leaves_no_glimpse():
    data = RULESET.dump(_state(FOG, "attack"))
    next(u for u in data["units"] if u["id"] == "pak40")["pending"] = ["black"]  # in the Allies' sight (H7)
    state = RULESET.load(data)
    after = RULESET.resolve(state, {}, SeededDice(SETUP_SEED, "r")).state
    view = RULESET.view(after, "allies")
    assert [u["id"] for u in view["lost"]] == ["pak40"] and view["last_known"] == []


# ---------------------------------------------------------------------------------------- sighting during a move
def _moved(start: tuple[int, int], move: str):
    """The Allies' garand set at ``start`` (axial) in fog and moved by ``move`` in the first movement."""
    state = _state(FOG, "move-first", garand=start)
    return RULESET.resolve(state, {"allies": _check(state, "allies", move).orders}, FixedDice([]))


def test_sightings_of_a_step_both_ways():
    """A unit that comes to stand in a hex is seen by the enemies with line of sight to it, and itself
    sees the enemies it has line of sight to; no other pair is judged (units never block, L70)."""
    m = open_board({(0, -1): "town"})
    watcher, hidden = unit("w", "grenadier", (0, -2), side="axis"), unit("h", "garand", (0, 0))
    assert fog.sightings(m, [watcher, hidden], hidden, 3) == []
    stepped = hidden.but(hex=(1, -1))
    assert fog.sightings(m, [watcher, stepped], stepped, 3) == [
        Glimpse("axis", "h", "garand", (1, -1), stepped.facing, 3),
        Glimpse("allies", "w", "grenadier", (0, -2), watcher.facing, 3)]


def test_a_unit_seen_only_crossing_open_ground_is_remembered_where_it_was_seen():
    """C6 and E7 are out of the Axis' sight, D6 between them is not: the Axis keep the garand's
    glimpse in D6 and are told they lost sight of it there, and nothing of where it went."""
    result = _moved((2, 4), "MOVE garand D6 E7")
    assert result.state.unit("garand").hex == (4, 4)
    view = RULESET.view(result.state, "axis")
    assert "garand" not in {u["id"] for u in view["units"]}
    assert [(g["id"], g["hex"], g["turn"]) for g in view["last_known"] if g["id"] == "garand"] == [("garand", "D6", 1)]
    told = [e.text for e in visible_events(result.events, "axis")]
    assert "allies garand moves out of sight from D6" in told
    assert not any("E7" in t for t in told)
    assert any("garand moves to E7" in e.text for e in visible_events(result.events, "allies"))


def test_a_unit_never_seen_on_its_way_leaves_nothing():
    """N7, M8 and M9 are all out of the Axis' sight: no glimpse, no event for the Axis."""
    result = _moved((13, 0), "MOVE garand M8 M9")
    assert result.state.unit("garand").hex == (12, 2)
    assert not any(g.side == "axis" and g.id == "garand" for g in result.state.last_known)
    assert not any("garand" in e.text for e in visible_events(result.events, "axis"))


def test_conditions_read_an_enemy_out_of_sight_as_nowhere():
    """IF AT / IF DISRUPTED on an enemy the author's side does not see when the entry is reached are
    false (the author cannot know where it is or what it shows)."""
    from types import SimpleNamespace
    from pbem.rules.aa_miniatures.ingest import CONDITIONS
    state = _state(FOG, "attack")
    w = _work(state)
    w.data.put(w.data.unit("grenadier").but(disrupted=True))
    at = CONDITIONS.kinds["AT"]
    disrupted = CONDITIONS.kinds["DISRUPTED"]
    allies, axis = SimpleNamespace(author="allies"), SimpleNamespace(author="axis")
    assert not at.test(w, allies, ("grenadier", "I6")) and not disrupted.test(w, allies, ("grenadier",))
    assert at.test(w, axis, ("grenadier", "I6")) and disrupted.test(w, axis, ("grenadier",))
    assert at.test(w, allies, ("pak40", "H7"))  # in sight
