"""The game's own words that reach a player as values (sides, altitudes, what a beat did): each marked
once here, so the catalogs carry them, and written through :func:`word` in the reader's language."""
from __future__ import annotations

from pbem.core.texts import Text, t_

#: every value :func:`word` is given, marked (Babel extracts the literals; the order is of no account)
WORDS: tuple[Text, ...] = (
    # the sides [L17]
    t_("coalition"), t_("axis"),
    # the altitude fields [L27]
    t_("high"), t_("medium"), t_("low"),
    # the ground objects [L71]
    t_("command post"), t_("dispatch post"), t_("AA battery"),
    # what a decision is, in a phase's title
    t_("set-up"), t_("deployment"), t_("activation"), t_("turn"), t_("plan"), t_("reaction"), t_("pursuit"),
    # what a manoeuvre does and what a malfunction stops [L164, L196]
    t_("change position"), t_("enemy descend"), t_("flank swap"), t_("neutral"), t_("self climb"),
    t_("self descend"), t_("engine"), t_("jam"), t_("leak"),
    # how a beat ended [L241]
    t_("succeeds"), t_("is cancelled"),
)
_KNOWN = frozenset(WORDS)


def word(value: str) -> str:
    """``value`` as a marked text if it is one of :data:`WORDS` (to be translated), else as it is."""
    return t_(value) if value in _KNOWN else value
