"""The pure campaign rules: outcome levels, carry-over and its edges, the administrative step's orders."""
import pytest

import pbem.rules  # noqa: F401  (tests import pbem.rules)
from pbem.campaign import admin
from pbem.campaign.carry import after_game
from pbem.campaign.definition import load
from pbem.campaign.levels import levels
from pbem.campaign.standing import carried, chosen, gm_edit, initial, view
from pbem.core.orders import OrderLine
from pbem.core.ruleset import Outcome
from pbem.rules import find_ruleset

RAID = load("lew_morski/raid")
SIDES = ("de", "gb")


def unit(name, status="fit", xp=1, kind="spitfire", rank=""):
    return {"name": name, "kind": kind, "status": status, "xp": xp, "rank": rank, "detail": {}}


def mirror(level):
    return {"major_victory": "major_defeat", "minor_victory": "minor_defeat", "draw": "draw",
            "minor_defeat": "minor_victory", "major_defeat": "major_victory"}[level]


def after(st, de_level, gb_roster=(), de_roster=()):
    return after_game(st, RAID, "g", {"gb": list(gb_roster), "de": list(de_roster)},
                      {"de": de_level, "gb": mirror(de_level)}, "text")


def test_levels_mirror_the_winner_and_a_draw_is_a_draw():
    lm = find_ruleset("lew_morski", ())
    assert levels(lm, None, None, SIDES) == {"de": "draw", "gb": "draw"}
    assert levels(lm, None, Outcome(None, "draw"), SIDES) == {"de": "draw", "gb": "draw"}

    class NoMargin:  # a ruleset whose Carryover says nothing of margins: every win is minor
        carryover = None
    assert levels(NoMargin(), None, Outcome("gb", "won"), SIDES) == {"gb": "minor_victory", "de": "minor_defeat"}


@pytest.mark.parametrize("level, slot", [("major_victory", "all-out"), ("minor_victory", "fighter-bombers"),
                                         ("draw", "fighter-bombers"), ("minor_defeat", "sweep"),
                                         ("major_defeat", "sweep")])
def test_the_edge_taken_depends_on_the_outcome_level(level, slot):
    st = after(initial(RAID, SIDES), "minor_victory")
    assert st["slot"] == "escorted"
    st = after(st, level)
    assert st["slot"] == slot and not st["over"]


def test_a_terminal_slot_ends_the_campaign_with_the_most_campaign_vp_winning():
    st = after(initial(RAID, SIDES), "major_victory")  # de +3, gb +0
    st = after(st, "draw")  # fighter-bombers: +1 each
    st = after(st, "minor_defeat")  # fighter-bombers' "any": the end
    assert st["over"] and st["result"] == {"winner": "de", "vp": {"de": 4, "gb": 3}}


def test_rosters_carry_status_and_add_up_experience_and_recovery_is_a_share_of_losses():
    st = after(initial(RAID, SIDES), "major_defeat",  # gb's major victory: 0.75 of its losses, rounded
               gb_roster=[unit("Spit-1", "lost", 0), unit("Spit-2", "damaged"), unit("Spit-3")])
    st = after(st, "draw", gb_roster=[unit("Spit-2", "damaged"), unit("Spit-3", xp=1), unit("Hurr-1")])
    gb = st["sides"]["gb"]
    assert [(u["name"], u["status"], u["xp"]) for u in gb["units"]] == [
        ("Spit-1", "lost", 0), ("Spit-2", "damaged", 2), ("Spit-3", "fit", 2), ("Hurr-1", "fit", 1)]
    assert gb["recovery"] == 1  # a draw: half of two out of action
    assert gb["replacements"] == 2 + 1 and gb["vp"] == 3 + 1


def lines(*texts):
    return [OrderLine(i + 1, t) for i, t in enumerate(texts)]


@pytest.fixture
def between():
    st = after(initial(RAID, SIDES), "major_defeat", gb_roster=[
        unit("Spit-1", "lost"), unit("Spit-2", "damaged", 2), unit("Spit-3", "captured"), unit("Hurr-1", xp=3),
        unit("Hurr-2"), unit("Hurr-3"), unit("Hurr-4"), unit("Hurr-5")])
    assert st["slot"] == "escorted" and st["sides"]["gb"]["recovery"] == 2
    return st


def test_admin_orders_apply_within_their_caps(between):
    st, problems = admin.check(between, RAID, "gb", lines("RECOVER Spit-2", "REPLACE spit-1", "PROMOTE Hurr-1",
                                                          "CHOOSE Spit-1 Spit-2 Hurr-1"))
    assert problems == []
    gb = st["sides"]["gb"]
    by = {u["name"]: u for u in gb["units"]}
    assert by["Spit-2"]["status"] == "fit" and by["Spit-1"]["status"] == "fit" and by["Spit-1"]["xp"] == 0
    assert by["Hurr-1"]["rank"] == "commander" and by["Hurr-1"]["xp"] == 1
    assert gb["recovery"] == 1 and gb["replacements"] == 1
    assert chosen(st, RAID, "gb") == ["Spit-1", "Spit-2", "Hurr-1"]
    take = {u["name"]: u["status"] for u in carried(st, RAID)["gb"]}
    assert take["Hurr-2"] == "reserve" and take["Spit-3"] == "captured" and take["Hurr-1"] == "fit"


def test_refused_admin_orders_cite_the_rule_say_what_is_legal_and_change_nothing(between):
    st, problems = admin.check(between, RAID, "gb", lines(
        "RECOVER Spit-3", "RECOVER Hurr-2", "REPLACE Hurr-2", "PROMOTE Hurr-2", "CHOOSE Hurr-1 Hurr-2 Hurr-3 "
        "Hurr-4 Hurr-5 Spit-2", "CHOOSE Spit-1", "RECOVER Bf-109", "REFIT Spit-2", "RECOVER"))
    assert st is between
    said = {p.line_no: (p.message, p.rule) for p in problems}
    assert said[1] == ("Spit-3 is captured: only REPLACE brings a captured unit back", "campaign §C4")
    assert said[2][1] == "campaign §C3" and "RECOVER is for a damaged, wounded or lost unit" in said[2][0]
    assert "only a lost or captured unit is replaced" in said[3][0]
    assert said[4] == ("Hurr-2 has 1 experience; a promotion costs 2", "campaign §C5")
    assert "takes at most 5 of yours" in said[5][0] and said[5][1] == "campaign §C6"
    assert "only a fit or damaged unit can be chosen" in said[6][0]
    assert "you have no unit 'Bf-109' (your units: Spit-1, Spit-2" in said[7][0]
    assert "unknown order 'REFIT'" in said[8][0]
    assert "RECOVER takes one unit" in said[9][0]
    assert len(problems) == 9


def test_recoveries_run_out_and_a_second_recover_is_refused(between):
    st, problems = admin.check(between, RAID, "gb", lines("REPLACE Spit-3", "REPLACE Spit-3"))
    assert [p.message for p in problems] == ["Spit-3 is fit: only a lost or captured unit is replaced (RECOVER a "
                                             "damaged or wounded one)"]
    _, problems = admin.check(between, RAID, "gb", lines("RECOVER Spit-2", "RECOVER Spit-1", "RECOVER Spit-2"))
    assert [p.line_no for p in problems] == [3]
    st2, problems = admin.check(between, RAID, "gb", lines("RECOVER Spit-2", "RECOVER Spit-1"))
    assert problems == [] and st2["sides"]["gb"]["recovery"] == 0
    _, problems = admin.check(st2, RAID, "gb", lines("REPLACE Spit-3"))
    assert problems == []  # a replacement point is not a recovery
    between["sides"]["gb"]["recovery"] = 0
    _, problems = admin.check(between, RAID, "gb", lines("RECOVER Spit-2"))
    assert "no recoveries left" in problems[0].message and "Spit-1, Spit-2" in problems[0].message


def test_a_gm_edit_is_recorded_for_every_side_and_a_side_sees_only_its_own_roster(between):
    st = gm_edit(between, "de", ["VP", "7"])
    st = gm_edit(st, "gb", ["STATUS", "Spit-3", "fit"])
    with pytest.raises(ValueError, match="usage: XP <unit> <experience>"):
        gm_edit(st, "gb", ["XP"])
    with pytest.raises(ValueError, match="unknown edit"):
        gm_edit(st, "gb", ["HEAL", "Spit-3"])
    assert [e["text"] for e in st["edits"]] == ["VP 7", "STATUS Spit-3 fit"]
    facts = {"title": "t", "index": 2, "slot_title": "s", "games": st["games"], "edits": st["edits"],
             "flags": [], "carried_hash": "h",
             "sides": {side: {"units": units, "vp": st["sides"][side]["vp"], "replacements": 0}
                       for side, units in carried(st, RAID).items()}}
    facts["sides"]["de"]["units"] = [unit("He111-1", kind="he111")]
    seen = view(facts, "gb")
    assert "He111-1" not in repr(seen) and "Spit-3" in repr(seen)
    assert seen["vp"] == {"de": 7, "gb": 3} and len(seen["edits"]) == 2


def test_a_side_reaching_the_vp_to_win_ends_the_campaign_at_once():
    import dataclasses

    quick = dataclasses.replace(RAID, vp_to_win=5)
    st = after_game(initial(quick, SIDES), quick, "g1", {}, {"de": "major_victory", "gb": "major_defeat"}, "t")
    assert not st["over"]
    st = after_game(st, quick, "g2", {}, {"de": "minor_victory", "gb": "minor_defeat"}, "t")
    assert st["over"] and st["result"] == {"winner": "de", "vp": {"de": 5, "gb": 0}}
