"""Standing orders: a per-seat store of orders given ahead, consulted during resolution.

A standing order is kept under a *key* saying what it covers ("ON_HIT",
"ON_SHADOW bismarck"); a new order with the same key replaces the old one,
``CANCEL <key>`` removes it.  The store is part of the kit's
:class:`~pbem.core.flow.Flow`, so it is carried in the game state; any phase's
orders may change it (the kit applies the changes before the step's resolve
function runs and reports them to the seat).  :meth:`Standing.listing` gives
the lines every order form and view shows, so a player sees what is in force.

An order value becomes a standing-order change by having a
``standing_change()`` method (:class:`StandingChange`).

This store is the plain one: per seat, one text per key.  A game that needs orders
shared by a side, ordered groups replaced whole, defaults shown as in force or its own
change notice declares them in :class:`pbem.core.standing_rules.StandingRules` (given
to its step table); the rows stay in this store (a side's under the side's name).
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol, runtime_checkable

from .errors import IllegalOrderError, OrderSyntaxError
from .texts import t_


@dataclass(frozen=True)
class StandingOrder:
    """One order in force: the seat that gave it, what it covers and its canonical order text."""

    seat: str
    key: str
    text: str

    @property
    def words(self) -> tuple[str, ...]:
        return tuple(self.text.split())


@runtime_checkable
class StandingChange(Protocol):
    """An order that sets or cancels a standing order.

    ``standing_change()`` returns ``(key, text)`` to keep ``text`` under ``key``,
    or ``(key, None)`` to cancel what is kept under ``key``.
    """

    def standing_change(self) -> tuple[str, str | None]: ...


@dataclass(frozen=True)
class Cancel:
    """The kit's ``CANCEL <key>`` order (see :func:`parse_cancel`)."""

    key: str

    def text(self) -> str:
        return f"CANCEL {self.key}"

    def standing_change(self) -> tuple[str, str | None]:
        return self.key, None


def parse_cancel(args: Sequence[str], view: Mapping[str, Any], seat: str) -> Cancel:
    """Parse the words after CANCEL.  When the view lists the seat's standing orders
    (``view["standing"]``, as :meth:`Standing.view_of` builds it), the key must be one of them."""
    if not args:
        raise OrderSyntaxError("CANCEL needs the key of a standing order, e.g. CANCEL ON_HIT")
    key = " ".join(args)
    listed = view.get("standing")
    if listed is not None:
        keys = {row["key"].upper(): row["key"] for row in listed}
        if key.upper() not in keys:
            known = ", ".join(sorted(keys.values())) or "none"
            raise IllegalOrderError(t_("no standing order %(key)s is in force (in force: %(known)s)", key=key, known=known))
        key = keys[key.upper()]
    return Cancel(key)


def form_comment(rows: Sequence[str]) -> str:
    """Order lines in force as order-form comment lines."""
    if not rows:
        return "# Standing orders in force: none\n"
    return "# Standing orders in force (CANCEL <key> removes one):\n" + "".join(f"#   {r}\n" for r in rows)


@dataclass(frozen=True)
class Standing:
    """The store of every seat's standing orders, in the order they were first given."""

    orders: tuple[StandingOrder, ...] = ()

    def of(self, seat: str) -> tuple[StandingOrder, ...]:
        return tuple(o for o in self.orders if o.seat == seat)

    def get(self, seat: str, key: str) -> StandingOrder | None:
        for o in self.orders:
            if o.seat == seat and o.key == key:
                return o
        return None

    def set(self, seat: str, key: str, text: str) -> tuple[Standing, str | None]:
        """Keep ``text`` under ``key`` for ``seat``; return the new store and a note for the seat
        (None when nothing changed)."""
        old = self.get(seat, key)
        new = StandingOrder(seat, key, text)
        if old is None:
            return Standing(self.orders + (new,)), t_("standing order %(after)s is now in force", after=text)
        if old == new:
            return self, None
        rows = tuple(new if o is old else o for o in self.orders)
        return Standing(rows), t_("standing order %(after)s replaces %(before)s", after=text, before=old.text)

    def cancel(self, seat: str, key: str) -> tuple[Standing, str | None]:
        """Remove what ``seat`` keeps under ``key``; return the new store and a note for the seat
        (None when nothing was in force)."""
        old = self.get(seat, key)
        if old is None:
            return self, None
        return Standing(tuple(o for o in self.orders if o is not old)), t_("standing order %(before)s is cancelled", before=old.text)

    def change(self, seat: str, change: StandingChange) -> tuple[Standing, str | None]:
        """Apply one set-or-cancel order; the note is None when the store did not change."""
        key, text = change.standing_change()
        return self.cancel(seat, key) if text is None else self.set(seat, key, text)

    def listing(self, seat: str) -> list[str]:
        """The seat's orders in force as order lines, for forms and sitreps."""
        return [o.text for o in self.of(seat)]

    def view_of(self, seat: str) -> list[dict[str, str]]:
        """The seat's orders in force as JSON for its view (``view["standing"]``)."""
        return [{"key": o.key, "text": o.text} for o in self.of(seat)]

    def form_lines(self, seat: str) -> str:
        """Order-form comment lines listing the orders in force (comments: sending the form back
        changes nothing)."""
        return form_comment(self.listing(seat))

    def dump(self) -> list[list[str]]:
        return [[o.seat, o.key, o.text] for o in self.orders]

    @classmethod
    def load(cls, data: Sequence[Sequence[str]]) -> Standing:
        return cls(tuple(StandingOrder(seat, key, text) for seat, key, text in data))
