"""A script that pauses mid-way for an interrupt and resumes at its cursor; the game's PREV and wording."""
from __future__ import annotations

import json
from dataclasses import dataclass

from pbem.core.dice import FixedDice
from pbem.core.flow import Flow
from pbem.core.interrupts import Ask
from pbem.core.ruleset import Seat
from pbem.core.scripts import STOP, Cursor, Skip, resume, run, scripted
from pbem.core.verbs import Verb, VerbTable
from pbem.core.work import Box, Work

from .test_kit_scripts import CONDITIONS, _parse_step


@dataclass(frozen=True)
class Shoot:
    """An order whose outcome is settled later (a reaction window), not when it is carried out."""

    def text(self) -> str:
        return "SHOOT"


@dataclass(frozen=True)
class End:
    def text(self) -> str:
        return "END"


TABLE = scripted(VerbTable([Verb("STEP", _parse_step, "STEP <n>"), Verb("SHOOT", lambda a, v, s: Shoot(), "SHOOT"),
                            Verb("END", lambda a, v, s: End(), "END")]), CONDITIONS)


class Game:
    """A counter that steps up; SHOOT opens a window whose answer decides, later, if the shot stood."""

    def __init__(self, flow: Flow, value: int = 0, stood: bool | None = None) -> None:
        self.work: Work[Box[int]] = Work(flow, (Seat("me", "x"), Seat("you", "y")), FixedDice([]))
        self.work.data = Box(value)
        self.stood = stood
        self.performed: list[str] = []

    def perform(self, order) -> str | object | None:
        self.performed.append(order.text())
        if isinstance(order, End):
            return STOP
        if isinstance(order, Shoot):
            self.work.interrupt("react", [Ask("you", "dodge", "dodge?", "NO", ("YES", "NO"))])
            return None
        if order.to != self.work.data.value + 1:
            return f"{order.to} is not next to {self.work.data.value}"
        self.work.data.value = order.to
        return None

    def go(self, entries, cursor: Cursor, **kw) -> Cursor:
        return resume(self.work, "me", entries, cursor, self.perform, CONDITIONS, **kw)


def parse(*texts):
    return [TABLE.parse(t, {}, "me") for t in texts]


def test_the_script_pauses_at_an_interrupt_and_resumes_at_the_next_entry():
    entries = parse("STEP 1", "SHOOT", "STEP 2", "STEP 3")
    g = Game(Flow("turn"))
    cursor = g.go(entries, Cursor())
    assert g.performed == ["STEP 1", "SHOOT"] and g.work.suspended
    assert cursor == Cursor(2, True)
    kept = json.loads(json.dumps(cursor.dump()))  # the cursor travels in the state between mails
    g2 = Game(Flow("react"), value=g.work.data.value)
    assert g2.go(entries, Cursor.load(kept)) == Cursor(4, True)
    assert g2.performed == ["STEP 2", "STEP 3"] and g2.work.data.value == 3


def test_pause_lets_the_game_settle_what_an_entry_opened_before_the_next():
    entries = parse("STEP 1", "STEP 2", "STEP 3")
    g = Game(Flow("turn"))
    assert g.go(entries, Cursor(), pause=lambda: g.work.data.value == 2) == Cursor(2, True)
    assert g.go(entries, Cursor(2, True)) == Cursor(3, True) and g.work.data.value == 3


def test_prev_means_what_the_game_says_not_only_that_the_entry_before_was_carried_out():
    entries = parse("SHOOT", "IF PREV_OK THEN STEP 1")
    g = Game(Flow("react"), stood=False)   # the shot was carried out, but the window cancelled it
    g.go(entries, Cursor(1, True), previous=lambda: g.stood)
    assert g.work.data.value == 0
    assert [e.text for e in g.work.events] == ["IF PREV_OK THEN STEP 1 was skipped: PREV_OK does not hold"]
    g = Game(Flow("react"), stood=False)
    assert g.go(entries, Cursor(1, True)) == Cursor(2, True), "by default: the entry before was carried out"
    assert g.work.data.value == 1


def test_the_games_own_skip_wording_names_the_order_and_the_unmet_condition():
    def wording(s: Skip) -> str:
        why = "its condition does not hold" if s.unmet is not None else s.reason
        return f"order '{s.order.text()}' is skipped: {why}"

    g = Game(Flow("turn"))
    g.go(parse("STEP 4", "IF AT 9 THEN STEP 1"), Cursor(), skipped=wording)
    assert [(e.text, e.kind, e.data["entry"]) for e in g.work.events] == [
        ("order 'STEP 4' is skipped: 4 is not next to 0", "skipped", 1),
        ("order 'STEP 1' is skipped: its condition does not hold", "skipped", 2)]


def test_stop_ends_the_script_and_the_cursor_goes_past_its_last_entry():
    entries = parse("STEP 1", "END", "STEP 2")
    g = Game(Flow("turn"))
    assert g.go(entries, Cursor()) == Cursor(3, True) and g.performed == ["STEP 1", "END"]
    g = Game(Flow("turn"))
    assert g.go(parse("IF AT 0 THEN END", "STEP 1"), Cursor()) == Cursor(2, True) and g.work.data.value == 0


def test_run_and_resume_agree_on_a_script_without_pauses():
    texts = ("STEP 2", "STEP 1", "IF PREV_OK THEN STEP 2", "IF AT 5 THEN STEP 3 ELSE STEP 9")
    g = Game(Flow("turn"))
    assert g.go(parse(*texts), Cursor()) == Cursor(4, False)
    plain = Game(Flow("turn"))
    done = run(plain.work, "me", parse(*texts), plain.perform, CONDITIONS)
    assert done == [False, True, True, False]
    assert [e.text for e in plain.work.events] == [e.text for e in g.work.events]
