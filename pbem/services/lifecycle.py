"""A game's life cycle: created from a ruleset and scenario, seated player by player, started by the last."""
from __future__ import annotations

import re
import secrets
from pathlib import Path
from typing import Any
from collections.abc import Mapping

from sqlmodel import Session, select

from pbem.clocks import seats as clocks
from pbem.contact import ContactError, check_address, check_tz
from pbem.core.data import Overrides
from pbem.core.errors import PbemError
from pbem.core.play import setup_dice
from pbem.crypto import sshsig
from pbem.gamedata import bind, documents_json
from pbem.journal import SALT_BYTES, SEED_BYTES, dumps, seed_commitment
from pbem.schedule import Schedule, ScheduleError
from pbem.services.records import SETTINGS, ServerError, append_entry, enter_phase, found
from pbem.services.wiring import Services
from pbem.store.claim import claim_game
from pbem.store.models import Game, Seat
from pbem.store.times import iso

GAME_ID = re.compile(r"^[a-z0-9][a-z0-9-]{0,62}$")


class GameLifecycle:
    """New games, their players, and the start."""

    def __init__(self, services: Services) -> None:
        self.services = services
        self.deps = services.deps

    def new_game(self, game_id: str, ruleset_name: str, scenario: str, options: Mapping[str, Any] | None = None,
                 *, seed: bytes | None = None, hours: float | None = None, interrupt_hours: float | None = None,
                 title: str = "", wait_for_deadline: bool = False, schedule: str = "",
                 settings: Mapping[str, Any] | None = None, templates_dir: str = "",
                 data: Overrides | None = None, campaign: Mapping[str, Any] | None = None) -> Game:
        """Create a game; it starts (the clock runs) once every seat has a player.

        ``settings`` may set ``min_hours``, ``grace_hours``, ``remind_hours``, ``max_missing`` and
        ``vacation_hours`` (defaults from the config's [schedule]).  ``campaign`` (from pbem.campaign) holds a
        campaign game's ``link`` and ``carried`` units, put into the set-up state and its journal entry, and
        the ``facts`` its sitreps show.
        """
        if not GAME_ID.match(game_id):
            raise ServerError(f"game id {game_id!r} must be lower-case letters, digits and '-', at most 63")
        ruleset = bind(self.deps.ruleset(ruleset_name), data)
        try:
            ruleset.info.scenario(scenario)
            opts = ruleset.info.resolve_options(options or {})
        except PbemError as exc:
            raise ServerError(str(exc)) from None
        if schedule:
            try:
                Schedule.parse(schedule)
            except ScheduleError as exc:
                raise ServerError(str(exc)) from None
        sched = _settings(self.deps.home.section("schedule"), settings, hours, interrupt_hours)
        if seed is not None and not SEED_BYTES[0] <= len(seed) <= SEED_BYTES[1]:
            raise ServerError(f"a game seed must be {SEED_BYTES[0]} to {SEED_BYTES[1]} bytes ({SEED_BYTES[0] * 8} bits "
                              f"or more, so that nobody can guess it); this one is {len(seed)}")
        seed = seed if seed is not None else secrets.token_bytes(32)
        salt = secrets.token_bytes(SALT_BYTES)
        dice = setup_dice(seed)
        state = ruleset.setup(scenario, opts, dice)
        setup_payload: dict[str, Any] = {"ruleset": ruleset_name, "scenario": scenario, "options": opts}
        if campaign is not None:
            from pbem.campaign.carry import apply_carried  # a campaign game only: its units are the campaign's
            state = apply_carried(ruleset, state, campaign["carried"])
            setup_payload.update(campaign=campaign["link"], carried=campaign["carried"])
        now = self.deps.clock()
        with self.deps.session() as s:
            if s.get(Game, game_id) is not None:
                raise ServerError(f"a game {game_id!r} exists already")
            game = Game(id=game_id, ruleset=ruleset_name, scenario=scenario, options_json=dumps(opts),
                        title=title or f"{ruleset.info.title} — {ruleset.info.scenario(scenario).title}",
                        seed_hex=seed.hex(), seed_salt=salt.hex(),
                        seed_commitment=seed_commitment(seed, salt), status="open",
                        wait_for_deadline=wait_for_deadline, schedule=schedule,
                        templates_dir=str(Path(templates_dir).resolve()) if templates_dir else "",
                        data_json=documents_json(data),
                        campaign_json=dumps(campaign["facts"]) if campaign is not None else "",
                        **sched, created_at=now, updated_at=now)
            s.add(game)
            for seat in ruleset.seats(state):
                s.add(Seat(game_id=game_id, name=seat.name, side=seat.side, title=seat.title))
            append_entry(s, game, "setup", setup_payload, ruleset.dump(state), now, rolls=dice.rolls, phase=ruleset.phase(state))
            enter_phase(game, ruleset, state, now, deadline=False)
            s.commit()
            self.services.states.remember(game, state)
            return game

    def add_player(self, game_id: str, seat: str, email: str, pubkey: str, tz: str = "UTC") -> Seat:
        """Register a seat's player (address and public key); the last one starts the game."""
        try:
            email, tz = check_address(email), check_tz(tz)
            key = sshsig.PublicKey.parse(pubkey)
        except ContactError as exc:
            raise ServerError(f"player of {seat}: {exc}") from None
        except ValueError as exc:
            raise ServerError(f"public key for {seat}: {exc}") from None
        with self.deps.session() as s:
            # claimed: two players seated at once must not each see the other's seat still empty
            game = found(claim_game(s, game_id), game_id)
            row = s.exec(select(Seat).where(Seat.game_id == game_id, Seat.name == seat)).first()
            if row is None:
                names = s.exec(select(Seat.name).where(Seat.game_id == game_id)).all()
                raise ServerError(f"game {game_id} has no side {seat!r} (its sides: {', '.join(sorted(names))})")
            clash = s.exec(select(Seat).where(Seat.game_id == game_id, Seat.fingerprint == key.fingerprint,
                                              Seat.name != seat)).first()
            if clash is not None:
                raise ServerError(f"that key is already registered for side {clash.name}; "
                                  "each side needs its own key")
            row.email, row.pubkey, row.fingerprint, row.tz = email, key.line(), key.fingerprint, tz
            s.add(row)
            s.flush()
            seats = s.exec(select(Seat).where(Seat.game_id == game_id)).all()
            # a seat the scripted player plays from the start needs nobody (pbem.clocks)
            started = game.status == "open" and all(x.fingerprint or x.bot for x in seats)
            if started:
                self._start(s, game)
            s.commit()
        if started:
            # a first phase nobody acts in (weather, set-up rolls) runs at once
            self.services.resolution.advance(game_id)
        return row

    def _start(self, s: Session, game: Game) -> None:
        """The clock runs: the first phase's deadline, a start entry, and every seat's first sitrep."""
        sv = self.services
        now = self.deps.clock()
        ruleset, state = sv.states.load(game)
        game.status = "active"
        enter_phase(game, ruleset, state, now)
        clocks.start_phase(s, game, ruleset.phase(state), now)
        append_entry(s, game, "start", {"deadline": iso(game.deadline), **clocks.clock_payload(s, game, now)},
                     ruleset.dump(state), now)
        sv.states.remember(game, state)
        sv.sitreps.queue(s, game, ruleset, state)


def _settings(defaults: Mapping[str, Any], settings: Mapping[str, Any] | None, hours: float | None,
              interrupt_hours: float | None) -> dict[str, Any]:
    """A new game's settings: the config's [schedule], then the game's own; each of its type in SETTINGS."""
    sched = {**defaults, **(settings or {})}
    if hours is not None:
        sched["hours"] = hours
    if interrupt_hours is not None:
        sched["interrupt_hours"] = interrupt_hours
    unknown = set(settings or {}) - set(SETTINGS)
    if unknown:
        raise ServerError(f"unknown setting(s) {', '.join(sorted(unknown))} (known: {', '.join(SETTINGS)})")
    return {k: type(v)(sched.get(k, v)) for k, v in SETTINGS.items()}
