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
