"""What a game declares about its standing orders: scope, ordered groups, defaults, wording.

The plain :class:`~pbem.core.standing.Standing` store keeps one text per (seat, key) and
knows nothing of the game.  A game that needs more declares its keys as
:class:`StandingKind` values in a :class:`StandingRules` and gives it to its step table
(``Steps(..., standing=RULES)``); the kit then applies, reads and lists standing orders
through it:

- **scope**: a ``side=True`` kind is shared by the whole side: any seat of the side may
  change it, the last change wins, and it is kept under the side's name instead of a seat's;
- **groups**: a ``group=True`` kind is an ordered list (first match wins is the game's
  reading): the first line of that key in one seat's file replaces the whole list, the
  following lines of the same file are appended in order, and a cancel empties it;
- **defaults**: what is in force when nobody set a key; listed like any other order, so
  a form shows everything that applies;
- **wording**: ``notice(seat, changes)`` is the game's own change notice (None: nothing said).

A key belongs to the kind whose name is the key or its first word ("ON_PURSUIT c1" is of
the kind "ON_PURSUIT").  Undeclared keys behave as the plain store does, so
``StandingRules()`` is exactly today's behaviour.
"""
from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field

from .errors import RulesetDefinitionError
from .standing import Standing, StandingChange, StandingOrder, form_comment
from .texts import join, t_


@dataclass(frozen=True)
class StandingKind:
    """One declared kind of standing order.

    :param default: the text in force under the key ``name`` when nobody set it, or a mapping
        key -> text for keys with more words (``{"ON_PURSUIT ALL": "ON_PURSUIT ALL ASK"}``).
    """

    name: str
    side: bool = False
    group: bool = False
    default: str | Mapping[str, str] | None = None
    defaults: tuple[tuple[str, str], ...] = field(init=False, repr=False)

    def __post_init__(self) -> None:
        d = self.default
        pairs = () if d is None else ((self.name, d),) if isinstance(d, str) else tuple(d.items())
        object.__setattr__(self, "defaults", pairs)

    def covers(self, key: str) -> bool:
        return key == self.name or key.startswith(self.name + " ")


@dataclass(frozen=True)
class Change:
    """What one standing-order line of a seat's file did: the texts under ``key`` before and after."""

    order: StandingChange
    key: str
    before: tuple[str, ...]
    after: tuple[str, ...]

    @property
    def changed(self) -> bool:
        return self.before != self.after


#: ``notice(seat, changes)``: the text told to the seat about its file's standing orders, or None.
Notice = Callable[[str, Sequence[Change]], "str | None"]


def plain_notice(seat: str, changes: Sequence[Change]) -> str | None:
    """The kit's wording: one note per change, none when nothing changed."""
    notes = [_note(c) for c in changes if c.changed]
    return join("; ", notes) if notes else None


def _note(c: Change) -> str:
    """One change in the reader's language (pbem.core.texts); the order lines themselves stay as written."""
    after, before = "; ".join(c.after), "; ".join(c.before)
    if not c.after:
        return t_("standing order %(before)s is cancelled", before=before)
    if not c.before:
        return t_("standing order %(after)s is now in force", after=after)
    return t_("standing order %(after)s replaces %(before)s", after=after, before=before)


class StandingRules:
    """A game's declared standing-order kinds and change notice (see the module docstring).

    :raises RulesetDefinitionError: a kind declared twice, a kind whose name is a key of another kind
        (which of the two rules it would depend on the order of declaration), or a default for a key
        its kind does not cover (it would never be in force).
    """

    def __init__(self, kinds: Sequence[StandingKind] = (), *, notice: Notice = plain_notice) -> None:
        names = [k.name for k in kinds]
        if len(set(names)) != len(names):
            raise RulesetDefinitionError(f"standing-order kinds repeated: {names}")
        for kind in kinds:
            wider = [k.name for k in kinds if k is not kind and k.covers(kind.name)]
            if wider:
                raise RulesetDefinitionError(f"standing-order kind {kind.name!r} is a key of the kind {wider[0]!r}")
            stray = [key for key, _ in kind.defaults if not kind.covers(key)]
            if stray:
                raise RulesetDefinitionError(f"standing-order kind {kind.name!r}: a default for {stray[0]!r}, "
                                             "a key of another kind")
        self.kinds = tuple(kinds)
        self.notice = notice

    def kind_of(self, key: str) -> StandingKind | None:
        return next((k for k in self.kinds if k.covers(key)), None)

    def owner(self, key: str, seat: str, side: str) -> str:
        """Whose store row holds ``key`` for ``seat``: the side's for a side kind, else the seat's."""
        kind = self.kind_of(key)
        return side if kind is not None and kind.side else seat

    # ---------------------------------------------------------------- changing
    def apply(self, store: Standing, seat: str, side: str,
              orders: Sequence[StandingChange]) -> tuple[Standing, list[Change]]:
        """Apply one seat's file of changes in order; a group is replaced by the file's lines."""
        changes, touched = [], set()
        for order in orders:
            key, text = order.standing_change()
            kind, who = self.kind_of(key), self.owner(key, seat, side)
            before = self._texts(store, who, key)
            if kind is not None and kind.group:
                if key not in touched:
                    store = _without(store, who, key)
                    touched.add(key)
                if text is not None:
                    store = Standing(store.orders + (StandingOrder(who, key, text),))
            else:
                store = store.cancel(who, key)[0] if text is None else store.set(who, key, text)[0]
            changes.append(Change(order, key, before, self._texts(store, who, key)))
        return store, changes

    # ---------------------------------------------------------------- reading
    def group(self, store: Standing, seat: str, side: str, key: str) -> tuple[str, ...]:
        """Every text in force under ``key`` (a group's in order); the default when nobody set it
        (cancelling a key, or emptying a group, brings its default back)."""
        texts = self._texts(store, self.owner(key, seat, side), key)
        if texts:
            return texts
        kind = self.kind_of(key)
        return tuple(t for k, t in (kind.defaults if kind else ()) if k == key)

    def get(self, store: Standing, seat: str, side: str, key: str) -> StandingOrder | None:
        """The one order in force under ``key`` (a group's first), its default if nobody set it."""
        texts = self.group(store, seat, side, key)
        return StandingOrder(self.owner(key, seat, side), key, texts[0]) if texts else None

    def in_force(self, store: Standing, seat: str, side: str) -> tuple[StandingOrder, ...]:
        """What applies to ``seat``: declared kinds in declared order (their keys sorted, defaults
        filled in), then the seat's undeclared keys in the order they were first given."""
        out: list[StandingOrder] = []
        for kind in self.kinds:
            who = side if kind.side else seat
            keys = {o.key for o in store.orders if o.seat == who and kind.covers(o.key)}
            keys |= {k for k, _ in kind.defaults}
            for key in sorted(keys):
                out += [StandingOrder(who, key, t) for t in self.group(store, seat, side, key)]
        out += [o for o in store.of(seat) if self.kind_of(o.key) is None]
        return tuple(out)

    def listing(self, store: Standing, seat: str, side: str) -> list[str]:
        """The order lines in force for ``seat``, for forms and sitreps."""
        return [o.text for o in self.in_force(store, seat, side)]

    def view_of(self, store: Standing, seat: str, side: str) -> list[dict[str, str]]:
        """The orders in force as JSON for the seat's view (``view["standing"]``)."""
        return [{"key": o.key, "text": o.text} for o in self.in_force(store, seat, side)]

    def form_lines(self, store: Standing, seat: str, side: str) -> str:
        """Order-form comment lines listing what is in force for ``seat``, defaults included."""
        return form_comment(self.listing(store, seat, side))

    @staticmethod
    def _texts(store: Standing, who: str, key: str) -> tuple[str, ...]:
        return tuple(o.text for o in store.orders if o.seat == who and o.key == key)


def _without(store: Standing, who: str, key: str) -> Standing:
    return Standing(tuple(o for o in store.orders if not (o.seat == who and o.key == key)))


PLAIN = StandingRules()

__all__ = ["Change", "Notice", "PLAIN", "StandingKind", "StandingRules", "plain_notice"]
