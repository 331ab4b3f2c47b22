"""Known-answer cases as data (style P14.4): a position, orders and fixed dice → expected events and fields.

A case is one TOML file under ``tests/known/<ruleset>/``; it goes through the
ruleset's public contract only (``setup``/``load``, ``view``,
``check_orders``, ``resolve``), so it keeps its meaning while a ruleset's
insides are rewritten.  The keys::

    rule  = "7.1"                   # the rule or worked example the case checks (required)
    title = "what the case shows"   # (required)
    dice  = [4, 2]                  # FixedDice for the resolution; all must be used unless
    dice_left = 1                   #   this many are expected to be left over

    [start]                         # the position
    scenario = "w1"                 # named setup ...
    options = {sun = "south"}
    setup_dice = [3, 4]             # FixedDice for setup (else the seed below, as text)
    seed = "known-answer seed, 16+ bytes"
    dump = {...}                    # ... or a whole dumped state instead of a setup,
    dump_file = "position.json"     #   inline or in a JSON file beside the case
    edits = [["ships[id=hood].hex", "I28"], ["step", "orders"]]   # then set fields of the dump

    [orders]                        # order lines per seat; awaited seats left out get default_orders
    german = "MOVE bismarck W18"

    [expect]
    phase = "1/fire"                # the phase the position is in (turn/name)
    next_phase = "2/fire"           # after resolution ("over" when the game ended)
    events = [{contains = "hits", to = ["east", "west"]}, {text = "exact text"}]   # in this order
    absent = ["substring no event may hold"]
    problems = {east = ["off the line"], west = []}   # refused with these ([]: accepted); nothing is resolved
                                    # ({}: resolve nothing, only read the position)
    [expect.view.east]              # fields of a seat's view after resolution (before, if problems)
    "gunners[0].post" = 3
    [expect.dump]                   # fields of the dumped state after resolution
    turn = 2

Paths: ``a.b[2]``; ``[key=value]`` picks the one list item whose ``key`` equals ``value``.
"""
from __future__ import annotations

import json
import re
import tomllib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pbem.core.dice import FixedDice, SeededDice
from pbem.core.orders import parse_order_file
from pbem.core.play import canonical_json, orders_text
from pbem.core.ruleset import Checked, Event, Ruleset

#: The setup seed when a case gives neither ``setup_dice`` nor ``seed``.
DEFAULT_SEED = "pbem known-answer case seed"
_PART = re.compile(r"\[([^\]=]+)=([^\]]*)\]|\[(-?\d+)\]|\.?([^.\[\]]+)")


class CaseError(ValueError):
    """A case file that does not follow the format (a defect of the case, not of the ruleset)."""


@dataclass(frozen=True)
class Case:
    """One known-answer case, read from its file."""

    name: str
    rule: str
    title: str
    start: Mapping[str, Any]
    orders: Mapping[str, str] = field(default_factory=dict)
    dice: tuple[int, ...] = ()
    dice_left: int = 0
    expect: Mapping[str, Any] = field(default_factory=dict)


def load_case(path: Path) -> Case:
    """Read a case file.

    :raises CaseError: a key is unknown or a required one is missing.
    """
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    unknown = set(data) - {"rule", "title", "start", "orders", "dice", "dice_left", "expect"}
    if unknown or "rule" not in data or "title" not in data or "start" not in data:
        raise CaseError(f"{path.name}: needs rule, title and [start]; unknown keys {sorted(unknown)}")
    expect = data.get("expect", {})
    bad = set(expect) - {"phase", "next_phase", "events", "absent", "problems", "view", "dump"}
    if bad:
        raise CaseError(f"{path.name}: unknown [expect] keys {sorted(bad)}")
    start = dict(data["start"])
    if "dump_file" in start:
        start["dump"] = json.loads((path.parent / start.pop("dump_file")).read_text(encoding="utf-8"))
    return Case(path.stem, data["rule"], data["title"], start, data.get("orders", {}),
                tuple(data.get("dice", ())), data.get("dice_left", 0), expect)


def parse_path(path: str) -> list[tuple[str, Any]]:
    """``ships[id=hood].hex`` → ``[("key", "ships"), ("select", ("id", "hood")), ("key", "hex")]``."""
    parts, pos = [], 0
    while pos < len(path):
        m = _PART.match(path, pos)
        if not m or m.end() == pos:
            raise CaseError(f"cannot read path {path!r} at {path[pos:]!r}")
        if m.group(1) is not None:
            parts.append(("select", (m.group(1), m.group(2))))
        elif m.group(3) is not None:
            parts.append(("index", int(m.group(3))))
        else:
            parts.append(("key", m.group(4)))
        pos = m.end()
    return parts


def _step(value: Any, part: tuple[str, Any], path: str) -> Any:
    how, arg = part
    if how == "key" and isinstance(value, Mapping) and arg in value:
        return value[arg]
    if how == "index" and isinstance(value, list) and -len(value) <= arg < len(value):
        return value[arg]
    if how == "select" and isinstance(value, list):
        hits = [i for i, item in enumerate(value) if isinstance(item, Mapping) and str(item.get(arg[0])) == arg[1]]
        if len(hits) == 1:
            return value[hits[0]]
    raise CaseError(f"path {path!r}: nothing at {part[1]!r}")


def get_path(data: Any, path: str) -> Any:
    """The value at ``path`` in JSON data.

    :raises CaseError: the path leads nowhere.
    """
    for part in parse_path(path):
        data = _step(data, part, path)
    return data


def set_path(data: Any, path: str, value: Any) -> None:
    """Set the value at ``path`` in JSON data (the last step may add a key)."""
    parts = parse_path(path)
    for part in parts[:-1]:
        data = _step(data, part, path)
    how, arg = parts[-1]
    if how == "key" and isinstance(data, dict):
        data[arg] = value
    elif how == "index" and isinstance(data, list):
        data[arg] = value
    else:
        raise CaseError(f"path {path!r}: cannot set {arg!r}")


def start_state(ruleset: Ruleset, case: Case) -> Any:
    """The position of a case: a setup or a dump, then the edits applied to its dump."""
    start = case.start
    if "dump" in start:
        data = dict(start["dump"])
    else:
        options = ruleset.info.resolve_options(start.get("options", {}))
        dice = (FixedDice(start["setup_dice"]) if "setup_dice" in start
                else SeededDice(start.get("seed", DEFAULT_SEED).encode(), "setup"))
        data = ruleset.dump(ruleset.setup(start.get("scenario", ruleset.info.scenarios[0].name), options, dice))
    if not start.get("edits"):
        return ruleset.load(data)
    data = _plain(data)
    for path, value in start["edits"]:
        set_path(data, path, value)
    return ruleset.load(data)


def _plain(data: Any) -> Any:
    """A deep copy as JSON makes it (tuples become lists), so edits can change any part."""
    return json.loads(canonical_json(data))


def _phase_key(ruleset: Ruleset, state: Any) -> str:
    phase = ruleset.phase(state)
    return "over" if phase is None else phase.key


def check_body(ruleset: Ruleset, state: Any, seat: str, body: str) -> tuple[Checked | None, list[str]]:
    """Order lines for ``seat`` checked as the engine would (in an order file for the current phase).

    :returns: the ruleset's answer (None when the file itself is refused) and every problem as text.
    """
    phase = ruleset.phase(state)
    if phase is None:
        return None, ["the game is over: nothing to order"]
    parsed, problems = parse_order_file(orders_text("known", seat, phase, body))
    if parsed is None:
        return None, [str(p) for p in problems]
    checked = ruleset.check_orders(ruleset.view(state, seat), seat, parsed.lines)
    return checked, [str(p) for p in checked.problems]


def _check(ruleset: Ruleset, state: Any, seat: str, body: str) -> tuple[Any, list[str]]:
    checked, problems = check_body(ruleset, state, seat, body)
    return (checked.orders if checked else None), problems


def _match_events(events: Sequence[Event], wanted: Sequence[Mapping[str, Any]]) -> list[str]:
    """Each wanted event must match an actual one, in order (a later one after an earlier one)."""
    failures, pos = [], 0
    for want in wanted:
        for i in range(pos, len(events)):
            if _event_matches(events[i], want):
                pos = i + 1
                break
        else:
            failures.append(f"no event {dict(want)} (after the {pos} events matched before)")
    return failures


def _event_matches(event: Event, want: Mapping[str, Any]) -> bool:
    if "text" in want and event.text != want["text"]:
        return False
    if "contains" in want and want["contains"] not in event.text:
        return False
    if "to" in want and event.visible_to != frozenset(want["to"]):
        return False
    return "kind" not in want or event.kind == want["kind"]


def _fields(label: str, data: Any, wanted: Mapping[str, Any]) -> list[str]:
    failures = []
    for path, value in wanted.items():
        try:
            got = get_path(data, path)
        except CaseError as e:
            failures.append(f"{label}: {e}")
            continue
        if got != value:
            failures.append(f"{label} {path}: expected {value!r}, got {got!r}")
    return failures


def run_case(ruleset: Ruleset, case: Case) -> list[str]:
    """Every way the ruleset's answer differs from the case's; empty when it agrees."""
    state = start_state(ruleset, case)
    expect = case.expect
    failures = []
    if "phase" in expect and _phase_key(ruleset, state) != expect["phase"]:
        return [f"the position is in phase {_phase_key(ruleset, state)}, not {expect['phase']}"]
    parsed, problems = {}, {}
    for seat, body in sorted(case.orders.items()):
        parsed[seat], problems[seat] = _check(ruleset, state, seat, body)
    if "problems" in expect:
        for seat, wanted in expect["problems"].items():
            got = problems.get(seat, [])
            failures += [f"{seat}: no problem containing {w!r} (got {got})" for w in wanted
                         if not any(w in p for p in got)]
            if not wanted and got:
                failures.append(f"{seat}: orders expected to pass were refused: {got}")
        after = state
    else:
        failures += [f"{seat}'s orders refused: {p}" for seat, got in problems.items() for p in got]
        if failures:
            return failures
        after, events, failures = _resolve(ruleset, state, case, parsed)
        failures += _match_events(events, expect.get("events", ()))
        failures += [f"an event holds {a!r}: {e.text!r}" for a in expect.get("absent", ()) for e in events
                     if a in e.text]
        if "next_phase" in expect and _phase_key(ruleset, after) != expect["next_phase"]:
            failures.append(f"next phase {_phase_key(ruleset, after)}, not {expect['next_phase']}")
    for seat, wanted in expect.get("view", {}).items():
        failures += _fields(f"{seat}'s view", ruleset.view(after, seat), wanted)
    failures += _fields("dump", _plain(ruleset.dump(after)), expect.get("dump", {}))
    return failures


def _resolve(ruleset: Ruleset, state: Any, case: Case, parsed: Mapping[str, Any]
             ) -> tuple[Any, Sequence[Event], list[str]]:
    phase = ruleset.phase(state)
    if phase is None:
        return state, (), ["the game is over: nothing to resolve"]
    orders = {seat: parsed[seat] if seat in parsed else ruleset.default_orders(state, seat)
              for seat in sorted(phase.awaiting)}
    orders.update({seat: parsed[seat] for seat in parsed if seat not in orders})  # optional seats
    dice = FixedDice(case.dice)
    result = ruleset.resolve(state, orders, dice)
    left = [] if dice.unused == case.dice_left else [
        f"{dice.unused} of the fixed dice were left, not {case.dice_left} (rolls: "
        + ", ".join(f"d{r.sides}={r.value} {r.why}" for r in dice.rolls) + ")"]
    return result.state, result.events, left


def case_files(root: Path) -> list[Path]:
    """Every case file under ``root`` (``<ruleset>/<name>.toml``), sorted; dumps beside them are ``.json``."""
    return sorted(root.glob("*/*.toml"))
