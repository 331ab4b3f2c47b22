"""Fewer windows (issue 16): a Shadowed unit's move ordered a turn ahead [7.1].

``IF SHADOWED <unit> THEN MOVE <unit> <hex> ...`` (or ``THEN STAY <unit>``), written with a turn's main
orders, is that unit's Shadowed movement next turn: when it covers every Shadowed unit of the side and can
be carried out, the side's extra window before the turn's orders does not open.
"""
import pytest

from pbem.core.dice import SeededDice
from pbem.core.orders import OrderLine
from pbem.rules.bismarck import RULESET
from pbem.rules.bismarck.work import Work

from .conftest import at, fresh

SEED = b"shadowed movement ordered ahead, 16+ bytes"


def check(state, seat, *texts):
    return RULESET.check_orders(RULESET.view(state, seat), seat, [OrderLine(i + 1, t) for i, t in enumerate(texts)])


def orders_phase():
    """Last dash, the main orders of turn 1: Bismarck (8 FP, Shadowed) in W17."""
    return at(fresh("last-dash"), step="orders")


def start_of_turn(german=(), allied=()):
    """Last dash at its first weather step: Bismarck in W17 is Shadowed; the standing orders given."""
    s = fresh("last-dash")
    return at(s, standing={"german": tuple(german), "allied": tuple(allied)})


def weather(state):
    r = RULESET.resolve(state, {}, SeededDice(SEED, "weather"))
    return r.state, r.events


def texts(events, seat):
    return [e.text for e in events if seat in e.visible_to]


# --- the order, as the check reads it (the Allied Sheffield, 14 FP, in X20) ----------------------------
def test_the_order_is_accepted_planned_from_where_this_turns_move_ends_and_the_ack_says_when_it_may_not_be_used():
    # the IF line comes first in the file, but it plans from the end of the MOVE line below it
    c = check(orders_phase(), "allied", "if shadowed Sheffield then move sheffield w17 v17", "MOVE sheffield X19 W18")
    assert not c.problems, c.problems
    assert [o.text() for o in c.orders] == ["MOVE sheffield X19 W18", "IF SHADOWED sheffield THEN MOVE sheffield W17 V17"]


def test_stay_ahead_is_accepted_and_kept_as_a_standing_order_for_next_turn():
    s = orders_phase()
    c = check(s, "allied", "IF SHADOWED TF3 THEN STAY tf3")
    assert not c.problems
    [note] = [n for n in c.notes if n.startswith("IF SHADOWED TF3")]
    assert "next turn only" in note and "the window opens as usual" in note and "[7.1]" in note
    r = RULESET.resolve(s, {"german": (), "allied": c.orders}, SeededDice(SEED, "orders"))
    assert "IF SHADOWED TF3 THEN STAY TF3" in r.state.flow.standing.listing("allied")


@pytest.mark.parametrize("line, rule, words", [
    ("IF SHADOWED sheffield THEN MOVE sheffield X19 ELSE STAY sheffield", "7.1", "no ELSE"),
    ("IF SHADOWED sheffield THEN ENGAGE C1", "7.1", "write IF SHADOWED"),
    ("IF SHADOWED sheffield THEN MOVE norfolk V16", "7.1", "sheffield itself"),
    ("IF SHADOWED sheffield THEN MOVE sheffield W18", "2.1", "not adjacent to X20"),  # from where she is now
    ("IF SHADOWED sheffield THEN MOVE sheffield X19 W18 V18", "7.7.2", "at most 2 hexes"),
    ("IF SHADOWED bismarck THEN STAY bismarck", "2.3", "no unit of yours"),
])
def test_rejections_cite_the_rulebook(line, rule, words):
    [p] = check(orders_phase(), "allied", line).problems
    assert p.rule == rule and words in p.message, p


def test_fuel_for_next_turn_counts_this_turns_move():
    """2 hexes now cost 1 FP, 2 more next turn cost 2 [7.7.2]: affordable with 14 FP, not with 2."""
    s = orders_phase()
    assert not check(s, "allied", "MOVE sheffield X19 W18", "IF SHADOWED sheffield THEN MOVE sheffield W17 V17").problems
    w = Work(s)
    w.set("sheffield", fuel=2)
    low = w.freeze(step="orders")
    [p] = check(low, "allied", "MOVE sheffield X19 W18", "IF SHADOWED sheffield THEN MOVE sheffield W17 V17").problems
    assert p.rule == "7.7.2" and "has 1 FP" in p.message, p


def test_not_in_the_shadowed_window_and_stay_only_there():
    s = at(fresh("last-dash"), step="shadowed-german")
    [p] = check(s, "german", "IF SHADOWED bismarck THEN STAY bismarck").problems
    assert p.rule == "7.1" and "main orders" in p.message
    assert not check(s, "german", "STAY bismarck").problems
    [p] = check(orders_phase(), "german", "STAY bismarck").problems
    assert p.rule == "7.1" and "Shadowed movement" in p.message


# --- the windows ---------------------------------------------------------------------------------------
def test_without_the_order_the_german_window_opens():
    s, _ = weather(start_of_turn())
    assert s.step == "shadowed-german"


def test_with_the_order_no_window_opens_the_unit_moves_and_announces_and_the_order_lapses():
    s, events = weather(start_of_turn(german=("IF SHADOWED bismarck THEN MOVE bismarck W18",)))
    assert s.step == "orders"
    assert Work(s).ships["bismarck"].hex == "W18"
    assert any("moves to W18" in t for t in texts(events, "allied"))
    assert not any(ln.startswith("IF SHADOWED") for ln in s.flow.standing.listing("german"))
    # she moved in 3A: the main orders may not move her again [7.1]
    [p] = check(s, "german", "MOVE bismarck X19").problems
    assert p.rule == "7.1"


def test_stay_ahead_keeps_the_unit_in_place_with_no_window_and_it_may_repair():
    s, events = weather(start_of_turn(german=("IF SHADOWED bismarck THEN STAY bismarck",)))
    assert s.step == "orders" and Work(s).ships["bismarck"].hex == "W17"
    assert any("stays in W17" in t for t in texts(events, "allied"))
    assert not check(s, "german", "REPAIR bismarck").problems  # she has a lost ER marker


def test_an_order_that_can_no_longer_be_carried_out_opens_the_window_and_says_why():
    w = Work(start_of_turn(german=("IF SHADOWED bismarck THEN MOVE bismarck W18",)))
    w.set("bismarck", rudder=True)
    s, events = weather(w.freeze())
    assert s.step == "shadowed-german"
    [msg] = [t for t in texts(events, "german") if "cannot be carried out now" in t]
    assert "rudder" in msg and "window opens" in msg
    assert not any("IF SHADOWED" in t for t in texts(events, "allied"))


def test_in_the_window_the_order_stands_for_a_unit_no_line_names():
    """Two Shadowed units, one covered: the window opens; the covered one moves by its order there."""
    w = Work(start_of_turn(german=("IF SHADOWED bismarck THEN MOVE bismarck W18",)))
    w.set("lothringen", hex="W16")
    w.mark("allied", "lothringen", "shadowed", "search")
    s, events = weather(w.freeze())
    assert s.step == "shadowed-german"
    assert any("stand for bismarck" in t for t in texts(events, "german"))
    c = check(s, "german", "STAY lothringen")
    assert not c.problems
    s2 = RULESET.resolve(s, {"german": c.orders}, SeededDice(SEED, "3A")).state
    assert s2.step == "orders"
    assert Work(s2).ships["bismarck"].hex == "W18" and Work(s2).ships["lothringen"].hex == "W16"


def test_a_line_in_the_window_replaces_the_order():
    w = Work(start_of_turn(german=("IF SHADOWED bismarck THEN MOVE bismarck W18",)))
    w.set("lothringen", hex="W16")  # not covered: the window opens
    w.mark("allied", "lothringen", "shadowed", "search")
    s, _ = weather(w.freeze())
    c = check(s, "german", "MOVE bismarck X17", "STAY lothringen")
    assert not c.problems, c.problems
    s2 = RULESET.resolve(s, {"german": c.orders}, SeededDice(SEED, "3A")).state
    assert Work(s2).ships["bismarck"].hex == "X17"


def test_an_order_for_a_unit_that_is_not_shadowed_lapses_and_its_side_is_told():
    w = Work(start_of_turn(german=("IF SHADOWED bismarck THEN STAY bismarck",
                                   "IF SHADOWED lothringen THEN STAY lothringen")))
    s, events = weather(w.freeze())
    assert s.step == "orders"
    [told] = [t for t in texts(events, "german") if "lapse" in t]
    assert "not Shadowed this turn" in told and "lothringen" in told and "bismarck" not in told
    assert not any("lothringen" in t for t in texts(events, "allied"))
    assert not any(ln.startswith("IF SHADOWED") for ln in s.flow.standing.listing("german"))


def test_the_allied_order_is_carried_out_after_the_german_window():
    """Both sides Shadowed: the German moves first [7.1]; the Allied order then saves the Allied window."""
    w = Work(start_of_turn(allied=("IF SHADOWED TF3 THEN STAY TF3",)))
    tf3 = w.unit_ships("TF3")
    w.mark("german", "TF3", "shadowed", "search")
    s, _ = weather(w.freeze())
    assert s.step == "shadowed-german"
    s2 = RULESET.resolve(s, {"german": ()}, SeededDice(SEED, "3A")).state
    assert s2.step == "orders"
    assert all(x.id in s2.moved for x in tf3)


def test_without_the_allied_order_the_allied_window_opens_after_the_german():
    w = Work(start_of_turn())
    w.mark("german", "TF3", "shadowed", "search")
    s, _ = weather(w.freeze())
    s2 = RULESET.resolve(s, {"german": ()}, SeededDice(SEED, "3A")).state
    assert s2.step == "shadowed-allied"


def test_an_order_for_a_task_force_split_by_a_diversion_covers_neither_part():
    """KG1 (Bismarck, Prinz Eugen) makes a Diversion Maneuver [6]: Bismarck alone is then Shadowed and
    no unit is called KG1 any more, so her window opens; the order lapses and the German is told why."""
    from pbem.core.dice import FixedDice
    from pbem.rules.bismarck import game

    s = fresh()  # Rheinuebung: KG1 in J29
    w = Work(at(s, turn=s.start + 1, weather=5, standing={
        "german": ("IF SHADOWED KG1 THEN STAY KG1", "ON_SHADOW KG1 DIVERT prinz-eugen"), "allied": ()}))
    w.set("norfolk", hex=w.unit_ships("KG1")[0].hex)
    w.mark("allied", "KG1", "sighted", "search")
    game.visibility_phase(w, FixedDice([4, 10]))  # weather unchanged; Norfolk follows the slow part: success
    assert game.shadowed_units(w, "german") == ["bismarck"]
    game.ordered_ahead(w, ("german",))
    assert game.waiting(w, "german") == ["bismarck"]
    assert any("bismarck is Shadowed: no IF SHADOWED order covers it" in e.text for e in w.events)
    game.shadowed_move(w, "german", ())
    assert any("no unit is called KG1 any more" in e.text for e in w.events)
