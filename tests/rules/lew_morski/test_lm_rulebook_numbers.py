"""Issue 16: no digest number in anything a player reads.  Rejections (including the wrong-phase one and
an unknown word), events, order forms, option and scenario descriptions cite the rulebook's own sections
("R 5.3.2", as its contents print them), never the digest's (G-31, "digest 5")."""
from __future__ import annotations

import re

import pytest

from pbem.rules.lew_morski import RULESET
from pbem.rules.lew_morski.checker import VERBS
from tests.rules.cite_scan import Read, forbidden, player_texts

#: Every section the rulebook prints (and the x.0 of a section whose subsections it numbers x.0.1 ...).
SECTIONS = ({"1", "2", "2.0", "2.1", "2.1.1", "2.2", "2.3", "3", "3.0", "3.1", "4", "4.0", "4.1", "4.2", "4.3",
             "4.3.1", "4.3.2", "5", "5.0", "5.1", "5.2", "5.3", "5.4", "6", "6.0", "6.1", "6.2", "7", "7.0", "8",
             "8.0", "8.1", "8.2", "9", "9.0", "9.1", "9.2", "9.3", "10", "11"}
            | {f"4.1.{i}" for i in range(1, 8)} | {f"4.2.{i}" for i in range(1, 7)}
            | {f"5.0.{i}" for i in range(1, 9)} | {f"5.3.{i}" for i in range(1, 9)}
            | {f"6.0.{i}" for i in range(1, 4)} | {f"6.2.{i}" for i in range(1, 7)} | {f"7.0.{i}" for i in range(1, 11)})
#: "R 5.3.2", "R 3.0, 6.1", "R 5.0.1, 2.3": a citation and the sections listed after it.
CITED = re.compile(r"\bR (\d+(?:\.\d+)*(?:,\s*\d+(?:\.\d+)*)*)")


def wrong_numbers(texts: list[Read]) -> list[str]:
    bad = []
    for t in texts:
        if t.kind == "rule" and not t.text.startswith("R "):
            bad.append(f"rule {t.where}: {t.text!r} is not an R-section")
        bad += [f"{t.kind} {t.where}: {n} in {t.text[:120]!r}" for c in CITED.findall(t.text)
                for n in re.findall(r"\d+(?:\.\d+)*", c) if n not in SECTIONS]
    return bad


@pytest.fixture(scope="module")
def texts():
    return player_texts(RULESET, VERBS.verbs, seed=b"issue 16: the rulebook's numbers",
                        phases=16, options=({}, {"visibility": "fog", "react_default": "ask"}), every=3)


def test_the_scan_reads_rejections_events_and_forms(texts):
    assert {t.kind for t in texts} == {"option", "scenario", "event", "sitrep", "form", "rule", "reject"}
    assert sum(t.kind == "rule" for t in texts) > 500
    fuzzed = {m.group(1) for t in texts if t.kind == "rule" for m in [re.search(r"\d+/([a-z-]+) ", t.where)] if m}
    assert {"setup", "de-move", "gb-move", "de-react", "gb-react"} <= fuzzed, fuzzed


def test_no_digest_number_or_gap_reaches_a_player(texts):
    """Before: twenty option descriptions opened with the digest's gap number ("G-31 reactive fire ...") and
    W4/W5 were described as "Reconstructed (digest 3.3, G-19)"."""
    assert not forbidden(texts), "\n".join(forbidden(texts)[:20])


def test_every_cited_number_is_a_section_the_rulebook_prints(texts):
    assert not wrong_numbers(texts), "\n".join(wrong_numbers(texts)[:20])


def test_the_scan_would_catch_a_digest_citation():
    planted = [Read("option", "x", "G-31 reactive fire"), Read("rule", "x", "R 5.9"), Read("rule", "x", "[6.1]"),
               Read("event", "x", "no hit [R 5.2, Table 2; option zero_strength]")]
    assert len(forbidden(planted)) == 1 and len(wrong_numbers(planted)) == 2
