"""What a sitrep fills once per process, filled when the daemon starts instead of in a game's first phase.

The first sitrep a process renders for a ruleset and scenario pays for what every later one reuses:
the templates compiled by Jinja, the ruleset's data files read, the map's static layer drawn and reduced
to a palette (:func:`pbem.pictures._base`) and the fonts loaded.  That made the first phase of each game
after a start several times slower than the rest.  :func:`warm` renders one throw-away sitrep per seat
of each ruleset and scenario given, from its set-up, so those caches are full before a game needs them.

The caches are keyed by what they hold (template name, board shapes, font size): the pictures and texts
a game gets are byte for byte those it would get cold.  Warming is best effort: a scenario that cannot
be set up with its default options is skipped, and the daemon never waits for it.
"""
from __future__ import annotations

import logging
import time
from collections.abc import Iterable
from types import SimpleNamespace
from typing import Any

from pbem.core.play import setup_dice
from pbem.core.ruleset import Ruleset

log = logging.getLogger("pbem.runner")

#: The reply templates every intake renders (acknowledgement, rejection), compiled with the sitreps'.
REPLIES = ("common/ack.txt.j2", "common/ack.html.j2", "common/reject.txt.j2", "common/reject.html.j2")


def warm(pairs: Iterable[tuple[Ruleset, str]]) -> int:
    """Render a sitrep for every seat of each (ruleset, scenario) set-up; return how many pairs warmed."""
    from pbem.i18n import SOURCE
    from pbem.render import environment
    from pbem.services.sitreps import build_sitrep

    env = environment("", SOURCE)  # as render_reply and render_sitrep call it (lru_cache keys on the call)
    for name in REPLIES:
        env.get_template(name)
    done = 0
    for ruleset, scenario in pairs:
        try:
            state = ruleset.setup(scenario, ruleset.info.resolve_options({}), setup_dice(b"pbem warm-up"))
            # what a sitrep reads of a game row
            game: Any = SimpleNamespace(id="warm-up", title="warm-up", ruleset=ruleset.info.name, scenario=scenario,
                                        seed_commitment="0" * 64, seed_hex="00" * 16, seed_salt="", turn=0,
                                        journal_head="0" * 64, templates_dir="")
            entries = [{"seq": 1, "kind": "resolve", "hash": "0" * 64, "payload": {"notices": []}, "events": [],
                        "rolls": []}]
            for seat in ruleset.seats(state):
                build_sitrep(ruleset, game, {"name": seat.name, "side": seat.side, "title": seat.title,
                                             "tz": "UTC"}, state, entries)
            done += 1
        except Exception as exc:  # a cache left cold costs one slower sitrep; never a failure
            log.debug("warm-up of %s/%s skipped: %s: %s", ruleset.info.name, scenario, exc.__class__.__name__, exc)
    return done


def warm_active(server) -> None:
    """Warm the rulesets and scenarios of the server's active games (the daemon runs this in a thread)."""
    t = time.perf_counter()
    try:
        with server.reader() as s:
            from sqlmodel import select

            from pbem.store.models import Game

            pairs = sorted(set(s.exec(select(Game.ruleset, Game.scenario).where(Game.status == "active")).all()))
        rulesets = []
        for name, scenario in pairs:
            try:
                rulesets.append((server.ruleset(name), scenario))
            except Exception:  # a game of a ruleset this pbem no longer hosts: its passes say so
                continue
        n = warm(rulesets)
    except Exception as exc:
        log.warning("the sitrep caches were not warmed: %s: %s", exc.__class__.__name__, exc)
        return
    log.info("sitrep caches warmed for %d ruleset/scenario pair(s) in %.1f s", n, time.perf_counter() - t)
