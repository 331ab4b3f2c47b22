"""Radio nets, ground control and escape [9.4, 9.2.4, 11.0]."""
from __future__ import annotations

from pbem.rules.wing_leader import escape, radio

from .helpers import sq, state


def test_an_alert_squadron_alerts_its_unalert_net_mates():
    """9.4 a: with no nets listed every side shares one net (GAP-17, our reading)."""
    s = state(sq("A", "allies", "spitfire9", "sweep", "C15", alert=True), sq("B", "allies", "spitfire9", "sweep", "B14"),
              sq("K", "axis", "fw190a4", "sweep", "W8"))
    assert radio.alerted_by_radio(s) == ["B"]


def test_net_and_ground_control_bonuses_and_jamming():
    """9.4 b-c: +1 when a net-mate tallies the target, +1 on the GCI net (placeholders); 9.4.2 jamming
    removes both."""
    k = sq("K", "axis", "fw190a4", "intercept", "W8", alert=True)
    mate = sq("L", "axis", "fw190a4", "intercept", "X7", alert=True, tally="A")
    a = sq("A", "allies", "spitfire9", "sweep", "P12")
    s = state(k, mate, a)
    assert sorted(m.value for m in radio.modifiers(s, k, a)) == [1, 1]
    assert radio.modifiers(s, k, a, jammed={"axis"}) == []
    assert radio.modifiers(s, a, k) == []


def test_a_vector_needs_the_gci_rating_or_a_six_when_jammed():
    """9.2.4, 9.4.2: the sweep scenario's GCI rating is 4."""
    k = sq("K", "axis", "fw190a4", "intercept", "W8", alert=True)
    s = state(k)
    assert radio.under_gci(s, k) and not radio.under_gci(s, sq("A", "allies", "spitfire9", "sweep", "C15"))
    assert radio.vector_needs(s, k, ()) == 4 and radio.vector_needs(s, k, radio.jammed_nets(s, {"K"})) == 6


def test_escape_rule_and_the_disputed_example():
    """11.0: at range 3 through haze (1) the rule lets naturals 1-3 escape, the example only 1-2."""
    chase = escape.Chase("K", 3, 1)
    assert [escape.escapes(n, chase) for n in range(1, 7)] == [True] * 3 + [False] * 3
    assert [escape.escapes(n, chase, "example") for n in range(1, 7)] == [True] * 2 + [False] * 4


def test_the_chaser_is_the_available_fighter_with_the_best_odds():
    """11.0: the opponent picks the Zero whose line is clear over the one behind broken cloud; with none
    Available, no roll."""
    hellcat = sq("A", "allies", "f6f", "rtb", "K3", heading="W", broken=True)
    clear, cloudy = sq("K", "axis", "a6m", "sweep", "N3"), sq("L", "axis", "a6m", "sweep", "K6")
    assert escape.chaser(state(hellcat, clear, cloudy), hellcat) == escape.Chase("K", 3, 1)
    assert escape.chaser(state(hellcat, clear.move(broken=True)), hellcat) is None
    assert escape.may_escape(state(hellcat), hellcat.move(broken=False)) is not None
    assert escape.may_escape(state(hellcat), hellcat.move(broken=False), consent=True) is None


def test_both_flights_of_a_split_squadron_stay_on_its_listed_net(monkeypatch):
    """9.3.1: a split keeps both flights in the squadron's radio net, also when the scenario lists its nets."""
    from pbem.rules.wing_leader import tables
    listed = dict(tables.scenario("sweep"), nets=[{"name": "blue", "members": ["A"]}])
    monkeypatch.setattr(radio, "scenario", lambda name: listed)
    a1 = sq("A1", "allies", "spitfire9", "sweep", "C15", flight=True)
    s = state(a1, sq("A2", "allies", "spitfire9", "sweep", "C14", flight=True), sq("B", "allies", "spitfire9", "sweep", "B14"))
    assert [radio.net_of(s, x) for x in s.squadrons] == ["blue", "blue", None]
    assert radio.net_of(s, a1.move(flight=False)) is None  # a squadron named A1 is not A's flight
