"""What a scenario may declare that the rulebook gives no effect to, said to the players rather than
silently ignored: Rigid doctrine [5.1] (its effect sits on the lost Air Combat Table) and contrails [4.4]
(no effect is stated anywhere in the rulebook)."""
from __future__ import annotations

from .tables import scenario


def notes(name: str) -> list[str]:
    """One line per declared rule without an effect in this game."""
    s = scenario(name)
    found = [f"Rigid doctrine for {side} (5.1): the rulebook puts its effect on the lost Air Combat Table; "
             f"played as Loose" for side, kind in sorted(s.get("doctrine", {}).items()) if kind == "rigid"]
    if "contrail" in s:
        found.append(f"Contrails from altitude {s['contrail']} (4.4): the rulebook states no effect; shown only")
    return found
