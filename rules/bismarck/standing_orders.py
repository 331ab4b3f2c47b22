"""The verbs of standing orders (reaction policies kept until replaced), one parser each [6, 9-11].

Each returns the order's canonical line, the form kept in the state and consulted during
resolution (:class:`.verbs.Policy`); a line with the same key as an earlier one replaces it.
"""
from __future__ import annotations

from pbem.core.texts import t_

import re
from collections.abc import Callable, Sequence

from pbem.core.errors import IllegalOrderError, OrderSyntaxError
from pbem.core.verbs import Verb

from . import movement as M
from .checking import TF_RE, Ctx, hex_word
from .verbs import Policy

CLASSES = ("BB", "BC", "CV", "CA", "CL", "DD", "CG", "TK")
SHADOW_FORM = "SHADOW ON|OFF or SHADOW <contact|hex> WITH <TF|ship[,ship...]> [SPLIT] or SHADOW <contact|hex> OFF"
DIVERSION_FORM = "ON_DIVERSION [<contact|hex>] FAST|SLOW|BOTH [FAST=<ship,...>]"
ON_SHADOW_FORM = "ON_SHADOW <unit> EVADE|NONE|DIVERT <fast ship>,<fast ship>"
DOCTRINE_FORM = "DOCTRINE <unit>|ALL CLOSE|STANDOFF|EVADE [TORPEDOES ON|OFF] [BREAK <hull>]"


def _choice(w: Sequence[str], opts: tuple[str, ...], rule: str) -> str:
    verb, args = w[0].upper(), [x.upper() for x in w[1:]]
    if len(args) != 1 or args[0] not in opts:
        raise OrderSyntaxError(t_('write %(verb)s %(v)s', verb=verb, v='|'.join(opts)), rule=rule)
    return f"{verb} {args[0]}"


def _choices(opts: tuple[str, ...], rule: str) -> Callable[[Ctx, Sequence[str]], str]:
    return lambda ctx, w: _choice(w, opts, rule)


# --- Shadow Phase [6] -----------------------------------------------------------------------
def on_shadow(ctx: Ctx, w: Sequence[str]) -> str:
    """ON_SHADOW <unit> EVADE|NONE|DIVERT <fast ships>: the German reaction to a shadow attempt [6]."""
    if len(w) < 3:
        raise OrderSyntaxError(t_('write %(ON_SHADOW_FORM)s', ON_SHADOW_FORM=ON_SHADOW_FORM), rule="6")
    unit = ctx.need_unit(w[1])
    act = w[2].upper()
    if act in ("EVADE", "NONE") and len(w) == 3:
        return f"ON_SHADOW {w[1].upper() if TF_RE.match(w[1].upper()) else w[1].lower()} {act}"
    if act == "DIVERT" and len(w) == 4:
        return f"ON_SHADOW {w[1].upper()} DIVERT {','.join(_fast_part(w, unit))}"
    raise OrderSyntaxError(t_('write %(ON_SHADOW_FORM)s', ON_SHADOW_FORM=ON_SHADOW_FORM), rule="6")


def _fast_part(w: Sequence[str], unit: list[dict]) -> list[str]:
    """The fast ships of a Diversion Maneuver: some, not all, and none slower than the slow part [6]."""
    if len(unit) < 2:
        raise IllegalOrderError(t_("a Diversion Maneuver needs a task force"), rule="6")
    fast = [s.lower() for s in w[3].split(",")]
    ids = {x["id"] for x in unit}
    if any(s not in ids for s in fast) or len(fast) >= len(unit):
        raise IllegalOrderError(t_('the fast part must be some, not all, ships of %(v)s (%(v2)s)', v=w[1], v2=', '.join(sorted(ids))), rule="6")
    slow = [x for x in unit if x["id"] not in fast]
    if min(M.er_now(x) for x in unit if x["id"] in fast) < max(M.er_now(x) for x in slow):
        raise IllegalOrderError(t_("the slowest ship of the fast part must be at least as fast as the "
                                "fastest ship of the slow part"), rule="6")
    return sorted(fast)


def _target(ctx: Ctx, word: str) -> str:
    """A shadow target: one of your contacts (C3) or a hex (for contacts not yet made) [6]."""
    t = word.upper()
    if t in ctx.contacts:
        return t
    if re.match(r"^C[0-9]+$", t):
        raise IllegalOrderError(t_('no contact %(t)s (contacts: %(v)s); name a contact or a hex', t=t, v=', '.join(sorted(ctx.contacts)) or t_('none')), rule="6")
    return hex_word(word)


def shadow(ctx: Ctx, w: Sequence[str]) -> str:
    """SHADOW ON|OFF | SHADOW <contact|hex> WITH <who> [SPLIT] | SHADOW <contact|hex> OFF [6]."""
    args = [x.upper() for x in w[1:]]
    if len(args) == 1:
        return _choice(w, ("ON", "OFF"), "6")
    if len(args) == 2 and args[1] == "OFF":
        return f"SHADOW {_target(ctx, w[1])} OFF"
    if len(args) not in (3, 4) or args[1] != "WITH" or (len(args) == 4 and args[3] != "SPLIT"):
        raise OrderSyntaxError(t_('write %(SHADOW_FORM)s', SHADOW_FORM=SHADOW_FORM), rule="6")
    target = _target(ctx, w[1])
    who = w[3]
    if TF_RE.match(who.upper()):
        return f"SHADOW {target} WITH {_whole_tf(ctx, who, split=len(args) == 4)}"
    ids = _named_ships(ctx, who, split=len(args) == 4)
    return f"SHADOW {target} WITH {','.join(ids)}{' SPLIT' if len(args) == 4 else ''}"


def _whole_tf(ctx: Ctx, who: str, split: bool) -> str:
    ships = ctx.need_unit(who)
    if len(ships) < 2:
        raise IllegalOrderError(t_('%(v)s is not a task force of yours', v=who.upper()), rule="6")
    if split:
        raise IllegalOrderError(t_('SPLIT detaches named ships; to shadow with the whole %(v)s leave it out', v=who.upper()),
                                rule="6")
    return who.upper()


def _named_ships(ctx: Ctx, who: str, split: bool) -> list[str]:
    """Named ships shadow; taking them from a TF needs SPLIT, and a Shadowed TF may not split [6]."""
    ships = [ctx.ship(s) for s in who.split(",")]
    ids = sorted({x["id"] for x in ships})
    for tf in sorted({x["tf"] for x in ships if x["tf"]}):
        whole = sorted(x["id"] for x in ctx.ships.values() if x["tf"] == tf)
        if set(whole) <= set(ids):
            continue
        if any(x["shadowed"] for x in ctx.ships.values() if x["tf"] == tf):
            raise IllegalOrderError(t_('%(tf)s is Shadowed and may not split to shadow: name %(tf)s', tf=tf), rule="6")
        if not split:
            raise IllegalOrderError(t_('%(v)s sail in %(tf)s (%(v2)s): add SPLIT to detach them for the attempt, or name %(tf)s', v=', '.join(i for i in ids if ctx.ships[i]['tf'] == tf), tf=tf, v2=', '.join(whole)),
                                    rule="6")
    return ids


def on_diversion(ctx: Ctx, w: Sequence[str]) -> str:
    """ON_DIVERSION [<contact|hex>] FAST|SLOW|BOTH [FAST=<ship,...>] [6]."""
    args = [x.upper() for x in w[1:]]
    out = ["ON_DIVERSION"]
    if args and args[0] not in ("FAST", "SLOW", "BOTH"):
        out.append(_target(ctx, w[1]))
        args = args[1:]
    if not args or args[0] not in ("FAST", "SLOW", "BOTH") or len(args) > 2:
        raise OrderSyntaxError(t_('write %(DIVERSION_FORM)s', DIVERSION_FORM=DIVERSION_FORM), rule="6")
    out.append(args[0])
    if len(args) == 2:
        if args[0] != "BOTH" or not args[1].startswith("FAST="):
            raise OrderSyntaxError(t_('FAST=<ships> only follows BOTH: write %(DIVERSION_FORM)s', DIVERSION_FORM=DIVERSION_FORM), rule="6")
        ids = sorted({ctx.ship(s)["id"] for s in args[1][5:].split(",") if s})
        if not ids:
            raise OrderSyntaxError(t_('name the ships after FAST=: write %(DIVERSION_FORM)s', DIVERSION_FORM=DIVERSION_FORM), rule="6")
        out.append("FAST=" + ",".join(ids))
    return " ".join(out)


# --- air attack, naval combat, random events [9-11] ---------------------------------------------
def strike_classes(ctx: Ctx, w: Sequence[str]) -> str:
    args = [x.upper() for x in w[1:]]
    if not args or any(a not in CLASSES for a in args):
        raise OrderSyntaxError(t_('write STRIKE_CLASSES followed by classes from %(v)s', v=' '.join(CLASSES)), rule="9")
    return f"STRIKE_CLASSES {' '.join(args)}"


def defend_priority(ctx: Ctx, w: Sequence[str]) -> str:
    names = [ctx.ship(x)["id"] for x in w[1:]]
    if not names:
        raise OrderSyntaxError(t_("write DEFEND_PRIORITY <ship> <ship> ..."), rule="9")
    return f"DEFEND_PRIORITY {' '.join(names)}"


def hunt(ctx: Ctx, w: Sequence[str]) -> str:
    if len(w) == 2 and w[1].upper() in ("AUTO", "NONE"):
        return f"HUNT {w[1].upper()}"
    if len(w) == 2:
        ctx.need_unit(w[1])
        return f"HUNT {w[1]}"
    raise OrderSyntaxError(t_("write HUNT <unit>|AUTO|NONE"), rule="11.3")


def sub_hex(ctx: Ctx, w: Sequence[str]) -> str:
    if len(w) != 2:
        raise OrderSyntaxError(t_("write SUB_HEX <hex>"), rule="11.1")
    return f"SUB_HEX {hex_word(w[1])}"


def doctrine(ctx: Ctx, w: Sequence[str]) -> str:
    """DOCTRINE <unit>|ALL CLOSE|STANDOFF|EVADE [TORPEDOES ON|OFF] [BREAK <hull>] [10]."""
    if len(w) < 3:
        raise OrderSyntaxError(t_('write %(DOCTRINE_FORM)s', DOCTRINE_FORM=DOCTRINE_FORM), rule="10")
    args = [x.upper() for x in w[1:]]
    who = "ALL" if args[0] == "ALL" else w[1]
    if who != "ALL":
        ctx.need_unit(who)
    if args[1] not in ("CLOSE", "STANDOFF", "EVADE"):
        raise OrderSyntaxError(t_("a doctrine is CLOSE, STANDOFF or EVADE"), rule="10")
    out = [f"DOCTRINE {who} {args[1]}"]
    rest = args[2:]
    while rest:
        if rest[0] == "TORPEDOES" and len(rest) > 1 and rest[1] in ("ON", "OFF"):
            out.append(f"TORPEDOES {rest[1]}")
        elif rest[0] == "BREAK" and len(rest) > 1 and rest[1].isdigit():
            out.append(f"BREAK {int(rest[1])}")
        else:
            raise OrderSyntaxError(t_("after the doctrine write TORPEDOES ON|OFF and/or BREAK <hull>"), rule="10")
        rest = rest[2:]
    return " ".join(out)


def _verb(word: str, parse: Callable[[Ctx, Sequence[str]], str], usage: str, rule: str) -> Verb:
    """A kit verb giving the standing order as a :class:`Policy` of its canonical line."""
    return Verb(word, lambda args, ctx, seat: Policy(parse(ctx, (word, *args))), usage, rule)  # type: ignore[arg-type]


VERBS = (
    _verb("ON_SHADOW", on_shadow, ON_SHADOW_FORM, "6"),
    _verb("SHADOW", shadow, SHADOW_FORM, "6"),
    _verb("ON_DIVERSION", on_diversion, DIVERSION_FORM, "6"),
    _verb("AUTO_ENGAGE", _choices(("ON", "OFF"), "10"), "AUTO_ENGAGE ON|OFF", "10"),
    _verb("ON_MERCHANT", _choices(("ATTACK", "IGNORE"), "11.3"), "ON_MERCHANT ATTACK|IGNORE", "11.3"),
    _verb("ON_CONVOY", _choices(("ATTACK", "IGNORE", "ASK"), "11.3"), "ON_CONVOY ATTACK|IGNORE|ASK", "11.3"),
    _verb("STRIKE_CLASSES", strike_classes, "STRIKE_CLASSES <class> ...", "9"),
    _verb("DEFEND_PRIORITY", defend_priority, "DEFEND_PRIORITY <ship> ...", "9"),
    _verb("HUNT", hunt, "HUNT <unit>|AUTO|NONE", "11.3"),
    _verb("SUB_HEX", sub_hex, "SUB_HEX <hex>", "11.1"),
    _verb("DOCTRINE", doctrine, DOCTRINE_FORM, "10"),
)
