"""The sitrep templates render from views (StrictUndefined) and state the game's options."""
from __future__ import annotations


import pytest

from pbem.core.play import play
from pbem.render import environment
from pbem.rules.lew_morski import RULESET
from pbem.rules.lew_morski.options import OPTIONS

from .lm_helpers import asking, new_state

ENV = environment()  # the one the server renders with: the shipped templates, sandboxed, autoescaped HTML
GAME = {"id": "g1", "title": "Lew Morski test", "turn": 1, "phase_title": "stage 1", "notices": [], "outcome": None,
        "seed_commitment": "abc", "seed": None, "journal_head": "def", "deadline": "", "prompt": ""}


def states():
    steps = play(RULESET, "w4", b"tpl", max_phases=12, options={"visibility": "fog", "players_per_side": 2})
    yield new_state("w3")
    yield asking(new_state("w1", react_default="ask"), "gb",
                 {"ac": "Spit-1", "seat": "gb", "target": "He111-1", "dist": 2, "strength": 4, "range": [7, 11]})
    for s in steps[::3]:
        yield s.state


@pytest.mark.parametrize("kind", ["txt", "html"])
def test_templates_render(kind):
    tpl = ENV.get_template(f"lew_morski/sitrep.{kind}.j2")
    for st in states():
        for seat in RULESET.seats(st):
            view = RULESET.view(st, seat.name)
            form = RULESET.order_form(view, seat.name) if RULESET.phase(st) else ""
            out = tpl.render(view=view, seat={"name": seat.name, "side": seat.side, "title": seat.title},
                             game=GAME, events=[], rolls=[], form=form, picture_cid=None)
            changed = [o.name for o in OPTIONS if st.opts[o.name] != o.default]
            assert changed, "every state here changes at least the sun or the setup"
            assert all(f"{name} = {st.opts[name]}" in out for name in changed)
            assert "bomb_timing = " not in out, "an option at its default is not listed [issue #16]"
            assert f"the other {len(OPTIONS) - len(changed)} are" in out
            assert view["scenario_title"].split(":")[0] in out
