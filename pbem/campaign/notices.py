"""What a seat is mailed when a campaign's administrative step opens: the game's result for every side, its own
roster, recoveries, replacement points and the next game's cap, and what it may order [campaign §C3-C6]."""
from __future__ import annotations

from typing import Any

from .definition import Definition
from .standing import Standing, side_of


def admin_step_text(c: Any, st: Standing, defn: Definition, res: dict[str, Any], seat: str, side: str,
                    form: str) -> str:
    """The mail's text; the form itself goes with it as orders.txt.  Only the seat's own side is named in
    detail: the other sides' rosters stay hidden, as in the sitreps."""
    own = side_of(st, side)
    levels = ", ".join(f"{k} {v.replace('_', ' ')}" for k, v in sorted(res["levels"].items()))
    vp = ", ".join(f"{k} {v['vp']}" for k, v in sorted(st["sides"].items()))
    slot = defn.slot(st["slot"])
    cap = slot.cap.get(side)
    roster = "\n".join(f"  {u['name']:<16} {u['kind']:<14} {u['status']:<9} xp {u['xp']}"
                       + (f" {u['rank']}" if u["rank"] else "") for u in own["units"]) or "  (none)"
    return (f"Campaign {c.title} ({c.id}) — game {st['index']} ({res['game']}) is over: {res['outcome']}\n"
            f"Outcome levels: {levels}. Campaign VP: {vp}.\n\n"
            f"The administrative step before game {st['index'] + 1}, {slot.title}, is open. Your side {side}:\n"
            f"{roster}\n\n"
            f"Recoveries you may make: {own['recovery']} [campaign §C3]. Replacement points: "
            f"{own['replacements']} [§C4]. Promotion: {defn.promotion_xp} experience a rank "
            f"({', '.join(defn.ranks) or 'no ranks in this campaign'}) [§C5]. The next game takes "
            f"{f'at most {cap} of your units' if cap else 'every unit you choose'} [§C6].\n\n"
            "You may order RECOVER, REPLACE, PROMOTE and CHOOSE: fill in the attached orders.txt, sign it "
            "(pbem sign orders.txt --key KEY) and send it back. You are answered at once; a later signed file "
            "replaces the earlier one. There is no deadline: the GM starts the next game when the sides are "
            "ready; with no file, your roster goes on as it is and every fit or damaged unit is chosen up to "
            "the cap.\n")
