"""The services that act on a game, wired once over one :class:`Deps`; GM commands, intake and the
life cycle are written over this bundle."""
from __future__ import annotations

from dataclasses import dataclass

from pbem.services.deps import Deps
from pbem.services.outbox import OutboxService
from pbem.services.resolution import ResolutionService
from pbem.services.sitreps import SitrepService
from pbem.services.states import StateCache


@dataclass(frozen=True)
class Services:
    """Deps, the state cache, the outbox, sitreps and resolution: what a change to a game may need."""

    deps: Deps
    states: StateCache
    outbox: OutboxService
    sitreps: SitrepService
    resolution: ResolutionService

    @classmethod
    def build(cls, deps: Deps) -> Services:
        """Each service once, given what it depends on (and nothing it does not)."""
        states, outbox = StateCache(deps), OutboxService(deps)
        sitreps = SitrepService(deps, outbox)
        return cls(deps, states, outbox, sitreps, ResolutionService(deps, states, sitreps, outbox))
