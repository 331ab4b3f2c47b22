"""The daemon's warm-up fills the sitrep caches (templates, data, maps' static layers, fonts) once per
process; a game's sitreps are byte for byte the same whether they find the caches cold or warm."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

#: In a fresh interpreter: the first phase of a game, every seat's sitrep digested; warmed first or not.
FIRST_PHASE = """
import hashlib, json, sys
from types import SimpleNamespace
from pbem import rules
from pbem.core.play import play
from pbem.services.sitreps import build_sitrep
from pbem.services.warmup import warm
name, scenario, warmed = sys.argv[1], sys.argv[2], sys.argv[3] == "warm"
ruleset = rules.find_ruleset(name)
if warmed:
    assert warm([(ruleset, scenario)]) == 1
step = play(ruleset, scenario, b"warm-up test game seed", max_phases=1)[0]
game = SimpleNamespace(id="g", title="g", ruleset=name, scenario=scenario, seed_commitment="0" * 64,
                       seed_hex="00" * 16, seed_salt="", turn=0, journal_head="0" * 64, templates_dir="")
entries = [{"seq": 1, "kind": "resolve", "hash": "0" * 64, "payload": {"notices": []}, "events": [], "rolls": []}]
out = {}
for seat in ruleset.seats(step.state):
    built = build_sitrep(ruleset, game, {"name": seat.name, "side": seat.side, "title": seat.title, "tz": "UTC"},
                         step.state, entries)
    out[seat.name] = [hashlib.sha256(built.png or b"").hexdigest(), hashlib.sha256(built.text.encode()).hexdigest(),
                      hashlib.sha256(built.html.encode()).hexdigest(), len(built.png or b"")]
print(json.dumps(out))
"""


def first_phase(ruleset: str, scenario: str, mode: str) -> dict:
    done = subprocess.run([sys.executable, "-c", FIRST_PHASE, ruleset, scenario, mode], capture_output=True,
                          text=True, cwd=ROOT, timeout=600, check=True)
    return json.loads(done.stdout)


def test_sitreps_are_the_same_bytes_cold_and_warm():
    for ruleset, scenario in (("bismarck", "last-dash"), ("sky_ww2", "quick")):
        cold, warm = first_phase(ruleset, scenario, "cold"), first_phase(ruleset, scenario, "warm")
        assert cold == warm
        assert all(n > 0 for *_, n in cold.values())  # each seat's sitrep has its map


def test_warming_fills_the_template_and_picture_caches():
    from pbem import pictures, rules
    from pbem.i18n import SOURCE
    from pbem.render import environment
    from pbem.services.warmup import warm

    ruleset = rules.find_ruleset("bismarck")
    assert warm([(ruleset, ruleset.info.scenarios[0].name)]) == 1
    assert pictures._base.cache_info().currsize >= 1
    assert "common/ack.txt.j2" in {key[1] for key in environment("", SOURCE).cache.keys()}
    assert any(key[1].startswith("bismarck/sitrep") or key[1].startswith("common/generic_sitrep")
               for key in environment("", SOURCE).cache.keys())


def test_a_scenario_that_cannot_be_set_up_is_skipped():
    from pbem import rules
    from pbem.services.warmup import warm

    assert warm([(rules.find_ruleset("bismarck"), "no-such-scenario")]) == 0
