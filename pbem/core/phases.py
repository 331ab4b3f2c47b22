"""Phases as data: a ruleset's step table and the one generic ``phase()``/``resolve()``.

A ruleset declares its steps once, as boardgame.io declares phases::

    STEPS = Steps([
        Step("fire", fire, next="fire", who=ALL, title="fire and move"),
        Step("hit", answer_hit, next="fire", window=Window.INTERRUPT, hours=12),
    ], seats=seats_of, open=DuelWork, close=DuelWork.freeze, sides=SIDES)

and its contract methods ``phase``, ``resolve`` and ``default_orders`` become
``STEPS.phase``, ``STEPS.resolve`` and ``STEPS.default_orders``.  A definition
error (a repeated or reserved name, a ``next`` or ``who`` naming nothing)
raises :class:`~pbem.core.errors.RulesetDefinitionError` when the table is
built, i.e. at import.

One resolution runs: read the :class:`~pbem.core.flow.Flow` from the state;
build a :class:`~pbem.core.work.Work` and the ruleset's working data
(``open``); apply standing-order changes found in any seat's orders; when an
interrupt is being resumed, work out every ask's answer; call the current
step's resolve function; then go to the resume step of the interrupt it
opened (``Work.interrupt``), else the step it chose (``Work.goto``), else the
step's ``next`` (a name, or a function of the Work); freeze (``close``) and
put the new Flow back into the state.

Phase keys ``turn/name`` must never repeat within a game: resume steps get
the interrupt counter in their name; for the others the ruleset advances the
turn (``Work.new_turn``) before a step comes round again.
"""
from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Generic, TypeAlias, TypeVar

from .dice import Dice
from .errors import RulesetDefinitionError
from .flow import OVER, Flow, FlowSlot
from .ruleset import Phase, Resolution, Seat, Window
from .standing_rules import PLAIN, StandingRules
from .work import Box, Work

S = TypeVar("S")
D = TypeVar("D")

#: The Flow kept in a field or key named "flow".
DEFAULT_SLOT = FlowSlot()

#: Who acts: every seat.
ALL = "all"
#: Who acts: nobody (the engine resolves the phase at once).
NOBODY = "nobody"
#: Who acts: the seats asked by the pending interrupt (the default for INTERRUPT steps).  A step
#: awaiting ASKED is a *resume step*: it is entered only by ``Work.interrupt``, never by ``next``.
ASKED = "asked"

#: ALL, NOBODY, ASKED, a side name, or a function of the state giving seat names.
Who: TypeAlias = str | Callable[[Any], Iterable[str]]
#: A fixed text, or a function of the state giving it.
Text: TypeAlias = str | Callable[[Any], str]
#: A step's resolve function: change the Work; the orders map each awaited seat to its typed orders.
ResolveFn: TypeAlias = Callable[[Work[Any], Mapping[str, Any]], None]
#: A step's successor: a step name (or OVER), or a function of the Work deciding it after resolution.
Next: TypeAlias = str | Callable[[Work[Any]], str]


@dataclass(frozen=True)
class Step:
    """One row of the table.

    :param name: the step name; also the phase name, except that a resume step's (``who=ASKED``)
        phase is ``<name>-<counter>`` unless ``phase_name`` says otherwise.
    :param resolve: what resolving the phase does (for a resume step: the continuation).
    :param next: where the game goes after this step, unless the resolve function suspended or chose.
    :param who: whose orders the phase awaits; INTERRUPT steps default to :data:`ASKED`, others to
        :data:`ALL`.  An ORDERS step may await ASKED too (a turn that stops for one seat's ordinary orders).
    :param window: ORDERS, or INTERRUPT for a short window for decisions no standing order covered.
    :param hours: a suggested window length (None: the game's schedule).
    :param title: the phase title; :param prompt: one line telling the awaited seats what is asked.
    :param optional: seats that may send (standing-order) orders without being waited for.
    :param default: ``default(state, seat)``: the orders of a silent seat; None means no orders, ``()``.
    :param phase_name: ``phase_name(state, flow)`` overrides the phase name (it must still never repeat
        within a turn).
    :param rule: the rulebook section that orders this step (who acts, when), cited by the engine's
        wrong-phase and not-awaited rejections.
    """

    name: str
    resolve: ResolveFn
    next: Next
    who: Who | None = None
    window: Window = Window.ORDERS
    hours: float | None = None
    title: Text = ""
    prompt: Text = ""
    optional: Who = NOBODY
    default: Callable[[Any, str], Any] | None = None
    phase_name: Callable[[Any, Flow], str] | None = None
    rule: str = ""

    @property
    def acting(self) -> Who:
        if self.who is not None:
            return self.who
        return ASKED if self.window is Window.INTERRUPT else ALL


class Steps(Generic[S, D]):
    """A ruleset's step table and the generic driver of the contract's phase methods.

    :param steps: the rows; the first is where :meth:`start` begins unless told otherwise.
    :param seats: ``seats(state)``: the game's seats (the contract's ``seats``).
    :param open: ``open(state, work)`` builds the ruleset's working data (default: a :class:`Box`).
    :param close: ``close(data)`` freezes it back to a state (default: ``box.value``).
    :param slot: where the state keeps its Flow (default: field or key ``"flow"``).
    :param sides: the game's sides, so that a ``who`` naming a side is checked at import.
    :param standing: the game's standing-order declarations (side scope, ordered groups, defaults,
        its own change notice); the plain per-seat store by default.
    """

    def __init__(self, steps: Sequence[Step], *, seats: Callable[[S], Sequence[Seat]],
                 open: Callable[[S, Work[D]], D] | None = None, close: Callable[[D], S] | None = None,
                 slot: FlowSlot = DEFAULT_SLOT, sides: Sequence[str] = (),
                 standing: StandingRules = PLAIN) -> None:
        self.steps: dict[str, Step] = {}
        for step in steps:
            if step.name in self.steps or step.name == OVER:
                raise RulesetDefinitionError(f"step name {step.name!r} is repeated or reserved")
            self.steps[step.name] = step
        if not self.steps:
            raise RulesetDefinitionError("a step table needs at least one step")
        self.sides = tuple(sides)
        self.standing = standing
        for step in steps:
            self._check(step)
        self._seats = seats
        self._open: Callable[[S, Work[D]], D] = open or _box_open  # type: ignore[assignment]
        self._close: Callable[[D], S] = close or _box_close  # type: ignore[assignment]
        self.slot = slot

    def _check(self, step: Step) -> None:
        if isinstance(step.next, str):
            self._entered(step.next, f"step {step.name!r}: next")
        for label, who in (("who", step.acting), ("optional", step.optional)):
            if isinstance(who, str) and who not in (ALL, NOBODY, ASKED) and who not in self.sides:
                raise RulesetDefinitionError(
                    f"step {step.name!r}: {label}={who!r} is not all, nobody, asked or a side {self.sides}")

    def _entered(self, name: str, where: str) -> None:
        """Check a step entered without an interrupt: it exists and is not a resume step."""
        step = self._known(name, where)
        if step is not None and step.acting == ASKED:
            raise RulesetDefinitionError(f"{where}: {name!r} awaits the asked seats; only Work.interrupt enters it")

    def _known(self, name: str, where: str) -> Step | None:
        if name == OVER:
            return None
        if name not in self.steps:
            raise RulesetDefinitionError(f"{where} names no step: {name!r} (steps: {', '.join(self.steps)})")
        return self.steps[name]

    # ---------------------------------------------------------------- the contract's methods
    def start(self, step: str | None = None, turn: int = 1) -> Flow:
        """The Flow of a new game (for ``setup``)."""
        name = step if step is not None else next(iter(self.steps))
        self._entered(name, "start")
        return Flow(name, turn)

    def flow(self, state: S) -> Flow:
        return self.slot.get(state)

    def phase(self, state: S) -> Phase | None:
        """The contract's ``phase``: None once the step is OVER."""
        flow = self.slot.get(state)
        step = self._known(flow.step, "the state's step")
        if step is None:
            return None
        if step.phase_name is not None:
            name = step.phase_name(state, flow)
        elif step.acting == ASKED:
            name = f"{step.name}-{flow.counter}"
        else:
            name = step.name
        return Phase(flow.turn, name, self._who(step.acting, state, flow), _text(step.title, state),
                     step.window, self._who(step.optional, state, flow), step.hours, _text(step.prompt, state),
                     step.rule)

    def awaiting(self, state: S) -> frozenset[str]:
        phase = self.phase(state)
        return frozenset() if phase is None else phase.awaiting

    def default_orders(self, state: S, seat: str) -> Any:
        """The contract's ``default_orders``: the step's ``default``, else no orders."""
        step = self._known(self.slot.get(state).step, "the state's step")
        if step is None or step.default is None:
            return ()
        return step.default(state, seat)

    def resolve(self, state: S, orders: Mapping[str, Any], dice: Dice) -> Resolution:
        """The contract's ``resolve``, driven by the table (see the module docstring)."""
        flow = self.slot.get(state)
        step = self._known(flow.step, "the state's step")
        if step is None:
            raise RulesetDefinitionError("resolve called on a finished game")
        resolving = self.phase(state)
        work: Work[D] = Work(flow, self._seats(state), dice, rules=self.standing)
        work.data = self._open(state, work)
        work.apply_standing(orders)
        work._begin_resume(orders)
        step.resolve(work, orders)
        new = work._end(self._successor(step, work))
        if new.pending is not None:
            target = self._known(new.pending.resume, f"step {step.name!r}: interrupt")
            if target is None or target.acting != ASKED:
                raise RulesetDefinitionError(
                    f"step {step.name!r}: interrupt to {new.step!r}, a step that does not await the asked seats")
        after = self.slot.put(self._close(work.data), new)
        again = self.phase(after)
        if again is not None and resolving is not None and again.key == resolving.key:
            # the same key would mean the same stored orders and the same dice all over again
            raise RulesetDefinitionError(f"step {step.name!r}: the next phase is {again.key} again; "
                                         "advance the turn (Work.new_turn) before a step comes round again")
        return Resolution(after, tuple(work.events))

    # ---------------------------------------------------------------- helpers
    def _successor(self, step: Step, work: Work[D]) -> str:
        if work.suspended:
            return step.name
        name = work.going_to
        if name is None:
            name = step.next if isinstance(step.next, str) else step.next(work)
        self._entered(name, f"step {step.name!r}: next")
        return name

    def _who(self, who: Who, state: S, flow: Flow) -> frozenset[str]:
        if callable(who):
            return frozenset(who(state))
        if who == NOBODY:
            return frozenset()
        if who == ASKED:
            return flow.pending.seats if flow.pending is not None else frozenset()
        seats = self._seats(state)
        return frozenset(s.name for s in seats if who == ALL or s.side == who)


def _text(text: Text, state: Any) -> str:
    return text(state) if callable(text) else text


def _box_open(state: Any, work: Work[Any]) -> Box[Any]:
    return Box(state)


def _box_close(box: Box[Any]) -> Any:
    return box.value
