"""Fog games: a shot from an aircraft the target's side cannot see never names the shooter to that side."""
from pbem.rules.lew_morski import RULESET, attacks

from .lm_helpers import world


def test_unseen_shooter_is_not_named_to_the_target_side():
    from pbem.core.play import setup_dice

    state = RULESET.setup("w1", RULESET.info.resolve_options({"visibility": "fog", "visual_range": 3,
                                                               "setup": "auto"}), setup_dice(b"lew morski fog events"))
    w = world(state, [6, 6, 6, 6])
    german = next(a for a in w.on_board("de"))
    briton = next(a for a in w.on_board("gb"))
    assert attacks.unseen_by(w, briton, "de"), "set-up puts the sides far apart: the British are out of sight"
    attacks.say_shot(w, briton, german, f"{{shooter}} fires at {german.id}: rolls 12, hit", "fire")
    de_seats = w.w.seats_of("de")
    for ev in w.w.events:
        if ev.visible_to & de_seats:
            assert briton.id not in ev.text and "an unseen aircraft" in ev.text
        else:
            assert briton.id in ev.text
    assert attacks.label(w, briton, "de") == "an unseen aircraft" and attacks.label(w, german, "gb") == german.id


# -- issue 16, once more: every event's audience in fog --------------------------------------------------
def _two_spitfires_far_from_the_germans():
    """Fog w1, visual range 3: Spit-1 and Spit-2 stacked in one hex far from every German aircraft."""
    from dataclasses import replace

    from pbem.core.play import setup_dice
    from pbem.rules.lew_morski.board import parse_hex

    state = RULESET.setup("w1", RULESET.info.resolve_options({"visibility": "fog", "visual_range": 3,
                                                               "setup": "auto"}), setup_dice(b"lew morski fog events"))
    here = parse_hex("A05,B05")
    acs = tuple(replace(a, hex=here, alt="HIGH", facing="N") if a.id in ("Spit-1", "Spit-2") else a
                for a in state.aircraft)
    return replace(state, aircraft=acs), here


def _german_sees(w):
    de = w.w.seats_of("de")
    events = [e.text for e in w.w.events if e.visible_to & de]
    rolls = [r.why for r in w.w.dice.rolls if r.seen_by & de]
    return events, rolls


def test_a_collision_out_of_german_sight_names_nobody_to_the_germans():
    """Before: the collision check roll, the collision and the losses named both Spitfires to the Germans,
    who cannot see them; they now learn only that an unseen aircraft was lost (VP are public)."""
    from pbem.rules.lew_morski import flight

    state, here = _two_spitfires_far_from_the_germans()
    w = world(state, [6])
    a, other = w.ac["Spit-1"], w.ac["Spit-2"]
    assert attacks.unseen_by(w, a, "de") and attacks.unseen_by(w, other, "de")
    assert flight.collision(w, a, here, "N", "HIGH", [])
    events, rolls = _german_sees(w)
    assert not any("Spit" in t for t in events + rolls), (events, rolls)
    assert sum("an unseen aircraft is destroyed" in t for t in events) == 2
    gb = [e.text for e in w.w.events if e.visible_to & w.w.seats_of("gb")]
    assert any("Spit-1 and Spit-2 collide" in t for t in gb)


def test_a_squeeze_without_collision_out_of_german_sight_is_not_told_to_the_germans():
    from pbem.rules.lew_morski import flight

    state, here = _two_spitfires_far_from_the_germans()
    w = world(state, [1])
    assert not flight.collision(w, w.ac["Spit-1"], here, "N", "HIGH", [])
    events, rolls = _german_sees(w)
    assert not events and not rolls, (events, rolls)
