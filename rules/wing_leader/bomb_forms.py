"""What a bomber's owner is told of its attack: the order form's lines and the acknowledgement of an
``ATTACK`` order, each with the strike's chances on the Bombing Table [15.3, 15.4].

Everything here reads only the owner's own squadron, its card and the target (public, rule 14), so it is
what the seat may see.  The chances assume the approach goes as planned: aimed, and no flak's Bomb column
(flak fires later, in the Combat Phase).
"""
from __future__ import annotations

from . import approaches, bombing
from .bomb_runs import ATTACKS, RULES, choose_attack, flying_to_target, kind_of, problem_in
from .model import Squadron, State, max_losses
from .sky import name
from .tables import card

#: How each attack is flown, for the form (the release altitude, then the words) [15.3, 15.5].
HOW = {
    "level": "bombs level as soon as it is over column {col}, aimed after {need} straight and level (bombsight {bs})",
    "dive": "dives from altitude 2-10 over column {col} straight down to 0, aimed after 4 levels",
    "steep": "dives from altitude 2-10 over column {col} straight down to 1, aimed after 3 levels",
    "glide": "glides from two columns before {col}, one level down a column, aimed coming down exactly 2",
    "torpedo": "comes down to altitude 0 and drops its torpedoes over column {col}, aimed after 2 squares straight",
    "rocket": "comes down to 1 in the column before {col}, then fires its rockets entering the target's square",
    "strafing": "comes down to 1 in the column before {col}, then strafes entering the target's square",
    "parafrag": "comes down to altitude 1 and drops its parafrags level over column {col}",
    "skip": "comes down to altitude 0 and skip-bombs level over column {col}",
    "kamikaze": "flies the shortest path into the target's square once within 7 squares",
}


def _release_altitude(sq: Squadron, kind: str) -> int:
    return {"level": sq.at[1], "glide": max(sq.at[1] - 2, 0), "steep": 1, "parafrag": 1}.get(kind, 0)


def chances(state: State, sq: Squadron) -> str:
    """The Bombing Table spread of the squadron's attack, as planned [15.4]."""
    target = state.surface(sq.target)
    kind = kind_of(sq)
    run = approaches.Run("level" if kind == "kamikaze" else kind, released=True,
                         release=(target.column, _release_altitude(sq, kind)), aimed=True)
    strike = bombing.strike_of(sq, run, target, turn=state.turn, kamikaze=kind == "kamikaze",
                               max_losses=max_losses(state.scenario, sq))
    return bombing.preview(strike, target, target.id)


def other_attacks(state: State, sq: Squadron) -> list[str]:
    """The other attacks ``sq`` may be ordered to make (``ATTACK`` words) [15.3]."""
    return [k.upper() for k in ATTACKS if k != kind_of(sq)
            and not problem_in(state, choose_attack(sq, k), kamikaze=sq.attack == "kamikaze")]


def form_lines(state: State, sq: Squadron) -> list[str]:
    """The order form's lines for a bomber on its way: its target, how it will attack, the strike's chances
    if it goes as planned, and the other attacks it may choose [15.2.1, 15.3, 15.4]."""
    if not flying_to_target(state, sq):
        return []
    target = state.surface(sq.target)
    kind = kind_of(sq)
    bs = card(sq.model).get("bombsight", "T")
    need = approaches.BOMBSIGHT_CELLS.get(bs, 1)
    how = HOW[kind].format(col=name(target.at)[0], need=f"{need} square{'s' if need != 1 else ''}", bs=bs)
    others = other_attacks(state, sq)
    change = [f"#   ATTACK {sq.id} {'|'.join(others)} to attack otherwise (15.3)"] if others else []
    return [f"#   flies to {target.id} ({target.type}) and {how}{'; on its run now' if sq.run else ''} ({RULES[kind]})",
            f"#   if aimed, without flak: {chances(state, sq)}", *change]


def acknowledgement(state: State, sq: Squadron, kind: str) -> str:
    """The acknowledgement's line for ``ATTACK <sq> <kind>``: the strike's chances [15.4]."""
    return f"ATTACK {sq.id} {kind.upper()}: if aimed, without flak, {chances(state, choose_attack(sq, kind))}"
