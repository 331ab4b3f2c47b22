"""The sitrep templates render from a view."""
import pytest

from pbem.core.play import play
from pbem.render import environment
from pbem.rules.bismarck import RULESET

GAME = dict(id="g1", title="The Chase of the Bismarck", turn=3, phase_title="orders", notices=[], outcome=None,
            seed_commitment="abc", seed=None, journal_head="def", deadline="", prompt="")


@pytest.mark.parametrize("name", ["sitrep.txt.j2", "sitrep.html.j2"])
def test_sitreps_render(name):
    env = environment()  # the one the server renders with: the shipped templates, sandboxed, StrictUndefined
    steps = play(RULESET, "last-dash", b"tpl", max_phases=12)
    for seat in ("german", "allied"):
        view = RULESET.view(steps[-1].state, seat)
        out = env.get_template(f"bismarck/{name}").render(
            view=view, seat={"name": seat, "side": seat, "title": seat}, game=GAME, events=[], rolls=[],
            form=RULESET.order_form(view, seat), picture_cid=None)
        assert "CONTACTS" in out or "Contacts" in out
        if seat == "allied":
            assert "SECRET CONVOY VP" not in out and "Secret convoy VP" not in out
