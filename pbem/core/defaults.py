"""The contract's boring methods, built by composition (no base class, no mixin).

:func:`assemble` makes a complete :class:`~pbem.core.ruleset.Ruleset` from the
parts that are a game's own -- setup, view, order form, outcome, bot -- and
fills in the rest from the kit: ``phase``/``resolve``/``default_orders`` from
the :class:`~pbem.core.phases.Steps` table, ``check_orders`` from the
:class:`~pbem.core.verbs.VerbTable`, ``seats`` from the sides, ``dump``/``load``
of a frozen-dataclass state (:class:`DataclassCodec`), ``picture`` None.
A ruleset keeping its own class may use the same pieces one by one.
"""
from __future__ import annotations

import dataclasses
import enum
import types
import typing
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from .dice import Dice
from .errors import RulesetDefinitionError
from .orders import OrderLine
from .phases import Steps
from .picture import Picture
from .ruleset import Carryover, Checked, Outcome, Phase, Resolution, RulesetInfo, Seat, View
from .verbs import VerbTable


def seats_from_sides(info: RulesetInfo, titles: Mapping[str, str] | None = None) -> Callable[[Any], tuple[Seat, ...]]:
    """``seats(state)`` for a game with one seat per side, named after the side."""
    seats = tuple(Seat(s, s, (titles or {}).get(s, s.replace("_", " ").title())) for s in info.sides)
    return lambda state: seats


def to_json(value: Any) -> Any:
    """Plain JSON of a value made of frozen dataclasses, tuples, mappings, enums and scalars.

    A value with a ``dump()`` method (the kit's Flow) is dumped by it.
    """
    if callable(getattr(value, "dump", None)) and not isinstance(value, type):
        return value.dump()
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: to_json(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, enum.Enum):
        return value.value
    if isinstance(value, Mapping):
        return {str(k): to_json(v) for k, v in value.items()}
    if isinstance(value, (tuple, list, frozenset, set)):
        items = sorted(value) if isinstance(value, (frozenset, set)) else value
        return [to_json(v) for v in items]
    return value


def from_json(kind: Any, data: Any) -> Any:
    """Inverse of :func:`to_json`, guided by the type annotations of ``kind``.

    Handles dataclasses, ``tuple[X, ...]``, ``tuple[X, Y]``, ``frozenset[X]``, ``list[X]``,
    ``dict[str, X]``, ``X | None``, enums, classes with a ``load`` classmethod, and scalars.
    """
    if typing.get_origin(kind) is not None or kind in (dict, Mapping):
        return _generic_from_json(kind, data)
    loader = getattr(kind, "load", None) if isinstance(kind, type) else None
    if callable(loader):
        return loader(data)
    if dataclasses.is_dataclass(kind) and isinstance(kind, type):
        hints = typing.get_type_hints(kind)
        return kind(**{f.name: from_json(hints[f.name], data[f.name])
                       for f in dataclasses.fields(kind) if f.init and f.name in data})
    if isinstance(kind, type) and issubclass(kind, enum.Enum):
        return kind(data)
    return data


def _generic_from_json(kind: Any, data: Any) -> Any:
    """:func:`from_json` for parametrised types: unions, tuples, sets, lists, mappings."""
    origin, args = typing.get_origin(kind), typing.get_args(kind)
    if origin in (typing.Union, types.UnionType):
        rest = [a for a in args if a is not type(None)]
        if data is None and len(rest) < len(args):
            return None
        return from_json(rest[0], data) if len(rest) == 1 else data  # a union of scalars stays as JSON has it
    if origin is tuple:
        if len(args) == 2 and args[1] is Ellipsis:
            return tuple(from_json(args[0], v) for v in data)
        return tuple(from_json(a, v) for a, v in zip(args, data, strict=True))
    if origin in (frozenset, set, list):
        return origin(from_json(args[0], v) for v in data)
    return {k: from_json(args[1], v) if args else v for k, v in data.items()}


class DataclassCodec:
    """``dump``/``load`` of a frozen-dataclass state type (``load(dump(s)) == s``)."""

    def __init__(self, kind: type) -> None:
        if not dataclasses.is_dataclass(kind):
            raise RulesetDefinitionError(f"{kind.__name__} is not a dataclass")
        self.kind = kind

    def dump(self, state: Any) -> dict[str, Any]:
        out = to_json(state)
        assert isinstance(out, dict)
        return out

    def load(self, data: Mapping[str, Any]) -> Any:
        return from_json(self.kind, data)


class Assembled:
    """A complete ruleset object made of parts (see the module docstring).

    Required: ``info``, ``steps``, ``setup``, ``view``, ``order_form``, ``outcome``, ``bot_orders``,
    and either ``verbs`` or ``check_orders``, and either ``state_type`` or ``dump`` and ``load``.
    """

    def __init__(self, *, info: RulesetInfo, steps: Steps[Any, Any],
                 setup: Callable[[str, Mapping[str, Any], Dice], Any],
                 view: Callable[[Any, str], View], order_form: Callable[[View, str], str],
                 outcome: Callable[[Any], Outcome | None], bot_orders: Callable[[View, str, Dice], str],
                 verbs: VerbTable | None = None,
                 check_orders: Callable[[View, str, Sequence[OrderLine]], Checked] | None = None,
                 state_type: type | None = None, dump: Callable[[Any], dict[str, Any]] | None = None,
                 load: Callable[[Mapping[str, Any]], Any] | None = None,
                 seats: Callable[[Any], tuple[Seat, ...]] | None = None,
                 picture: Callable[[View], Picture | None] | None = None,
                 carryover: Carryover | None = None) -> None:
        if (verbs is None) == (check_orders is None):
            raise RulesetDefinitionError(f"{info.name}: give either verbs or check_orders")
        if state_type is None and (dump is None or load is None):
            raise RulesetDefinitionError(f"{info.name}: give state_type, or both dump and load")
        codec = DataclassCodec(state_type) if state_type is not None else None
        self.info = info
        self.steps = steps
        self.verbs = verbs
        self._setup, self._view, self._form, self._outcome, self._bot = setup, view, order_form, outcome, bot_orders
        self._check = check_orders
        self._dump = dump or (codec.dump if codec else None)
        self._load = load or (codec.load if codec else None)
        self._seats = seats or seats_from_sides(info)
        self._picture = picture
        self.carryover = carryover  # what carries over into a campaign's next game (None: no campaigns)

    def setup(self, scenario: str, options: Mapping[str, Any], dice: Dice) -> Any:
        self.info.scenario(scenario)
        return self._setup(scenario, options, dice)

    def seats(self, state: Any) -> tuple[Seat, ...]:
        return tuple(self._seats(state))

    def phase(self, state: Any) -> Phase | None:
        return self.steps.phase(state)

    def view(self, state: Any, seat: str) -> View:
        return self._view(state, seat)

    def order_form(self, view: View, seat: str) -> str:
        return self._form(view, seat)

    def check_orders(self, view: View, seat: str, lines: Sequence[OrderLine]) -> Checked:
        if self._check is not None:
            return self._check(view, seat, lines)
        assert self.verbs is not None
        return self.verbs.check_lines(view, seat, lines)

    def default_orders(self, state: Any, seat: str) -> Any:
        return self.steps.default_orders(state, seat)

    def resolve(self, state: Any, orders: Mapping[str, Any], dice: Dice) -> Resolution:
        return self.steps.resolve(state, orders, dice)

    def outcome(self, state: Any) -> Outcome | None:
        return self._outcome(state)

    def dump(self, state: Any) -> dict[str, Any]:
        assert self._dump is not None
        return self._dump(state)

    def load(self, data: Mapping[str, Any]) -> Any:
        assert self._load is not None
        return self._load(data)

    def picture(self, view: View) -> Picture | None:
        return self._picture(view) if self._picture is not None else None

    def bot_orders(self, view: View, seat: str, dice: Dice) -> str:
        return self._bot(view, seat, dice)
