import pytest

from pbem.core.dice import SeededDice
from pbem.rules.bismarck import RULESET


@pytest.fixture
def rs():
    return RULESET


def fresh(scenario="rheinubung", **options):
    opts = RULESET.info.resolve_options(options)
    return RULESET.setup(scenario, opts, SeededDice(b"t", "setup"))
