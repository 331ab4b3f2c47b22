"""The blank order form for a seat's next phase [digest 11]."""
from __future__ import annotations

from typing import Any
from collections.abc import Mapping

from . import planning


def order_form(view: Mapping[str, Any], seat: str) -> str:
    kind = view["phase"]["kind"] if view["phase"]["mine"] else "none"
    out = [f"# Lew Morski, {view['scenario_title']}; stage {view['stage']}: {view['phase']['title']}",
           "# One order per line; lines starting with # are ignored."]
    if kind == "setup":
        out.append("# PLACE <aircraft> <hex> <facing>   within the start area, all aircraft high [R 9.3]")
        for a in view["own"]:
            out.append(f"# PLACE {a['id']} {a['hex']} {a['facing']}   (default; area {a.get('start_centre', '')} "
                       f"radius {a.get('start_radius', '')})")
        if view["own_guns"]:
            out.append("# AA <gun> <hex>   land hex, no river or cloud, one gun per hex [R 6.0]")
            for g in view["own_guns"]:
                out.append(f"# AA {g['id']} {g['hex']}   (default)")
    elif kind == "move":
        out.append("# MOVE <aircraft> [CLIMB|DIVE] <path>   path of F with at most one L or R [R 4]; "
                   "the order of MOVE lines is the order of movement")
        out.append("# FIRE <aircraft> [AT <target>]   BOMB <aircraft> <hex> ...   UNJAM <aircraft>"
                   + ("   WITHDRAW <aircraft>" if view["side"] == "de" else "   AAFIRE <gun> <target>"))
        for a, c in planning.plan(view, planning.movers(view), planning.default_choice):
            st = a["stats"]
            head = f"# {a['id']} at {a['hex'] or a['entry']['hex']} {a['facing']} {a['alt'].lower()}, speed " \
                   f"{st['min_speed']}-{st['max_speed']}, manoeuvrability {st['manoeuvrability']}"
            if a.get("entry"):
                head += f"; enters at {a['entry']['hex']} (ENTER {a['id']} <hex> <facing>)"
            out.append(head)
            shots = [m for m in a["moves"] if m["shot"]]
            shots.sort(key=lambda m: -m["shot"]["chance"])
            for m in shots[:3]:
                alt = "" if m["change"] == "none" else m["change"].upper() + " "
                out.append(f"#   MOVE {a['id']} {alt}{m['path']} -> {m['end']} {m['facing']}: fire at "
                           f"{m['shot']['target']} at {m['shot']['dist']}, strength {m['shot']['strength']}, "
                           f"hits on {_rng(m['shot']['range'])}")
            out.append(planning.line(a, c))
        for g in view["own_guns"]:
            for t in g.get("in_range", []):
                if t["range"] and not g["fired"]:
                    out.append(f"# AAFIRE {g['id']} {t['target']}   (hits on {_rng(t['range'])}) [R 6.1]")
    elif kind == "react":
        out.append("# REACT <aircraft> FIRE|HOLD   (silence holds fire) [R 5.4]")
        for x in view["ask"]:
            out.append(f"# {x['ac']}: {x['target']} at distance {x['dist']}, strength {x['strength']}, "
                       f"hits on {_rng(x['range'])}")
            out.append(f"REACT {x['ac']} FIRE")
    out.append("# Standing orders in force (REACT ALWAYS|NEVER|ASK|IF BOMBER|IF STRENGTH>=k, RETURNFIRE YES|NO"
               + (", AA AUTO|BOMBERS|HOLD" if view["side"] == "gb" else "") + "):")
    for unit, k, v in view["policies"]:
        word = {"react": "REACT", "return": "RETURNFIRE", "aa": "AA"}[k]
        v = {"BOMBER": "IF BOMBER"}.get(v, v)
        if v.startswith("STRENGTH:"):
            v = "IF STRENGTH>=" + v.split(":")[1]
        out.append(f"# {word} {unit} {v}")
    if not any(line and not line.startswith("#") for line in out):
        out.append("PASS")  # an unchanged form is a valid order file
    return "\n".join(out) + "\n"


def _rng(r: list[int]) -> str:
    return f"{r[0]}-{r[1]}" if r else "nothing"
