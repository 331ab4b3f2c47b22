"""Standing orders (policies) as typed values: checked against the sender's view, kept in the
kit's standing-order store, and listed back as order lines in every form [4.3, 10.2].

Any seat may send them in any order file.  :data:`RULES` declares them to the kit: REACT is
an ordered group (first fitting rule plays) that a file with REACT lines replaces whole;
AA_FIRE and SEQUENCE are shared by the whole side (any of its seats may change them, the
last change wins); the others are the seat's own, each replacing its earlier value; the
defaults a seat starts with are in force (and listed) until changed.  :func:`policies`
reads the store back as the plain dicts the rules code and the views use.
"""
from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
from typing import ClassVar

from pbem.core.texts import t_, tn_
from pbem.core.standing import Standing
from pbem.core.standing_rules import Change, StandingKind, StandingRules

from . import tables
from .rulebook import FORM
from .words import card_id, illegal, keyword_args, syntax, tidy

STANDING = ("REACT", "REACT_DEFAULT", "ON_PURSUIT", "DISCARD_PRIORITY", "RESCUE", "ACTIVATION", "DP_USE",
            "AA_FIRE", "SEQUENCE")
REACT_USAGE = "REACT <aircraft|ALL> <card|ANY> [AGAINST ATTACK|MANOEUVRE|ANY|<card>] [MIN_DAMAGE n] [MAX n] [LETHAL]"
USAGE = {"REACT": REACT_USAGE + " | REACT NONE", "REACT_DEFAULT": "REACT_DEFAULT ASK|PASS",
         "ON_PURSUIT": "ON_PURSUIT <aircraft|ALL> YES|NO|FREE|ASK", "DISCARD_PRIORITY": "DISCARD_PRIORITY <cards>|NONE",
         "RESCUE": "RESCUE YES|NO", "ACTIVATION": "ACTIVATION AUTO|ASK", "DP_USE": "DP_USE FIRST|LAST|NEVER",
         "AA_FIRE": "AA_FIRE YES|NO", "SEQUENCE": "SEQUENCE <your side's aircraft>"}


def _ac_word(ac: str) -> str:
    return "ALL" if ac == "*" else ac


@dataclass(frozen=True)
class React:
    """Play ``card`` (``*``: any) for ``ac`` (``*``: all) against an action of kind or card ``against``;
    ``max`` caps this seat's cards in one exchange, ``lethal`` waits for a hit that would kill."""

    OP: ClassVar[str] = "react"
    ac: str
    card: str
    against: str = "any"
    min_damage: int = 0
    max: int = 0
    lethal: bool = False

    def text(self) -> str:
        against = self.against.upper() if self.against in ("any", "attack", "manoeuvre") else self.against
        return (f"REACT {_ac_word(self.ac)} {'ANY' if self.card == '*' else self.card} AGAINST {against}"
                + (f" MIN_DAMAGE {self.min_damage}" if self.min_damage else "")
                + (f" MAX {self.max}" if self.max else "") + (" LETHAL" if self.lethal else ""))

    def standing_change(self) -> tuple[str, str | None]:
        return "REACT", self.text()

    def store(self, mine: dict, side: dict) -> None:
        mine["react"].append(asdict(self))


@dataclass(frozen=True)
class ReactNone:
    OP: ClassVar[str] = "react_clear"

    def text(self) -> str:
        return "REACT NONE"

    def standing_change(self) -> tuple[str, str | None]:
        return "REACT", None

    def store(self, mine: dict, side: dict) -> None:
        """Nothing beyond the replacement every REACT line of a file makes."""


@dataclass(frozen=True)
class OnPursuit:
    OP: ClassVar[str] = "pursue"
    ac: str
    value: str  # yes | no | free | ask

    def text(self) -> str:
        return f"ON_PURSUIT {_ac_word(self.ac)} {self.value.upper()}"

    def standing_change(self) -> tuple[str, str | None]:
        return f"ON_PURSUIT {_ac_word(self.ac)}", self.text()

    def store(self, mine: dict, side: dict) -> None:
        mine["pursue"][self.ac] = self.value


@dataclass(frozen=True)
class Choice:
    """A one-word policy of the seat (``REACT_DEFAULT ASK``, ``RESCUE NO`` ...)."""

    OP: ClassVar[str] = ""
    VERB: ClassVar[str] = ""
    CHOICES: ClassVar[tuple[str, ...]] = ()
    value: str

    def text(self) -> str:
        return f"{self.VERB} {self.value.upper()}"

    def standing_change(self) -> tuple[str, str | None]:
        return self.VERB, self.text()

    def store(self, mine: dict, side: dict) -> None:
        mine[self.OP] = self.value


@dataclass(frozen=True)
class ReactDefault(Choice):
    OP: ClassVar[str] = "react_default"
    VERB: ClassVar[str] = "REACT_DEFAULT"
    CHOICES: ClassVar[tuple[str, ...]] = ("ASK", "PASS")


@dataclass(frozen=True)
class Rescue(Choice):
    OP: ClassVar[str] = "rescue"
    VERB: ClassVar[str] = "RESCUE"
    CHOICES: ClassVar[tuple[str, ...]] = ("YES", "NO")


@dataclass(frozen=True)
class Activation(Choice):
    OP: ClassVar[str] = "activation"
    VERB: ClassVar[str] = "ACTIVATION"
    CHOICES: ClassVar[tuple[str, ...]] = ("AUTO", "ASK")


@dataclass(frozen=True)
class DpUse(Choice):
    OP: ClassVar[str] = "dp_use"
    VERB: ClassVar[str] = "DP_USE"
    CHOICES: ClassVar[tuple[str, ...]] = ("FIRST", "LAST", "NEVER")


@dataclass(frozen=True)
class AaFire:
    """The side's AA batteries fire or hold [L150]."""

    OP: ClassVar[str] = "aa"
    fire: bool

    def text(self) -> str:
        return f"AA_FIRE {'YES' if self.fire else 'NO'}"

    def standing_change(self) -> tuple[str, str | None]:
        return "AA_FIRE", self.text()

    def store(self, mine: dict, side: dict) -> None:
        side["aa"] = "fire" if self.fire else "hold"


@dataclass(frozen=True)
class DiscardPriority:
    OP: ClassVar[str] = "discard_priority"
    cards: tuple[str, ...] = ()

    def text(self) -> str:
        return "DISCARD_PRIORITY " + (" ".join(self.cards) or "NONE")

    def standing_change(self) -> tuple[str, str | None]:
        """NONE cancels the list (nothing is then listed, as before any was given)."""
        return "DISCARD_PRIORITY", self.text() if self.cards else None

    def store(self, mine: dict, side: dict) -> None:
        mine["discard_priority"] = list(self.cards)


@dataclass(frozen=True)
class SequenceOrder:
    """The order in which the side's aircraft are activated [L325]."""

    OP: ClassVar[str] = "sequence"
    aircraft: tuple[str, ...]

    def text(self) -> str:
        return " ".join(("SEQUENCE",) + self.aircraft)

    def standing_change(self) -> tuple[str, str | None]:
        return "SEQUENCE", self.text()

    def store(self, mine: dict, side: dict) -> None:
        side["sequence"] = list(self.aircraft)


PolicyOrder = React | ReactNone | OnPursuit | Choice | AaFire | DiscardPriority | SequenceOrder


# ---- reading a line against the view ---------------------------------------------------------------


class _Reader:
    """One standing-order line read with the sender's view (its aircraft, its side's aircraft);
    without a view (``v`` None) a line kept in the store is read back as it was checked."""

    def __init__(self, v: dict | None, words: Sequence[str]) -> None:
        self.verb = words[0].upper()
        self.args = list(words[1:])
        self.own = None if v is None else set(v["my_aircraft"])
        self.side_ac = None if v is None else {a["id"] for a in v["aircraft"] if a["side"] == v["side"]}

    def ac_or_all(self, w: str) -> str:
        if w.upper() == "ALL":
            return "*"
        if self.own is not None and w.lower() not in self.own:
            raise illegal(t_("%(word)s is not one of your aircraft (%(own)s) or ALL", word=repr(w),
                             own=", ".join(sorted(self.own)) or t_("none")), "L21")
        return w.lower()

    def one_of(self, w: str, choices: Sequence[str]) -> str:
        if w.upper() not in choices:
            raise syntax(t_("%(verb)s takes one of %(choices)s, not %(word)s", verb=self.verb, choices=", ".join(choices),
                            word=repr(w)), RULE_OF.get(self.verb, FORM))
        return w.lower()

    def react(self) -> React | ReactNone:
        args = self.args
        if len(args) == 1 and args[0].upper() == "NONE":
            return ReactNone()
        if len(args) < 2:
            raise syntax(REACT_USAGE, "L158")
        ac = self.ac_or_all(args[0])
        card = "*" if args[1].upper() == "ANY" else card_id(args[1])
        if card != "*" and not tables.card(card).reacts:
            raise illegal(t_("%(card)s is not a reaction or counter-move", card=tidy(tables.card(card).name)), "L158")
        rest = [w for w in args[2:] if w.upper() != "LETHAL"]
        kw = keyword_args(rest, ("AGAINST", "MIN_DAMAGE", "MAX"))
        against = kw.get("AGAINST", "ANY")
        against = against.lower() if against.upper() in ("ATTACK", "MANOEUVRE", "ANY") else card_id(against)
        md, mx = kw.get("MIN_DAMAGE", "0"), kw.get("MAX", "0")
        if not md.isdigit() or not mx.isdigit():
            raise syntax(t_("MIN_DAMAGE and MAX take whole numbers"))
        return React(ac, card, against, int(md), int(mx), len(rest) != len(args[2:]))

    def on_pursuit(self) -> OnPursuit:
        if len(self.args) != 2:
            raise syntax("ON_PURSUIT <aircraft|ALL> YES|NO|FREE|ASK", "L140")
        return OnPursuit(self.ac_or_all(self.args[0]), self.one_of(self.args[1], ("YES", "NO", "FREE", "ASK")))

    def discard_priority(self) -> DiscardPriority:
        if self.args[0].upper() == "NONE":
            return DiscardPriority()
        return DiscardPriority(tuple(card_id(w) for w in self.args))

    def aa_fire(self) -> AaFire:
        return AaFire(self.one_of(self.args[0], ("YES", "NO")) == "yes")

    def sequence(self) -> SequenceOrder:
        seq = tuple(w.lower() for w in self.args)
        if self.side_ac is None:
            return SequenceOrder(seq)
        bad = [w for w in seq if w not in self.side_ac]
        if bad or len(set(seq)) != len(seq):
            raise illegal(t_("SEQUENCE lists your side's aircraft once each (%(them)s); not %(bad)s",
                             them=", ".join(sorted(self.side_ac)), bad=", ".join(bad) or t_("a repeat")), "L325")
        return SequenceOrder(seq)

    def choice(self, cls: type[Choice]) -> Choice:
        return cls(self.one_of(self.args[0], cls.CHOICES))


#: The rule each standing order serves, cited when its value is malformed.
RULE_OF = {"REACT_DEFAULT": "L154", "ON_PURSUIT": "L140", "DISCARD_PRIORITY": "L79", "RESCUE": "L198",
           "ACTIVATION": "L283", "DP_USE": "L148", "AA_FIRE": "L150", "SEQUENCE": "L283"}

READERS: dict[str, Callable[[_Reader], PolicyOrder]] = {
    "REACT_DEFAULT": lambda r: r.choice(ReactDefault), "ON_PURSUIT": _Reader.on_pursuit,
    "DISCARD_PRIORITY": _Reader.discard_priority, "RESCUE": lambda r: r.choice(Rescue),
    "ACTIVATION": lambda r: r.choice(Activation), "DP_USE": lambda r: r.choice(DpUse),
    "AA_FIRE": _Reader.aa_fire, "SEQUENCE": _Reader.sequence,
}


def parse_standing(v: dict | None, words: Sequence[str]) -> PolicyOrder:
    """Read one standing-order line against the sender's view.

    :raises OrderError: the line is malformed or names what the sender does not control.
    """
    r = _Reader(v, words)
    if r.verb == "REACT":
        return r.react()
    if not r.args:
        raise syntax(t_("%(verb)s needs a value", verb=r.verb), RULE_OF.get(r.verb, FORM))
    if r.verb not in READERS:
        raise syntax(t_("unknown standing order %(verb)s", verb=r.verb))
    return READERS[r.verb](r)


# ---- the kit's store, declared ----------------------------------------------------------------------


def notice(seat: str, changes: Sequence[Change]) -> str:
    """The game's wording: how many standing-order lines a file gave, and whether REACT was replaced."""
    extra = t_(": REACT rules replaced") if any(c.key == "REACT" for c in changes) else ""
    return tn_("standing orders updated (%(n)s line(s))%(extra)s", "standing orders updated (%(n)s line(s))%(extra)s",
               len(changes), extra=extra)


RULES = StandingRules([
    StandingKind("REACT", group=True),
    StandingKind("REACT_DEFAULT", default="REACT_DEFAULT ASK"),
    StandingKind("ON_PURSUIT", default={"ON_PURSUIT ALL": "ON_PURSUIT ALL ASK"}),
    StandingKind("DISCARD_PRIORITY"),
    StandingKind("RESCUE", default="RESCUE YES"),
    StandingKind("ACTIVATION", default="ACTIVATION AUTO"),
    StandingKind("DP_USE", default="DP_USE LAST"),
    StandingKind("AA_FIRE", side=True, default="AA_FIRE YES"),
    StandingKind("SEQUENCE", side=True),
], notice=notice)


def read_back(text: str) -> PolicyOrder:
    """A line kept in the store as its typed order (it was checked when it was sent)."""
    return parse_standing(None, text.split())


def policies(store: Standing, seat: str, side: str) -> tuple[dict, dict]:
    """The seat's and its side's standing orders in force (defaults included) as the plain
    dicts the rules and the view read: ``(policies, side_policies)``."""
    mine: dict = {"react": [], "pursue": {}, "discard_priority": []}
    shared: dict = {"sequence": []}
    for order in RULES.in_force(store, seat, side):
        read_back(order.text).store(mine, shared)
    return mine, shared


def standing_lines(v: dict) -> list[str]:
    """The seat's standing orders in force as order lines it can keep or edit (from its view)."""
    p, sp = v["policies"], v["side_policies"]
    out = [React(**r).text() for r in p["react"]]
    out.append(ReactDefault(p["react_default"]).text())
    out += [OnPursuit(ac, val).text() for ac, val in sorted(p["pursue"].items())]
    if p["discard_priority"]:
        out.append(DiscardPriority(tuple(p["discard_priority"])).text())
    out += [Rescue(p["rescue"]).text(), Activation(p["activation"]).text(), DpUse(p["dp_use"]).text(),
            AaFire(sp["aa"] == "fire").text()]
    if sp["sequence"]:
        out.append(SequenceOrder(tuple(sp["sequence"])).text())
    return out
