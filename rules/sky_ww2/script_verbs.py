"""The orders of a turn script as typed values, one frozen class per verb [4.2, 10.2].

``parse(words)`` reads one line using the tables only (no view, no position), so a
stored script can be read back from its canonical text; ``text`` writes that text, and
``parse_script_line(o.text()) == o`` for every order.  Whether an order is legal for the
writer now is :mod:`.script`'s business.
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar

from pbem.core.texts import t_
from pbem.core.scripts import If, scripted
from pbem.core.verbs import Verb, VerbTable

from . import tables
from .conditions import CONDITIONS
from .geometry import cell_text
from .rulebook import FORM
from .words import card_id, cell_arg, face_arg, illegal, keyword_args, syntax, tidy

Cell = tuple[int, int]
MOVE_VERBS = ("STAY", "MOVE", "ROTATE", "CLIMB", "DESCEND")


def _cell(text: str) -> Cell:
    x, y = cell_arg(text)
    return x, y


def _opt(key: str, value: str | None) -> str:
    return f" {key} {value}" if value else ""


def _cards(words: Sequence[str]) -> tuple[str, ...]:
    return tuple(card_id(w) for w in words)


# ---- movement [L133-138, L295] ----------------------------------------------------------------


@dataclass(frozen=True)
class _Word:
    """An order that is its verb alone; a STRICT one refuses more words."""

    VERB: ClassVar[str] = ""
    STRICT: ClassVar[bool] = False

    @classmethod
    def parse(cls, words: Sequence[str]):
        if cls.STRICT and len(words) != 1:
            raise syntax(t_("%(verb)s takes nothing", verb=cls.VERB))
        return cls()

    def text(self) -> str:
        return self.VERB


@dataclass(frozen=True)
class Stay(_Word):
    VERB: ClassVar[str] = "STAY"
    STRICT: ClassVar[bool] = True


@dataclass(frozen=True)
class MoveTo:
    """Move in the field to a free cell; the facing defaults to the present one (filled in by the check)."""

    VERB: ClassVar[str] = "MOVE"
    cell: Cell
    face: str | None = None

    @classmethod
    def parse(cls, words: Sequence[str]) -> MoveTo:
        if len(words) < 2:
            raise syntax("MOVE x,y [FACE d]", "L135")
        cell = _cell(words[1])
        kw = keyword_args(words[2:], ("FACE",))
        return cls(cell, face_arg(kw["FACE"]) if "FACE" in kw else None)

    def text(self) -> str:
        return f"MOVE {cell_text(self.cell)}" + _opt("FACE", self.face)


@dataclass(frozen=True)
class Close:
    """Move next to an enemy in the same field, nose-on to it, at the free cell where it shows the most of its
    tail (then the nearest): a MOVE whose cell is found when the line is reached, for a round plan written before
    the enemy moved [L135]."""

    VERB: ClassVar[str] = "CLOSE"
    target: str

    @classmethod
    def parse(cls, words: Sequence[str]) -> Close:
        if len(words) != 2:
            raise syntax("CLOSE <enemy>", "L135")
        return cls(words[1].lower())

    def text(self) -> str:
        return f"CLOSE {self.target}"


@dataclass(frozen=True)
class Rotate:
    VERB: ClassVar[str] = "ROTATE"
    face: str

    @classmethod
    def parse(cls, words: Sequence[str]) -> Rotate:
        if len(words) != 2:
            raise syntax("ROTATE N|E|S|W", "L295")
        return cls(face_arg(words[1]))

    def text(self) -> str:
        return f"ROTATE {self.face}"


@dataclass(frozen=True)
class _AltitudeChange:
    """One field up or down; CELL is used only when the start cell is taken [L133]."""

    KEYS: ClassVar[tuple[str, ...]] = ("CELL", "FACE")
    cell: Cell | None = None
    face: str | None = None

    @classmethod
    def _where(cls, kw: dict[str, str]) -> dict:
        return {"cell": _cell(kw["CELL"]) if "CELL" in kw else None,
                "face": face_arg(kw["FACE"]) if "FACE" in kw else None}

    def _tail(self) -> str:
        return _opt("CELL", self.cell and cell_text(self.cell)) + _opt("FACE", self.face)


@dataclass(frozen=True)
class Climb(_AltitudeChange):
    """Up one field, paying a card from the hand [L136]."""

    VERB: ClassVar[str] = "CLIMB"
    STEP: ClassVar[int] = 1
    discard: str | None = None

    @classmethod
    def parse(cls, words: Sequence[str]) -> Climb:
        kw = keyword_args(words[1:], ("DISCARD",) + cls.KEYS)
        discard = card_id(kw["DISCARD"]) if "DISCARD" in kw else None
        if discard and tables.card(discard).kind == "malfunction":
            raise illegal(t_("a malfunction card cannot pay for climbing"), "L136")
        return cls(discard=discard, **cls._where(kw))

    def text(self) -> str:
        return "CLIMB" + _opt("DISCARD", self.discard) + self._tail()


@dataclass(frozen=True)
class Descend(_AltitudeChange):
    """Down one field, drawing a card [L136]."""

    VERB: ClassVar[str] = "DESCEND"
    STEP: ClassVar[int] = -1

    @classmethod
    def parse(cls, words: Sequence[str]) -> Descend:
        return cls(**cls._where(keyword_args(words[1:], cls.KEYS)))

    def text(self) -> str:
        return "DESCEND" + self._tail()


# ---- beats [4.2 T3, 4.3] -------------------------------------------------------------------------


def _from_dp(words: Sequence[str]) -> tuple[list[str], bool]:
    """``<VERB> <card> FROM DP ...`` plays the card lying on the dispatch post [L148]."""
    if [w.upper() for w in words[2:4]] == ["FROM", "DP"]:
        return list(words[:2]) + list(words[4:]), True
    return list(words), False


@dataclass(frozen=True)
class Attack:
    VERB: ClassVar[str] = "ATTACK"
    card: str
    target: str
    crit: str | None = None
    extra: str | None = None
    from_dp: bool = False

    @classmethod
    def parse(cls, words: Sequence[str]) -> Attack:
        words, from_dp = _from_dp(words)
        if len(words) < 2:
            raise syntax("ATTACK <card> TARGET <enemy> ...")
        cid = card_id(words[1])
        kw = keyword_args(words[2:], ("TARGET", "CRIT", "EXTRA"))
        c = tables.card(cid)
        if c.kind != "attack":
            raise illegal(t_("%(card)s is not an attack card (%(kind)s)", card=tidy(c.name), kind=c.kind), "L176")
        if "TARGET" not in kw:
            raise syntax(t_("ATTACK needs TARGET <enemy>"), "L297")
        crit = card_id(kw["CRIT"]) if "CRIT" in kw else None
        if crit and tables.card(crit).kind != "crit":
            raise illegal(t_("%(card)s is not a critical-hit card", card=tidy(tables.card(crit).name)), "L194")
        extra = card_id(kw["EXTRA"]) if "EXTRA" in kw else None
        return cls(cid, kw["TARGET"].lower(), crit, extra, from_dp)

    def text(self) -> str:
        return (f"ATTACK {self.card}{' FROM DP' if self.from_dp else ''} TARGET {self.target}"
                + _opt("CRIT", self.crit) + _opt("EXTRA", self.extra))


@dataclass(frozen=True)
class Manoeuvre:
    """A manoeuvre card; APPLY and ROTATE matter only to a change of position [L166, L217],
    CELL and FACE only to a climb or dive [L133]."""

    VERB: ClassVar[str] = "MANOEUVRE"
    card: str
    target: str | None = None
    apply: str = "self"
    rotate: str = "cw"
    cell: Cell | None = None
    face: str | None = None
    from_dp: bool = False

    @classmethod
    def parse(cls, words: Sequence[str]) -> Manoeuvre:
        words, from_dp = _from_dp(words)
        if len(words) < 2:
            raise syntax("MANOEUVRE <card> TARGET <enemy> ...")
        cid = card_id(words[1])
        kw = keyword_args(words[2:], ("TARGET", "APPLY", "ROTATE", "CELL", "FACE"))
        c = tables.card(cid)
        if not c.manoeuvres:
            raise illegal(t_("%(card)s is not a manoeuvre or counter-move (%(kind)s)", card=tidy(c.name), kind=c.kind),
                          "L166, L184")
        tgt = kw["TARGET"].lower() if "TARGET" in kw else None
        apply = kw.get("APPLY", "TARGET" if tgt else "SELF").lower()
        if apply not in ("self", "target"):
            raise syntax(t_("APPLY SELF or APPLY TARGET"), "L166")
        rot = kw.get("ROTATE", "CW").lower()
        if rot not in ("cw", "ccw"):
            raise syntax(t_("ROTATE CW or ROTATE CCW"), "L217")
        if c.effect != "change_position":  # the words mean nothing to other manoeuvres: refused, not dropped
            if "APPLY" in kw or "ROTATE" in kw:
                raise illegal(t_("%(card)s does not turn an aircraft: APPLY and ROTATE are for a change of position",
                                 card=tidy(c.name)), "L166, L217")
            apply, rot = ("target" if tgt else "self"), "cw"
        if ("CELL" in kw or "FACE" in kw) and c.effect not in ("self_climb", "self_descend"):
            raise illegal(t_("%(card)s does not take your aircraft to another altitude: CELL and FACE are for a "
                             "climb or dive manoeuvre", card=tidy(c.name)), "L133, L170")
        return cls(cid, tgt, apply, rot, _cell(kw["CELL"]) if "CELL" in kw else None,
                   face_arg(kw["FACE"]) if "FACE" in kw else None, from_dp)

    @property
    def turns(self) -> bool:
        return tables.card(self.card).effect == "change_position"

    def text(self) -> str:
        out = f"MANOEUVRE {self.card}{' FROM DP' if self.from_dp else ''}" + _opt("TARGET", self.target)
        if self.turns:
            out += f" APPLY {self.apply.upper()} ROTATE {self.rotate.upper()}"
        return out + _opt("CELL", self.cell and cell_text(self.cell)) + _opt("FACE", self.face)


Beat = Attack | Manoeuvre


@dataclass(frozen=True)
class OnCancelled:
    """Counter-moves for the beat above when the enemy cancels it; ASK opens an interrupt, PASS does not."""

    VERB: ClassVar[str] = "ON_CANCELLED"
    cards: tuple[str, ...] = ()
    ask: bool | None = None  # the last ASK or PASS word; None when neither is written

    @classmethod
    def parse(cls, words: Sequence[str]) -> OnCancelled:
        cards, ask = [], None
        for w in words[1:]:
            if w.upper() in ("ASK", "PASS"):
                ask = w.upper() == "ASK"
                continue
            cid = card_id(w)
            if not tables.card(cid).reacts:
                raise illegal(t_("%(card)s is not a reaction or counter-move", card=tidy(tables.card(cid).name)), "L158, L184")
            cards.append(cid)
        return cls(tuple(cards), ask)

    def text(self) -> str:
        tail = "" if self.ask is None else " ASK" if self.ask else " PASS"
        return " ".join(("ON_CANCELLED",) + self.cards) + tail


@dataclass(frozen=True)
class GroundAttack(_Word):
    VERB: ClassVar[str] = "GROUND_ATTACK"


# ---- abilities, discards, end [L48, L146-148, L291] -------------------------------------------------


@dataclass(frozen=True)
class _OneCard:
    """An order naming one card."""

    VERB: ClassVar[str] = ""
    RULE: ClassVar[str] = ""
    card: str

    @classmethod
    def parse(cls, words: Sequence[str]):
        if len(words) != 2:
            raise syntax(f"{cls.VERB} <card>", cls.RULE)
        return cls(card_id(words[1]))

    def text(self) -> str:
        return f"{self.VERB} {self.card}"


@dataclass(frozen=True)
class Swap(_OneCard):
    VERB: ClassVar[str] = "SWAP"
    RULE: ClassVar[str] = "L48"


@dataclass(frozen=True)
class CpUse:
    VERB: ClassVar[str] = "CP_USE"
    discard: str | None = None

    @classmethod
    def parse(cls, words: Sequence[str]) -> CpUse:
        kw = keyword_args(words[1:], ("DISCARD",))
        return cls(card_id(kw["DISCARD"]) if "DISCARD" in kw else None)

    def text(self) -> str:
        return "CP_USE" + _opt("DISCARD", self.discard)


@dataclass(frozen=True)
class DpDeposit(_OneCard):
    VERB: ClassVar[str] = "DP_DEPOSIT"
    RULE: ClassVar[str] = "L148"


@dataclass(frozen=True)
class EndDiscard:
    """Cards to give up first when the hand is cut to its limit at the end of the turn [L42]."""

    VERB: ClassVar[str] = "END_DISCARD"
    cards: tuple[str, ...] = ()

    @classmethod
    def parse(cls, words: Sequence[str]) -> EndDiscard:
        return cls(_cards(words[1:]))

    def text(self) -> str:
        return " ".join((self.VERB,) + self.cards)


@dataclass(frozen=True)
class NextDiscard(EndDiscard):
    """Cards to discard before the next activation draw [L291]."""

    VERB: ClassVar[str] = "NEXT_DISCARD"

    @classmethod
    def parse(cls, words: Sequence[str]) -> NextDiscard:
        cards = _cards(words[1:])
        if any(tables.card(c).kind == "malfunction" for c in cards):
            raise illegal(t_("malfunction cards cannot be discarded before activation"), "L291")
        return cls(cards)


@dataclass(frozen=True)
class End(_Word):
    VERB: ClassVar[str] = "END"


ScriptOrder = (Stay | MoveTo | Close | Rotate | Climb | Descend | Attack | Manoeuvre | If | OnCancelled | GroundAttack
               | Swap | CpUse | DpDeposit | EndDiscard | NextDiscard | End)
VERBS: dict[str, type] = {c.VERB: c for c in (Stay, MoveTo, Close, Rotate, Climb, Descend, Attack, Manoeuvre,
                                              OnCancelled, GroundAttack, Swap, CpUse, DpDeposit, EndDiscard,
                                              NextDiscard, End)}
MOVES = (Stay, MoveTo, Close, Rotate, Climb, Descend)


USAGE = {
    "STAY": "STAY", "MOVE": "MOVE x,y [FACE d]", "CLOSE": "CLOSE <enemy>", "ROTATE": "ROTATE N|E|S|W",
    "CLIMB": "CLIMB [DISCARD card] [CELL x,y] [FACE d]", "DESCEND": "DESCEND [CELL x,y] [FACE d]",
    "ATTACK": "ATTACK <card> [FROM DP] TARGET <enemy> [CRIT <card>] [EXTRA <card>]",
    "MANOEUVRE": "MANOEUVRE <card> [FROM DP] [TARGET <enemy>] [APPLY SELF|TARGET] [ROTATE CW|CCW] [CELL x,y] [FACE d]",
    "ON_CANCELLED": "ON_CANCELLED <cards...> [ASK|PASS]", "GROUND_ATTACK": "GROUND_ATTACK", "SWAP": "SWAP <card>",
    "CP_USE": "CP_USE [DISCARD card]", "DP_DEPOSIT": "DP_DEPOSIT <card>", "END_DISCARD": "END_DISCARD <cards>",
    "NEXT_DISCARD": "NEXT_DISCARD <cards>", "END": "END",
}


def _reader(cls: type):
    return lambda args, view, seat: cls.parse((cls.VERB,) + tuple(args))


#: The script's verbs and the kit's ``IF <condition> THEN <beat>``, read without the view.
SCRIPT = scripted(VerbTable([Verb(w, _reader(c), USAGE[w], "L289") for w, c in VERBS.items()], rule=FORM),
                  CONDITIONS)


def parse_script_line(text: str) -> ScriptOrder:
    """Read one script line, e.g. a stored one (its verb decides the class).

    :raises OrderSyntaxError: an unknown verb or malformed words.
    :raises IllegalOrderError: a card that can never serve the verb.
    """
    return SCRIPT.parse(text, {}, "")
