"""The words of an order line: card names, cells, facings, keyword arguments, and the
errors a line can raise (the core's error classes, each with its rule) [10.3].

Shared by the decision checks (:mod:`.orders`), the turn script (:mod:`.script`) and the
standing orders (:mod:`.standing`), so none of them needs another.
"""
from __future__ import annotations

from collections.abc import Sequence

from pbem.core.errors import IllegalOrderError, OrderSyntaxError
from pbem.core.texts import Text, t_

from . import tables
from .rulebook import FORM, TAG, cite, map_text
from .geometry import FACINGS, parse_cell


def tidy(message: str) -> str:
    """Messages are lower case without a final period; "Snap shot is ..." starts lower case,
    "ATTACK ..." and "ON_CANCELLED ..." keep their capitals."""
    message = message.strip().rstrip(".")
    if message[:2].istitle():
        message = message[:1].lower() + message[1:]
    return message


def cited(message: str, rule: str) -> str:
    """A message without seed-line tags: a tag naming the rejection's own rule goes (the rejection
    cites it), any other names the rulebook's headings, as every text a player reads does."""
    own = cite(rule) if rule and rule != FORM else None
    return TAG.sub(lambda m: "" if cite(m.group(1)) == own else f"[{cite(m.group(1))}]", message).replace("  ", " ").replace(" ,", ",")


def worded(message: str, rule: str) -> str:
    """The message a refusal says: cited and tidied; a marked message keeps its mark (its tags are arguments,
    ``ref="[L81]"``, so they are cited in every language)."""
    if isinstance(message, Text):
        message = map_text(message, lambda part: cited(part, rule))
        tidied = tidy(message)
        return message if tidied == message else tidied
    return tidy(cited(message, rule))


def illegal(message: str, rule: str = "") -> IllegalOrderError:
    return IllegalOrderError(worded(message, rule), rule=rule)


def syntax(message: str, rule: str = FORM) -> OrderSyntaxError:
    return OrderSyntaxError(worded(message, rule), rule=rule)


def card_id(word: str) -> str:
    w = word.lower()
    if w in tables.cards():
        return w
    for cid, c in tables.cards().items():
        if c.name.lower().replace(" ", "-").replace("'", "") == w:
            return cid
    raise syntax(t_("unknown card %(word)s (cards are named by id, e.g. short-burst, barrel-roll)", word=repr(word)),
                 "L81")


def keyword_args(words: Sequence[str], keys: Sequence[str]) -> dict[str, str]:
    """Parse ``KEY value`` pairs, each key one of ``keys``."""
    out: dict[str, str] = {}
    for i in range(0, len(words), 2):
        k = words[i].upper()
        if k not in keys:
            raise syntax(t_("unexpected %(word)s (expected one of %(keys)s)", word=repr(words[i]), keys=", ".join(keys)))
        if i + 1 >= len(words):
            raise syntax(t_("%(verb)s needs a value", verb=k))
        out[k] = words[i + 1]
    return out


def cell_arg(text: str) -> list[int]:
    c = parse_cell(text)
    b = tables.board()
    if c is None or not (1 <= c[0] <= b.width and 1 <= c[1] <= b.height):
        raise syntax(t_("bad cell %(text)s: write x,y with x 1..%(w)s and y 1..%(h)s", text=repr(text), w=b.width,
                    h=b.height), "L29")
    return list(c)


def face_arg(text: str) -> str:
    f = text.upper()
    if f not in FACINGS:
        raise syntax(t_("bad facing %(text)s: one of N, E, S, W", text=repr(text)), "L29")
    return f
