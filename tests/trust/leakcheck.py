"""The leak check: everything a seat receives, rendered for a state and for its hidden-twin, compared byte for byte.

What a seat receives from pbem is built by the platform from ``view(state, seat)``, the
phase, the journal entries (events and rolls filtered per seat, notices) and the game's fixed
facts: the sitrep text and HTML, the picture PNG, the stored JSON view, the order form and the
rejection of a bad order line.  :func:`received` renders all of it the way the server does
(``pbem.server.build_sitrep``, ``pbem.render.render_reply``); :func:`leaks` compares a state
with its twin.  Besides the ruleset's hidden state, the twin's journal entry carries different
order texts for every *other* seat (their orders are secret too).
"""
from __future__ import annotations

import json
import random
import re
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from pbem.core.play import setup_dice
from pbem.journal import events_json, rolls_json
from pbem.server import build_sitrep
from pbem.store.models import Game

from .perturb import OPTION_SETS, PERTURBERS, all_rulesets

DEADLINE = "2026-11-03T12:00:00+00:00"


@lru_cache(maxsize=1)
def rulesets() -> dict[str, Any]:
    return all_rulesets()


def bot_game(r, scenario: str, bseed: bytes, opts: dict, max_phases: int):
    """States of a seeded bot game as (state, journal entry) pairs, the setup first.

    Like pbem.core.play.play, but a bot that writes orders its own ruleset rejects ends the game
    here instead of raising (that is the ruleset's bug, reported by its own tests)."""
    from pbem.core.play import bot_dice, check_text, phase_dice

    state = r.setup(scenario, r.info.resolve_options(opts), setup_dice(bseed))
    out = [(state, None)]
    for n in range(1, max_phases + 1):
        phase = r.phase(state)
        if phase is None:
            break
        orders, bodies = {}, {}
        for seat in sorted(phase.awaiting):
            body = r.bot_orders(r.view(state, seat), seat, bot_dice(bseed, phase, seat))
            parsed, problems = check_text(r, state, seat, body)
            if problems:
                return out
            orders[seat], bodies[seat] = parsed, body
        dice = phase_dice(bseed, phase)
        res = r.resolve(state, orders, dice)
        state = res.state
        out.append((state, {"seq": n, "kind": "resolve", "hash": f"{n:064x}",
                            "payload": {"phase": phase.key, "orders": bodies, "missing": [], "notices": [],
                                        "deadline": DEADLINE},
                            "events": events_json(res.events), "rolls": rolls_json(dice.rolls)}))
    return out


@lru_cache(maxsize=48)
def playthrough(name: str, seed: int, options_index: int, max_phases: int = 80):
    r = rulesets()[name]
    sets = OPTION_SETS.get(name, [{}])
    opts = sets[options_index % len(sets)]
    scenario = r.info.scenarios[seed % len(r.info.scenarios)].name
    return scenario, bot_game(r, scenario, f"leak-{seed}".encode(), opts, max_phases)


def _game(name: str, scenario: str) -> Game:
    return Game(id="leak", ruleset=name, scenario=scenario, title="Leak check", seed_hex="00" * 32,
                seed_commitment="c" * 64, journal_head="h" * 64, turn=1)


def received(ruleset, scenario: str, state: Any, seat: str, entries: list[dict], bad_lines: list[str]) -> dict:
    """Everything ``seat`` gets for ``state``: sitrep text, HTML, PNG, JSON view, order form, and the
    rejection (text and HTML) of each bad order line."""
    from pbem.core.orders import OrderLine
    from pbem.render import render_reply

    seats = {s.name: s for s in ruleset.seats(state)}
    me = seats[seat]
    built = build_sitrep(ruleset, _game(ruleset.info.name, scenario),
                         {"name": seat, "side": me.side, "title": me.title, "tz": "UTC"}, state, entries)
    out: dict[str, Any] = {"sitrep text": built.text, "sitrep html": built.html, "picture png": built.png,
                           "json view": built.view_json, "order form": built.form}
    phase = ruleset.phase(state)
    if phase is not None and (seat in phase.awaiting or seat in phase.optional):
        view = ruleset.view(state, seat)
        for i, text in enumerate(bad_lines):
            lines = [OrderLine(7 + k, t) for k, t in enumerate(text.split("\n")) if t.strip()]
            try:
                checked = ruleset.check_orders(view, seat, lines)
            except Exception as exc:  # a crash is a finding of its own (see test_garbage); here it is an output
                out[f"rejection {i}"] = f"CRASH {exc.__class__.__name__}: {exc}"
                continue
            ctx = {"game_id": "leak", "seat": seat, "message_id": "<m@x>", "subject": "orders", "hint": "",
                   "problems": [{"where": f"line {p.line_no}: {p.text!r}: " if p.line_no else "",
                                 "message": p.message, "rule": p.rule, "code": p.code.value}
                                for p in checked.problems]}
            out[f"rejection {i}"] = render_reply("reject", ctx) if checked.problems else repr(checked.notes)
    return out


def other_orders(entry: dict | None, seat: str, rnd: random.Random) -> dict | None:
    """The same journal entry with different order texts for every seat but ``seat``."""
    if entry is None:
        return None
    e = json.loads(json.dumps(entry))
    for who in list(e["payload"]["orders"]):
        if who != seat:
            e["payload"]["orders"][who] = f"# secret {rnd.random()}\n" + e["payload"]["orders"][who][::-1]
    e["payload"]["orders"].setdefault("someone-else", f"SECRET {rnd.random()}\n")
    return e


@dataclass
class Tally:
    """What a leak scan compared."""

    comparisons: int = 0  # (state, twin, seat) triples compared
    outputs: int = 0  # individual outputs compared byte for byte
    leaks: list[str] = field(default_factory=list)
    kinds: dict[str, int] = field(default_factory=dict)


def compare(name: str, seed: int, options_index: int, step: int, seat_index: int, rnd: random.Random,
            bad_lines: list[str], tally: Tally, ruleset=None, max_twins: int = 3) -> None:
    """Build the twins of one position for one seat and record every output that differs."""
    r = ruleset or rulesets()[name]
    scenario, states = playthrough(name, seed, options_index) if ruleset is None else \
        _playthrough_uncached(r, seed, options_index)
    state, entry = states[step % len(states)]
    seats = [s.name for s in r.seats(state)]
    seat = seats[seat_index % len(seats)]
    twins = PERTURBERS[name if name in PERTURBERS else r.info.name](r, state, seat, rnd)
    twins = rnd.sample(twins, min(len(twins), max_twins))
    entries = [entry] if entry else []
    base = received(r, scenario, state, seat, entries, bad_lines)
    for what, twin in twins:
        twin_entry = other_orders(entry, seat, rnd)
        got = received(r, scenario, twin, seat, [twin_entry] if twin_entry else [], bad_lines)
        tally.comparisons += 1
        kind = re.sub(r"\S*\d\S*", "#", what)
        tally.kinds[kind] = tally.kinds.get(kind, 0) + 1
        for key in base:
            tally.outputs += 1
            if base[key] != got.get(key):
                tally.leaks.append(f"{name} seed {seed} options #{options_index} step {step % len(states)} "
                                   f"seat {seat}: {what} changes the {key}")
        if set(got) != set(base):
            tally.leaks.append(f"{name}: {what} changes which outputs {seat} receives")


def _playthrough_uncached(r, seed, options_index):
    scenario = r.info.scenarios[0].name
    return scenario, bot_game(r, scenario, f"leak-{seed}".encode(), OPTION_SETS.get(r.info.name, [{}])[0], 20)


def scan(name: str, examples: int, seeds: int, *, progress=None, ruleset=None, max_twins: int = 3) -> Tally:
    """A hypothesis-driven leak scan of one ruleset: ``examples`` generated positions over ``seeds`` games."""
    from hypothesis import HealthCheck, given, settings, strategies as st

    tally = Tally()
    n_opts = len(OPTION_SETS.get(name, [{}]))
    bad_line = st.one_of(
        st.text(alphabet=st.characters(codec="utf-8", exclude_categories=("Cs",)), max_size=40),
        st.sampled_from(["MOVE", "FIRE 99", "ATTACK x1 TARGET c2", "REACT ALL FIRE", "MOVE TF1 Z99",
                         "ON_HIT ASK", "PLACE de1 A1", "AA g1 HOLD", "SELECT 1 2 3", "PASS"]),
        st.lists(st.sampled_from(["x1", "c1", "de1", "gb1", "g1", "1", "-1", "ALL", "TARGET", "FIRE", "MOVE",
                                  "DIG", "HIGH", "LOW", "E", "N", "0", "99"]), max_size=5).map(" ".join))

    @settings(max_examples=examples, deadline=None, database=None, derandomize=True,
              suppress_health_check=list(HealthCheck))
    @given(seed=st.integers(0, max(0, seeds - 1)), options_index=st.integers(0, n_opts - 1),
           step=st.integers(0, 400), seat_index=st.integers(0, 7), rnd=st.randoms(use_true_random=False),
           bad_lines=st.lists(bad_line, min_size=1, max_size=3))
    def one(seed, options_index, step, seat_index, rnd, bad_lines):
        compare(name, seed, options_index, step, seat_index, rnd, bad_lines, tally, ruleset, max_twins)
        if progress:
            progress()

    one()
    return tally
