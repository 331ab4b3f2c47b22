"""The generic ruleset conformance check (style P14.2).

``check_ruleset`` plays seeded games with the ruleset's scripted players and
asserts the contract: deterministic resolution, state round trips, views for
every seat at every phase, JSON-only views, events addressed to real seats,
phase keys that never repeat, and bot orders that the ruleset accepts.
"""
from __future__ import annotations

import json
from typing import Any, Mapping

from pbem.core.play import canonical_json, play
from pbem.core.ruleset import Ruleset


def check_ruleset(ruleset: Ruleset, scenario: str, seed: bytes = b"conformance", *,
                  options: Mapping[str, Any] | None = None, max_phases: int = 40) -> int:
    """Run the contract checks; return the number of phases played."""
    steps = play(ruleset, scenario, seed, options=options, max_phases=max_phases)
    again = play(ruleset, scenario, seed, options=options, max_phases=max_phases)
    assert len(steps) == len(again), "replaying with the same seed played a different number of phases"
    seen_keys: set[str] = set()
    for a, b in zip(steps, again):
        assert a.phase == b.phase, f"phase differs on replay: {a.phase} vs {b.phase}"
        assert canonical_json(ruleset.dump(a.state)) == canonical_json(ruleset.dump(b.state)), \
            f"{a.phase.key}: resolution is not deterministic"
        assert a.events == b.events, f"{a.phase.key}: events differ on replay"
        assert a.phase.key not in seen_keys, f"phase key {a.phase.key} repeats"
        seen_keys.add(a.phase.key)
        seats = {s.name for s in ruleset.seats(a.state)}
        assert a.phase.awaiting <= seats, f"{a.phase.key} awaits unknown seats {a.phase.awaiting - seats}"
        for ev in a.events:
            assert ev.visible_to <= seats, f"event {ev.text!r} visible to unknown seats"
        for r in a.rolls:
            assert r.seen_by <= seats, f"roll {r.why!r} seen by unknown seats"
        dumped = ruleset.dump(a.state)
        json.dumps(dumped)
        assert canonical_json(ruleset.dump(ruleset.load(json.loads(json.dumps(dumped))))) == canonical_json(dumped), \
            f"{a.phase.key}: load(dump(state)) does not round-trip"
        for seat in sorted(seats):
            view = ruleset.view(a.state, seat)
            json.loads(json.dumps(view))  # views must be plain JSON
            ruleset.picture(view)
            if ruleset.phase(a.state) is not None:
                ruleset.order_form(view, seat)
    return len(steps)
