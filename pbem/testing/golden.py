"""Golden playthroughs (style P14.1): a seeded bot game per ruleset and scenario, kept as plain text.

For each target (a ruleset and one of its scenarios) a bot game is played
with :func:`pbem.core.play.play`, default options (and each set of :data:`VARIANTS`) and :data:`SEED`.  What
each seat could know is written to ``<ruleset>/<scenario>/<seat>.txt``:
per resolved phase a header line, the orders that seat sent, the events and
rolls it was shown, and how its view changed.  ``umpire.txt`` holds every
event and roll with its audience, and the outcome.

The view is written as flat ``path: value`` lines (compact JSON, sorted
keys; a record of scalars on one line): in full once after setup, then per phase only the lines that changed
(``+ path: value``) or disappeared (``- path``).  A change of behaviour
therefore shows in a review diff at the phase where it starts, not as a
rewrite of every later view.

Regenerate on purpose with ``python -m pbem.testing.golden --update
[ruleset[/scenario]]`` (or ``make golden``) from the repository root.
"""
from __future__ import annotations

import argparse
import difflib
import hashlib
import importlib
import json
import sys
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pbem.core.dice import Roll
from pbem.core.play import Step, play, setup_dice
from pbem.core.ruleset import Event, Ruleset, visible_events, visible_rolls
from pbem.rules import RULESETS

#: The seed of every golden game (the core asks for at least 16 bytes).
SEED = b"pbem golden playthrough, seed 1"
#: Phases played at most; a game cut short says so in each file's first line.
MAX_PHASES = 120
#: Test-only rulesets that have golden files too, imported by dotted name so
#: that the package never imports the test tree (found only from the repository root).
FIXTURES = ("tests.fixtures.duel",)
#: View parts written as a size and digest, not in full: Lew Morski's menu of
#: legal moves per plane would be most of all the golden files, and its effect
#: on play shows anyway in the orders the bots send; A&A's sight list is worked out from the units' lines,
#: which are written in full.  Each file's first line names them.
DIGESTED: dict[str, frozenset[str]] = {"lew_morski": frozenset({"own[].moves"}),
                                       "aa_miniatures": frozenset({"in_sight"})}
#: A review needs the start of a mismatch, not all of it.
DIFF_LINES = 40


@dataclass(frozen=True)
class Target:
    """One golden case: a ruleset and one of its scenarios."""

    ruleset: Ruleset
    scenario: str
    #: Options that differ from the defaults, as sorted ``(name, value)`` pairs; empty for the default game.
    options: tuple[tuple[str, Any], ...] = ()

    @property
    def name(self) -> str:
        """``ruleset/scenario``, with ``@name=value,...`` for a variant: also its folder under the golden root."""
        return f"{self.ruleset.info.name}/{self.scenario}{variant_suffix(self.options)}"

    @property
    def base(self) -> str:
        return f"{self.ruleset.info.name}/{self.scenario}"


def variant_suffix(options: Iterable[tuple[str, Any]]) -> str:
    return "@" + ",".join(f"{k}={v}" for k, v in options) if options else ""


#: Option sets played besides the defaults, per ruleset: every scenario of the
#: ruleset is played once more with each set (OpenSpiel keeps one playthrough
#: per game string, parameters included).  A set names only what differs.
VARIANTS: dict[str, tuple[Mapping[str, Any], ...]] = {
    # a hypothetical German unit (13.1) changes the whole chase; battle_doctrine=ask plays as the default
    # with the bots, which always declare a DOCTRINE
    "bismarck": ({"tirpitz": True},),
    # fog changes every view, target and event audience
    "lew_morski": ({"visibility": "fog"},),
    "sky_ww2": ({"cadence": "turn"},),  # the window per turn and per decision of games started before
    "aa_miniatures": ({"visibility": "fog"}, {"cadence": "fast"}, {"cadence": "fast", "visibility": "fog"},
                      {"movement": "alternate"}, {"players_per_side": 2, "visibility": "fog"}),
    "wing_leader": ({"cadence": "fast"}, {"cadence": "single"}, {"seats_per_side": 3}, {"visibility": "fog"},
                    {"setup": "players"}),  # the players set up: markers, wings, vectors and escorts, arrivals
}


def targets(rulesets: Iterable[Ruleset], variants: Mapping[str, Sequence[Mapping[str, Any]]] = VARIANTS
            ) -> list[Target]:
    """Every (ruleset, scenario) pair with default options, then its :data:`VARIANTS`, in the rulesets' order."""
    out = []
    for r in rulesets:
        for s in r.info.scenarios:
            out.append(Target(r, s.name))
            out += [Target(r, s.name, tuple(sorted(extra.items())))
                    for extra in variants.get(r.info.name, ())]
    return out


Segment = str | int  # a dict key or a list index


def flat(value: Any, path: tuple[Segment, ...] = (), digest: frozenset[str] = frozenset()
         ) -> Iterator[tuple[tuple[Segment, ...], str]]:
    """``(path, compact JSON)`` pairs for the leaves of JSON data, dict keys sorted.

    A leaf is a scalar or a dict or list holding only scalars (one line reads
    better than one line per field).  A path listed in ``digest`` (written
    as :func:`pattern` gives it) is one line with its length and a digest.
    """
    if path and pattern(path) in digest:
        text = _compact(value)
        size = f"{len(value)} entries, " if isinstance(value, (list, tuple, Mapping)) else ""
        yield path, f"<{size}sha256 {hashlib.sha256(text.encode()).hexdigest()[:16]}>"
    elif _is_leaf(value) and (path or not value):  # the view itself always gets a line per key
        yield path, _compact(value)
    elif isinstance(value, Mapping):
        for key in sorted(value, key=str):
            yield from flat(value[key], (*path, str(key)), digest)
    else:
        for i, item in enumerate(value):
            yield from flat(item, (*path, i), digest)


def pattern(path: Sequence[Segment]) -> str:
    """The path with every list index left out: ``own[].moves`` for ``own[3].moves``."""
    return "".join("[]" if isinstance(s, int) else (f".{s}" if i else s) for i, s in enumerate(path))


def _is_leaf(value: Any) -> bool:
    if isinstance(value, Mapping):
        return all(not isinstance(v, (Mapping, list, tuple)) for v in value.values())
    if isinstance(value, (list, tuple)):
        return all(not isinstance(v, (Mapping, list, tuple)) for v in value)
    return True


def _compact(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, sort_keys=True, separators=(", ", ": "))


def path_text(path: Sequence[Segment]) -> str:
    """``own[0].moves`` for ``("own", 0, "moves")``; keys that would read ambiguously are quoted."""
    out = ""
    for seg in path:
        if isinstance(seg, int):
            out += f"[{seg}]"
        else:
            key = seg if seg and not any(c in seg for c in '.[]: "') else json.dumps(seg, ensure_ascii=False)
            out += f".{key}" if out else key
    return out or "(view)"


def flat_view(target: Target, view: Any) -> dict[tuple[Segment, ...], str]:
    return dict(flat(view, digest=DIGESTED.get(target.ruleset.info.name, frozenset())))


def view_lines(view: Mapping[tuple[Segment, ...], str]) -> list[str]:
    return [f"  {path_text(k)}: {v}" for k, v in view.items()]


def view_changes(before: Mapping[tuple[Segment, ...], str], after: Mapping[tuple[Segment, ...], str]) -> list[str]:
    """Lines for what changed from one flat view to the next, in the order of the view.

    ``+ path: value`` for a new or changed leaf; ``- path`` for the largest
    part that is gone (runs of list items as ``[a..b]``), omitted where a
    ``+`` line already shows its container emptied.
    """
    lines = [f"  + {path_text(k)}: {v}" for k, v in after.items() if before.get(k) != v]
    return lines + [f"  - {text}" for text in _collapse(_gone(before, after))]


def _gone(before: Mapping[tuple[Segment, ...], str], after: Mapping[tuple[Segment, ...], str]) -> list[tuple]:
    present = {k[:i] for k in after for i in range(len(k) + 1)}
    gone: list[tuple] = []
    for path in before:
        if path in after:
            continue
        for i in range(1, len(path) + 1):
            head = path[:i]
            if head in after:  # a container that became a leaf; its + line says so
                break
            if head not in present:
                if head not in gone:
                    gone.append(head)
                break
    return gone


def _collapse(paths: Sequence[tuple]) -> list[str]:
    """Path texts, with consecutive list indices under one parent written as one range."""
    out: list[str] = []
    run: list[tuple] = []

    def flush() -> None:
        if run:
            first, last = run[0][-1], run[-1][-1]
            out.append(path_text(run[0]) if first == last
                       else f"{path_text(run[0][:-1])}[{first}..{last}]")
            run.clear()

    for path in paths:
        if run and isinstance(path[-1], int) and path[:-1] == run[-1][:-1] and path[-1] == run[-1][-1] + 1:
            run.append(path)
            continue
        flush()
        if isinstance(path[-1], int):
            run.append(path)
        else:
            out.append(path_text(path))
    flush()
    return out


def _event_lines(events: Sequence[Event]) -> list[str]:
    return [f"  [{e.kind}] {e.text}".replace("\n", "\n    ") for e in events]


def _roll_line(roll: Roll) -> str:
    return f"  d{roll.sides}={roll.value} {roll.why}"


def _audience(seats: Iterable[str]) -> str:
    return ", ".join(sorted(seats)) or "journal only"


def _header(target: Target, steps: Sequence[Step], seat: str) -> list[str]:
    over = not steps or target.ruleset.phase(steps[-1].state) is None
    length = f"{len(steps)} phases, to the end" if over else f"first {len(steps)} phases only (capped)"
    digested = sorted(DIGESTED.get(target.ruleset.info.name, ()))
    digest = f"; as digests: {', '.join(digested)}" if digested else ""
    chosen = ", ".join(f"{k}={v}" for k, v in target.options) or "default options"
    return [f"# golden playthrough {target.name} seat {seat}: seed {SEED.decode()!r}, {chosen}, "
            f"{length}{digest}"]


def _phase_header(step: Step) -> str:
    p = step.phase
    extra = f" optional: {', '.join(sorted(p.optional))}" if p.optional else ""
    window = f" window: {p.window.value}" if p.window.value != "orders" else ""
    return f"== {p.key} awaiting: {', '.join(sorted(p.awaiting)) or 'nobody'}{extra}{window}"


def seat_text(target: Target, initial: Any, setup_rolls: Sequence[Roll], steps: Sequence[Step],
              seat: str) -> str:
    """The golden file of one seat: what it sent, saw and was shown, phase by phase."""
    rs = target.ruleset
    out = _header(target, steps, seat)
    out.append("== setup")
    out += ["rolls:", *[_roll_line(r) for r in visible_rolls(setup_rolls, seat)]]
    shown = flat_view(target, rs.view(initial, seat))
    out += ["view:", *view_lines(shown)]
    for step in steps:
        out.append(_phase_header(step))
        if seat in step.bodies:
            out += ["orders:", *[f"  {line}" for line in step.bodies[seat].splitlines() if line.strip()]]
        out += ["events:", *_event_lines(visible_events(step.events, seat))]
        out += ["rolls:", *[_roll_line(r) for r in visible_rolls(step.rolls, seat)]]
        now = flat_view(target, rs.view(step.state, seat))
        out += ["view changes:", *view_changes(shown, now)]
        shown = now
    return "\n".join(out) + "\n"


def umpire_text(target: Target, setup_rolls: Sequence[Roll], steps: Sequence[Step]) -> str:
    """Every event and roll with its audience, then the outcome: what no single seat's file shows."""
    out = _header(target, steps, "umpire")
    out.append("== setup")
    out += ["rolls:", *[f"{_roll_line(r)} (seen by {_audience(r.seen_by)})" for r in setup_rolls]]
    for step in steps:
        out.append(_phase_header(step))
        out.append("events:")
        for e in step.events:
            out += _event_lines([e])
            out.append(f"    (to {_audience(e.visible_to)})")
        out += ["rolls:", *[f"{_roll_line(r)} (seen by {_audience(r.seen_by)})" for r in step.rolls]]
    outcome = target.ruleset.outcome(steps[-1].state) if steps else None
    if outcome is None:
        out.append("== not over")
    else:
        scores = ", ".join(f"{k}={v!r}" for k, v in sorted(outcome.scores.items()))
        out.append(f"== outcome: winner {outcome.winner or 'none (draw)'}: {outcome.text}"
                   + (f" [{scores}]" if scores else ""))
    return "\n".join(out) + "\n"


def render(target: Target) -> dict[str, str]:
    """File name → text for one target: one file per seat and ``umpire.txt``."""
    rs = target.ruleset
    chosen = dict(target.options)
    options = rs.info.resolve_options(chosen)
    dice = setup_dice(SEED)
    initial = rs.setup(target.scenario, options, dice)  # the state play() starts from, for its rolls and view
    steps = play(rs, target.scenario, SEED, options=chosen, max_phases=MAX_PHASES)
    files = {f"{seat.name}.txt": seat_text(target, initial, dice.rolls, steps, seat.name)
             for seat in rs.seats(initial)}
    files["umpire.txt"] = umpire_text(target, dice.rolls, steps)
    return files


def folder(root: Path, target: Target) -> Path:
    return root / target.ruleset.info.name / (target.scenario + variant_suffix(target.options))


def mismatches(root: Path, target: Target) -> list[str]:
    """Human-readable differences between the stored files and a fresh playthrough; empty if equal.

    Each differing file is named with its first differing lines as a unified diff.
    """
    where, shown = folder(root, target), target.name  # files are named relative to the golden root
    fresh = render(target)
    stored = {p.name for p in where.glob("*.txt")} if where.is_dir() else set()
    problems = [f"{shown}/{name}: missing (run: python -m pbem.testing.golden --update {target.name})"
                for name in sorted(set(fresh) - stored)]
    problems += [f"{shown}/{name}: no seat writes this file any more" for name in sorted(stored - set(fresh))]
    for name in sorted(set(fresh) & stored):
        old = (where / name).read_text(encoding="utf-8")
        if old != fresh[name]:
            diff = list(difflib.unified_diff(old.splitlines(), fresh[name].splitlines(),
                                             f"{name} (stored)", f"{name} (played now)", n=2, lineterm=""))
            problems.append(f"{shown}/{name} differs{_where(old.splitlines(), fresh[name].splitlines())}:\n"
                            + "\n".join(diff[:DIFF_LINES])
                            + ("\n..." if len(diff) > DIFF_LINES else ""))
    return problems


def _where(old: list[str], new: list[str]) -> str:
    """`` from line N, in phase <header>``: where the first difference lies, for a reader of a long file."""
    at = next((i for i, (a, b) in enumerate(zip(old, new, strict=False)) if a != b), min(len(old), len(new)))
    header = next((line for line in reversed(old[:at + 1]) if line.startswith("==")), "")
    return f" from line {at + 1}" + (f", in phase {header[3:]!r}" if header else "")


def write(root: Path, target: Target) -> list[Path]:
    """Write a target's files afresh (removing files no seat writes any more); return the paths written."""
    where = folder(root, target)
    where.mkdir(parents=True, exist_ok=True)
    files = render(target)
    for old in where.glob("*.txt"):
        if old.name not in files:
            old.unlink()
    for name, text in files.items():
        (where / name).write_text(text, encoding="utf-8", newline="\n")
    return [where / name for name in sorted(files)]


def known_rulesets(fixtures: Sequence[str] = FIXTURES) -> list[Ruleset]:
    """The registered rulesets, then the ``RULESET`` of each fixture module that can be imported here."""
    found = list(RULESETS)
    for module in fixtures:
        try:
            found.append(importlib.import_module(module).RULESET)
        except ModuleNotFoundError:  # run outside the repository root: no test tree to find
            continue
    return found


def select(all_targets: Sequence[Target], wanted: Sequence[str]) -> list[Target]:
    """Targets named ``ruleset``, ``ruleset/scenario`` (with its variants) or a variant's full name; all when
    nothing is named.

    :raises SystemExit: a name matches nothing.
    """
    if not wanted:
        return list(all_targets)
    chosen = []
    for name in wanted:
        hit = [t for t in all_targets if name in (t.name, t.base, t.ruleset.info.name)]
        if not hit:
            raise SystemExit(f"no golden target {name!r} (known: {', '.join(t.name for t in all_targets)})")
        chosen += [t for t in hit if t not in chosen]
    return chosen


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m pbem.testing.golden", description=__doc__.split("\n")[0])
    parser.add_argument("names", nargs="*", metavar="ruleset[/scenario]")
    parser.add_argument("--update", action="store_true", help="rewrite the files (else only compare)")
    parser.add_argument("--dir", type=Path, default=Path("tests/golden"), help="default: tests/golden")
    args = parser.parse_args(argv)
    chosen = select(targets(known_rulesets()), args.names)
    failed = 0
    for target in chosen:
        if args.update:
            paths = write(args.dir, target)
            print(f"{target.name}: wrote {len(paths)} files")
            continue
        problems = mismatches(args.dir, target)
        failed += bool(problems)
        print(f"{target.name}: " + ("ok" if not problems else "\n".join(problems)))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
