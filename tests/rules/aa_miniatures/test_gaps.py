"""Every gap of the digest (G1–G31) is a named option, data an owner corrects, or a stated reading
(NOTES.md's table), and the data switches for the gaps where the digest offers another reading work."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from pbem.core.data import Overrides, load_data, use_overrides
from pbem.core.dice import FixedDice, SeededDice
from pbem.core.orders import OrderLine
from pbem.rules.aa_miniatures import RULESET, combat, reactions
from pbem.rules.aa_miniatures.board import PACKAGE
from pbem.rules.aa_miniatures.los import clear, cover_needed
from pbem.testing import known

from .helpers import open_board, unit

NOTES = Path(__file__).parents[3] / "rules" / "aa_miniatures" / "NOTES.md"
GAPS = 31  # the digest's gap list runs G1 to G31
FRAGMENT_LINES = 384  # the fragment breaks off at L384
ROW = re.compile(r"^\| G(\d+) \| ([^|]+) \| (option|data|reading|stated: L[\d, L-]+) \| (.+) \|$")
#: the gaps left a fixed reading: the digest proposes no other, and the fragment offers none
READINGS = {14, 15, 26}
DATA = re.compile(r"`(\w+\.toml) \[([\w.]+)\](?: (\w+))?`")


def _rows() -> dict[int, tuple[str, str]]:
    rows = {}
    for line in NOTES.read_text(encoding="utf-8").splitlines():
        m = ROW.match(line)
        if m:
            assert int(m[1]) not in rows, f"G{m[1]} twice"
            rows[int(m[1])] = (m[3], m[4])
    return rows


def test_every_gap_of_the_digest_has_a_row():
    assert sorted(_rows()) == list(range(1, GAPS + 1))


def test_only_the_gaps_without_an_alternative_stay_fixed_readings():
    rows = _rows()
    assert {g for g, (kind, _) in rows.items() if kind == "reading"} == READINGS
    for g, (kind, where) in rows.items():
        if kind.startswith("stated"):  # the lines cited are the fragment's (L1-L384) and the row quotes one
            cited = [int(n) for n in re.findall(r"L(\d+)", kind)]
            assert cited and all(1 <= n <= FRAGMENT_LINES for n in cited), f"G{g}: {kind}"
            assert re.search(r"L\d+", where), f"G{g}: the row says which line answers it"


def test_every_reading_key_has_its_gap_and_placeholder_provenance():
    read = load_data(PACKAGE, "data/tables.toml")["readings"]
    assert read["provenance"] == "placeholder"
    named = {key for kind, where in _rows().values() for _, table, key in DATA.findall(where) if table == "readings"}
    assert set(read) - {"provenance", "ref", "note"} == named
    for key in named:
        assert f"{key}:" in read["note"] or f"{key} " in read["note"], f"the note explains {key}"


def test_the_options_named_exist_with_their_defaults():
    options = {o.name: o for o in RULESET.info.options}
    named = 0
    for g, (kind, where) in _rows().items():
        if kind != "option":
            continue
        first = re.match(r"`(\w+)` \(([\w=]+)", where)
        assert first, f"G{g}: an option row starts with `name` (default)"
        assert first[1] in options, f"G{g}: no option {first[1]}"
        assert str(options[first[1]].default) == first[2], f"G{g}: {first[1]}'s default is {options[first[1]].default}"
        named += 1
    assert named >= 8


def test_the_data_named_exists():
    named = 0
    for g, (kind, where) in _rows().items():
        found = DATA.findall(where)
        assert found or kind != "data", f"G{g}: a data row names a file, table and key"
        for filename, table, key in found:
            node = load_data(PACKAGE, f"data/{filename}")
            for part in re.findall(r"\w+", table):
                assert part in node, f"G{g}: {filename} has no [{table}]"
                node = node[part]
            assert not key or key in node, f"G{g}: {filename} [{table}] has no {key}"
            named += 1
    assert named >= 15


def _readings(**values) -> Overrides:
    return Overrides(PACKAGE, {"tables.toml": {"readings": {"provenance": "placeholder", **values}}})


def test_g17_an_aa_gun_is_spared_the_aircraft_penalty_unless_the_data_reads_l248_literally():
    plane = unit("fw", "fw190", (0, 0), side="axis")
    flak = unit("f", "flak38", (0, 3), side="allies")
    assert combat.die_modifier(flak, plane) == 0
    with use_overrides(_readings(aa_shooters_exempt=False)):
        assert combat.die_modifier(flak, plane) == -1
        assert combat.die_modifier(flak, plane, aircraft_front=True) == 0


@pytest.mark.parametrize("points, default, whole", [(50, 2, 2), (100, 2, 2), (150, 3, 2), (250, 5, 4), (300, 6, 6)])
def test_g24_the_overwatch_limit_scales_as_the_data_says(points, default, whole):
    assert combat.overwatch_limit(points) == default
    with use_overrides(_readings(ow_whole_hundreds=True)):
        assert combat.overwatch_limit(points) == whole
    with use_overrides(_readings(ow_minimum=1)):
        assert combat.overwatch_limit(50) == 1


def _fire_along_the_row() -> list[str]:
    """T4's 6 Pounder on Overwatch misses the Panzer entering M11 on its row; the Panzer then steps to
    M12, which with M11 is next to the gun (a defensive-fire provocation, L340)."""
    case = known.load_case(Path(__file__).parents[2] / "known" / "aa_miniatures" / "t4_overwatch_row.toml")
    state = known.start_state(RULESET, case)
    checked = RULESET.check_orders(RULESET.view(state, "axis"), "axis", [OrderLine(1, "MOVE panzer M11 M12")])
    assert not checked.problems
    result = RULESET.resolve(state, {"axis": checked.orders}, FixedDice([1] * 40))
    return [e.text for e in result.events if e.kind == "reaction"]


def test_g23_overwatch_fire_is_the_units_one_reaction_unless_the_data_says_otherwise():
    fired = _fire_along_the_row()
    assert len(fired) == 1 and "overwatch fire at axis panzer in M11" in fired[0]
    with use_overrides(_readings(ow_fire_uses_reaction=False)):
        fired = _fire_along_the_row()
    assert len(fired) == 2 and "defensive fire at axis panzer in M12" in fired[1]


def _t4(dice):
    case = known.load_case(Path(__file__).parents[2] / "known" / "aa_miniatures" / "t4_overwatch_row.toml")
    state = known.start_state(RULESET, case)
    checked = RULESET.check_orders(RULESET.view(state, "axis"), "axis", [OrderLine(1, case.orders["axis"])])
    return [e.text for e in RULESET.resolve(state, {"axis": checked.orders}, FixedDice(dice)).events
            if e.kind == "reaction"]


def test_g8_a_cover_roll_cancels_reaction_fire_unless_the_data_says_none():
    """T4's overwatch fire hits the Panzer on the hill (L10, cover 5+ for a vehicle): a 6 on the cover roll
    saves it by default; with ``cover_against_reaction = "none"`` no cover roll is made and it is Disrupted."""
    hit = [6, 6, 6, 6, 1, 1, 1, 1, 1, 1, 6]
    assert _t4(hit)[0].endswith(": a hit, but cover roll 6 saves it")
    with use_overrides(_readings(cover_against_reaction="none")):
        assert _t4(hit[:-1])[0].endswith(": Disrupted")


def test_g13_a_natural_six_or_one_decides_only_when_the_data_says_so():
    """L96 counts the modified die; with ``natural_rolls`` a natural 6 always succeeds and a 1 always
    fails.  The fragment's modifiers (-2 to +2 on 4+) never reach either, so the test goes beyond them."""
    assert combat.successes([6, 1], -3) == 0 and combat.successes([6, 1], +3) == 2
    with use_overrides(_readings(natural_rolls=True)):
        assert combat.successes([6, 1], -3) == 1 and combat.successes([6, 1], +3) == 1
        assert combat.successes([5, 4, 3], 0) == 2  # the other faces as before


def test_g9_cover_behind_a_hedge_on_the_attackers_own_side_only_when_the_data_reads_the_whole_line():
    """The line from (0, 0) north crosses the hedge on the attacker's own hexside (the end hexes' sides
    never block sight, L206): the target in the open is behind it only under ``hedge_cover = "line"``."""
    board = open_board(sides={((0, 0), 0): "hedge"})
    target = unit("g", "garand", (0, -3), side="axis")
    assert clear(board, (0, 0), (0, -3))
    assert cover_needed(board, target, (0, 0)) == 0
    with use_overrides(_readings(hedge_cover="line")):
        assert cover_needed(board, target, (0, 0)) == 4
    near = unit("g", "garand", (0, -1), side="axis")  # the same hedge on the target's own boundary
    assert cover_needed(board, near, (0, 2)) == 4


def _known(name: str, dice, orders: dict | None = None, edits=()):
    case = known.load_case(Path(__file__).parents[2] / "known" / "aa_miniatures" / f"{name}.toml")
    state = RULESET.load({**RULESET.dump(known.start_state(RULESET, case))})
    for path, value in edits:
        data = RULESET.dump(state)
        known.set_path(data, path, value)
        state = RULESET.load(data)
    seats = orders or case.orders
    checked = {s: RULESET.check_orders(RULESET.view(state, s), s, [OrderLine(1, t)]) for s, t in seats.items()}
    assert not any(c.problems for c in checked.values())
    return RULESET.resolve(state, {s: c.orders for s, c in checked.items()}, FixedDice([*dice, 6, 6, 1, 1]))  # the tail: the next turn's initiative


def test_g20_grazing_fire_reaches_the_targets_own_hex_only_when_the_data_says_so():
    """T7 with the Red Devil Captain beside the Bazooka in E3: by default grazing fire attacks only the
    adjacent hexes the line touches (L276-L278); with ``graze_target_hex`` the Captain is attacked too."""
    edits = [("units[id=captain].hex", [4, 0])]
    texts = [e.text for e in _known("t7_grazing_fire", [1] * 32, edits=edits).events]
    assert not any("attacks allies captain" in t for t in texts)
    with use_overrides(_readings(graze_target_hex=True)):
        texts = [e.text for e in _known("t7_grazing_fire", [1] * 32, edits=edits).events]
    assert any("axis mg42 attacks allies captain" in t for t in texts)


@pytest.mark.parametrize("reading, stops", [("fired_at", "H7"), ("entered", "H7"), ("left", "H8")])
def test_g25_where_a_disrupting_defensive_fire_stops_the_mover(reading, stops):
    """T8: the PaK 40 Disrupts the Sherman in H7, the hex it enters (L346 says only that it stops)."""
    with use_overrides(_readings(df_stop=reading)):
        result = _known("t8_defensive_fire_into_the_hex_entered", [6, 6, 6] + [1] * 9)
    sherman = next(u for u in RULESET.view(result.state, "allies")["units"] if u["id"] == "sherman_a")
    assert (sherman["hex"], sherman["disrupted"], sherman["facing"]) == (stops, True, "N")


def test_g25_fired_at_in_the_hex_it_leaves_it_stops_in_the_hex_entered_under_that_reading():
    """T8 from the hex left, with five successes against the Sherman's front defence 5: Disrupted in H8,
    it stays there by default and ends in H7 with ``df_stop = "entered"``."""
    for reading, stops in (("fired_at", "H8"), ("entered", "H7")):
        with use_overrides(_readings(df_stop=reading)):
            result = _known("t8_defensive_fire_into_the_hex_left", [6] * 5 + [1] * 7)
        sherman = next(u for u in RULESET.view(result.state, "allies")["units"] if u["id"] == "sherman_a")
        assert (sherman["hex"], sherman["disrupted"]) == (stops, True)
        told = [e.text for e in result.events if e.kind == "move"]
        assert told == ([] if reading == "fired_at" else ["allies sherman_a stops in H7, Disrupted (L346)"])


def _riders(state, orders: str) -> list[str]:
    lines = [OrderLine(i + 1, t) for i, t in enumerate(orders.splitlines())]
    checked = RULESET.check_orders(RULESET.view(state, "allies"), "allies", lines)
    assert not checked.problems
    after = RULESET.resolve(state, {"allies": checked.orders}, FixedDice([])).state
    return sorted(c["id"] for c in RULESET.view(after, "allies")["cargo"] if c["aboard"] == "halftrack")


def test_g18_a_transport_carries_as_many_as_the_data_says():
    """L9 gives no number: one rider by default (a second refused, citing L9); two with
    ``transport_capacity = 2``."""
    state = RULESET.setup("meeting", RULESET.info.resolve_options({}), SeededDice(b"aa miniatures setup seed", "s"))
    data = RULESET.dump(state)
    data["first"] = "allies"
    state = RULESET.load(data)
    both = "LOAD garand_2 INTO halftrack\nLOAD garand_1 INTO halftrack"
    assert _riders(state, both) == ["garand_2"]  # the second finds the half-track full when carried out
    with use_overrides(_readings(transport_capacity=2)):
        assert _riders(state, both) == ["garand_1", "garand_2"]
    checked = RULESET.check_orders(RULESET.view(state, "allies"), "allies", [OrderLine(1, "LOAD garand_2 INTO halftrack")])
    loaded = RULESET.resolve(state, {"allies": checked.orders}, FixedDice([])).state
    second = [OrderLine(1, "LOAD garand_1 INTO halftrack")]
    problems = RULESET.check_orders(RULESET.view(loaded, "allies"), "allies", second).problems
    assert len(problems) == 1 and "L9" in str(problems[0]) and "carries 1 unit" in str(problems[0])
    with use_overrides(_readings(transport_capacity=2)):
        assert not RULESET.check_orders(RULESET.view(loaded, "allies"), "allies", second).problems


def test_g23_the_overwatch_row_takes_in_the_units_own_hex_only_when_the_data_says_so():
    """L220: the row is "a straight row of hexes one hex wide" in the weapon's direction; whether it starts
    in the unit's own hex is unstated.  A Panzer coming into the watching gun's hex: off the row by default."""
    board = open_board()
    gun = unit("g", "six_pounder", (0, 0), side="allies", overwatch=0)
    tank = unit("pz", "panzer", (0, 1), side="axis")
    assert reactions.on_row(board, gun, tank, (0, -2))  # two hexes north, in its direction
    assert not reactions.on_row(board, gun, tank, (0, 0))
    with use_overrides(_readings(ow_row_own_hex=True)):
        assert reactions.on_row(board, gun, tank, (0, 0))
        assert not reactions.on_row(board, gun, tank, (1, 0))  # next to it, off the row, as before


def test_g18_a_unit_boards_from_next_door_unless_the_data_says_only_from_the_transports_hex():
    """The Garand in H11 is next to the half-track in G12: it boards by default; with ``load_reach = 0``
    (the digest's proposal: it moves into the transport's hex first) the order is refused, citing L9."""
    state = RULESET.setup("meeting", RULESET.info.resolve_options({}), SeededDice(b"aa miniatures setup seed", "s"))
    data = RULESET.dump(state)
    data["first"] = "allies"
    state = RULESET.load(data)
    assert _riders(state, "LOAD garand_2 INTO halftrack") == ["garand_2"]
    with use_overrides(_readings(load_reach=0)):
        problems = RULESET.check_orders(RULESET.view(state, "allies"), "allies",
                                        [OrderLine(1, "LOAD garand_2 INTO halftrack")]).problems
    assert len(problems) == 1 and "must be in halftrack's hex" in str(problems[0]) and "L9" in str(problems[0])


def test_g16_an_aircraft_strikes_from_anywhere_unless_the_data_keeps_it_near_its_edge():
    """The P-47 strikes from D3 on the 9-row LOS map, the Allies' zone on its southern edge: accepted by
    default; ``strike_reach = 7`` (rows 3-9) still takes it, ``strike_reach = 6`` (rows 4-9) refuses it."""
    case = known.load_case(Path(__file__).parents[2] / "known" / "aa_miniatures" / "air_strike_and_aa_fire.toml")
    state = known.start_state(RULESET, case)

    def problems() -> list[str]:
        lines = [OrderLine(1, case.orders["allies"])]
        return [str(p) for p in RULESET.check_orders(RULESET.view(state, "allies"), "allies", lines).problems]

    assert problems() == []
    with use_overrides(_readings(strike_reach=7)):
        assert problems() == []
    with use_overrides(_readings(strike_reach=6)):
        refused = problems()
    assert len(refused) == 1 and "D3 is too far from your edge" in refused[0] and "rows 4-9" in refused[0]
    assert "L244-L252" in refused[0]
