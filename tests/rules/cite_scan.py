"""What a player reads of a game, gathered for the citation scans of issue 16.

An owner of the box has the rulebook, not the digest: every rule a player reads must be numbered as the
rulebook prints it.  :func:`player_texts` plays bot games and collects, with where each came from, the
option and scenario descriptions, every event, every seat's text sitrep, every order form, and the rejection (rule and message) of
a fuzz of bad order lines -- each verb of the game bare, with junk words, and in every window, so the
wrong-phase rejections are among them.
"""
from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from pbem.core.dice import SeededDice
from pbem.core.play import check_text, play

#: Digest-style references a player must never read (the digest's gap numbers, its name, seed lines).
FORBIDDEN = re.compile(r"\bG-\d|\bGAP\b|\bdigest\b|\[L\d+|\bseed line", re.IGNORECASE)


@dataclass(frozen=True)
class Read:
    """One text a player reads: ``kind`` is option, scenario, event, sitrep, form, rule or reject."""

    kind: str
    where: str
    text: str


def bad_lines(verbs: Iterable[str]) -> list[str]:
    """The fuzz: each verb bare and with junk words, an unknown verb, a blank-ish line."""
    lines = ["FLY AWAY", "ORDERS PLEASE 1 2 3"]
    for verb in verbs:
        lines += [verb, f"{verb} zz", f"{verb} zz 99 FOO BAR", f"{verb} ALL 1"]
    return lines


def player_texts(ruleset: Any, verbs: Iterable[str], *, seed: bytes, phases: int,
                 options: Iterable[Mapping[str, Any]] = ({},), every: int = 1,
                 windows: Iterable[tuple[str, Any]] = ()) -> list[Read]:
    """Everything a player reads of ``ruleset`` in bot games of each scenario under each option set, and
    in the named ``windows`` (positions a short bot game may not reach)."""
    verbs = sorted(set(verbs))
    out = [Read("option", o.name, o.doc) for o in ruleset.info.options]
    out += [Read("scenario", s.name, s.doc) for s in ruleset.info.scenarios]
    for opts in options:
        for scenario in ruleset.info.scenarios:
            start = ruleset.setup(scenario.name, ruleset.info.resolve_options(dict(opts)), SeededDice(seed, "setup"))
            steps = play(ruleset, scenario.name, seed, options=dict(opts), max_phases=phases)
            for step in steps:
                out += [Read("event", f"{scenario.name} {step.phase.key}", e.text) for e in step.events]
            states = [start] + [s.state for s in steps]
            out += [r for n, state in enumerate(states) if not n % every
                    for r in _reads(ruleset, state, f"{scenario.name} {dict(opts)}", verbs)]
    for name, state in windows:
        out += _reads(ruleset, state, name, verbs)
    return out


def _reads(ruleset: Any, state: Any, name: str, verbs: list[str]) -> list[Read]:
    """The sitreps, the awaited seats' forms and the fuzz's rejections of one position."""
    phase = ruleset.phase(state)
    if phase is None:
        return []
    out = [Read("sitrep", f"{name} {phase.key} {seat.name}", sitrep(ruleset, state, seat))
           for seat in ruleset.seats(state)]  # every seat reads its sitrep, awaited or not
    for seat in sorted(phase.awaiting):
        where = f"{name} {phase.key} {seat}"
        out.append(Read("form", where, ruleset.order_form(ruleset.view(state, seat), seat)))
        for line in bad_lines(verbs):
            for p in check_text(ruleset, state, seat, line)[1]:
                out += [Read("rule", f"{where}: {line!r}", p.rule), Read("reject", f"{where}: {line!r}", p.message)]
    return out


GAME = {"id": "g1", "title": "scan", "turn": 1, "phase_title": "scan", "notices": [], "outcome": None,
        "seed_commitment": "abc", "seed": None, "journal_head": "def", "deadline": "", "prompt": ""}


def sitrep(ruleset: Any, state: Any, seat: Any) -> str:
    """The text sitrep of ``seat`` (its view and order form; events are read on their own)."""
    from pbem.render import environment
    view = ruleset.view(state, seat.name)
    form = ruleset.order_form(view, seat.name) if ruleset.phase(state) else ""
    return environment().get_template(f"{ruleset.info.name}/sitrep.txt.j2").render(
        view=view, seat={"name": seat.name, "side": seat.side, "title": seat.title}, game=GAME, events=[],
        rolls=[], form=form, picture_cid=None)


def forbidden(texts: Iterable[Read]) -> list[str]:
    """Each text naming the digest, a gap number or a seed line."""
    return [f"{t.kind} {t.where}: {m.group(0)!r} in {t.text[:160]!r}" for t in texts
            for m in [FORBIDDEN.search(t.text or "")] if m]
