"""Templates render in Jinja's sandbox: a GM's override cannot reach the process, and the shipped
templates render byte for byte as they did in a plain environment."""
from __future__ import annotations

from types import SimpleNamespace

import jinja2
import pytest

from pbem import render
from pbem.core.play import play
from pbem.crypto import sshsig
from pbem.rules import RULESETS
from pbem.server import build_sitrep
from tests.fixtures.duel import RULESET as DUEL
from tests.helpers import orders_mail

ESCAPES = {
    "os.system": "{{ cycler.__init__.__globals__.os.system('touch %(marker)s') }}",
    "__class__.__mro__": "{{ ''.__class__.__mro__[1].__subclasses__() }}",
    "template reference": "{{ self._TemplateReference__context }}",
    "huge range": "{% for i in range(10**9) %}{% endfor %}",
    "huge string": "{{ 'x' * 10**9 }}",
    "huge power": "{{ 10 ** (10 ** 10) }}",
}


def _override(folder, text: str):
    for name in ("sitrep.txt.j2", "sitrep.html.j2"):
        (folder / "common").mkdir(parents=True, exist_ok=True)
        (folder / "common" / f"generic_{name}").write_text(text)
    return str(folder)


@pytest.mark.parametrize("what", sorted(ESCAPES))
def test_escapes_from_an_override_fail_with_a_clear_error(tmp_path, what):
    marker = tmp_path / "pwned"
    folder = _override(tmp_path / "override", ESCAPES[what].replace("%(marker)s", str(marker)))
    with pytest.raises(render.RenderError) as err:
        render.render_sitrep("duel", {"cycler": None}, folder)
    assert "common/generic_sitrep.txt.j2 failed" in str(err.value)
    assert not marker.exists()


def test_the_shipped_globals_are_no_way_out(tmp_path):
    """The very payload of issue 12, through a global Jinja itself provides."""
    marker = tmp_path / "pwned"
    folder = _override(tmp_path / "override", ESCAPES["os.system"].replace("%(marker)s", str(marker)))
    with pytest.raises(render.RenderError, match="SecurityError|UndefinedError"):
        render.render_sitrep("duel", {}, folder)
    assert not marker.exists()


def _game(ruleset, scenario, seed_commitment="c" * 64):
    return SimpleNamespace(id="g", title="t", ruleset=ruleset.info.name, scenario=scenario,
                           seed_commitment=seed_commitment, seed_hex="00" * 16, seed_salt="11" * 32, turn=0,
                           journal_head="h" * 64, templates_dir="")


def _entries(step):
    return [{"seq": 1, "kind": "resolve", "hash": "0" * 64, "payload": {"notices": ["a notice"]},
             "events": [{"text": e.text, "kind": e.kind, "visible_to": sorted(e.visible_to), "data": dict(e.data)}
                        for e in step.events],
             "rolls": [{"sides": r.sides, "value": r.value, "why": r.why, "seen_by": sorted(r.seen_by)}
                       for r in step.rolls]}]


@pytest.mark.parametrize("ruleset", [*RULESETS, DUEL], ids=lambda r: r.info.name)
def test_shipped_templates_render_the_same_bytes_as_without_the_sandbox(ruleset, monkeypatch):
    scenario = ruleset.info.scenarios[0].name
    steps = play(ruleset, scenario, b"sandbox check seed", max_phases=6)
    game = _game(ruleset, scenario)

    def built():
        out = []
        for step in steps:
            for seat in ruleset.seats(step.state):
                b = build_sitrep(ruleset, game, {"name": seat.name, "side": seat.side, "title": seat.title,
                                                 "tz": "UTC"}, step.state, _entries(step))
                out.append((b.text, b.html))
        return out

    sandboxed = built()
    assert all(isinstance(env, render.Sandbox) for env in [render.environment("")])
    monkeypatch.setattr(render, "environment",
                        lambda override_dir="", lang="en": jinja2.Environment(loader=render.loader(override_dir),
                                                                              **render.OPTIONS))
    assert built() == sandboxed


@pytest.mark.logs_errors
def test_a_broken_override_holds_its_game_only(server, keys, tmp_path):
    """The override breaks mid-game: that game is held with the reason, the other plays on."""
    folder = tmp_path / "override"
    benign = "{% extends 'common/sitrep.txt.j2' %}"
    _override(folder, benign)
    (folder / "common" / "generic_sitrep.html.j2").write_text("{% extends 'common/sitrep.html.j2' %}")
    for gid, templates in (("bad", str(folder)), ("good", "")):
        server.new_game(gid, "duel", "standard", seed=b"sandbox seed 16+ bytes", templates_dir=templates)
        for seat in ("east", "west"):
            server.add_player(gid, seat, f"{seat}@players.test", sshsig.public_key_of(keys[seat]).line())
    marker = tmp_path / "pwned"
    _override(folder, ESCAPES["os.system"].replace("%(marker)s", str(marker)))
    for gid in ("bad", "good"):
        for seat in ("east", "west"):
            v = server.ingest(orders_mail(server, gid, seat, "FIRE 1\n", keys[seat]))
            assert v.status == "accepted", v.line()
    assert not marker.exists()
    bad, good = server.status("bad"), server.status("good")
    assert bad["status"] == "held" and "RenderError" in bad["held_reason"] and "generic_sitrep" in bad["held_reason"]
    assert good["status"] == "active" and "resolve" in [e["kind"] for e in server.journal("good")]
