"""Nothing a player reads names a digest's number (GAP-9, AMB-21, G-3): the rulebook's own sections only.

Scanned: the order forms, events, views and pictures of bot games of every scenario (default, fog with two wings
a side, one window a turn), the refusals of the verb audit, the option and scenario texts and the sitrep
templates.
"""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from pbem.core.play import play
from pbem.rules.wing_leader import RULESET
from pbem.testing.known import check_body

from .test_audit_verbs import ANSWERED, ORDERS, _asked, _start

DIGEST = re.compile(r"\b(?:GAP|AMB|G)-[0-9]+")
TEMPLATES = Path(__file__).parents[3] / "templates" / "wing_leader"


def _digest_numbers(texts: dict[str, str]) -> list[str]:
    return [f"{where}: {m.group(0)}" for where, text in texts.items() for m in DIGEST.finditer(text)]


def test_the_scan_finds_a_digest_number():
    assert _digest_numbers({"x": "the counter mix limit (GAP-9) and AMB-21; a B-24H and a Bf 109G-6"}) == [
        "x: GAP-9", "x: AMB-21"]


@pytest.mark.parametrize("scenario", [s.name for s in RULESET.info.scenarios])
def test_no_digest_number_in_what_a_bot_game_shows(scenario):
    texts: dict[str, str] = {}
    for options in ({}, {"visibility": "fog", "seats_per_side": 2}, {"cadence": "single"}):
        for n, step in enumerate(play(RULESET, scenario, b"no digest numbers in player texts", options=options)):
            texts[f"{options} {n} events"] = "\n".join(e.text for e in step.events)
            phase = RULESET.phase(step.state)
            for seat in sorted(phase.awaiting) if phase else ():
                view = RULESET.view(step.state, seat)
                texts[f"{options} {n} {seat} form"] = RULESET.order_form(view, seat)
                texts[f"{options} {n} {seat} view"] = json.dumps(view, ensure_ascii=False)
                texts[f"{options} {n} {seat} picture"] = repr(RULESET.picture(view))
    assert len(texts) > 30 and _digest_numbers(texts) == []


def test_no_digest_number_in_refusals_options_scenarios_or_templates():
    texts = {f"refusal {c[4]}": "\n".join(check_body(RULESET, _start(c[1]), c[2], c[3])[1]) for c in ORDERS}
    asked = _asked()
    texts |= {f"answer {c[1]}": "\n".join(check_body(RULESET, asked, "allies", c[1])[1]) for c in ANSWERED}
    texts |= {f"option {o.name}": f"{o.doc} {o.choices}" for o in RULESET.info.options}
    texts |= {f"scenario {s.name}": f"{s.title} {s.doc}" for s in RULESET.info.scenarios}
    texts |= {f"template {p.name}": p.read_text(encoding="utf-8") for p in sorted(TEMPLATES.glob("*.j2"))}
    assert len([k for k in texts if k.startswith("template")]) == 2
    assert _digest_numbers(texts) == []
