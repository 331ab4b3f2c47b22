"""Issue 16: no digest number in anything a player reads.  The rulebook numbers nothing, so every rule a
player reads names the heading it is printed under (« ... » with its English), never a seed line ([L293]),
a digest section ([6.1]) or gap (G-14): rejections of a fuzz of every verb in every window (the wrong-phase
ones among them), events, order forms, options and scenarios, in both cadences."""
from __future__ import annotations

import re

import pytest

from pbem.rules.sky_ww2 import RULESET
from pbem.rules.sky_ww2.orders import TABLE
from pbem.rules.sky_ww2.rulebook import HEADINGS
from tests.rules.cite_scan import Read, forbidden, player_texts

from test_sky_issue16 import pursuit_window, react_window
from test_sky_verb_audit_all import activate_window

HEADING = re.compile(r"«([^»]*)»")
#: a digest-style number in brackets: "[6.1]", "[10.3]", "[L293]", "[2]"
NUMBERED = re.compile(r"\[\s*(?:L\s*)?\d+(?:\.\d+)*\s*(?:[,;\]])")


def wrong_citations(texts: list[Read]) -> list[str]:
    printed = {h[1] for h in HEADINGS}
    bad = []
    for t in texts:
        if t.kind == "rule" and not t.text.startswith("«"):
            bad.append(f"rule {t.where}: {t.text!r} names no heading")
        bad += [f"{t.kind} {t.where}: «{h}» is no heading of the rulebook" for h in HEADING.findall(t.text)
                if h.split(",")[0] not in {p.split(",")[0] for p in printed}]
        bad += [f"{t.kind} {t.where}: {m.group(0)!r} in {t.text[:120]!r}" for m in NUMBERED.finditer(t.text)]
    return bad


@pytest.fixture(scope="module")
def texts():
    words = set(TABLE.verbs) | {"IF"}
    # the windows a short bot game does not open: a reaction asked for, a pursuit, an activation
    windows = [("react", react_window(["dodge", "dive"])), ("pursue", pursuit_window()), ("activate", activate_window())]
    return player_texts(RULESET, words, seed=b"issue 16: the rulebook's headings", windows=windows,
                        phases=14, options=({}, {"cadence": "turn", "step_mode": True, "events": True}), every=2)


def test_the_scan_reads_rejections_events_and_forms(texts):
    assert {t.kind for t in texts} == {"option", "scenario", "event", "sitrep", "form", "rule", "reject"}
    assert sum(t.kind == "rule" for t in texts) > 500
    fuzzed = {m.group(1) for t in texts if t.kind == "rule" for m in [re.search(r"\d+/(?:[cx]\d+-)?([a-z]+(?:-up)?)", t.where)] if m}
    assert {"set-up", "deployment", "plan", "turn", "reaction", "pursuit", "activation"} <= fuzzed, fuzzed


def test_no_digest_number_or_gap_reaches_a_player(texts):
    assert not forbidden(texts), "\n".join(forbidden(texts)[:20])


def test_every_citation_is_a_heading_the_rulebook_prints(texts):
    assert not wrong_citations(texts), "\n".join(wrong_citations(texts)[:20])


def test_the_scan_would_catch_a_digest_citation():
    planted = [Read("rule", "x", "[6.1]"), Read("event", "x", "x1 is hit [L293]"), Read("reject", "x", "see [10.3]"),
               Read("event", "x", "«Не глава» (not a heading)")]
    assert len(wrong_citations(planted)) == 5 and len(forbidden(planted)) == 1
    assert not wrong_citations([Read("rule", "x", "«Схватка» (Dogfight)"),
                                Read("form", "x", "MOVE x,y [FACE N|E|S|W] [CELL 1,2]")])
