"""Words the reports, refusals and forms put into their sentences, marked for translation: an altitude, an
altitude change, a board edge, "none".  Order keywords (HIGH, DIVE) stay as they are; these are the lower-case
words a sentence reads."""
from __future__ import annotations

from pbem.core.texts import t_

ALT = {"HIGH": t_("high"), "LOW": t_("low"), "VLOW": t_("vlow")}
CHANGE = {"dive": t_("dive"), "climb": t_("climb")}
EDGE = {"north": t_("north"), "south": t_("south"), "east": t_("east"), "west": t_("west")}
NONE = t_("none")


def alt_word(alt: str) -> str:
    """An altitude (HIGH, LOW, VLOW) as a sentence says it: high, low, vlow."""
    return ALT.get(alt, alt.lower())


def edge_word(edge: str) -> str:
    return EDGE.get(edge, edge)
