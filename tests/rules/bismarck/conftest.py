from dataclasses import replace

import pytest

from pbem.core.dice import SeededDice
from pbem.core.standing import Standing
from pbem.rules.bismarck import RULESET
from pbem.rules.bismarck.verbs import standing_key


@pytest.fixture
def rs():
    return RULESET


def fresh(scenario="rheinubung", **options):
    opts = RULESET.info.resolve_options(options)
    return RULESET.setup(scenario, opts, SeededDice(b"t", "setup"))


def _store(store, standing):
    """``store`` with the standing orders of each side named in ``standing`` ({side: lines} or pairs) replaced."""
    given = dict(standing)
    kept = [(o.seat, o.text) for o in store.orders if o.seat not in given]
    out = Standing()
    for side, line in kept + [(side, line) for side, lines in given.items() for line in lines]:
        out, _ = out.set(side, standing_key(line.split()), line)
    return out


def at(state, step=None, standing=None, **changes):
    """``state`` moved to ``step`` and/or with the named sides' standing orders replaced (the kit keeps both
    in the state's Flow), other fields changed as by ``dataclasses.replace``."""
    flow = state.flow
    if step is not None:
        flow = replace(flow, step=step)
    if standing is not None:
        flow = replace(flow, standing=_store(flow.standing, standing))
    return replace(state, flow=flow, **changes)


def set_standing(w, standing):
    """Replace the named sides' standing orders in a Work."""
    w.kit.standing = _store(w.kit.standing, standing)
