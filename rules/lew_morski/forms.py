"""The blank order form for a seat's next phase [digest 11]: one part per kind of phase, then the
standing orders in force.  An unchanged form is a valid order file."""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from . import planning
from .orders import WORDS, policy_words

View = Mapping[str, Any]


def order_form(view: View, seat: str) -> str:
    kind = view["phase"]["kind"] if view["phase"]["mine"] else "none"
    out = [f"# Lew Morski, {view['scenario_title']}; stage {view['stage']}: {view['phase']['title']}",
           "# One order per line; lines starting with # are ignored."]
    out += {"setup": setup_part, "move": move_part, "react": react_part}.get(kind, lambda v: [])(view)
    out += standing_part(view)
    if not any(line and not line.startswith("#") for line in out):
        out.append("PASS")  # an unchanged form is a valid order file
    return "\n".join(out) + "\n"


def setup_part(view: View) -> list[str]:
    """Each aircraft and gun at its default place [R 9.3, 6.0]."""
    out = ["# PLACE <aircraft> <hex> <facing>   within the start area, all aircraft high [R 9.3]"]
    for a in view["own"]:
        out.append(f"# PLACE {a['id']} {a['hex']} {a['facing']}   (default; area {a.get('start_centre', '')} "
                   f"radius {a.get('start_radius', '')})")
    if view["own_guns"]:
        out.append("# AA <gun> <hex>   land hex, no river or cloud, one gun per hex [R 6.0]")
        out += [f"# AA {g['id']} {g['hex']}   (default)" for g in view["own_guns"]]
    return out


def move_part(view: View) -> list[str]:
    """A legal default move per aircraft, in an order that keeps it legal, with the best shots shown [R 4, 5]."""
    out = ["# MOVE <aircraft> [CLIMB|DIVE] <path>   path of F with at most one L or R [R 4]; "
           "the order of MOVE lines is the order of movement",
           "# FIRE <aircraft> [AT <target>]   BOMB <aircraft> <hex> ...   UNJAM <aircraft>"
           + ("   WITHDRAW <aircraft>" if view["side"] == "de" else "   AAFIRE <gun> <target>")]
    for a, c in planning.plan(view, planning.movers(view), planning.default_choice):
        out += aircraft_lines(a)
        out.append(planning.line(a, c))
    for g in view["own_guns"]:
        out += [f"# AAFIRE {g['id']} {t['target']}   (hits on {_rng(t['range'])}) [R 6.1]"
                for t in g.get("in_range", []) if t["range"] and not g["fired"]]
    return out


def aircraft_lines(a: Mapping[str, Any]) -> list[str]:
    """An aircraft's counter and its three most likely hits."""
    st = a["stats"]
    head = f"# {a['id']} at {a['hex'] or a['entry']['hex']} {a['facing']} {a['alt'].lower()}, speed " \
           f"{st['min_speed']}-{st['max_speed']}, manoeuvrability {st['manoeuvrability']}"
    if a.get("entry"):
        head += f"; enters at {a['entry']['hex']} (ENTER {a['id']} <hex> <facing>)"
    shots = sorted((m for m in a["moves"] if m["shot"]), key=lambda m: -m["shot"]["chance"])
    return [head] + [f"#   MOVE {a['id']} {'' if m['change'] == 'none' else m['change'].upper() + ' '}{m['path']} -> "
                     f"{m['end']} {m['facing']}: fire at {m['shot']['target']} at {m['shot']['dist']}, strength "
                     f"{m['shot']['strength']}, hits on {_rng(m['shot']['range'])}" for m in shots[:3]]


def react_part(view: View) -> list[str]:
    """Each asked aircraft with its shot, answered FIRE [R 5.4]."""
    out = ["# REACT <aircraft> FIRE|HOLD   (silence holds fire) [R 5.4]"]
    for x in view["ask"]:
        out.append(f"# {x['ac']}: {x['target']} at distance {x['dist']}, strength {x['strength']}, "
                   f"hits on {_rng(x['range'])}")
        out.append(f"REACT {x['ac']} FIRE")
    return out


def standing_part(view: View) -> list[str]:
    out = ["# Standing orders in force (REACT ALWAYS|NEVER|ASK|IF BOMBER|IF STRENGTH>=k, RETURNFIRE YES|NO"
           + (", AA AUTO|BOMBERS|HOLD" if view["side"] == "gb" else "") + "):"]
    return out + [f"# {WORDS[k]} {unit} {policy_words(v)}" for unit, k, v in view["policies"]]


def _rng(r: list[int]) -> str:
    return f"{r[0]}-{r[1]}" if r else "nothing"
