"""Victory [4]: German VP as one net total, and the level of victory."""
from __future__ import annotations

from pbem.core.texts import t_

from . import tables as T
from .model import State

END_VP = {"port-france": "port_france", "port-norway": "port_norway", "emergency-fuel": "emergency_fuel"}


def victory(state: State) -> dict:
    """German VP (one net total) and the winner."""
    convoy = sum(((val + 1) // 2) if half else val for val, half in state.convoy_vp)
    merchants = state.merchants * T.tables()["convoy_hunt"]["merchant_vp"]
    ship_vp = _ship_vp(state)
    end = _end_vp(state)
    total = convoy + merchants + ship_vp + end + state.optional_vp
    winner, level = _level(state, total)
    return {"vp": total, "convoy": convoy, "merchants": merchants, "ships": ship_vp, "end": end,
            "optional": state.optional_vp, "winner": winner, "level": level}


def _ship_vp(state: State) -> int:
    """Printed hull of big ships sunk (minor ships a fixed value), and damage to big ships afloat."""
    v = T.tables()["victory"]
    total = 0
    for x in state.ships:
        sign = 1 if x.side == "allied" else -1
        if x.status in ("sunk", "removed"):
            total += sign * (T.units()["ships"][x.id]["hull"] if x.cls in T.BIG else v["minor_sunk"])
        elif x.cls in T.BIG:
            total += sign * (x.hits // v["damage_hits_per_vp"])
    return total


def _end_vp(state: State) -> int:
    """VP for how the game ended: Bismarck in port, out of fuel, sunk, or at sea (fit or not)."""
    v = T.tables()["victory"]
    if state.ended in END_VP:
        return v[END_VP[state.ended]]
    if state.ended == "sunk":
        return 0
    b = next((x for x in state.ships if x.id == "bismarck"), None)
    if b and b.afloat and not b.hits and not b.ee and not b.rudder and b.fuel >= v["at_sea_fit_fuel"]:
        return v["at_sea_fit"]
    return v["turn_track"]


def _level(state: State, total: float) -> tuple[str, str]:
    reason = state.ended
    strategic = (reason in ("port-france", "port-norway") and len(state.capital_kills) >= 2
                 and any(k in ("hood", "king-george-v", "prince-of-wales") for k in state.capital_kills))
    if reason == "sunk":
        return "allied", t_("Allied Operational Victory (Bismarck sunk)")
    if strategic:
        return "german", t_("German Strategic Victory")
    if total >= 1:
        return "german", t_("German Operational Victory")
    return "allied", t_("Allied Operational Victory")
