"""FIRE with two or more players a side (issue 16): an ally's move, made from another seat's file in the same
phase, is not known when a player's orders are checked.  The line of fire is checked without the allies'
aircraft, and the acknowledgement says when one of them may yet end on it -- the shot is then held and the
player told [R 5.2, 5.3.2]."""
from pbem.core.dice import FixedDice
from pbem.rules.lew_morski import RULESET, board

from .lm_helpers import check, new_state, only, put


def _ahead(hex_: str, facing: str, dist: int) -> str:
    return board.fmt(board.ray(board.parse_hex(hex_), facing, dist)[dist - 1])  # type: ignore[arg-type]


def two_a_side(ally_hex: str, ally_facing: str = "N", target_dist: int = 7, **options):
    """Me110-1 (player de-1) at A20,B20 facing N; Spit-1 ``target_dist`` hexes ahead; Me110-2 (de-2) elsewhere."""
    s = only(new_state(players_per_side=2, **options), "Me110-1", "Me110-2", "Spit-1")
    s = put(s, "Me110-1", "A20,B20", "N")
    s = put(s, "Spit-1", _ahead("A20,B20", "N", target_dist), "N")
    return put(s, "Me110-2", ally_hex, ally_facing)


def test_an_ally_on_the_line_now_does_not_refuse_the_shot():
    """Me110-2 sits on the line now, but moves (3 hexes at least) before the combat phase, and none of its
    moves ends between the two.  Before: refused, as if it would still be there."""
    s = two_a_side(_ahead("A20,B20", "N", 4))
    got = check(s, "de-1", "MOVE Me110-1 FFF\nFIRE Me110-1 AT Spit-1")
    assert not got.problems, got.problems
    assert not any("Me110-2" in n for n in got.notes)


def test_an_ally_that_can_reach_the_line_is_named_in_the_ack():
    """Me110-2 beside the line, facing across it: a move of its ends on the line. Before: no word of it."""
    s = two_a_side("A23,B17", "NW")
    got = check(s, "de-1", "MOVE Me110-1 FFF\nFIRE Me110-1 AT Spit-1")
    assert not got.problems
    [note] = [n for n in got.notes if "Me110-2" in n]
    assert "Me110-1 at Spit-1" in note and "Me110-2 (de-2) can end its move on the line of fire" in note
    assert "holds fire and you are told" in note and "[R 5.3.2]" in note


def test_an_ally_far_off_gives_no_warning():
    s = two_a_side("A5,B5", "S")
    got = check(s, "de-1", "MOVE Me110-1 FFF\nFIRE Me110-1 AT Spit-1")
    assert not got.problems and not any("Me110-2" in n for n in got.notes), got.notes


def test_one_player_a_side_is_checked_as_before():
    """His own Me110-2's move is known: it ends on the line, so the shot through it is refused."""
    s = only(new_state(), "Me110-1", "Me110-2", "Spit-1")
    s = put(put(put(s, "Me110-1", "A20,B20", "N"), "Spit-1", _ahead("A20,B20", "N", 7), "N"), "Me110-2", "A23,B17", "NW")
    [p] = check(s, "de", "MOVE Me110-1 FFF\nMOVE Me110-2 FFF\nFIRE Me110-1 AT Spit-1").problems
    assert p.rule == "R 5.1, 5.2, 5.3.2" and "Me110-2" in p.message


def test_when_the_ally_ends_on_the_line_the_shot_is_held_and_the_shooter_told():
    s = two_a_side("A23,B17", "NW")
    mine = check(s, "de-1", "MOVE Me110-1 FFF\nFIRE Me110-1 AT Spit-1")
    assert not mine.problems and any("Me110-2" in n for n in mine.notes)
    ally = check(s, "de-2", "MOVE Me110-2 FFF")  # it ends 6 ahead of A20,B20: between Me110-1 and Spit-1
    assert not ally.problems
    r = RULESET.resolve(s, {"de-1": mine.orders, "de-2": ally.orders}, FixedDice([6] * 40))
    told = [e.text for e in r.events if "de-1" in e.visible_to and "Me110-1" in e.text and "fire" in e.text]
    assert any("holds fire" in t for t in told), told
    assert not any(a.fired_stage for a in r.state.aircraft if a.id == "Me110-1")


def test_fog_a_target_seen_only_from_an_ally_is_warned():
    """Fog: Spit-1 is beyond Me110-1's visual range but next to Me110-2 -- seen now only from the ally."""
    s = two_a_side(_ahead(_ahead("A20,B20", "N", 7), "SE", 1), "S", target_dist=7, visibility="fog", visual_range=3)
    got = check(s, "de-1", "MOVE Me110-1 FFF\nFIRE Me110-1 AT Spit-1")
    notes = [n for n in got.notes if "seen now only from your allies" in n]
    assert not got.problems and notes, (got.problems, got.notes)


# --- MOVE: the seats' written moves are flown in seat order [G-28] ------------------------------------------
def _pair_on_a_line(first_ahead: str, second_ahead: str):
    """Two a side: Me110-1 (de-1) and Me110-2 (de-2), the one ``*_ahead`` hexes north of A20,B20, facing N."""
    s = only(new_state(players_per_side=2), "Me110-1", "Me110-2", "Spit-1")
    s = put(s, "Spit-1", "A5,B5", "S")
    s = put(s, "Me110-1", _ahead("A20,B20", "N", int(first_ahead)) if first_ahead != "0" else "A20,B20", "N")
    return put(s, "Me110-2", _ahead("A20,B20", "N", int(second_ahead)) if second_ahead != "0" else "A20,B20", "N")


def test_a_path_through_an_earlier_seats_aircraft_is_taken_with_a_warning():
    """de-1's moves are flown first: Me110-1, 2 hexes ahead of Me110-2, will have moved on.  Before: refused
    as if it would still be there."""
    s = _pair_on_a_line("2", "0")
    got = check(s, "de-2", "MOVE Me110-2 FFF")
    assert not got.problems, got.problems
    [note] = [n for n in got.notes if n.startswith("MOVE Me110-2")]
    assert "Me110-1 (de-1)" in note and "nearest free path" in note and "[R 4.1.1]" in note
    # and it flies as ordered once Me110-1 has moved on
    first = check(s, "de-1", "MOVE Me110-1 FFF")
    r = RULESET.resolve(s, {"de-1": first.orders, "de-2": got.orders}, FixedDice([6] * 40))
    me = next(a for a in r.state.aircraft if a.id == "Me110-2")
    assert board.fmt(me.hex) == _ahead("A20,B20", "N", 3)


def test_a_path_through_a_later_seats_aircraft_is_still_refused():
    """de-2's moves come after de-1's: its Me110-2 is still there when Me110-1 flies."""
    s = _pair_on_a_line("0", "2")
    [p] = check(s, "de-1", "MOVE Me110-1 FFF").problems
    assert p.rule == "R 4.1.1" and "already holds an aircraft" in p.message
