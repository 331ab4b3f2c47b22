"""Golden playthroughs: every ruleset × scenario (and the duel fixture) plays as its stored text says (P14.1).

On a mismatch the test names each differing file with its first differing
lines.  A change of behaviour made on purpose is recorded with
``python -m pbem.testing.golden --update ruleset[/scenario]`` (or ``make golden``)
and reviewed in the diff.
"""
from __future__ import annotations

from pathlib import Path

import pytest

from pbem.rules import RULESETS
from pbem.testing import golden
from tests.fixtures.duel import RULESET as DUEL

ROOT = Path(__file__).parent / "golden"
TARGETS = golden.targets((*RULESETS, DUEL))


@pytest.mark.parametrize("target", TARGETS, ids=lambda t: t.name)
def test_golden_playthrough(target):
    """A fresh bot game gives, byte for byte, the stored files of every seat and the umpire."""
    problems = golden.mismatches(ROOT, target)
    assert not problems, "\n\n".join(problems)


def test_every_ruleset_and_scenario_has_golden_files():
    """A registered ruleset or scenario without golden files fails here (as OpenSpiel's playthrough test does)."""
    missing = [t.name for t in golden.targets(RULESETS) if not list(golden.folder(ROOT, t).glob("*.txt"))]
    assert not missing, f"no golden files for {missing}; run: python -m pbem.testing.golden --update"
    stray = sorted({p.parent.relative_to(ROOT).as_posix() for p in ROOT.glob("*/*/*.txt")}
                   - {t.name for t in TARGETS})
    assert not stray, f"golden files for no registered ruleset or scenario: {stray}"


def test_the_command_covers_what_the_test_checks():
    """`python -m pbem.testing.golden` regenerates exactly the targets this test diffs."""
    assert [t.name for t in golden.targets(golden.known_rulesets())] == [t.name for t in TARGETS]


def test_a_mismatch_names_the_file_and_its_first_differing_lines(tmp_path):
    """A changed line in a stored file is reported with the file's name and the old and new lines."""
    target = golden.Target(DUEL, "standard")
    golden.write(tmp_path, target)
    assert golden.mismatches(tmp_path, target) == []
    east = golden.folder(tmp_path, target) / "east.txt"
    lines = east.read_text().splitlines(keepends=True)
    changed = next(i for i, line in enumerate(lines) if line.startswith("  post: "))
    original = lines[changed]
    lines[changed] = "  post: 99\n"
    east.write_text("".join(lines))
    (problem,) = golden.mismatches(tmp_path, target)
    assert "east.txt differs" in problem
    assert "-  post: 99" in problem and "+" + original.rstrip("\n") in problem


def test_missing_and_stray_files_are_reported(tmp_path):
    """A seat file that is gone, or one no seat writes, is a mismatch too."""
    target = golden.Target(DUEL, "standard")
    where = golden.folder(tmp_path, target)
    golden.write(tmp_path, target)
    (where / "west.txt").unlink()
    (where / "north.txt").write_text("")
    problems = golden.mismatches(tmp_path, target)
    assert any("west.txt: missing" in p for p in problems)
    assert any("north.txt: no seat writes" in p for p in problems)


def test_views_are_flattened_with_sorted_keys_and_one_line_records():
    """Nested data becomes `path: JSON` lines; a record of scalars stays on one line; key order does not matter."""
    view = {"b": [{"x": 1, "y": [2, 3]}, {"z": {"deep": {"a": 1}}}], "a": "é", "e": {}, "odd key": None}
    lines = golden.view_lines(golden.flat_view(golden.Target(DUEL, "standard"), view))
    assert lines == ['  a: "é"', "  b[0].x: 1", "  b[0].y: [2, 3]", '  b[1].z.deep: {"a": 1}',
                     "  e: {}", '  "odd key": null']
    again = golden.flat_view(golden.Target(DUEL, "standard"), dict(reversed(list(view.items()))))
    assert golden.view_lines(again) == lines


def test_view_changes_show_new_values_and_the_largest_part_gone():
    """Changed leaves are `+` lines; a vanished run of list items is one `-` range; an emptied list is its `+ []`."""
    before = dict(golden.flat({"own": [{"id": i, "at": [i]} for i in range(5)], "menu": [{"m": [1]}], "t": 1}))
    after = dict(golden.flat({"own": [{"id": i, "at": [i]} for i in range(2)], "menu": [], "t": 2}))
    assert golden.view_changes(before, after) == ["  + menu: []", "  + t: 2", "  - own[2..4]"]


def test_digested_parts_keep_their_size_and_change_with_their_content():
    """A digested path is one line with its length; any change of content changes the line."""
    one = dict(golden.flat({"own": [{"moves": [{"a": 1}, {"a": 2}]}]}, digest=frozenset({"own[].moves"})))
    two = dict(golden.flat({"own": [{"moves": [{"a": 1}, {"a": 3}]}]}, digest=frozenset({"own[].moves"})))
    assert list(one) == [("own", 0, "moves")]
    assert one[("own", 0, "moves")].startswith("<2 entries, sha256 ")
    assert one != two


def test_an_option_variant_is_its_own_target_folder_and_header(tmp_path):
    """A variant plays with its options, keeps its files apart from the default game's and names them."""
    from pbem.rules import find_ruleset
    sky = find_ruleset("sky_ww2")
    chosen = golden.targets((sky,), {"sky_ww2": ({"aircraft": 1, "max_rounds": 4},)})
    variant = next(t for t in chosen if t.options)
    assert variant.name == "sky_ww2/battle@aircraft=1,max_rounds=4"
    assert golden.select(chosen, ["sky_ww2/battle"]) == [t for t in chosen if t.scenario == "battle"]
    golden.write(tmp_path, variant)
    where = golden.folder(tmp_path, variant)
    assert where.name == "battle@aircraft=1,max_rounds=4"
    first = (where / "umpire.txt").read_text().splitlines()[0]
    assert "aircraft=1, max_rounds=4" in first and "default options" not in first
    assert golden.mismatches(tmp_path, variant) == []
    default = golden.render(next(t for t in chosen if t.scenario == "battle" and not t.options))
    assert default["umpire.txt"] != (where / "umpire.txt").read_text()
