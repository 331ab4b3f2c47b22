"""Issue 16: no digest number in anything a player reads.  Rejections (including the wrong-phase one and
an unknown word), events, order forms, option and scenario descriptions cite the rulebook's own sections,
as printed in its contents (1 to 16 with their subsections), never the digest's ([G-14], "digest 3.3")."""
import re
from pathlib import Path

import pytest

from pbem.rules.bismarck import RULESET
from pbem.rules.bismarck.orders import ANSWERS, VERBS
from tests.rules import old_positions
from tests.rules.cite_scan import FORBIDDEN, Read, forbidden, player_texts

from .conftest import at, fresh

#: The rulebook's contents: every section number it prints.
SECTIONS = {"1", "2", "2.1", "2.2", "2.3", "2.3.1", "2.3.2", "2.3.3", "2.4", "2.5", "2.6", "2.7", "2.8", "3", "4",
            "5", "6", "7", "7.1", "7.2", "7.3", "7.4", "7.5", "7.6", "7.7", "7.7.1", "7.7.2", "7.8", "8", "9", "10",
            "11", "11.1", "11.2", "11.3", "12", "13", "13.1", "13.2", "14", "15", "16"}
NUMBER = re.compile(r"\d+(?:\.\d+)*")
#: A rejection's rule: sections, "7.1, 7.3" (never empty: the wrong-phase rejection names one too).
RULE = re.compile(r"\d+(?:\.\d+)*(?:(?:, |-)\d+(?:\.\d+)*)*")
#: A bracket that cites sections: "[7.5]", "[7.1, 7.2]", "[2.3-2.8]"; dice shown as "rolls [7, 1, 4]" are not.
CITED = re.compile(r"(?<!rolls )\[(\d+(?:\.\d+)*(?:\s*[-,;]\s*\d+(?:\.\d+)*)*)\]")


def wrong_numbers(texts: list[Read]) -> list[str]:
    bad = []
    for t in texts:
        if t.kind == "rule" and not RULE.fullmatch(t.text):
            bad.append(f"rule {t.where}: {t.text!r} is no section number")
        cites = [t.text] if t.kind == "rule" else CITED.findall(t.text)
        bad += [f"{t.kind} {t.where}: {n} in {t.text[:120]!r}" for c in cites for n in NUMBER.findall(c)
                if n not in SECTIONS]
    return bad


#: Stored positions, among them a convoy question and a doctrine question open (see test_migrate.py).
OLD = old_positions.load(Path(__file__).parent)[0]


@pytest.fixture(scope="module")
def texts():
    # a bot game awaits only the main orders and the Shadowed movement: the other windows are set up
    windows = [(step, at(fresh("last-dash"), step=step)) for step in ("shadowed-german", "shadowed-allied")]
    windows += [(p["why"], RULESET.load(p["dump"])) for p in OLD if p["dump"]["step"] in ("convoy", "doctrine")]
    return player_texts(RULESET, set(VERBS.verbs) | set(ANSWERS.verbs), seed=b"issue 16: the rulebook's numbers",
                        phases=24, options=({}, {"tirpitz": True}), windows=windows)


def test_the_scan_reads_rejections_events_and_forms(texts):
    kinds = {t.kind for t in texts}
    assert kinds == {"option", "scenario", "event", "sitrep", "form", "rule", "reject"}
    assert sum(t.kind == "rule" for t in texts) > 500
    fuzzed = {t.where.split(":")[0].split()[-2].split("/")[-1] for t in texts if t.kind == "rule"}
    assert {"orders", "shadowed-german", "doctrine", "convoy"} <= fuzzed, fuzzed


def test_no_digest_number_or_gap_reaches_a_player(texts):
    assert not forbidden(texts), "\n".join(forbidden(texts)[:20])


def test_every_cited_number_is_a_section_the_rulebook_prints(texts):
    assert not wrong_numbers(texts), "\n".join(wrong_numbers(texts)[:20])


def test_the_scan_would_catch_a_digest_citation():
    planted = [Read("reject", "x", "REFUEL is German only [G-14]"), Read("rule", "x", "4.9"),
               Read("event", "x", "hit [7.9]"), Read("option", "x", "see digest 3.3"), Read("rule", "x", ""),
               Read("rule", "x", "[4]")]
    assert len(forbidden(planted)) == 2 and len(wrong_numbers(planted)) == 4
    assert not wrong_numbers([Read("event", "x", "renown fires: rolls [7, 1, 19] -> hit [7.5, 12]")])
    assert FORBIDDEN.search("[L293]") and not FORBIDDEN.search("MiG-3 and LaGG-3")
