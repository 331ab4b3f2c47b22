"""A position stored before the game sat on the kit loads and plays on exactly as it would have.

``data/old_midturn.json`` was written by the ruleset as it stood before the port (commit
ea073a1): c1's turn stopped for x1's reaction in its first beat, with an IF beat and
ON_CANCELLED answers still to come, followed by the events the old ruleset gave for the
next phases.
"""
import json
from pathlib import Path

from pbem.rules.sky_ww2 import RULESET
from pbem.rules.sky_ww2.migrate import upgrade, upgrade_flow
from pbem.rules.sky_ww2.rulebook import cite_tags
from skyhelp import doc, pending, step

OLD = json.loads((Path(__file__).parent / "data" / "old_midturn.json").read_text())


def test_old_position_is_upgraded_to_the_kits_flow():
    new = upgrade(OLD["doc"])
    assert "pending" not in new and "counter" not in new
    s = RULESET.load({"doc": OLD["doc"]})
    assert pending(s) == {k: OLD["doc"]["pending"][k] for k in ("kind", "seats", "n")} | {
        "ac": OLD["doc"]["pending"]["ac"], "party": OLD["doc"]["pending"]["party"]}
    assert doc(s)["turn"]["script"] == [
        "STAY", "MANOEUVRE banked-turn TARGET x1 APPLY TARGET ROTATE CW", "ON_CANCELLED dodge",
        "IF PREV_OK THEN ATTACK short-burst TARGET x1", "ON_CANCELLED barrel-roll ASK", "END"]
    assert doc(s)["turn"]["pc"] == 3      # the old cursor (2: after the manoeuvre) counts its ON_CANCELLED line
    assert upgrade(doc(s)) is doc(s)      # today's form is left alone


def test_old_position_plays_on_as_before():
    s = RULESET.load({"doc": OLD["doc"]})
    for old in OLD["steps"]:
        assert pending(s)["kind"] == old["phase"]
        s, events = step(s, old["bodies"])
        assert events == [cite_tags(e) for e in old["events"]]  # as then, citing the headings now


def test_the_games_own_policy_store_moves_into_the_kits():
    """A position stored before the kit kept standing orders (own ``policies`` / ``side_policies``)
    keeps every order in force, REACT rules in their order."""
    old = upgrade_flow(json.loads(json.dumps(OLD["doc"])))  # as stored after the port to the kit's Flow
    pol = old["policies"]["axis-1"]
    pol.update(react=[{"ac": "x1", "card": "dodge", "against": "attack", "min_damage": 2, "max": 0, "lethal": False},
                      {"ac": "*", "card": "*", "against": "any", "min_damage": 0, "max": 1, "lethal": True}],
               pursue={"*": "no", "x1": "free"}, discard_priority=["dive"], activation="ask")
    old["side_policies"]["axis"].update(aa="hold")
    s = RULESET.load({"doc": old})
    assert "policies" not in doc(s) and "side_policies" not in doc(s)
    v = RULESET.view(s, "axis-1")
    assert v["policies"] == pol and v["side_policies"] == {"aa": "hold", "sequence": ["x1"]}
    assert RULESET.view(s, "coalition-1")["policies"] == old["policies"]["coalition-1"]
