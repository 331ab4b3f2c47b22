"""The game's own words that reach a player as values (statuses, results, the parts of a day): each marked
once here, so the catalogs carry them, and written through :func:`word` in the reader's language."""
from __future__ import annotations

from pbem.core.texts import Text, t_

#: every value :func:`word` is given, marked (Babel extracts the literals; the order is of no account)
WORDS: tuple[Text, ...] = (
    # ship, air unit and contact statuses [model]
    t_("sea"), t_("escort"), t_("restricted"), t_("pending"), t_("sunk"), t_("removed"), t_("ready"),
    t_("aloft"), t_("landing"), t_("refit"), t_("lost"), t_("sighted"), t_("shadowed"),
    # results of a battle [10]
    t_("won"), t_("drawn"),
    # the parts of a day and the month of the calendar [3]
    t_("night"), t_("morning"), t_("day"), t_("afternoon"), t_("evening"), t_("May"),
    # the sides
    t_("german"), t_("allied"),
    # a ship's facing and the range bands of a naval combat [10]
    t_("opening"), t_("closing"), t_("breaking"), t_("extreme"), t_("long"), t_("medium"), t_("short"),
    # where a contact marker came from
    t_("random sighting"), t_("convoy attack"), t_("setup"), t_("shadow"), t_("search"), t_("self-report"),
)
_KNOWN = frozenset(WORDS)


def word(value: str) -> str:
    """``value`` as a marked text if it is one of :data:`WORDS` (to be translated), else as it is."""
    return t_(value) if value in _KNOWN else value
