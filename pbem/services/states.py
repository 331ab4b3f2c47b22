"""A game's ruleset and state, and a seat's view of it, cached by journal head (a state is a value)."""
from __future__ import annotations

import json
import threading
from collections import OrderedDict
from typing import Any

from pbem.core.ruleset import Ruleset
from pbem.services.deps import Deps
from pbem.store.models import Game

#: Bounds: a server with 10,000 games must not hold them all.
MAX_STATES, MAX_VIEWS = 256, 512


class StateCache:
    """Loads states from the game row and keeps the latest few; shared by every service of a process."""

    def __init__(self, deps: Deps) -> None:
        self.deps = deps
        self._states: OrderedDict[tuple[str, str], Any] = OrderedDict()
        self._views: OrderedDict[tuple[str, str, str], Any] = OrderedDict()
        self._lock = threading.Lock()  # the daemon's LMTP and scheduler threads share the caches

    def load(self, game: Game) -> tuple[Ruleset, Any]:
        """The game's ruleset and current state."""
        ruleset = self.deps.ruleset_for(game)
        key = (game.id, game.journal_head)
        with self._lock:
            state = self._states.get(key)
            if state is not None:
                self._states.move_to_end(key)
                return ruleset, state
        state = ruleset.load(json.loads(game.state_json))
        self.remember(game, state)
        return ruleset, state

    def view_of(self, game: Game, seat: str) -> Any:
        """A seat's view of the game's current state: a value of (state, seat)."""
        key = (game.id, game.journal_head, seat)
        with self._lock:
            view = self._views.get(key)
        if view is None:
            ruleset, state = self.load(game)
            view = ruleset.view(state, seat)
            with self._lock:
                self._views[key] = view
                while len(self._views) > MAX_VIEWS:
                    self._views.popitem(last=False)
        return view

    def remember(self, game: Game, state: Any) -> None:
        """Keep ``state`` as the state at the game's journal head."""
        with self._lock:
            self._states[(game.id, game.journal_head)] = state
            while len(self._states) > MAX_STATES:
                self._states.popitem(last=False)
