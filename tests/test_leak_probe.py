"""The generic leak probe run on every game: pairs of states differing only in what one seat may not see (P14.3).

Each pair is built from a named setup (or a known-answer dump) with edits, so
it goes through the ruleset's public contract only.  The probe compares the
seat's view, order form, order check, picture, bot orders, and the events and
rolls it is shown after both states are resolved with the same orders and dice.
"""
from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest

from pbem.rules.aa_miniatures.board import parse_hex
from pbem.testing import known
from pbem.testing.golden import known_rulesets
from pbem.core.dice import SeededDice
from pbem.testing.known import check_body
from pbem.testing.leaks import Pair, leaks

RULESETS = {r.info.name: r for r in known_rulesets()}
KNOWN = Path(__file__).parent / "known"


def state(ruleset: str, start: dict, edits: list | None = None):
    """A position as a known-answer case builds it: a setup or a dump, then edits of its dump."""
    start = dict(start, edits=[*start.get("edits", []), *(edits or [])])
    return known.start_state(RULESETS[ruleset], known.Case("pair", "-", "-", start))


# -- the duel: a gunner's post and standing order are its own --------------------------------------------

DUEL = {"scenario": "standard", "setup_dice": [3, 4]}  # east at post 3, west at post 4


def duel_pairs():
    yield "duel", Pair("west's standing ON_HIT order", "east",
                       state("duel", DUEL, [["flow.standing", [["west", "ON_HIT", "ON_HIT DIG"]]]]), state("duel", DUEL, [["flow.standing", [["west", "ON_HIT", "ON_HIT RUN"]]]]),
                       probe="FIRE 2\nMOVE +1\nON_HIT RUN", orders={"east": "FIRE 4", "west": "FIRE 1"})
    yield "duel", Pair("west's post when east misses", "east",
                       state("duel", DUEL), state("duel", DUEL, [["gunners[1].post", 5]]),
                       probe="FIRE 4\nMOVE -1", orders={"east": "FIRE 2", "west": "FIRE 1\nMOVE -1"})


# -- Bismarck: unreported positions, fuel, standing orders --------------------------------------------------

BISMARCK = {"scenario": "last-dash", "edits": [["flow.step", "orders"]]}


def bismarck_pairs():
    yield "bismarck", Pair("unreported German positions and fuel", "allied",
                           state("bismarck", BISMARCK),
                           state("bismarck", BISMARCK, [["ships[id=lothringen].hex", "S10"],
                                                        ["ships[id=bismarck].fuel", 3]]),
                           probe="MOVE TF2 U17\nSEARCH ALL\nENGAGE C1",
                           orders={"allied": "SEARCH NONE", "german": "SEARCH NONE"})
    yield "bismarck", Pair("Allied positions and fuel", "german",
                           state("bismarck", BISMARCK),
                           state("bismarck", BISMARCK, [["ships[id=norfolk].hex", "V16"],
                                                        ["ships[id=norfolk].fuel", 2]]),
                           probe="MOVE bismarck W18\nSEARCH ALL\nREFUEL bismarck FROM lothringen",
                           orders={"allied": "SEARCH NONE", "german": "SEARCH NONE"})
    yield "bismarck", Pair("Allied standing orders", "german",
                           state("bismarck", BISMARCK),
                           state("bismarck", BISMARCK, [["flow.standing[0][2]", "SHADOW OFF"],  # the kit's store: [seat, key, text]
                                                        ["flow.standing[1][2]", "AUTO_ENGAGE OFF"]]),
                           probe="MOVE bismarck W18\nON_SHADOW bismarck EVADE",
                           orders={"allied": "SEARCH NONE", "german": "SEARCH NONE"})
    yield "bismarck", Pair("which battleship the German chose as the target of an air strike that missed", "allied",
                           _air_strike("DEFEND_PRIORITY bismarck"), _air_strike("DEFEND_PRIORITY tirpitz"),
                           probe="FLY swordfish-818 W18 W17+A X18 X19",
                           orders={"allied": "FLY swordfish-818 W18 W17+A X18 X19\nSEARCH NONE", "german": "SEARCH NONE"})

    # issue 16: the German's Shadowed move ordered a turn ahead is a standing order like any other: where
    # Bismarck will go (or that she will stay) is told to the Allied player only when she moves next turn
    ahead = [["german", "HUNT", "HUNT AUTO"], ["german", "ON_MERCHANT", "ON_MERCHANT ATTACK"],
             ["german", "ON_CONVOY", "ON_CONVOY ATTACK"]]
    yield "bismarck", Pair("the German's Shadowed move ordered a turn ahead", "allied",
                           state("bismarck", BISMARCK, [["flow.standing", [*ahead, ["german", "IF SHADOWED BISMARCK",
                                                                                  "IF SHADOWED bismarck THEN MOVE bismarck V17"]]]]),
                           state("bismarck", BISMARCK, [["flow.standing", [*ahead, ["german", "IF SHADOWED BISMARCK",
                                                                                  "IF SHADOWED bismarck THEN STAY bismarck"]]]]),
                           probe="MOVE TF2 U17\nIF SHADOWED TF3 THEN STAY TF3\nSEARCH ALL",
                           orders={"allied": "SEARCH NONE", "german": "SEARCH NONE"})

    allied = [["allied", "SHADOW", "SHADOW ON"], ["allied", "AUTO_ENGAGE", "AUTO_ENGAGE ON"]]
    yield "bismarck", Pair("the Allied Shadowed moves ordered a turn ahead", "german",
                           state("bismarck", BISMARCK, [["flow.standing", [*allied, *ahead, ["allied", "IF SHADOWED SHEFFIELD",
                                                                                            "IF SHADOWED sheffield THEN STAY sheffield"]]]]),
                           state("bismarck", BISMARCK, [["flow.standing", [*allied, *ahead, ["allied", "IF SHADOWED TF2",
                                                                                            "IF SHADOWED TF2 THEN MOVE TF2 V16"]]]]),
                           probe="MOVE bismarck W18\nIF SHADOWED bismarck THEN STAY bismarck",
                           orders={"allied": "SEARCH NONE", "german": "SEARCH NONE"})

    yield "bismarck", Pair("an Allied cruiser lost to emergency fuel", "german",
                           state("bismarck", {"scenario": "last-dash", "edits": [["flow.step", "admin"]]}),
                           state("bismarck", {"scenario": "last-dash", "edits": [["flow.step", "admin"],
                                                                                 ["ships[id=norfolk].emergency", 22]]}),
                           orders={})


def _air_strike(defend: str):
    """Bismarck (Shadowed) and Tirpitz in W17 on the night turn of 27 May at visibility 8, Force H two hexes off; the German's standing
    DEFEND_PRIORITY picks which battleship a Swordfish strike on "a BB" meets [9].  With the probe's dice
    the strike misses, so the Allied player must not learn which one it was."""
    edits = [["turn", 25], ["vis", 8], ["ships[id=tirpitz].hex", "W17"], ["ships[id=tirpitz].status", "sea"],
             ["ships[id=renown].hex", "X19"], ["ships[id=ark-royal].hex", "X19"], ["flow.standing", [["german", "DEFEND_PRIORITY", defend]]]]
    return state("bismarck", dict(BISMARCK, options={"tirpitz": True}), edits)


# -- Lew Morski in fog: German pilots see British aircraft only within visual range --------------------------

FOG = {"scenario": "w1", "setup_dice": [],
       "options": {"visibility": "fog", "visual_range": 3, "setup": "auto", "sun": "south"}}


def _spitfires(where_2: list, facing_2: str, where_3: list, facing_3: str) -> list:
    return [["aircraft[id=Spit-2].hex", where_2], ["aircraft[id=Spit-2].facing", facing_2],
            ["aircraft[id=Spit-3].hex", where_3], ["aircraft[id=Spit-3].facing", facing_3]]


def _swapped(at: list, facing: str) -> tuple:
    """Two states where Spit-2 or Spit-3 (twins: same type, neither the commander) is at ``at``, the other far off."""
    far = [9, 8]
    return (state("lew_morski", FOG, _spitfires(at, facing, far, "NE")),
            state("lew_morski", FOG, _spitfires(far, "NE", at, facing)))


def lew_morski_pairs():
    yield "lew_morski", Pair("a far British aircraft", "de",
                             state("lew_morski", FOG),
                             state("lew_morski", FOG, [["aircraft[id=Spit-2].hex", [12, 14]],
                                                       ["aircraft[id=Spit-2].alt", "LOW"],
                                                       ["aircraft[id=Spit-2].damaged", True]]),
                             probe="MOVE He111-1 FFF\nFIRE Me110-1\nBOMB He111-1 A30,B30", orders={})
    # The case issue #15 says was missed: reactive fire from an aircraft the target's side cannot see.
    yield "lew_morski", Pair("which unseen Spitfire fires reactively", "de", *_swapped([31, 30], "SE"),
                             probe="MOVE He111-1 FFF", orders={})
    fog_w3 = dict(FOG, scenario="w3")
    yield "lew_morski", Pair("where an unrevealed AA gun stands", "de",
                             state("lew_morski", fog_w3), state("lew_morski", fog_w3, [["guns[id=AA-1].hex", [3, 22]]]),
                             probe="MOVE Me110-1 FFF\nBOMB Me110-1 A3,B23", orders={})


    # Issue #16: German reactive fire chose its target from the full state, so a Spitfire flying into the
    # line of fire of a German beyond visual range was named to the German ("fires reactively at Spit-3").
    alone = [["aircraft[id=Me110-1].hex", [20, 20]], ["aircraft[id=Me110-1].facing", "N"], ["flow.step", "gb-move"]]
    yield "lew_morski", Pair("which unseen Spitfire flies into a German's line of fire", "de",
                             state("lew_morski", FOG, alone + _spitfires([20, 13], "S", [9, 8], "NE")),
                             state("lew_morski", FOG, alone + _spitfires([9, 8], "NE", [20, 13], "S")),
                             probe="PASS", orders={})


    # issue 16: a side's REACT and AA standing orders are its own, in an open game as in fog; with the
    # aircraft far apart nothing reacts in the probe's resolution, so every output must be the same
    for name, opened in (("open", {**FOG, "options": {**FOG["options"], "visibility": "open"}}), ("fog", FOG)):
        yield "lew_morski", Pair(f"the British REACT and AA standing orders ({name})", "de",
                                 state("lew_morski", opened, [["flow.standing", [["gb", "REACT Spit-1", "REACT Spit-1 NEVER"]]]]),
                                 state("lew_morski", opened, [["flow.standing", [["gb", "REACT Spit-1", "REACT Spit-1 ALWAYS"],
                                                                                 ["gb", "REACT Spit-2", "REACT Spit-2 IF STRENGTH>=3"]]]]),
                                 probe="MOVE He111-1 FFF\nREACT He111-1 NEVER\nRETURNFIRE He111-1 NO", orders={})


LM_MUTUAL_FIRE = Pair("which unseen Spitfire trades fire with a German", "de", *_swapped([31, 34], "NE"),
                      probe="MOVE He111-1 FFF", orders={})


# -- Sky of WWII: the other side's hand and the deck -----------------------------------------------------

def sky(edits: list):
    dump = json.loads((KNOWN / "sky_ww2" / "ex1_position.json").read_text())
    return state("sky_ww2", {"dump": dump}, edits)


def sky_ww2_pairs():
    yield "sky_ww2", Pair("the enemy aircraft's hand", "coalition-1",
                          sky([]), sky([["doc.aircraft.x1.hand", ["feint", "half-loop", "sideslip", "dodge"]]]),
                          probe="STAY\nATTACK short-burst TARGET x1\nMANOEUVRE banked-turn TARGET x1",
                          orders={"coalition-1": "STAY\nEND"})
    yield "sky_ww2", Pair("the order of the deck", "coalition-1",
                          sky([]), sky([["doc.deck[0]", "long-burst"], ["doc.deck[5]", "feint"]]),
                          probe="STAY\nEND", orders={"coalition-1": "STAY\nEND"})
    yield "sky_ww2", Pair("the other side's candidate aircraft at set-up", "coalition-1",
                          state("sky_ww2", {"scenario": "battle"}),
                          state("sky_ww2", {"scenario": "battle"}, [["doc.selection.axis.candidates", [7, 2, 9]]]),
                          probe="GROUND aa dp\nREACT ALL dodge", orders={"coalition-1": "GROUND cp aa", "axis-1": "GROUND aa cp"})
    yield "sky_ww2", Pair("the other side's hand, seen by the other side", "axis-1",
                          sky([]), sky([["doc.aircraft.c1.hand", ["dodge", "dodge", "feint", "sideslip", "long-burst"]]]),
                          probe="REACT x1 dodge AGAINST banked-turn\nREACT_DEFAULT PASS",
                          orders={"coalition-1": "STAY\nEND"})
    # issue 16: a reaction window opens whether or not the target's hand (same size, no malfunction
    # backs) holds an answer; skipping the empty ones would tell the attacker what the hand lacks
    yield "sky_ww2", Pair("whether the target's hidden hand can answer a beat", "coalition-1",
                          sky([]), sky([["doc.aircraft.x1.hand", ["short-burst", "half-loop", "dive", "snap-shot"]]]),
                          probe="STAY\nMANOEUVRE banked-turn TARGET x1 APPLY TARGET ROTATE CW",
                          orders={"coalition-1": "STAY\nMANOEUVRE banked-turn TARGET x1 APPLY TARGET ROTATE CW"})
    # issue 16: the pursuer's named discards are its own choice from a hidden hand; the enemy learns
    # the cards only as they are discarded, never what else the hand held
    yield "sky_ww2", Pair("the rest of the pursuer's hand", "coalition-1",
                          sky([["doc.aircraft.x1.hand", ["dodge", "ace-reaction", "barrel-roll", "barrel-roll"]]]),
                          sky([["doc.aircraft.x1.hand", ["dodge", "ace-reaction", "feint", "sideslip"]]]),
                          probe="CLIMB\nEND", orders={"coalition-1": "CLIMB DISCARD feint\nEND",
                                                        "axis-1": "ON_PURSUIT ALL YES\nDISCARD_PRIORITY dodge ace-reaction"})
    # the card face down on the enemy's dispatch post, while a beat opens a window it could answer
    post = [["doc.ground.axis[1].obj", "dp"]]
    yield "sky_ww2", Pair("the card on the enemy's dispatch post", "coalition-1",
                          sky([*post, ["doc.dp.axis", "dodge"]]), sky([*post, ["doc.dp.axis", "snap-shot"]]),
                          probe="STAY\nMANOEUVRE banked-turn TARGET x1 APPLY TARGET ROTATE CW",
                          orders={"coalition-1": "STAY\nMANOEUVRE banked-turn TARGET x1 APPLY TARGET ROTATE CW"})


def _sky_round(axis_plan: str):
    """Quick battle, round cadence: both round plans are in; the Coalition, holding the initiative, asked to
    fly each of its turns by mail, so the round stops at c1's turn with the Axis plans stored and unflown."""
    ruleset = RULESETS["sky_ww2"]
    start = ruleset.setup("quick", ruleset.info.resolve_options({}), SeededDice(SKY_SEED, "setup"))
    phase = ruleset.phase(start)
    orders = {seat: check_body(ruleset, start, seat, body)[0].orders for seat, body in
              (("coalition-1", "AIRCRAFT c1 ASK\nAIRCRAFT c2 ASK\nAIRCRAFT c3 ASK"), ("axis-1", axis_plan))}
    after = ruleset.resolve(start, orders, SeededDice(SKY_SEED, f"resolve/{phase.key}")).state
    assert ruleset.phase(after).awaiting == {"coalition-1"}
    return after


SKY_SEED = b"leak probe round plans, sky"
SKY_PLAN = "AIRCRAFT x1\nSTAY\nIF ALT c3 HIGH THEN {x1}\nAIRCRAFT x2\nSTAY\nAIRCRAFT x3\n{x3}"


def sky_round_pairs():
    # issue 16: the round plans are sealed; the enemy learns a plan's lines only as they are flown.  x3 flies
    # after the next window, so its plan must not show at all; x1 flies in the probe's resolution, and its
    # IF line, skipped because c3 is not high, is told to the Axis only
    yield "sky_ww2", Pair("the Axis round plan, still to be flown", "coalition-1",
                          _sky_round(SKY_PLAN.format(x1="ATTACK snap-shot TARGET c1", x3="STAY")),
                          _sky_round(SKY_PLAN.format(x1="MANOEUVRE banked-turn TARGET c1", x3="CLIMB")),
                          probe="STAY\nEND", orders={"coalition-1": "STAY\nEND"})


# -- A&A Miniatures in fog: a side sees only the enemies its units have line of sight to ----------------------

# The farm skirmish in fog: the Allies see only the PaK 40 (H7); the Panzer (J4), MG 42 (G5) and grenadiers
# (I6) are behind the town, and I4, I5, H3, H4 are out of the Allies' sight too.  The Axis see every Allied
# unit; C6 and E7 are out of their sight.
AA_FOG = {"scenario": "skirmish", "options": {"visibility": "fog"}}
AA_ATTACK = dict(AA_FOG, edits=[["flow.step", "attack"]])
AA_AXIS_MOVES = dict(AA_FOG, edits=[["first", "axis"], ["flow.step", "move-first"]])


def aa_miniatures_pairs():
    yield "aa_miniatures", Pair("where the unseen Panzer stands (view, form, refusal, bot, picture)", "allies",
                                state("aa_miniatures", AA_ATTACK),
                                state("aa_miniatures", AA_ATTACK, [["units[id=panzer].hex", [8, -1]],
                                                                   ["units[id=panzer].facing", 2]]),
                                probe="ATTACK sherman_a panzer\nATTACK sherman_b nobody\nIF LIVE panzer THEN HOLD garand",
                                orders={"allies": "ATTACK sherman_a pak40", "axis": "HOLD panzer"})
    yield "aa_miniatures", Pair("an unseen unit's hits, turned up in the Casualty Phase (events)", "allies",
                                state("aa_miniatures", AA_ATTACK),
                                state("aa_miniatures", AA_ATTACK, [["units[id=grenadier].pending", ["yellow"]],
                                                                   ["units[id=mg42].disrupted", True]]),
                                orders={"allies": "HOLD garand", "axis": "HOLD panzer"})
    yield "aa_miniatures", Pair("an unseen unit moving out of sight (events, rolls)", "allies",
                                state("aa_miniatures", AA_AXIS_MOVES),
                                state("aa_miniatures", AA_AXIS_MOVES, [["units[id=panzer].hex", [7, -1]]]),
                                orders={"axis": "MOVE grenadier I5"})
    yield "aa_miniatures", Pair("an Allied unit out of the Axis' sight", "axis",
                                state("aa_miniatures", AA_ATTACK, [["units[id=garand].hex", [2, 4]]]),
                                state("aa_miniatures", AA_ATTACK, [["units[id=garand].hex", [4, 4]],
                                                                   ["units[id=garand].facing", 3]]),
                                probe="ATTACK pak40 garand\nATTACK panzer sherman_a",
                                orders={"allies": "HOLD garand", "axis": "HOLD panzer"})
    yield "aa_miniatures", Pair("what the Allies last saw, and an enemy's air reserve", "axis",
                                state("aa_miniatures", AA_ATTACK),
                                state("aa_miniatures", AA_ATTACK,
                                      [["last_known", [{"side": "allies", "id": "panzer", "card": "panzer",
                                                        "hex": [9, 0], "facing": 4, "turn": 1}]],
                                       ["reserve", [{"id": "p47", "card": "p47", "side": "allies", "hex": [0, 0],
                                                     "facing": 0}]]]),
                                probe="ATTACK pak40 sherman_a", orders={"allies": "HOLD garand", "axis": "HOLD panzer"})

    # Grazing fire from the MG 42 (H7) at the garand (D7) touches E7; E7 and C6 are out of every Axis unit's sight.
    graze = [["units[id=garand].hex", parse_hex("D7")], ["units[id=mg42].hex", parse_hex("H7")]]
    yield "aa_miniatures", Pair("an Allied unit unseen in a hex that grazing fire touches", "axis",
                                state("aa_miniatures", AA_ATTACK, [*graze, ["units[id=bazooka].hex", parse_hex("C6")]]),
                                state("aa_miniatures", AA_ATTACK, [*graze, ["units[id=bazooka].hex", parse_hex("E7")]]),
                                probe="ATTACK mg42 garand GRAZE",
                                orders={"axis": "ATTACK mg42 garand GRAZE", "allies": "HOLD sherman_a"})

    # The garand walks A4 -> A3 -> A2: from A3 it glimpses the MG 42 (G5), told to the Allies; the
    # grenadier is seen from none of its hexes, wherever it stands behind the town (I6 or I5).
    walk = [["first", "allies"], ["flow.step", "move-first"], ["units[id=garand].hex", parse_hex("A4")]]
    yield "aa_miniatures", Pair("an enemy the moving unit never sees on its way (events)", "allies",
                                state("aa_miniatures", AA_FOG, walk),
                                state("aa_miniatures", AA_FOG, [*walk, ["units[id=grenadier].hex", parse_hex("I5")]]),
                                orders={"allies": "MOVE garand A3 A2"})
    # The meeting, fast cadence: the half-track in a full G12 carries garand_2, which may only get off
    # next door; the Axis grenadier steps into G11 first, so the unload is stopped.  Who rides is unseen.
    crowded = [["flow.step", "move-both"], ["first", "axis"],
               ["units[id=sherman_1].hex", parse_hex("G12")], ["units[id=garand_1].hex", parse_hex("G12")],
               ["units[id=captain].hex", parse_hex("G12")], ["units[id=grenadier_1].hex", parse_hex("G10")]]
    meeting = {"scenario": "meeting", "options": {"visibility": "fog", "cadence": "fast"}}
    rider = {"id": "rider", "side": "allies", "hex": [0, 0], "facing": 0, "aboard": "halftrack"}
    yield "aa_miniatures", Pair("who rides in a transport whose unload an enemy stops (events)", "axis",
                                state("aa_miniatures", meeting, [*crowded, ["cargo", [dict(rider, card="garand")]]]),
                                state("aa_miniatures", meeting, [*crowded, ["cargo", [dict(rider, card="bazooka")]]]),
                                probe="MOVE grenadier_1 G11",
                                orders={"allies": "UNLOAD rider AT G11", "axis": "MOVE grenadier_1 G11"})
    # Two players a side, sealed set-up in fog: where the Allies' second seat's bazooka starts is theirs.
    two = {"scenario": "skirmish", "options": {"visibility": "fog", "players_per_side": 2}}
    yield "aa_miniatures", Pair("where a partner's unit starts in a two-seat sealed set-up", "axis-1",
                                state("aa_miniatures", two),
                                state("aa_miniatures", two, [["units[id=bazooka].hex", parse_hex("F12")]]),
                                probe="PLACE panzer AT D3",
                                orders={"allies-1": "PLACE garand AT C11", "allies-2": "PLACE bazooka AT K10",
                                        "axis-1": "PLACE panzer AT D3"})


# -- Wing Leader: open information [5.2], but standing orders stay with their side ---------------------------

WL_SWEEP = {"scenario": "sweep"}
WL_SEATS = {"scenario": "raid", "options": {"seats_per_side": 3},
            "edits": [["flow.step", "raider_tally"]]}  # past the choice of wings: the wings as scenario order gives them


def wing_leader_pairs():
    yield "wing_leader", Pair("the Defender's standing orders", "allies",
                              state("wing_leader", WL_SWEEP),
                              state("wing_leader", WL_SWEEP, [["flow.standing", [
                                  ["axis", "DOGFIGHT", "DOGFIGHT SEEK"], ["axis", "CONSENT", "CONSENT YES"],
                                  ["axis", "TACTIC K", "TACTIC K TURN"], ["axis", "REACT L", "REACT L ASK"]]]]),
                              probe="TALLY A K\nTACTIC A SPEED\nDOGFIGHT ASK", orders={"allies": "TACTIC A SPEED"})
    # the seats of one side see each other's orders (allies, 9.1); another side's seats never do
    yield "wing_leader", Pair("an enemy seat's per-squadron standing orders", "allies-1",
                              state("wing_leader", WL_SEATS),
                              state("wing_leader", WL_SEATS, [["flow.standing", [
                                  ["axis-2", "TACTIC L", "TACTIC L TURN"], ["axis-3", "ARRIVE M", "ARRIVE M 12"],
                                  ["axis-1", "TACTIC K", "TACTIC K SPEED"]]]]),
                              probe="TALLY T K\nREACT B ASK", orders={"allies-1": "TACTIC B SPEED"})


PAIRS = [*duel_pairs(), *bismarck_pairs(), *lew_morski_pairs(), *sky_ww2_pairs(), *sky_round_pairs(),
         *aa_miniatures_pairs(), *wing_leader_pairs()]


@pytest.mark.parametrize("game,pair", PAIRS, ids=[f"{g}-{p.name}" for g, p in PAIRS])
def test_nothing_hidden_reaches_the_seat(game, pair):
    """Every output for the seat is byte-identical across a pair that differs only in what it may not see."""
    assert not leaks(RULESETS[game], pair), "\n".join(leaks(RULESETS[game], pair))


def test_lew_morski_mutual_fire_with_an_unseen_aircraft():
    """The mutual-fire announcement and the return shot must not name an aircraft the side cannot see."""
    assert not leaks(RULESETS["lew_morski"], LM_MUTUAL_FIRE), "\n".join(leaks(RULESETS["lew_morski"], LM_MUTUAL_FIRE))


def test_aa_miniatures_pairs_would_catch_an_open_game():
    """The fog pairs are sharp: played open (nothing hidden) every one of them shows the difference."""
    for game, pair in aa_miniatures_pairs():
        opened = dataclasses.replace(pair, a=_opened(pair.a), b=_opened(pair.b))
        assert leaks(RULESETS[game], opened), pair.name


def _opened(position):
    data = RULESETS["aa_miniatures"].dump(position)
    return RULESETS["aa_miniatures"].load(dict(data, fog=False))


def test_wing_leader_pairs_differ_for_the_seat_that_owns_the_orders():
    """The pairs are sharp: the seat whose standing orders differ sees the difference in its view and form."""
    owners = {"allies": "axis", "allies-1": "axis-2"}
    for game, pair in wing_leader_pairs():
        own = owners[pair.seat]
        found = leaks(RULESETS[game], dataclasses.replace(pair, seat=own, orders={pair.seat: pair.orders[pair.seat]}))
        assert any("view differs" in f for f in found) and any("order form differs" in f for f in found), pair.name


def test_every_game_is_probed():
    """Each ruleset (and the duel) has at least one leak pair."""
    assert {g for g, _ in PAIRS} == set(RULESETS)


def test_the_probe_finds_a_planted_leak():
    """A pair that differs in what the seat does see is reported, naming the output and the difference."""
    planted = Pair("east's own post", "east", state("duel", DUEL), state("duel", DUEL, [["gunners[0].post", 2]]),
                   probe="MOVE -1", orders={"east": "FIRE 4", "west": "FIRE 3"})
    found = leaks(RULESETS["duel"], planted)
    assert any(f.startswith("east's view differs") and '"post":3' in f for f in found)
    assert any(f.startswith("east's events and rolls differs") for f in found)


def test_identical_states_are_not_a_pair():
    """A pair whose states are the same proves nothing and is refused."""
    with pytest.raises(AssertionError, match="the same"):
        leaks(RULESETS["duel"], Pair("none", "east", state("duel", DUEL), state("duel", DUEL)))
