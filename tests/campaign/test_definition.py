"""Campaign definitions: the packaged ones load and fit their rulesets; a bad one lists every problem."""
import copy

import pytest

import pbem.rules  # noqa: F401  (tests import pbem.rules)
from pbem.campaign import definition
from pbem.campaign.definition import CampaignDefinitionError, check_against, load
from pbem.core.ruleset import carryover_of
from pbem.rules import find_ruleset

PACKAGED = [("lew_morski", "raid"), ("bismarck", "chase")]


@pytest.mark.parametrize("ruleset, name", PACKAGED)
def test_packaged_campaigns_load_and_fit_their_ruleset(ruleset, name):
    defn = load(f"{ruleset}/{name}")
    rs = find_ruleset(ruleset, ())
    check_against(defn, rs)
    assert carryover_of(rs) is not None
    assert name in definition.packaged(ruleset)
    assert sum(defn.provenance.values()) > 20 and set(defn.provenance) == {"rulebook", "example", "placeholder"}
    assert len(defn.slots) >= 3


def test_a_definition_with_problems_names_each_of_them():
    doc = copy.deepcopy(load("lew_morski/raid").data)
    doc["slots"]["probe"]["next"] = {"smashing_victory": "nowhere"}
    del doc["levels"]["draw"]
    doc["campaign"]["start"] = "missing"
    with pytest.raises(CampaignDefinitionError) as err:
        definition.parse(doc, "bad.toml")
    text = str(err.value)
    for part in ("'smashing_victory' is not a level", "no slot 'nowhere'", "[levels.draw] is missing",
                 "campaign.start 'missing' is not a slot"):
        assert part in text


def test_a_value_without_provenance_is_refused():
    doc = copy.deepcopy(load("lew_morski/raid").data)
    del doc["provenance"]
    with pytest.raises(CampaignDefinitionError, match="has no provenance"):
        definition.parse(doc, "bad.toml")


def test_a_ruleset_without_carryover_cannot_be_in_a_campaign():
    from tests.fixtures.duel import RULESET as DUEL

    doc = copy.deepcopy(load("lew_morski/raid").data)
    doc["campaign"]["ruleset"] = "duel"
    with pytest.raises(CampaignDefinitionError, match="cannot be played in a campaign: it gives no Carryover"):
        check_against(definition.parse(doc, "duel.toml"), DUEL)


def test_a_definition_that_does_not_fit_its_ruleset_is_refused():
    doc = copy.deepcopy(load("bismarck/chase").data)
    doc["slots"]["dash"]["scenario"] = "w9"
    doc["campaign"]["reference_side"] = "french"
    with pytest.raises(CampaignDefinitionError) as err:
        check_against(definition.parse(doc, "x.toml"), find_ruleset("bismarck", ()))
    assert "no scenario 'w9'" in str(err.value) and "'french' is not a side" in str(err.value)


def test_an_unknown_campaign_names_the_known_ones():
    with pytest.raises(CampaignDefinitionError, match="campaigns of lew_morski: raid"):
        load("lew_morski/blitz")
