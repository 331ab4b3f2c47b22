"""Write the old-format fixtures of ``test_migrate.py`` (Bismarck) and ``test_lm_migrate.py`` (Lew Morski).

Run against the code as it stood before the kit port, never against today's::

    git worktree add /tmp/old ea073a1
    python3 tests/rules/bismarck/data/make_old_positions.py /tmp/old tests/rules
    git worktree remove /tmp/old

It plays seeded bot games under the old rulesets (with extra standing orders so that the
interrupts open) and keeps a few positions: the old dump, the phase key, every seat's view, and
the next resolutions (the bodies sent and the events the old code gave with the game's dice).
"""
from __future__ import annotations

import gzip
import importlib.util
import json
import sys
from pathlib import Path

AHEAD = 2  # resolutions recorded after each kept position


def use_old_code(old: Path) -> None:
    """Import ``pbem`` and ``pbem.rules`` from the old tree (its packaging maps rules/ to pbem.rules)."""
    sys.path.insert(0, str(old))
    import pbem
    assert Path(pbem.__file__).resolve().is_relative_to(old.resolve()), pbem.__file__
    spec = importlib.util.spec_from_file_location("pbem.rules", old / "rules" / "__init__.py",
                                                  submodule_search_locations=[str(old / "rules")])
    mod = importlib.util.module_from_spec(spec)
    sys.modules["pbem.rules"] = mod
    spec.loader.exec_module(mod)


def plain(x):
    return json.loads(json.dumps(x, default=lambda v: sorted(v) if isinstance(v, (set, frozenset)) else dict(v)))


def event_json(e) -> dict:
    return {"text": e.text, "visible_to": sorted(e.visible_to), "kind": e.kind, "data": plain(dict(e.data))}


def with_extra(ruleset, seed: bytes, extra) -> callable:
    """Bot orders edited by ``extra(state, phase, seat, lines)`` (standing orders the bot never writes)."""
    from pbem.core.play import bot_dice

    def orders_for(state, phase, seat):
        body = ruleset.bot_orders(ruleset.view(state, seat), seat, bot_dice(seed, phase, seat))
        return "".join(line + "\n" for line in extra(state, phase, seat, body.splitlines()))
    return orders_for


def position(ruleset, game: dict, before, steps, i: int, why: str) -> dict:
    """The position in which ``steps[i]`` was resolved (``before`` is the state then)."""
    seats = [s.name for s in ruleset.seats(before)]
    return {"why": why, **game, "dump": plain(ruleset.dump(before)), "phase": steps[i].phase.key,
            "views": {s: plain(ruleset.view(before, s)) for s in seats},
            "next": [{"phase": st.phase.key, "bodies": st.bodies, "events": [event_json(e) for e in st.events]}
                     for st in steps[i:i + AHEAD]]}


def pick(ruleset, game: dict, steps, first_state, wanted) -> list[dict]:
    """The first position meeting each test of ``wanted`` (name -> test(state))."""
    out, states = [], [first_state] + [st.state for st in steps]
    for name, test in wanted.items():
        i = next((i for i, s in enumerate(states[:-1]) if test(s) and i < len(steps)), None)
        if i is None:
            raise SystemExit(f"{game}: no position for {name}")
        out.append(position(ruleset, game, states[i], steps, i, name))
    return out


def finished(ruleset, game: dict, steps) -> dict:
    """The last position of a game played to its end, with the outcome the old code gave."""
    state = steps[-1].state
    assert ruleset.phase(state) is None, f"{game}: not over after {len(steps)} phases"
    o = ruleset.outcome(state)
    return {"why": "finished", **game, "dump": plain(ruleset.dump(state)),
            "outcome": {"winner": o.winner, "text": o.text, "scores": plain(dict(o.scores))}}


def run(ruleset, scenario: str, seed: bytes, options: dict, phases: int, extra):
    from pbem.core.play import play, setup_dice
    opts = ruleset.info.resolve_options(options)
    first = ruleset.setup(scenario, opts, setup_dice(seed))
    steps = play(ruleset, scenario, seed, options=options, max_phases=phases,
                 orders_for=with_extra(ruleset, seed, extra))
    return first, steps, {"scenario": scenario, "seed": seed.hex(), "options": options}


def bismarck() -> list[dict]:
    from pbem.rules.bismarck import RULESET as R

    def extra(state, phase, seat, lines):
        """No DOCTRINE from the bot (so the doctrine window opens); the German asks about convoys."""
        lines = [line for line in lines if not line.startswith("DOCTRINE")]
        return lines + (["ON_CONVOY ASK", "ON_MERCHANT IGNORE"] if phase.name == "orders" and seat == "german" else [])

    def calls(state, phase, seat, lines):
        """As ``extra``, and the Allied player calls combats with both kinds of condition (no plain call:
        today's code fails on a plain ENGAGE under AUTO_ENGAGE ON, with or without this conversion)."""
        lines = extra(state, phase, seat, lines)
        view = R.view(state, seat)
        if phase.name != "orders" or seat != "allied" or not view["contacts"]:
            return lines
        c, own = view["contacts"][0]["id"], min(x["id"] for x in view["ships"])
        return lines + [f"ENGAGE {c} IF PREVIOUS NONE", f"ENGAGE {c} IF {own} AFLOAT"]
    out = []
    first, steps, game = run(R, "last-dash", b"bismarck-migrate-seed-0002", {"battle_doctrine": "ask"}, 10, calls)
    out += pick(R, game, steps, first, {"doctrine interrupt with calls and releases": lambda s: s.step == "doctrine"})
    first, steps, game = run(R, "rheinubung", b"bismarck-migrate-seed-0001", {"battle_doctrine": "ask"}, 120, extra)
    out += pick(R, game, steps, first, {
        "doctrine interrupt": lambda s: s.step == "doctrine",
        "orders with standing orders changed": lambda s: s.step == "orders" and any(
            "ON_CONVOY ASK" in lines for side, lines in s.standing)})
    out.append(finished(R, game, steps))
    first, steps, game = run(R, "last-dash", b"bismarck-migrate-seed-0012", {}, 30, extra)
    out += pick(R, game, steps, first, {"convoy interrupt": lambda s: s.step == "convoy",
                                        "shadowed move": lambda s: s.step.startswith("shadowed"),
                                        "weather": lambda s: s.step == "weather" and s.turn > s.start})
    return out


def lew_morski() -> list[dict]:
    from pbem.rules.lew_morski import RULESET as R

    def extra(state, phase, seat, lines):
        if phase.name in ("de-move", "gb-move") and state.stage == 2:
            return lines + (["REACT ALL ASK", "RETURNFIRE ALL NO"] if seat.startswith("gb") else ["REACT ALL ASK"])
        return lines
    out = []
    first, steps, game = run(R, "w1", b"lew-morski-migrate-seed-0001", {}, 40, extra)
    out += pick(R, game, steps, first, {
        "react interrupt": lambda s: s.step.endswith("react"),
        "move with standing orders": lambda s: s.step.endswith("move") and s.policies and s.stage >= 3})
    out.append(finished(R, game, steps))
    first, steps, game = run(R, "w3", b"lew-morski-migrate-seed-0002",
                             {"setup": "orders", "react_default": "ask", "visibility": "fog"}, 30,
                             lambda s, p, seat, lines: lines + (["AA ALL BOMBERS"] if p.name == "gb-move" else []))
    out += pick(R, game, steps, first, {"setup": lambda s: s.step == "setup",
                                        "fog react interrupt": lambda s: s.step.endswith("react")})
    first, steps, game = run(R, "w2", b"lew-morski-migrate-seed-0003", {"players_per_side": 2}, 40, extra)
    out += pick(R, game, steps, first, {"two seats a side, react interrupt": lambda s: s.step.endswith("react")})
    return out


def main() -> None:
    old, dest = Path(sys.argv[1]), Path(sys.argv[2])
    use_old_code(old)
    for name, folder, make in (("bismarck", "bismarck", bismarck), ("lew_morski", "lew_morski", lew_morski)):
        data = make()
        path = dest / folder / "data" / "old_positions.json.gz"
        path.write_bytes(gzip.compress(json.dumps(data, sort_keys=True).encode(), mtime=0))
        print(name, [(p["why"], p.get("phase", "over")) for p in data], path.stat().st_size)


if __name__ == "__main__":
    main()
