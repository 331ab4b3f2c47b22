"""The blank order form for a seat's next phase [digest 11]: one part per kind of phase, then the
standing orders in force.  An unchanged form is a valid order file."""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pbem.core.texts import join, t_

from . import planning
from .words import alt_word
from .orders import WORDS, policy_words

View = Mapping[str, Any]


def order_form(view: View, seat: str) -> str:
    kind = view["phase"]["kind"] if view["phase"]["mine"] else "none"
    out = [t_("# Lew Morski, %(scenario)s; stage %(n)s: %(title)s", scenario=view["scenario_title"], n=view["stage"],
              title=view["phase"]["title"]),
           t_("# One order per line; lines starting with # are ignored.")]
    out += {"setup": setup_part, "move": move_part, "react": react_part}.get(kind, lambda v: [])(view)
    out += standing_part(view)
    if not any(line and not line.startswith("#") for line in out):
        out.append("PASS")  # an unchanged form is a valid order file
    return join("\n", [*out, ""])


def setup_part(view: View) -> list[str]:
    """Each aircraft and gun at its default place [R 9.3, 6.0]."""
    out = [t_("# PLACE <aircraft> <hex> <facing>   within the start area, all aircraft high [R 9.3]")]
    for a in view["own"]:
        out.append(t_("# PLACE %(ac)s %(hex)s %(facing)s   (default; area %(centre)s radius %(radius)s)", ac=a["id"],
                      hex=a["hex"], facing=a["facing"], centre=a.get("start_centre", ""), radius=a.get("start_radius", "")))
    if view["own_guns"]:
        out.append(t_("# AA <gun> <hex>   land hex, no river or cloud, one gun per hex [R 6.0]"))
        out += [t_("# AA %(gun)s %(hex)s   (default)", gun=g["id"], hex=g["hex"]) for g in view["own_guns"]]
    return out


def move_part(view: View) -> list[str]:
    """A legal default move per aircraft, in an order that keeps it legal, with the best shots shown [R 4, 5]."""
    out = [t_("# MOVE <aircraft> [CLIMB|DIVE] <path>   path of F with at most one L or R [R 4]; "
              "the order of MOVE lines is the order of movement"),
           t_("# FIRE <aircraft> [AT <target>]   BOMB <aircraft> <hex> ...   UNJAM <aircraft>   WITHDRAW <aircraft>")
           if view["side"] == "de" else
           t_("# FIRE <aircraft> [AT <target>]   BOMB <aircraft> <hex> ...   UNJAM <aircraft>   AAFIRE <gun> <target>")]
    for a, c in planning.plan(view, planning.movers(view), planning.default_choice):
        out += aircraft_lines(a)
        out.append(planning.line(a, c))
    for g in view["own_guns"]:
        out += [t_("# AAFIRE %(gun)s %(target)s   (hits on %(range)s) [R 6.1]", gun=g["id"], target=t["target"],
                   range=_rng(t["range"]))
                for t in g.get("in_range", []) if t["range"] and not g["fired"]]
    return out


def aircraft_lines(a: Mapping[str, Any]) -> list[str]:
    """An aircraft's counter and its three most likely hits."""
    st = a["stats"]
    args = {"ac": a["id"], "hex": a["hex"] or a["entry"]["hex"], "facing": a["facing"], "alt": alt_word(a["alt"]),
            "lo": st["min_speed"], "hi": st["max_speed"], "m": st["manoeuvrability"]}
    head = t_("# %(ac)s at %(hex)s %(facing)s %(alt)s, speed %(lo)s-%(hi)s, manoeuvrability %(m)s", **args)
    if a.get("entry"):
        head = t_("# %(ac)s at %(hex)s %(facing)s %(alt)s, speed %(lo)s-%(hi)s, manoeuvrability %(m)s; enters at "
                  "%(entry)s (ENTER %(ac)s <hex> <facing>)", entry=a["entry"]["hex"], **args)
    shots = sorted((m for m in a["moves"] if m["shot"]), key=lambda m: -m["shot"]["chance"])
    return [head] + [t_("#   %(move)s -> %(end)s %(facing)s: fire at %(target)s at %(dist)s, strength %(strength)s, "
                        "hits on %(range)s",
                        move=f"MOVE {a['id']} {'' if m['change'] == 'none' else m['change'].upper() + ' '}{m['path']}",
                        end=m["end"], facing=m["facing"], target=m["shot"]["target"], dist=m["shot"]["dist"],
                        strength=m["shot"]["strength"], range=_rng(m["shot"]["range"])) for m in shots[:3]]


def react_part(view: View) -> list[str]:
    """Each asked aircraft with its shot, answered FIRE [R 5.4]."""
    out = [t_("# REACT <aircraft> FIRE|HOLD   (silence holds fire) [R 5.4]")]
    for x in view["ask"]:
        out.append(t_("# %(ac)s: %(target)s at distance %(dist)s, strength %(strength)s, hits on %(range)s",
                      ac=x["ac"], target=x["target"], dist=x["dist"], strength=x["strength"], range=_rng(x["range"])))
        out.append(f"REACT {x['ac']} FIRE")
    return out


def standing_part(view: View) -> list[str]:
    out = [t_("# Standing orders in force (%(orders)s):", orders="REACT ALWAYS|NEVER|ASK|IF BOMBER|IF STRENGTH>=k, "
              "RETURNFIRE YES|NO" + (", AA AUTO|BOMBERS|HOLD" if view["side"] == "gb" else ""))]
    return out + [f"# {WORDS[k]} {unit} {policy_words(v)}" for unit, k, v in view["policies"]]


def _rng(r: list[int]) -> str:
    return f"{r[0]}-{r[1]}" if r else t_("nothing")
