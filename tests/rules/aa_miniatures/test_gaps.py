"""Every gap of the digest (G1–G31) is a named option, data an owner corrects, or a stated reading
(NOTES.md's table), and the data switches for the gaps where the digest offers another reading work."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from pbem.core.data import Overrides, load_data, use_overrides
from pbem.core.dice import FixedDice
from pbem.core.orders import OrderLine
from pbem.rules.aa_miniatures import RULESET, combat
from pbem.rules.aa_miniatures.board import PACKAGE
from pbem.testing import known

from .helpers import unit

NOTES = Path(__file__).parents[3] / "rules" / "aa_miniatures" / "NOTES.md"
GAPS = 31  # the digest's gap list runs G1 to G31
ROW = re.compile(r"^\| G(\d+) \| ([^|]+) \| (option|data|reading) \| (.+) \|$")
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
