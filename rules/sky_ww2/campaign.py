"""What of a Sky of WWII battle carries over into the next battle of a campaign (pbem.campaign).

The named units are the pilots, by their hangar ids (c1..c3, x1..x3): each flies the same hangar's aircraft
in every battle.  The rulebook has no campaign or experience rules; what follows is ours (placeholder):

- a pilot shot down is lost, unless a Rescue card saved the crew [L198]: then the pilot is wounded (out of
  the next battle unless the campaign recovers him); a pilot whose aircraft ends the battle with the
  "pilot wounded" critical hit [L194] is wounded too;
- an aircraft that ends the battle on its damaged side [L107] starts the next one so, with its damage
  markers, its initial hand cut to the damaged side's TTX (the cards cut go under the deck);
- a pilot who comes home earns one battle of experience, two if his side won.  An ace (the one rank) starts
  every battle holding the Ace's reaction [L239] when the deck has one: it takes the place of the last card of
  his initial hand, which goes to the Ace's reaction's place in the deck, so the hand keeps its size [L317].

Only preset scenarios can carry pilots (in the full set-up the aircraft do not exist until they are chosen),
and only in the round cadence without step mode: in the others the first window, asked at set-up, may already
name an aircraft that the campaign leaves out.
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence

from pbem.core.errors import RulesetDefinitionError
from pbem.core.ruleset import CampaignUnit, Carryover, Outcome

from .state import Game, State

ACE = "ace"
ACE_CARD = "ace-reaction"
WOUND = "crit-pilot"


def roster(state: State, side: str) -> tuple[CampaignUnit, ...]:
    """The side's pilots as the battle ends (the rank is the campaign's: an ace stays an ace)."""
    d = state.read()
    won = bool(d["over"]) and d["over"]["winner"] == side
    out = []
    for aid, a in sorted(d["aircraft"].items()):
        if a["side"] != side:
            continue
        kind = Game.type_of(a).model
        if a["destroyed"]:
            out.append(CampaignUnit(aid, kind, "wounded" if a["rescue"] else "lost", 0, "", {}))
            continue
        wounded = any(x.get("card") == WOUND for x in a["attached"])
        status = "wounded" if wounded else "damaged" if a["damaged"] else "fit"
        out.append(CampaignUnit(aid, kind, status, 2 if won else 1, "", {"markers": a["markers"]}))
    return tuple(out)


def apply(state: State, carried: Mapping[str, Sequence[CampaignUnit]]) -> State:
    """The preset battle with the campaign's pilots: those out of action and their aircraft left out (their
    hands back under the deck), damaged aircraft damaged, aces holding the Ace's reaction."""
    units = {u.name: u for side in carried.values() for u in side}
    g = state.thaw()
    doc = g.doc
    out = [aid for aid, u in units.items() if aid in doc["aircraft"] and u.status not in ("fit", "damaged")]
    if out and (doc["options"]["cadence"] != "round" or doc["options"]["step_mode"]):
        raise RulesetDefinitionError("a campaign battle that leaves pilots out is played in the round cadence "
                                     "(the turn cadence's first window already names an aircraft)")
    for aid in sorted(out):
        doc["deck"].extend(sorted(doc["aircraft"].pop(aid)["hand"]))
    for aid, a in sorted(doc["aircraft"].items()):
        u = units.get(aid)
        if u is None:
            continue
        if u.status == "damaged":
            a["damaged"], a["markers"] = True, int(u.detail.get("markers", 0))
            keep = g.stats(a).ttx
            doc["deck"].extend(a["hand"][keep:])
            a["hand"] = a["hand"][:keep]
        if u.rank == ACE:
            if ACE_CARD in doc["deck"] and a["hand"]:
                at = doc["deck"].index(ACE_CARD)
                doc["deck"][at], a["hand"][-1] = a["hand"][-1], ACE_CARD
    standing = []
    for row in doc["flow"]["standing"]:  # the sides' activation orders without the aircraft left out
        if row[1] == "SEQUENCE":
            row[2] = " ".join(w for w in row[2].split() if w not in out)
        if row[2] != "SEQUENCE":  # a side with no pilot left has no order to keep
            standing.append(row)
    doc["flow"]["standing"] = standing
    return State.of(doc)


def margin(state: State, outcome: Outcome) -> str:
    """Major when the winner scored at least twice the loser's victory points (placeholder)."""
    vp = state.read()["vp"]
    w = outcome.winner or ""
    if w not in vp:
        return "minor"
    other = max(v for s, v in vp.items() if s != w)
    return "major" if vp[w] >= 2 * max(other, 1) else "minor"


CARRYOVER = Carryover(roster=roster, apply=apply, margin=margin)
