"""Positions stored by pbem before the ruleset kit port, as the migration tests of each game read them.

Each game's ``data/old_positions.json.gz`` was written under the pre-port code (commit ea073a1): every
position keeps the old dump, its phase key, every seat's view and the next resolutions (bodies sent,
events given with the game's dice); a finished game keeps its outcome.
"""
from __future__ import annotations

import gzip
import json
from pathlib import Path
from typing import Any


def load(folder: Path) -> tuple[list[dict], dict[str, dict], list[dict]]:
    """All positions, those of games in progress by their ``why``, and the finished games."""
    old = json.loads(gzip.decompress((folder / "data" / "old_positions.json.gz").read_bytes()))
    return old, {p["why"]: p for p in old if "next" in p}, [p for p in old if "outcome" in p]


def plain(x: Any) -> Any:
    """A value as JSON reads it back (sets as sorted lists, mappings as dicts)."""
    return json.loads(json.dumps(x, default=lambda v: sorted(v) if isinstance(v, (set, frozenset)) else dict(v)))


def events_json(events) -> list[dict]:
    """Events as the fixtures keep them, without the kit's notes of standing-order changes: the old code
    said nothing when a standing order came into force (a change of the port, on purpose)."""
    return [{"text": e.text, "visible_to": sorted(e.visible_to), "kind": e.kind, "data": plain(dict(e.data))}
            for e in events if e.kind != "standing"]
