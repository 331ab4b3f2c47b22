"""Game data carries its provenance: every value marked, unmarked values refused, placeholders listable."""
import pytest
from click.testing import CliRunner

from pbem import rules
from pbem.cli import main
from pbem.core.data import load_data, package_data, provenance_counts, walk_provenance
from pbem.core.errors import RulesetDefinitionError


@pytest.mark.parametrize("ruleset", rules.RULESETS, ids=lambda r: r.info.name)
def test_every_data_file_loads_with_provenance(ruleset):
    files = package_data(f"pbem.rules.{ruleset.info.name}")
    assert files, "a ruleset keeps its tables and maps as data"
    for name, data in files.items():
        for where, _, prov in walk_provenance(data):
            assert prov in ("rulebook", "example", "placeholder"), f"{name}: {where}"


def test_unmarked_values_are_refused(tmp_path, monkeypatch):
    pkg = tmp_path / "fake_rules"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "ok.toml").write_text('provenance = "rulebook"\n[speed]\nfast = 2\n[guess]\nprovenance = "placeholder"\nx = 1\n')
    (pkg / "bad.toml").write_text('[speed]\nfast = 2\n')
    (pkg / "odd.toml").write_text('provenance = "hearsay"\nx = 1\n')
    monkeypatch.syspath_prepend(str(tmp_path))
    assert provenance_counts(load_data("fake_rules", "ok.toml")) == {"rulebook": 1, "example": 0, "placeholder": 1}
    with pytest.raises(RulesetDefinitionError, match="speed.fast has no provenance"):
        load_data("fake_rules", "bad.toml")
    with pytest.raises(RulesetDefinitionError, match="'hearsay' is not one of"):
        load_data("fake_rules", "odd.toml")


def test_gm_can_list_placeholders():
    out = CliRunner().invoke(main, ["placeholders", "lew_morski"]).output
    lines = out.splitlines()
    assert lines and all(ln.endswith("(placeholder)") and ".toml: " in ln for ln in lines)
    counts = CliRunner().invoke(main, ["rules", "--provenance"]).output
    assert counts.count("data values:") == len(rules.RULESETS)


def test_aa_miniatures_is_listed_and_its_placeholders_too():
    """Registered (issue #17): `pbem rules` lists it with its options, `pbem placeholders` its guessed values
    (the maps, terrain costs, the cards' values), and its rulebook values are not among them."""
    listed = CliRunner().invoke(main, ["rules"]).output
    assert "aa_miniatures: Axis & Allies Miniatures" in listed and "option visibility='open' [open|fog]" in listed
    lines = CliRunner().invoke(main, ["placeholders", "aa_miniatures"]).output.splitlines()
    assert lines and all(ln.endswith("(placeholder)") for ln in lines)
    assert any("maps.toml: maps.farm.rows" in ln for ln in lines)
    assert any("tables.toml: stacking.full_total" in ln for ln in lines)  # the full hex is a guess (G1)
    assert not any("tables.toml: range." in ln for ln in lines)  # the range bands are the rulebook's (L84-L90)
