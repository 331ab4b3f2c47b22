"""Axis & Allies Miniatures by mail (issue #17, the foundation): tactical hex combat with facing, line
of sight, the attack roll and face-down hit markers, defensive and overwatch fire from standing orders
(ASK opens a short window), air strikes and AA fire, Double Shot and grazing fire, transport, on the
ruleset kit.

Option ``visibility=fog`` (default open) hides what a side's units cannot see (``fog.py``).  Registered in
:data:`pbem.rules.RULESETS`; what is listed under "Not yet built" in NOTES.md is missing.
"""
from __future__ import annotations

from pbem.core.defaults import Assembled
from pbem.core.ruleset import Option, RulesetInfo, Scenario

from .campaign import CARRYOVER
from .forms import bot_orders, order_form
from .game import STEPS, outcome, seats, setup, view
from .model import SIDES, State
from .ingest import check_orders
from .picture import picture
from .sitrep import with_sights
from .tables import scenarios

RULESET = Assembled(
    info=RulesetInfo(name="aa_miniatures", title="Axis & Allies Miniatures", sides=SIDES,
                     scenarios=tuple(Scenario(k, v["title"]) for k, v in scenarios().items()),
                     options=(Option("sight", "edge", "line of sight along hex edges and through vertices: 'edge' "
                                     "blocks only when both sides are blocked (digest 4.8); 'strict' also blocks "
                                     "at a blocking hex met only at a vertex and at the end of a hedge or cliff side (L194 read "
                                     "literally, digest G11)",
                                     ("edge", "strict")),
                              Option("cadence", "standard", "'standard': the first player moves, then the second "
                                     "(having seen the first), then both send attack lists (3 windows a turn); "
                                     "'fast': both move at once, unit by unit in initiative order (2 windows); "
                                     "the sequence of play is lost (digest G5)", ("standard", "fast")),
                              Option("movement", "table", "the movement order within the standard cadence: 'side': "
                                     "the first player moves all its units, then the second; 'alternate': both send a "
                                     "sealed movement list (with IF conditions on public facts) and units move one at "
                                     "a time, alternating sides in initiative order; 'table': as data/tables.toml "
                                     "[sequence] says ('side'); the sequence of play is lost (digest G5)",
                                     ("table", "side", "alternate")),
                              Option("ow_soldiers", "yes", "may a vehicle's overwatch fire at soldiers entering its "
                                     "row, though soldiers never provoke a vehicle's defensive fire (digest G22)",
                                     ("yes", "no")),
                              Option("rules", "standard", "'standard': facing matters for vehicles only; 'advanced': "
                                     "for every unit, each using its front or rear defence (L17, digest G30), and enfilade fire "
                                     "applies (L256-L270; none under the standard rules, digest G21)",
                                     ("standard", "advanced")),
                              Option("army", "scenario", "'scenario': the scenario's forces; 'build': each side "
                                     "buys a sealed army of up to 100 points (L236) and sets it up in its zone",
                                     ("scenario", "build")),
                              Option("visibility", "open", "'open': both sides see everything (the fragment hides "
                                     "nothing); 'fog': a side sees only the enemies its units have line of sight "
                                     "to, and the last place it saw the others (issue #17)", ("open", "fog")),
                              Option("obstacles", "yes", "'yes': a scenario's obstacle pieces (barbed wire, "
                                     "dragon's teeth) are on the map, one a hex (L1), with the placeholder effects of "
                                     "the terrain chart on movement; 'no': the fragment gives them no rule beyond L1, "
                                     "so play without them (digest G28)", ("yes", "no")),
                              Option("players_per_side", 1, "players a side: with 2, seats <side>-1 and <side>-2 "
                                     "each command a share of the side's units (the scenario's <side>_seats, else "
                                     "dealt in turn; HAND <unit> TO <seat> passes one over); a side's seats see the "
                                     "same and share its standing orders", (1, 2)),
                              Option("move_in_attack", "yes", "may a unit that moved in the movement phase move "
                                     "again instead of attacking (digest G6)", ("yes", "no")))),
    steps=STEPS, setup=setup, view=with_sights(view), order_form=order_form, check_orders=check_orders,
    outcome=outcome, bot_orders=bot_orders, state_type=State, seats=seats,
    picture=picture, carryover=CARRYOVER)

__all__ = ["RULESET"]
