"""The ruleset contract: what every hosted game gives the engine, and what it gets back.

A ruleset is one package under ``rules/`` exposing one object, ``RULESET``,
that satisfies :class:`Ruleset`.  The engine owns everything the games share
(mail, signatures, deadlines, storage, journals, sitrep delivery, wrong-phase
and stale submissions); the ruleset owns the game.

Shapes of play the contract serves (from the five hosted games):

* simultaneous secret orders (Bismarck movement): a :class:`Phase` awaiting
  every seat;
* strictly sequential steps (Bismarck's shadowed units move and announce
  first; Lew Morski's I-go-you-go stages): a phase awaiting one seat, then the
  next phase awaiting the other;
* one side acting while the other may react (Lew Morski return fire, Sky of
  WWII reaction cards, A&A defensive fire, Wing Leader escort reaction):
  *standing orders* given ahead in an ordinary order file and kept in the
  ruleset's state, consulted during resolution; only a decision that no
  standing order covers stops resolution in a short ``INTERRUPT`` phase
  awaiting the one seat that must decide, with a default if it stays silent;
* phases nobody acts in (Bismarck's administration): a phase awaiting no
  seat, which the engine resolves at once;
* several players per side, each with private knowledge (Sky of WWII hands):
  everything is per *seat*, and a side is just a label shared by seats.

Hidden information is by construction: the engine renders a seat's sitrep,
acknowledgement or rejection only from ``view(state, seat)``, the events
whose ``visible_to`` names that seat, and the rolls it may see.  Order
parsing gets the view, not the state, so an error message cannot quote
what the seat may not know.

How a ruleset is built: the kit
-------------------------------
The contract says *what* a ruleset gives; the kit in ``pbem.core`` gives one
way to build it, so every game has the same architecture and writes only
what is its own.  ``tests/fixtures/duel.py`` is the smallest complete example
of every part.

* ``phases``: the phase machine is a table of :class:`~pbem.core.phases.Step`
  rows (who acts, window, title and prompt, the resolve function, what comes
  next, a silent seat's orders); ``Steps.phase``/``resolve``/``default_orders``
  are the contract's methods.  Definition errors raise at import.
* ``flow``: the kit's part of the state -- step, turn, interrupt counter,
  pending continuation, standing orders -- is one frozen JSON-able
  :class:`~pbem.core.flow.Flow` kept inside the ruleset's own state (a field
  of a dataclass or a key of a JSON document).
* ``work``: a resolve step changes a :class:`~pbem.core.work.Work`, which holds
  the ruleset's own working data (composition, not a base class) and the one
  event call ``say(text, to=..., kind=...)``; dice rolls go through
  ``roll(sides, why, seen_by=...)``.  Rulesets never build :class:`Event`.
* ``interrupts``: ``Work.interrupt(step, asks, **data)`` suspends a resolution
  for decisions no standing order covers; the resume step (an INTERRUPT
  window, or an ORDERS window for a turn that stops for one seat) resumes it with
  every ask's answer, or its default on silence.
* ``standing``: a per-seat store with replace-by-key and CANCEL, listed in
  forms and views, changed by orders of any phase and reported when changed.
* ``scripts``: ``IF <condition> THEN <order> [ELSE <order>]`` entries with the
  ruleset's conditions, evaluated when reached; skipped entries are reported.
* ``verbs``: each order is a frozen value with a canonical ``text()``; a verb
  table of parsers raising the core :class:`~pbem.core.errors.OrderError`
  classes; ``check_lines`` collects every problem.
* ``texts``: rule texts in the reader's language.  A ruleset marks what it
  writes once, ``t_("%(ship)s sighted in %(hex)s", ship=..., hex=...)`` (plurals:
  ``tn_(singular, plural, n, ...)``), in ``say``, an ``OrderError``, a note, a
  phase title or prompt, a view field or the order form.  The value is the
  English ``str`` as before (journals, goldens and replays of English games
  keep their bytes) and remembers its message and arguments as JSON; the
  engine stores that beside the English (an event's ``msg``) and renders it in
  each reader's language (pbem.i18n catalogs; ``babel.cfg`` extracts ``t_``/``tn_``).
* ``defaults``: :class:`~pbem.core.defaults.Assembled` makes a complete
  ruleset from those parts plus setup, view, form, outcome and bot, with
  dataclass ``dump``/``load``, seats from sides and no picture by default.

Campaigns: what of a game carries over (optional)
-------------------------------------------------
A ruleset that can be played in a campaign (:mod:`pbem.campaign`, linked games whose losses, veterans and
victory points carry over) gives a :class:`Carryover` as its ``carryover`` attribute (``Assembled(...,
carryover=...)``); :func:`carryover_of` reads it.  A ruleset without one cannot be in a campaign, and the
campaign engine says so.  Three pure functions:

* ``roster(state, side) -> tuple[CampaignUnit, ...]``: the side's named units as the game ends, each with its
  status (``fit``/``damaged``/``wounded``/``lost``/``captured``), the experience *earned in this game* and
  ``detail``, the game's own JSON values worth carrying (damage boxes, fuel).  Only the side's own units: the
  campaign shows a side nothing but its own roster, so fog holds across games.
* ``apply(state, carried) -> state``: a freshly set-up state with the campaign's units put in.  ``carried``
  maps each side to the units of its roster (by ``name``, the game's unit id) with their campaign status: a
  ``fit`` or ``damaged`` unit takes part (a damaged one as damaged, with its ``detail``), any other status
  (``wounded``, ``lost``, ``captured``, or ``reserve`` for one not chosen) stays out.  Units of the scenario
  that ``carried`` does not name take part as set up.  Must be deterministic: replay applies it again.
* ``margin(state, outcome) -> "major" | "minor"`` (optional): how decisive the winner's win was; without it
  every win is minor.  A draw (``outcome.winner is None``) is a draw.
"""
from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import Enum
from types import MappingProxyType
from typing import Any, Protocol

from .dice import Dice, Roll
from .errors import OrderProblem, RulesetDefinitionError
from .orders import OrderLine
from .picture import Picture

#: A view is plain JSON data (dicts, lists, str, int, float, bool, None):
#: it is stored, printed with ``--json`` and handed to the templates as is.
View = Mapping[str, Any]


class Window(str, Enum):
    """How long the engine gives a phase and whom it reminds."""

    ORDERS = "orders"  # an ordinary phase on the game's schedule
    INTERRUPT = "interrupt"  # a short window for one decision no standing order covered


@dataclass(frozen=True)
class Seat:
    """Someone who sends orders and receives a sitrep: a side, or one player of a side."""

    name: str  # [a-z0-9_-]+, unique in the game; the Side: header of an order file
    side: str  # the side the seat plays for; seats of one side are allies
    title: str = ""


@dataclass(frozen=True)
class Phase:
    """Where a game stands and who owes orders.

    ``(turn, name)`` identifies the phase and must never repeat within a game:
    it is the replay guard bound into every signed order file.

    :param awaiting: seats whose orders the phase needs; empty means the
        engine resolves it at once.
    :param optional: seats that *may* send orders (standing-order updates)
        but are not waited for.
    :param hours: a suggested length for the window; None means the game's schedule.
    :param prompt: one line telling the awaited seats what is asked of them.
    :param rule: the rulebook section that says who acts in this phase and when (its own numbering, as
        printed); the engine cites it when orders arrive for another phase or from a seat not awaited.
    """

    turn: int
    name: str
    awaiting: frozenset[str]
    title: str = ""
    window: Window = Window.ORDERS
    optional: frozenset[str] = frozenset()
    hours: float | None = None
    prompt: str = ""
    rule: str = ""

    @property
    def key(self) -> str:
        return f"{self.turn}/{self.name}"


@dataclass(frozen=True)
class Event:
    """Something that happened in a resolution, with the seats that may know of it.

    Write ``text`` for exactly those readers.  When two seats should learn
    different things about one happening, emit two events.  An empty
    ``visible_to`` is for the journal only.
    """

    text: str
    visible_to: frozenset[str]
    kind: str = "note"
    data: Mapping[str, Any] = field(default_factory=lambda: MappingProxyType({}))


@dataclass(frozen=True)
class Resolution:
    """The result of :meth:`Ruleset.resolve`: the next state and what happened."""

    state: Any
    events: tuple[Event, ...]


@dataclass(frozen=True)
class Outcome:
    """How a finished game ended."""

    winner: str | None  # a side, or None for a draw
    text: str
    scores: Mapping[str, float] = field(default_factory=lambda: MappingProxyType({}))


@dataclass(frozen=True)
class Checked:
    """Orders parsed and validated against the submitter's view.

    ``orders`` is whatever value the ruleset's :meth:`Ruleset.resolve` takes;
    ``notes`` are lines for the acknowledgement (e.g. "standing order
    ON_SHADOW Bismarck EVADE replaces the earlier one").
    """

    orders: Any
    problems: tuple[OrderProblem, ...] = ()
    notes: tuple[str, ...] = ()


@dataclass(frozen=True)
class Option:
    """A game option (a switch for an optional rule or a gap in the rulebook)."""

    name: str
    default: Any
    doc: str
    choices: tuple[Any, ...] = ()


@dataclass(frozen=True)
class Scenario:
    """A scenario a game can be started from."""

    name: str
    title: str
    doc: str = ""


@dataclass(frozen=True)
class RulesetInfo:
    """The ruleset's nature as data."""

    name: str  # [a-z0-9_]+, unique; used in `pbem game new --rules`
    title: str
    sides: tuple[str, ...]
    scenarios: tuple[Scenario, ...]
    options: tuple[Option, ...] = ()
    rulebook: str = ""  # where the rules come from, for the README and sitreps

    def __post_init__(self) -> None:
        if not self.name.replace("_", "").isalnum() or not self.name.islower():
            raise RulesetDefinitionError(f"ruleset name {self.name!r} must be [a-z0-9_]+")
        if not self.scenarios:
            raise RulesetDefinitionError(f"ruleset {self.name!r} has no scenario")
        names = [o.name for o in self.options]
        if len(set(names)) != len(names):
            raise RulesetDefinitionError(f"ruleset {self.name!r} repeats an option name")

    def scenario(self, name: str) -> Scenario:
        for s in self.scenarios:
            if s.name == name:
                return s
        known = ", ".join(s.name for s in self.scenarios)
        raise RulesetDefinitionError(f"unknown scenario {name!r} for {self.name} (known: {known})")

    def resolve_options(self, given: Mapping[str, Any]) -> dict[str, Any]:
        """Fill defaults; reject unknown names and values outside ``choices``."""
        known = {o.name: o for o in self.options}
        for key in given:
            if key not in known:
                raise RulesetDefinitionError(
                    f"unknown option {key!r} for {self.name} (known: {', '.join(known) or 'none'})")
        out = {}
        for opt in self.options:
            value = given.get(opt.name, opt.default)
            if opt.choices and value not in opt.choices:
                raise RulesetDefinitionError(
                    f"option {opt.name}={value!r} is not one of {', '.join(map(repr, opt.choices))}")
            out[opt.name] = value
        return out


#: A campaign unit's status between games (see :class:`CampaignUnit`).
UNIT_STATUSES = ("fit", "damaged", "wounded", "lost", "captured")


@dataclass(frozen=True)
class CampaignUnit:
    """A named unit (ship, aircraft and pilot, squad) on a campaign roster.

    ``name`` is the game's own unit id, the same in every scenario of the campaign that has the unit;
    ``xp`` is experience (from a ruleset's roster: earned in the game just played); ``rank`` a promotion;
    ``detail`` the game's JSON values carried with the unit (e.g. ``{"fuel": 8, "hits": 3}``).
    """

    name: str
    kind: str
    status: str = "fit"
    xp: int = 0
    rank: str = ""
    detail: Mapping[str, Any] = field(default_factory=lambda: MappingProxyType({}))

    def __post_init__(self) -> None:
        if self.status not in UNIT_STATUSES + ("reserve",):
            raise RulesetDefinitionError(f"unit {self.name}: status {self.status!r} is not one of "
                                         f"{', '.join(UNIT_STATUSES)}")

    def as_json(self) -> dict[str, Any]:
        return {"name": self.name, "kind": self.kind, "status": self.status, "xp": self.xp, "rank": self.rank,
                "detail": dict(self.detail)}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> CampaignUnit:
        return cls(str(data["name"]), str(data["kind"]), str(data.get("status", "fit")), int(data.get("xp", 0)),
                   str(data.get("rank", "")), MappingProxyType(dict(data.get("detail", {}))))


@dataclass(frozen=True)
class Carryover:
    """What of a game carries over into the next game of a campaign (see the module docstring)."""

    roster: Callable[[Any, str], Sequence[CampaignUnit]]
    apply: Callable[[Any, Mapping[str, Sequence[CampaignUnit]]], Any]
    margin: Callable[[Any, Outcome], str] | None = None


def carryover_of(ruleset: Any) -> Carryover | None:
    """The ruleset's :class:`Carryover`, or None when it cannot be played in a campaign."""
    found = getattr(ruleset, "carryover", None)
    return found if isinstance(found, Carryover) else None


class Ruleset(Protocol):
    """The contract.  Every method is pure: no I/O, no clock, no global RNG.

    State values are the ruleset's own (frozen dataclasses recommended) and
    never leave it except through :meth:`dump`, :meth:`view` and events.

    Optional attribute ``carryover``: a :class:`Carryover` when the game can be played in a campaign
    (read it with :func:`carryover_of`; see "Campaigns" in the module docstring).
    """

    info: RulesetInfo

    def setup(self, scenario: str, options: Mapping[str, Any], dice: Dice) -> Any:
        """Return the initial state.  ``options`` are complete (see :meth:`RulesetInfo.resolve_options`).

        :raises RulesetDefinitionError: the scenario or its data is inconsistent.
        """
        ...

    def seats(self, state: Any) -> tuple[Seat, ...]:
        """Every seat of the game, fixed from setup on."""
        ...

    def phase(self, state: Any) -> Phase | None:
        """The phase the game is in, or None when it is over."""
        ...

    def view(self, state: Any, seat: str) -> View:
        """Everything ``seat`` may know now, as JSON data; the only input to its sitrep.

        There is no default and no fallback to the full state: a ruleset
        that forgets something hides it.
        """
        ...

    def order_form(self, view: View, seat: str) -> str:
        """The body of a blank order file for the seat's next phase.

        Lines starting with ``#`` explain what may be ordered; standing orders
        in force are listed so they can be kept or changed.
        """
        ...

    def check_orders(self, view: View, seat: str, lines: Sequence[OrderLine]) -> Checked:
        """Parse and validate one seat's order lines against its view.

        Return every problem, not the first (a player fixes them all in one
        reply).  Messages name the line, the unit, the rule and what would be
        legal, using only what ``view`` holds.
        """
        ...

    def default_orders(self, state: Any, seat: str) -> Any:
        """The orders a seat that sent none is taken to have given (its missing-orders policy)."""
        ...

    def resolve(self, state: Any, orders: Mapping[str, Any], dice: Dice) -> Resolution:
        """Resolve the current phase.  ``orders`` has one entry per awaited seat.

        Must be deterministic in its arguments; all chance comes from ``dice``.
        """
        ...

    def outcome(self, state: Any) -> Outcome | None:
        """The result once the game is over, else None."""
        ...

    def dump(self, state: Any) -> dict[str, Any]:
        """The state as JSON data; ``load(dump(s)) == s``."""
        ...

    def load(self, data: Mapping[str, Any]) -> Any:
        """Inverse of :meth:`dump`."""
        ...

    def picture(self, view: View) -> Picture | None:
        """A map or board picture of what the view shows, or None."""
        ...

    def bot_orders(self, view: View, seat: str, dice: Dice) -> str:
        """Legal orders for ``seat`` chosen by a simple scripted player.

        Drives ``pbem demo``, the conformance check, the leak tests and the
        benchmarks; it sees only the view, like a human player.
        """
        ...



def visible_rolls(rolls: Sequence[Roll], seat: str) -> list[Roll]:
    """The rolls ``seat`` may see: the one rule every sitrep, golden file and leak probe applies."""
    return [r for r in rolls if seat in r.seen_by]


def visible_events(events: Sequence[Event], seat: str) -> list[Event]:
    """The events ``seat`` may see: the one rule every sitrep, golden file and leak probe applies."""
    return [e for e in events if seat in e.visible_to]
