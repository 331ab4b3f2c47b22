"""The verb audit (issue #17 "Done when": every rule of the fragment enforced at ingest with its section
cited): every verb of every window has a refused case here, each refusal citing the fragment by its
heading and line numbers (``Stacking, L1-L7``; the fragment has no section numbers, NOTES.md) or, for
what the fragment lost, the option or placeholder that stands in for it, never the digest; and each
saying what would be legal."""
from __future__ import annotations

import re

import pytest

from pbem.core.dice import FixedDice, SeededDice
from pbem.core.orders import OrderLine
from pbem.rules.aa_miniatures import RULESET
from pbem.rules.aa_miniatures.ingest import ANSWERS, ORDERS
from pbem.testing import known

from .test_play import CASES

SEED = b"aa miniatures verb audit seed 16"
LINES = re.compile(r"\bL\d+(-L\d+)?\b")  # the fragment's own lines
LOST = re.compile(r"\b(option [a-z_]+|options [a-z_, ]+|placeholder)\b")  # what stands in for a lost rule


def _position(scenario: str = "skirmish", step: str = "move-first", **options):
    """The scenario's set-up at ``step``, the Allies moving first."""
    state = RULESET.setup(scenario, RULESET.info.resolve_options(options), SeededDice(SEED, "s"))
    data = RULESET.dump(state)
    data["flow"]["step"] = step
    data["first"] = "allies"
    return RULESET.load(data)


def _df_asked():
    """T8's position with the PaK 40's standing order DF ASK, after the Sherman's move: axis is asked."""
    case = known.load_case(next(p for p in CASES if p.stem == "t8_defensive_fire_into_the_hex_entered"))
    data = known._plain(RULESET.dump(known.start_state(RULESET, case)))
    data["flow"]["standing"] = [["axis", "DF pak40", "DF pak40 ASK"]]
    state = RULESET.load(data)
    lines = [OrderLine(1, case.orders["allies"])]
    orders = RULESET.check_orders(RULESET.view(state, "allies"), "allies", lines).orders
    return RULESET.resolve(state, {"allies": orders}, FixedDice([])).state


def _initiative_asked():
    data = RULESET.dump(_position(step="attack"))
    data["flow"]["standing"] = [["axis", "INITIATIVE", "INITIATIVE ASK"]]
    return RULESET.resolve(RULESET.load(data), {}, FixedDice([1, 1, 6, 6])).state   # allies 2, axis 12: axis asked


POSITIONS = {
    "move": lambda: _position(),
    "attack": lambda: _position(step="attack"),
    "meeting": lambda: _position("meeting"),
    "fog-deploy": lambda: _position(step="deploy", visibility="fog"),
    "build": lambda: _position(step="deploy", army="build"),
    "two-seats": lambda: _position(step="move-first", players_per_side=2),
    "df-asked": _df_asked,
    "initiative-asked": _initiative_asked,
}

# verb, position, seat, lines (the last one is refused), where the rule comes from, what the refusal says is legal
CASES_REFUSED = [
    ("MOVE", "move", "allies", ["MOVE sherman_a B9 B8 B7 B6 B5 B4"], "L11", "speed is 4"),
    ("MOVE", "move", "allies", ["MOVE garand"], "L15", "expected MOVE <unit> <hex>"),
    ("FACE", "move", "allies", ["FACE garand UP"], "L15", "one of N NE SE S SW NW"),
    ("HOLD", "move", "allies", ["HOLD panzer"], "L15", "yours: sherman_a, sherman_b, garand, bazooka"),
    ("HOLD", "move", "allies", ["HOLD garand", "HOLD garand"], "L15", "already has an order"),
    ("ATTACK", "attack", "allies", ["ATTACK sherman_a panzer"], "L37", "sherman_a may attack: pak40 (long)"),
    ("ATTACK", "attack", "allies", ["ATTACK garand pak40 AND mg42"], "L274", "one target only"),
    ("ATTACK", "move", "allies", ["ATTACK sherman_a pak40"], "options cadence", "expected MOVE <unit>"),
    ("AIR", "attack", "allies", ["AIR p47 AT C5 ATTACK pak40"], "L244", "yours: none"),
    ("PLACE", "fog-deploy", "allies", ["PLACE garand AT H1"], "option visibility", "set-up zone"),
    ("PLACE", "fog-deploy", "allies", ["PLACE sherman_a AT C11", "PLACE sherman_b AT C11"], "option visibility",
     "over full (Stacking, L1-L7)"),
    ("BUY", "build", "allies", ["BUY panzer AT B10"], "L236", "yours: sherman (19)"),
    ("BUY", "build", "allies", ["BUY sherman AT B10", "BUY sherman AT B10"], "L236", "over full (Stacking, L1-L7)"),
    ("LOAD", "meeting", "allies", ["LOAD garand_2 INTO sherman_2"], "L9", "your transports: halftrack"),
    ("LOAD", "meeting", "allies", ["LOAD sniper INTO halftrack"], "L9", "must be in or next to halftrack's hex"),
    ("UNLOAD", "meeting", "allies", ["UNLOAD garand_2"], "L9", "not aboard one of your transports"),
    ("OVERWATCH", "move", "allies", ["OVERWATCH p47 N"], "L212", "yours: sherman_a"),
    ("OVERWATCH", "move", "allies", ["OVERWATCH sherman_a N", "OVERWATCH sherman_b N", "OVERWATCH garand N"],
     "L212", "more than 2 units on Overwatch"),
    ("DF", "move", "allies", ["DF garand SOMETIMES"], "L340", "one of ALWAYS, NEVER, VEHICLES, SOLDIERS, ASK"),
    ("OW", "move", "allies", ["OW garand MAYBE"], "L212", "one of ALWAYS, NEVER, VEHICLES, SOLDIERS, ASK"),
    ("AA", "move", "allies", ["AA garand SOMETIMES"], "L244", "one of ALWAYS, NEVER"),
    ("DF_ORDER", "move", "allies", ["DF_ORDER panzer"], "L340", "yours: sherman_a"),
    ("INITIATIVE", "move", "allies", ["INITIATIVE LATER"], "placeholder", "one of FIRST, SECOND, ASK"),
    ("OVERSTACK_PENALTY", "move", "allies", ["OVERSTACK_PENALTY RANDOM"], "L1",
     "one of HIGHEST_COST, LOWEST_COST, ALREADY_HIT"),
    ("HAND", "two-seats", "allies-1", ["HAND sherman_b TO allies-2"], "option players_per_side", "yours: garand, sherman_a"),
    ("HAND", "move", "allies", ["HAND garand TO axis"], "option players_per_side", "needs two players a side"),
    ("CANCEL", "move", "allies", ["CANCEL DF garand"], "L340", "in force: none"),
    ("CANCEL", "move", "allies", ["CANCEL"], "L340", "e.g. CANCEL DF pak40"),
    ("IF", "attack", "allies", ["IF RAINING THEN HOLD garand"], "options cadence", "conditions: DOOMED <unit>"),
    ("IF", "move", "allies", ["IF LIVE pak40 THEN HOLD garand"], "options cadence", "expected MOVE <unit>"),
    (None, "move", "allies", ["BLAST garand"], "options cadence", "expected MOVE <unit>"),
    ("FIRE", "df-asked", "axis", ["FIRE SIDEWAYS"], "L340", "FIRE FROM, FIRE TO, HOLD"),
    ("HOLD", "df-asked", "axis", ["HOLD pak40"], "L340", "expected HOLD"),
    ("FIRST", "initiative-asked", "axis", ["FIRST NOW"], "placeholder", "expected FIRST"),
    ("SECOND", "initiative-asked", "axis", ["SECOND LATER"], "placeholder", "expected SECOND"),
]


def _problems(position: str, seat: str, lines: list[str]):
    state = POSITIONS[position]()
    view = RULESET.view(state, seat)
    return RULESET.check_orders(view, seat, [OrderLine(i + 1, t) for i, t in enumerate(lines)]).problems


@pytest.mark.parametrize("verb, position, seat, lines, cites, says", CASES_REFUSED,
                         ids=[f"{c[0]}-{i}" for i, c in enumerate(CASES_REFUSED)])
def test_each_refusal_cites_the_fragment_and_says_what_is_legal(verb, position, seat, lines, cites, says):
    problems = _problems(position, seat, lines)
    assert problems, f"{lines[-1]!r} was accepted"
    last = [p for p in problems if p.line_no == len(lines)]
    assert last, f"the refusal is not on the last line: {problems}"
    p = last[0]
    assert cites in p.rule, (p.rule, cites)
    assert says in p.message, (p.message, says)
    assert LINES.search(p.rule) or LOST.search(p.rule), f"{p.rule!r} cites neither the fragment nor an option"
    assert "digest" not in p.rule + p.message and not re.search(r"\bG\d+\b", p.rule + p.message), p


def test_every_verb_of_every_window_has_a_refused_case():
    covered = {c[0] for c in CASES_REFUSED}
    every = set(ORDERS.verbs) | set(ANSWERS.verbs)
    assert every <= covered, sorted(every - covered)
    assert None in covered  # an unknown word too
