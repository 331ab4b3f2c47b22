"""The digests' open readings made options, each defaulting to the proposed reading (so games and goldens
played before the option stay as they were), and the counter mix the seed lost (GAP-9).  ``ruleset.INFO``
lists them after its own options; NOTES.md says what each reading is and where it applies (their texts name
the rulebook's sections only: players do not read the digests' numbers).
"""
from __future__ import annotations

from pbem.core.ruleset import Option

from .split import FLIGHT_COUNTERS

OPTIONS: tuple[Option, ...] = (
    Option("flight_counters", "unlimited", "9.3: the flight counters of each aircraft model a side has; a "
           "split needs two free ones (the counter mix is lost: unlimited, or 2 or 4)", FLIGHT_COUNTERS),
    Option("rain_reading", "below", "4.5.1: rain falls in the squares directly below a dense cloud square "
           "(below), or in every square below the lowest dense cloud on the map (layer)", ("below", "layer")),
    Option("rain_sight", "broken", "4.5.1: rain blocks a line of sight as broken cloud does, two squares "
           "of either hiding (broken), or only worsens the weather modifier (clear)", ("broken", "clear")),
    Option("formation_chain", "any", "9.5.2: a wing formation's chain of squadrons in formation may run "
           "through any friendly squadron (any) or only through the wing's own (wing)", ("any", "wing")),
    Option("leader_experte", "fires", "5.2.1, 10.6: an Experte placed with the Wing Leader is one flipped marker; it "
           "still gives the Experte's +1 firepower (fires) or only leads (leads)", ("fires", "leads")),
    Option("trail_fourth", "less", "8.4.1: the fourth squadron in trail and later ones enter with 3, 4... "
           "MP less (less), or wait to enter first next turn (wait)", ("less", "wait")),
    Option("jam_reading", "dogfights", "9.4.2: in the Tally Phase a net is jammed by its squadrons in a "
           "dogfight (dogfights), or also by those that fought an air combat in the previous Combat Phase "
           "(combats)", ("dogfights", "combats")),
    Option("target_turn", "turn", "7.2.3: a squadron starting its move in its target's square stays there; it may "
           "turn in place (turn) or not even that (stay)", ("turn", "stay")),
    Option("balbo_about_turn", "1", "9.5.6: in a Balbo an about-turn costs 1 MP like any turn of more than 45 "
           "degrees (1), or 2 MP as two such turns (2)", ("1", "2")),
)

#: Options that orders are checked against at ingest: a view carries them when they are not at their defaults.
AT_INGEST = ("split_count", "flight_counters", "jam_reading", "target_turn")
