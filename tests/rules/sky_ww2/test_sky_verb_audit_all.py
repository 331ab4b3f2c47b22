"""The verb audit, completed (issue 16 "Done when"): every verb of Sky of WWII -- the standing orders, each
window's answers, the turn script, the round plan's AIRCRAFT blocks and CLOSE, and every IF condition --
has a refused case here or in test_sky_issue16.py's AUDIT, each citing the heading the rule is printed
under (the rulebook numbers nothing), never a seed line or a digest number."""
from __future__ import annotations

import re

import pytest

from pbem.rules.sky_ww2.conditions import CONDITIONS
from pbem.rules.sky_ww2.orders import TABLE

from skyhelp import pending, position, problems, standing, step
from test_sky_issue16 import AUDIT, FULL5, battle, duel, pursuit_window, react_window
from test_sky_round import nose_to_tail


def deploy_window():
    s = battle(selection="random", cadence="turn")
    s, _ = step(s, {"coalition-1": "GROUND dp aa", "axis-1": "GROUND cp aa"})
    assert pending(s) == {"kind": "deploy", "seats": ["axis-1"], "n": 2, "ac": "x1", "side": "axis"}
    return s


def activate_window():
    spec = {f"{p}{i}": {"number": n, "alt": "medium", "cell": (x, i), "facing": "E", "hand": FULL5}
            for p, x in (("c", 1), ("x", 4)) for i, n in zip((1, 2), (8, 5), strict=False)}
    s = position(spec, initiative="axis", tweak=lambda d: standing(d, "axis-1", "ACTIVATION ASK"))
    assert pending(s)["kind"] == "activate"
    return s


WINDOWS = {"script": (duel, "coalition-1"), "round": (nose_to_tail, "coalition-1"),
           "react": (lambda: react_window(["dodge", "dive"]), "axis-1"), "pursue": (pursuit_window, "axis-1"),
           "setup": (lambda: battle(selection="free"), "coalition-1"), "deploy": (deploy_window, "axis-1"),
           "activate": (activate_window, "axis-1")}

MORE = [  # (verb: precondition, window, body, what the message says, the heading); one line is refused
    ("REACT_DEFAULT: ASK or PASS", "script", "REACT_DEFAULT NEVER", "ASK, PASS", "Реакции"),
    ("ON_PURSUIT: own aircraft", "script", "ON_PURSUIT x1 YES", "not one of your aircraft", "Цели игры"),
    ("ON_PURSUIT: an answer", "script", "ON_PURSUIT ALL PERHAPS", "YES, NO, FREE, ASK", "Преследование"),
    ("DISCARD_PRIORITY: cards", "script", "DISCARD_PRIORITY bogus-card", "unknown card", "Боевая колода"),
    ("RESCUE: YES or NO", "script", "RESCUE MAYBE", "YES, NO", "Спасение"),
    ("ACTIVATION: AUTO or ASK", "script", "ACTIVATION SOMETIMES", "AUTO, ASK", "Инициатива"),
    ("DP_USE: FIRST, LAST or NEVER", "script", "DP_USE SOMETIMES", "FIRST, LAST, NEVER", "Диспетчерский пункт"),
    ("AA_FIRE: YES or NO", "script", "AA_FIRE MAYBE", "YES, NO", "Зенитная"),
    ("DESCEND: a cell of the field", "script", "DESCEND CELL 9,9", "bad cell", "Игровое поле"),
    ("CLOSE: not in a dogfight", "script", "CLOSE x1", "in a dogfight", "Схватка"),
    ("END_DISCARD: cards held", "script", "STAY\nEND_DISCARD long-burst", "more than c1 holds", "ТТХ"),
    ("NEXT_DISCARD: cards held", "script", "STAY\nNEXT_DISCARD long-burst", "more than c1 holds", "Структура хода"),
    ("IF DOGFIGHT: an enemy", "script", "STAY\nIF DOGFIGHT c1 THEN ATTACK snap-shot TARGET x1", "not an enemy",
     "Позиция"),
    ("IF DOGFIGHT: one aircraft", "script", "STAY\nIF DOGFIGHT THEN ATTACK snap-shot TARGET x1",
     "DOGFIGHT takes one enemy aircraft", "3. Бой"),
    ("IF ALT: an altitude", "script", "STAY\nIF ALT x1 SPACE THEN ATTACK snap-shot TARGET x1", "ALT takes LOW",
     "Игровое поле"),
    ("IF PREV_OK: no words", "script", "STAY\nIF PREV_OK x1 THEN ATTACK snap-shot TARGET x1", "take no words",
     "3. Бой"),
    ("IF PREV_FAILED: a beat follows", "script", "STAY\nIF PREV_FAILED THEN STAY", "followed by a MANOEUVRE",
     "Структура хода"),
    ("AIRCRAFT: own aircraft", "round", "AIRCRAFT x1\nSTAY", "not one of your aircraft", "Структура хода"),
    ("AIRCRAFT: ASK takes no lines", "round", "AIRCRAFT c1 ASK\nSTAY", "takes no lines", "Структура хода"),
    ("AIRCRAFT: one block each", "round", "AIRCRAFT c1\nSTAY\nAIRCRAFT c1\nSTAY", "one block per aircraft",
     "Структура хода"),
    ("CLOSE: an enemy", "round", "AIRCRAFT c1\nCLOSE c1", "not an enemy aircraft", "Позиция"),
    ("CLOSE: the one movement", "round", "AIRCRAFT c1\nCLOSE x1\nSTAY", "one movement order per turn", "Структура"),
    ("AIRCRAFT: only in a round plan", "script", "AIRCRAFT c1", "not an order here", "Структура хода самолета"),
    ("PLAY: a legal answer", "react", "PLAY dive ON 1", "legal: PLAY dodge ON 1", "Реакции"),
    ("PASS: alone", "react", "PASS NOW", "PLAY <card> ON <n> or PASS", "Реакции"),
    ("PASS: one answer", "react", "PLAY dodge ON 1\nPASS", "takes one answer", "Реакции"),
    ("STAY: not in a reaction window", "react", "STAY", "not an order here", "Реакции"),
    ("PURSUE: YES or NO", "pursue", "PURSUE MAYBE", "PURSUE NO", "Преследование"),
    ("PURSUE: discards held", "pursue", "PURSUE YES DISCARD barrel-roll", "not a card x1 can discard", "Преследование"),
    ("PURSUE: only in a pursuit", "script", "PURSUE NO", "not an order here", "Структура хода самолета"),
    ("GROUND: two different objects", "setup", "GROUND cp cp", "two different objects", "Размещение наземных"),
    ("GROUND: only at set-up", "script", "GROUND cp aa", "not an order here", "Структура хода самолета"),
    ("PICK: numbers offered", "setup", "PICK 99", "not available", "Выбор самолетов"),
    ("KEEP: only in limited selection", "setup", "KEEP 99", "free selection uses PICK", "Выбор самолетов"),
    ("DEPLOY: the aircraft waiting", "deploy", "DEPLOY c1 LOW", "waiting to deploy", "Начало игры"),
    ("DEPLOY: an altitude", "deploy", "DEPLOY x1 SPACE", "LOW, MEDIUM or HIGH", "Игровое поле"),
    ("ACTIVATE: own aircraft to act", "activate", "ACTIVATE c1", "still to act", "Инициатива"),
    ("PRE_DISCARD: cards held", "activate", "ACTIVATE x1\nPRE_DISCARD long-burst", "not a card x1 holds",
     "Структура хода"),
]


@pytest.mark.parametrize("name,window,body,says,heading", MORE, ids=[c[0] for c in MORE])
def test_verb_precondition_is_refused_with_its_rulebook_heading(name, window, body, says, heading):
    make, seat = WINDOWS[window]
    found = problems(make(), seat, body)
    assert len(found) == 1, [str(p) for p in found]
    [p] = found
    assert p.text in body.splitlines()
    assert says in p.message and heading in p.rule and p.rule.startswith("«"), str(p)
    assert not re.search(r"\[L\d", p.message) and "[«" + heading not in p.message, p.message


def _verb(case_name: str) -> list[str]:
    return case_name.split(":")[0].split()[0].split("/")


def test_every_verb_and_condition_has_a_refused_case_citing_a_heading():
    """Before: only 16 of the 36 verbs had one -- none for the round plan's AIRCRAFT and CLOSE, the
    windows' answers, most standing orders, or the DOGFIGHT, ALT and PREV conditions."""
    covered = {v for c in AUDIT + [m[0] for m in MORE] for v in _verb(c if isinstance(c, str) else c[0])}
    assert set(TABLE.verbs) | {"IF"} <= covered, sorted((set(TABLE.verbs) | {"IF"}) - covered)
    conditions = {c.split()[1].rstrip(":") for c in [a[0] for a in AUDIT] + [m[0] for m in MORE] if c.startswith("IF ")}
    assert set(CONDITIONS.kinds) <= conditions, sorted(set(CONDITIONS.kinds) - conditions)
